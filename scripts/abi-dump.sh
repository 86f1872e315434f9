#!/usr/bin/env bash
# Stores the ABI of the built libsg (docs/abi.md): abidw's description of
# every exported function and of the public types they reach, written to
# abi/SONAME.abi (abi/libsg.so.1.abi today), which scripts/abi-check.sh
# compares each build against. Run it after an intended change of the ABI
# (a function added, a struct grown at its end, a new soname) and commit the
# dump with the change. It also says which SG_API functions src/libsg.map
# lacks, and which names it lists that no header declares.
#
#   scripts/abi-dump.sh [BUILD_DIR]           (default: build; it is rebuilt first)
#   scripts/abi-dump.sh --lib LIB --headers DIR --out FILE
#                                             (any library: scripts/abi-check.sh, tests)
#
# The dump holds only what a caller sees: types defined in the headers given
# (include/sg and the generated sg/version.h), no source locations, no
# absolute path, no DT_NEEDED list (it follows the meson options), type ids
# hashed from the types, so the same ABI gives the same bytes from any build
# folder. The library needs debug info (-g: meson's buildtype debugoptimized,
# the default, and debug have it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# dump LIB OUT HEADER_DIR...
dump() {
	local lib=$1 out=$2
	shift 2
	local headers=()
	for dir in "$@"; do headers+=(--headers-dir "$dir"); done
	if ! command -v abidw >/dev/null 2>&1; then
		echo "abi-dump: abidw is not installed (Debian: abigail-tools)" >&2
		return 2
	fi
	# (readelf's whole output first: grep -q would stop reading early, and
	# pipefail would then take readelf's SIGPIPE for a failure)
	if ! readelf -S "$lib" 2>/dev/null | grep '\.debug_info' >/dev/null; then
		echo "abi-dump: $lib has no debug info: build it with -g (meson buildtype debug or debugoptimized)" >&2
		return 2
	fi
	# --drop-private-types: a type defined outside the public headers (the
	# inside of the opaque struct sg_scene) is no part of the ABI.
	abidw "${headers[@]}" --drop-private-types --drop-undefined-syms --no-corpus-path \
		--no-comp-dir-path --no-show-locs --no-elf-needed --type-id-style hash "$lib" |
		# A translation unit's name is its path from the build folder
		# ("../src/graph/node.c"): kept from src/ on, whatever the folder.
		sed "s|<abi-instr \(.*\) path='[^']*/src/|<abi-instr \1 path='src/|" >"$out.tmp"
	mv "$out.tmp" "$out"
}

if [ "${1:-}" = "--lib" ]; then
	lib= headers=() out=
	while (($#)); do
		case "$1" in
		--lib) lib=$2; shift 2 ;;
		--headers) headers+=("$2"); shift 2 ;;
		--out) out=$2; shift 2 ;;
		*) echo "abi-dump: unknown argument '$1'" >&2; exit 2 ;;
		esac
	done
	[ -n "$lib" ] && [ -n "$out" ] && ((${#headers[@]})) ||
		{ echo "usage: $0 --lib LIB --headers DIR [--headers DIR]... --out FILE" >&2; exit 2; }
	dump "$lib" "$out" "${headers[@]}"
	exit
fi

build=${1:-build}
ninja -C "$build" >/dev/null
lib=$build/libsg.so
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ -n "$soname" ] || { echo "abi-dump: $lib has no soname" >&2; exit 1; }
mkdir -p "$root/abi"
dump "$lib" "$root/abi/$soname.abi" "$root/include/sg" "$build/include/sg"
echo "abi-dump: wrote abi/$soname.abi ($(grep -c '<elf-symbol ' "$root/abi/$soname.abi") symbols)"

# The map against the headers (tests/test_symbols.sh fails on either list).
declared=$(cat "$root"/include/sg/*.h "$root"/include/sg/*.h.in | tr '\n' ' ' |
	grep -o 'SG_API[^;(]*(' | sed 's/[[:space:]]*($//; s/.*[[:space:]*]//' | grep '^sg_' | sort -u)
listed=$(sed 's:/\*.*\*/::' "$root/src/libsg.map" |
	sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);[[:space:]]*$/\1/p' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$listed"))
extra=$(comm -13 <(echo "$declared") <(echo "$listed"))
[ -z "$missing" ] || printf 'abi-dump: src/libsg.map lacks (add each under its header):\n%s\n' "$missing"
[ -z "$extra" ] || printf 'abi-dump: src/libsg.map lists what no header declares SG_API:\n%s\n' "$extra"
if [ -n "$missing$extra" ]; then
	echo "abi-dump: after editing src/libsg.map, run this again: the dump above lacks what the map hides"
	exit 1
fi
