#!/usr/bin/env bash
# Installs what building libsg needs (Debian 12 packages, as root) and
# configures the build folder. Safe to run again: it installs only what is
# missing and reuses an existing build folder.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
	gcc g++ meson ninja-build pkg-config python3 # g++: the C++ consumer test
	libegl-dev libgles-dev libgbm-dev libdrm-dev libcglm-dev libpng-dev libjson-c-dev check
	libfreetype-dev libharfbuzz-dev fonts-dejavu-core # text nodes, and the fonts of their tests
	libfontconfig-dev libfribidi-dev # text: fallback to the system's fonts, bidirectional text
	libassimp-dev # model import (sg/model_file.h)
	libjpeg62-turbo-dev libwebp-dev # JPEG and WebP images (textures, scene files, model files)
	libegl-mesa0 libgl1-mesa-dri # Mesa: EGL surfaceless and llvmpipe
	libwayland-dev wayland-protocols libxkbcommon-dev # Wayland windows (sg/window.h)
	libinput-dev libudev-dev xkb-data # input devices on a display (sg/input.h) and their keymaps
	libseat-dev # seats for a kiosk run as an ordinary user (sg/session.h)
	udev seatd # the drm suite's guest: systemd-udevd (libinput sees only tagged devices), seatd
	weston # the window tests' headless compositor and its weston-screenshooter
	valgrind clang libclang-rt-14-dev # the memcheck and fuzzing test modes
	abigail-tools # abidw, abidiff: the ABI check against abi/ (scripts/abi-check.sh)
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	echo "setup: installing ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: run as root (or install these with sudo apt-get install)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${SG_BUILD:-build}
if [ -f "$build/build.ninja" ]; then
	meson setup --reconfigure "$build" "$@" >/dev/null
else
	meson setup "$build" "$@" >/dev/null
fi
ninja -C "$build"
