#!/bin/sh
# libsg links the libraries it calls, as any library does: dpkg-shlibdeps,
# ldd, ltrace and LD_PRELOAD see them only when readelf -d lists them as
# NEEDED. It opens nothing itself: no dlopen among its imports.
# Usage: test_libs_linked.sh PATH/TO/libsg.so [text|no-text] [import|no-import]
#        [jpeg|no-jpeg] [webp|no-webp] [fontconfig|no-fontconfig] [bidi|no-bidi]
#        (the optional parts libsg was built with)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 LIBSG.so [text|no-text] [import|no-import] [jpeg|no-jpeg] [webp|no-webp] [fontconfig|no-fontconfig] [bidi|no-bidi]"; exit 99; }
file=$1
shift

if ! command -v readelf >/dev/null 2>&1; then
	echo "SKIP: readelf (binutils) is not installed"
	exit 77
fi
needed=$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p')
echo "$file needs:" $needed
wanted="libgbm.so libdrm.so libjson-c.so"
for part in "$@"; do
	case $part in
	text) wanted="$wanted libfreetype.so libharfbuzz.so" ;;
	import) wanted="$wanted libassimp.so" ;;
	jpeg) wanted="$wanted libjpeg.so" ;;
	webp) wanted="$wanted libwebp.so libwebpdemux.so" ;;
	fontconfig) wanted="$wanted libfontconfig.so" ;;
	bidi) wanted="$wanted libfribidi.so" ;;
	no-*) ;;
	*) echo "usage: unknown part '$part'"; exit 99 ;;
	esac
done
for name in $wanted; do
	case " $(echo $needed) " in
	*" $name"*) ;;
	*)
		echo "FAIL: $file does not list $name* as NEEDED: link it"
		exit 1
		;;
	esac
done
# the dynamic symbols it imports (undefined), by name without @version
imports=$(readelf --dyn-syms -W "$file" | awk '$7 == "UND" { sub(/@.*/, "", $8); print $8 }')
if [ -z "$imports" ]; then
	echo "FAIL: readelf --dyn-syms $file lists no import: not a shared object?"
	exit 1
fi
for name in dlopen dlmopen dlsym dlvsym; do
	if echo "$imports" | grep -qx "$name"; then
		echo "FAIL: $file imports $name: link the library instead of opening it"
		exit 1
	fi
done
echo "ok: $wanted NEEDED; no dlopen or dlsym imported"
