#!/bin/sh
# libsg as other projects use it (issue 10), in a temporary folder:
#  1. a meson project with libsg as a subproject (tests/consumer/), from C and
#     C++, configured with Check hidden: it must configure, build no libsg
#     executable and install none;
#  2. libsg installed into a prefix (-Ddefault_library=both), then the same
#     programs built with the installed pkg-config file, shared and static, and
#     every installed header compiled alone as C11 and as C++17.
# Each program renders on the surfaceless target and checks its pixels.
# Usage: test_consumer.sh [SOURCE_ROOT]   (default: this file's ../)
# Exit status 77 (skipped) only when meson, ninja or g++ is missing.
set -eu

for tool in meson ninja g++; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed; the consumer projects need it"
		exit 77
	fi
done

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:-$here/..}" && pwd)
consumer=$src/tests/consumer
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SG_TARGET=surfaceless SG_DEVICE=
checked=0

ok() {
	checked=$((checked + 1))
	echo "ok: $*"
}

die() {
	echo "FAIL: $*" >&2
	exit 1
}

# Runs a command quietly, showing its output only when it fails.
quiet() {
	log=$tmp/last.log
	if ! "$@" >"$log" 2>&1; then
		cat "$log" >&2
		die "$*"
	fi
}

# --- 1. libsg as a meson subproject ------------------------------------------

# Every .pc file the system has, but Check's: a parent project that does not
# want libsg's tests must configure without it.
pc_dirs=$(pkg-config --variable pc_path pkg-config)
mkdir "$tmp/pc-no-check"
old_ifs=$IFS
IFS=:
for dir in $pc_dirs; do
	[ -d "$dir" ] || continue
	for pc in "$dir"/*.pc; do
		[ -e "$pc" ] || continue
		name=$(basename "$pc")
		[ "$name" = check.pc ] || [ -e "$tmp/pc-no-check/$name" ] ||
			ln -s "$pc" "$tmp/pc-no-check/$name"
	done
done
IFS=$old_ifs

cp -R "$consumer" "$tmp/sub"
mkdir "$tmp/sub/subprojects"
ln -s "$src" "$tmp/sub/subprojects/libsg"
# --force-fallback-for: the subproject, even where a libsg is installed
quiet env PKG_CONFIG_LIBDIR="$tmp/pc-no-check" PKG_CONFIG_PATH= \
	meson setup "$tmp/sub-build" "$tmp/sub" --force-fallback-for=sg
# meson says "(overridden)" where meson.override_dependency provided it
if ! grep -q "Subproject libsg finished" "$log" ||
	! grep -Eq "^Dependency sg (from subproject [^ ]+ )?found: YES" "$log"; then
	die "dependency('sg') did not come from the libsg subproject"
fi
ok "meson subproject: configured without Check, dependency('sg') from subprojects/libsg"

executables=$(meson introspect --targets "$tmp/sub-build" | python3 -c '
import json, sys
print(" ".join(t["name"] for t in json.load(sys.stdin)
               if t["subproject"] == "libsg" and t["type"] == "executable"))')
[ -z "$executables" ] || die "the libsg subproject builds executables: $executables"
ok "meson subproject: libsg builds no tests, demos, bench or tools"

quiet ninja -C "$tmp/sub-build"
for program in consumer-c consumer-cpp; do
	quiet "$tmp/sub-build/$program"
	ok "meson subproject: $(cat "$log")"
done

quiet meson install -C "$tmp/sub-build" --destdir "$tmp/sub-dest"
installed=$(cd "$tmp/sub-dest" && find . -path '*/bin/*' | sort | tr '\n' ' ')
[ -z "$installed" ] || die "the libsg subproject installs programs: $installed"
ok "meson subproject: installs no programs into the parent's prefix"

# --- 2. libsg installed, used through pkg-config -----------------------------

prefix=$tmp/prefix
# tests, demos and bench are not needed; tools stay, for sg-render --version
features=
for option in tests demos bench; do
	grep -qs "option('$option'" "$src/meson_options.txt" "$src/meson.options" &&
		features="$features -D$option=disabled"
done
# shellcheck disable=SC2086 # $features is a list of options
quiet meson setup "$tmp/lib-build" "$src" --prefix="$prefix" --libdir=lib \
	-Ddefault_library=both $features
quiet ninja -C "$tmp/lib-build"
quiet meson install -C "$tmp/lib-build"
[ -f "$prefix/lib/libsg.a" ] || die "no libsg.a installed with -Ddefault_library=both"
[ -f "$prefix/lib/libsg.so" ] || die "no libsg.so installed with -Ddefault_library=both"
# shellcheck disable=SC2012 # names without spaces, made here
ok "installed: $(cd "$prefix" && ls lib/libsg.* lib/pkgconfig/sg.pc | tr '\n' ' ')"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
version=$(pkg-config --modversion sg)
cflags=$(pkg-config --cflags sg | sed 's/ *$//')
[ "$cflags" = "-I$prefix/include" ] ||
	die "pkg-config --cflags sg is '$cflags'; the headers need only -I$prefix/include"
# As on a machine where none of the -dev packages of libsg's dependencies is
# installed: only sg.pc visible.
quiet env PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" pkg-config --cflags --libs sg
ok "pkg-config: sg $version, --cflags is '$cflags' alone, and needs no other .pc file"

# Every installed header alone, in both languages.
for header in "$prefix"/include/sg/*.h; do
	name=sg/$(basename "$header")
	printf '#include <%s>\nint main(void) { return 0; }\n' "$name" >"$tmp/header.c"
	cp "$tmp/header.c" "$tmp/header.cpp"
	# shellcheck disable=SC2086 # $cflags is a list of flags
	quiet cc -std=c11 -Wall -Wextra -pedantic -Werror $cflags -fsyntax-only "$tmp/header.c"
	# shellcheck disable=SC2086
	quiet g++ -std=c++17 -Wall -Wextra -pedantic -Werror $cflags -fsyntax-only \
		"$tmp/header.cpp"
done
# shellcheck disable=SC2012
ok "headers: $(cd "$prefix/include" && ls sg/*.h | tr '\n' ' ')each compile alone as C11 and C++17"

needs_libsg() {
	readelf -d "$1" | grep -q 'NEEDED.*\[libsg\.so'
}

export LD_LIBRARY_PATH="$prefix/lib"
strict="-Wall -Wextra -pedantic -Werror"
# shellcheck disable=SC2046,SC2086 # pkg-config output is a list of flags
quiet cc -std=c11 $strict "$consumer/consumer.c" $(pkg-config --cflags --libs sg) \
	-o "$tmp/consumer-shared"
needs_libsg "$tmp/consumer-shared" || die "consumer-shared does not load libsg.so"
quiet "$tmp/consumer-shared"
ok "pkg-config shared: $(cat "$log")"

# The linker takes libsg.so over libsg.a when both are there: name the archive.
static_libs=$(pkg-config --static --libs sg | sed 's/\(^\| \)-lsg\( \|$\)/\1-l:libsg.a\2/')
case " $static_libs " in *" -l:libsg.a "*) ;; *) die "no -lsg in pkg-config --static --libs sg: $static_libs" ;; esac
# shellcheck disable=SC2086
quiet cc -std=c11 $strict "$consumer/consumer.c" $cflags $static_libs -o "$tmp/consumer-static"
! needs_libsg "$tmp/consumer-static" || die "consumer-static loads libsg.so"
quiet "$tmp/consumer-static"
ok "pkg-config --static (libsg.a, $static_libs): $(cat "$log")"

# shellcheck disable=SC2046,SC2086
quiet g++ -std=c++17 $strict "$consumer/consumer.cpp" $(pkg-config --cflags --libs sg) \
	-o "$tmp/consumer-cpp"
quiet "$tmp/consumer-cpp"
ok "pkg-config C++: $(cat "$log")"

if [ -x "$prefix/bin/sg-render" ]; then
	quiet "$prefix/bin/sg-render" --version
	[ "$(cat "$log")" = "sg-render $version (libsg $version)" ] ||
		die "sg-render --version printed '$(cat "$log")'"
	ok "installed sg-render --version: $(cat "$log")"
fi

echo "all $checked checks passed"
