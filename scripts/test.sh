#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite: the per-layer
# Check suites and golden images on the surfaceless target, and the drm suite
# in a qemu guest with a real DRM device (skipped, with the reason, only where
# qemu cannot start).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
meson test -C "${SG_BUILD:-build}" --print-errorlogs "$@"
