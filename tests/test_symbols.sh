#!/bin/sh
# src/libsg.map, the version script, names every function libsg.so exports
# (docs/abi.md). Three lists must be equal:
#   - the SG_API functions the public headers declare (include/sg/*.h and
#     version.h.in): a new one missing from the map would build and then be
#     hidden by the map's "local: *";
#   - the names the map lists: one with no function would be ignored by ld;
#   - the functions the built libsg.so exports (nm -D --defined-only), each
#     with the version node of the map.
# Each difference is a line naming the symbol and what to do. Then the same
# comparison on copies with one difference made on purpose (a name left out
# of the map, a name no function has, a new SG_API declaration) must fail,
# naming that symbol: the check itself is checked on every run.
# Usage: test_symbols.sh LIBSG.so SOURCE_ROOT
set -eu
[ $# -eq 2 ] || { echo "usage: $0 LIBSG.so SOURCE_ROOT"; exit 99; }
lib=$1
root=$2
if ! command -v nm >/dev/null 2>&1; then
	echo "SKIP: nm (binutils) is not installed"
	exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# declared INCLUDE_DIR: the names of the SG_API functions, one a line, sorted.
# A declaration may span lines: the headers are read as one line, each
# "SG_API ... name(" taken up to its parenthesis.
declared() {
	cat "$1"/*.h "$1"/*.h.in | tr '\n' ' ' | grep -o 'SG_API[^;(]*(' |
		sed 's/[[:space:]]*($//; s/.*[[:space:]*]//' | grep '^sg_' | sort -u
}

# listed MAP: the names the version script lists (comments and "*" aside).
listed() {
	sed 's:/\*.*\*/::' "$1" | sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);[[:space:]]*$/\1/p' |
		sort -u
}

# exported LIB: the functions and data the library defines for others, as
# name@version (nm prints the version where the library has versions).
exported() {
	nm -D --defined-only "$1" | awk '$2 ~ /^[TtDdBbRrVvWwi]$/ { print $3 }' | sort -u
}

# compare LIB MAP INCLUDE_DIR: prints one line per difference, fails on any.
compare() {
	declared "$3" >"$work/declared"
	listed "$2" >"$work/listed"
	exported "$1" >"$work/exported.full"
	sed 's/@.*//' "$work/exported.full" | sort -u >"$work/exported"
	node=$(sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_.]*\)[[:space:]]*{.*/\1/p' "$2" | head -n 1)
	status=0
	for name in $(comm -23 "$work/declared" "$work/listed"); do
		echo "FAIL: $name is declared SG_API in include/sg but src/libsg.map does not list it," \
			"so libsg.so hides it: add it to the map (docs/abi.md says where)"
		status=1
	done
	for name in $(comm -13 "$work/declared" "$work/listed"); do
		echo "FAIL: src/libsg.map lists $name, which no header of include/sg declares SG_API:" \
			"remove it from the map, or declare the function"
		status=1
	done
	for name in $(comm -23 "$work/listed" "$work/exported"); do
		echo "FAIL: src/libsg.map lists $name, but $(basename "$1") does not export it:" \
			"no such function is built, or it is not SG_API in its definition"
		status=1
	done
	for name in $(comm -13 "$work/listed" "$work/exported"); do
		echo "FAIL: $(basename "$1") exports $name, which src/libsg.map does not list"
		status=1
	done
	# Every exported name carries a version: without one, the map was not
	# used to link (nm prints name@@NODE for a versioned definition).
	for entry in $(grep -v "@@$node\$" "$work/exported.full" || true); do
		echo "FAIL: $(basename "$1") exports $entry without the version node $node of" \
			"src/libsg.map: was it linked with -Wl,--version-script?"
		status=1
	done
	return $status
}

failures=0
if compare "$lib" "$root/src/libsg.map" "$root/include/sg" >"$work/log"; then
	echo "ok: $(wc -l <"$work/exported") symbols: the headers' SG_API functions, src/libsg.map" \
		"and the exports of $(basename "$lib") are the same, each at $node"
else
	cat "$work/log"
	failures=$((failures + 1))
fi

# expect_refused WHAT SYMBOL: compare on the copies in $work/tree fails,
# naming SYMBOL.
expect_refused() {
	if compare "$lib" "$work/tree/libsg.map" "$work/tree/sg" >"$work/log"; then
		echo "FAIL: $1 passed the check"
		failures=$((failures + 1))
	elif ! grep -q "FAIL: .*\b$2\b" "$work/log"; then
		echo "FAIL: $1 failed without naming $2:"
		cat "$work/log"
		failures=$((failures + 1))
	else
		echo "ok: $1 refused: $(grep "\b$2\b" "$work/log" | head -n 1)"
	fi
}
fresh() {
	rm -rf "$work/tree"
	mkdir "$work/tree"
	cp "$root/src/libsg.map" "$work/tree/libsg.map"
	cp -R "$root/include/sg" "$work/tree/sg"
}

first=$(head -n 1 "$work/listed")
fresh
sed -i "/^[[:space:]]*$first;/d" "$work/tree/libsg.map"
expect_refused "the map without $first" "$first"
fresh
sed -i 's/^global:$/global:\n\tsg_no_such_function;/' "$work/tree/libsg.map"
expect_refused "the map with a name no function has" sg_no_such_function
fresh
printf '%s\n' '#include <sg/types.h>' 'SG_API int sg_new_function(void);' >"$work/tree/sg/new.h"
expect_refused "a new SG_API function missing from the map" sg_new_function

[ "$failures" -eq 0 ] || exit 1
echo "symbols: src/libsg.map as the headers and the library"
