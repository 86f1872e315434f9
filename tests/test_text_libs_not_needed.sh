#!/bin/sh
# libsg opens FreeType and HarfBuzz with dlopen at the first font
# (src/text/libs.c): its shared object must not list them as NEEDED, which
# would load them, and glib, pcre2, graphite2 and brotli with them, into the
# global symbol scope of every libsg program, text or not.
# Usage: test_text_libs_not_needed.sh PATH/TO/libsg.so
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
	libfreetype.so* | libharfbuzz*.so*)
		echo "FAIL: $lib needs $name: link FreeType and HarfBuzz' headers only (src/meson.build)"
		exit 1
		;;
	esac
done
echo "ok: neither FreeType nor HarfBuzz is NEEDED"
