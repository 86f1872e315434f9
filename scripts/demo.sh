#!/usr/bin/env bash
# Sets everything up, builds, and renders the three-rectangle scene to
# three-rects.png in the project root.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
"${SG_BUILD:-build}"/demos/three-rects three-rects.png
