#!/bin/sh
# libsg opens these libraries with dlopen when it first needs them: FreeType
# and HarfBuzz at the first font (src/text/libs.c), gbm and libdrm at the
# first DRM device (src/gbm/libs.c), json-c at the first scene file
# (src/scenefile/json_lib.c). Its shared object must not list them as NEEDED,
# which would load them, and what they need (glib, pcre2, wayland-server,
# expat, ffi, ...) with them, into the global symbol scope of every libsg
# program, where each of Mesa's and LLVM's symbol lookups walks past them
# while EGL loads the driver.
# Usage: test_libs_not_needed.sh PATH/TO/libsg.so
set -eu

lib=$1
if ! command -v readelf >/dev/null 2>&1; then
	echo "SKIP: readelf (binutils) is not installed"
	exit 77
fi
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p')
# a shared object always needs something (libc): none means readelf read no
# dynamic section, and the check below would prove nothing
if [ -z "$needed" ]; then
	echo "FAIL: readelf -d $lib lists no NEEDED library: not a shared object?"
	exit 1
fi
echo "$lib needs:" $needed
for name in $needed; do
	case $name in
	libfreetype.so* | libharfbuzz*.so* | libgbm.so* | libdrm.so* | libjson-c.so*)
		echo "FAIL: $lib needs $name: link its headers only (src/meson.build)"
		exit 1
		;;
	esac
done
echo "ok: none of FreeType, HarfBuzz, gbm, libdrm, json-c is NEEDED"
