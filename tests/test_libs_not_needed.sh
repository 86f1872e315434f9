#!/bin/sh
# libsg opens these libraries with dlopen when it first needs them: FreeType
# and HarfBuzz at the first font (src/text/libs.c), gbm and libdrm at the
# first DRM device (src/gbm/libs.c), json-c at the first scene file
# (src/scenefile/json_lib.c). Its shared object must not list them as NEEDED,
# which would load them, and what they need (glib, pcre2, wayland-server,
# expat, ffi, ...) with them, into the global symbol scope of every libsg
# program, where each of Mesa's and LLVM's symbol lookups walks past them
# while EGL loads the driver.
# sg-render, too, opens libdrm only to name --display --info's formats.
# Usage: test_libs_not_needed.sh PATH/TO/libsg.so [PATH/TO/sg-render ...]
set -eu
[ $# -gt 0 ] || { echo "usage: $0 LIBSG.so [PROGRAM ...]"; exit 99; }

if ! command -v readelf >/dev/null 2>&1; then
	echo "SKIP: readelf (binutils) is not installed"
	exit 77
fi
for file in "$@"; do
	needed=$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p')
	# a dynamically linked file always needs something (libc): none means
	# readelf read no dynamic section, and the check below would prove nothing
	if [ -z "$needed" ]; then
		echo "FAIL: readelf -d $file lists no NEEDED library: not dynamically linked?"
		exit 1
	fi
	echo "$file needs:" $needed
	for name in $needed; do
		case $name in
		libfreetype.so* | libharfbuzz*.so* | libgbm.so* | libdrm.so* | libjson-c.so*)
			echo "FAIL: $file needs $name: link its headers only and open it with dlopen"
			exit 1
			;;
		esac
	done
done
echo "ok: none of FreeType, HarfBuzz, gbm, libdrm, json-c is NEEDED"
