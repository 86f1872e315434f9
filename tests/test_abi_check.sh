#!/usr/bin/env bash
# scripts/abi-check.sh fails on an incompatible change and passes a
# compatible one (docs/abi.md):
#  1. libsg itself: the library as built passes against abi/; a second copy
#     linked from the same objects with one symbol left out of the version
#     script (tests/abi/meson.build) fails, naming the function removed.
#  2. tests/abi/toy.c, compiled here as a first release and stored with
#     scripts/abi-dump.sh, then once per change: a function removed, a field
#     inserted in a struct, a parameter's type changed must fail, naming what
#     changed; a function added, an enum value added at the end, a sized
#     struct grown at its end, a pointer parameter made pointer to const (as
#     sg_renderer_render's scene) must pass; a new soname with a function removed
#     must fail saying the new soname's ABI is to be stored.
# Usage: test_abi_check.sh SOURCE_ROOT BUILD_ROOT LIBSG.so LIBSG-REMOVED.so REMOVED_NAME CC...
set -uo pipefail
[ $# -ge 6 ] || { echo "usage: $0 SOURCE_ROOT BUILD_ROOT LIBSG.so LIBSG-REMOVED.so REMOVED CC..."; exit 99; }
root=$1 build=$2 lib=$3 removed_lib=$4 removed=$5
shift 5
cc=("$@")
for tool in abidw abidiff; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed (Debian: abigail-tools; scripts/setup.sh installs it)"
		exit 77
	fi
done
check=$root/scripts/abi-check.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect PASS|FAIL WHAT PATTERN -- ABI-CHECK ARGS...: abi-check.sh ends as
# said, and its output has PATTERN (an extended regular expression).
expect() {
	local want=$1 what=$2 pattern=$3
	shift 4
	"$check" "$@" >"$work/log" 2>&1
	local status=$?
	if { [ "$want" = PASS ] && [ $status -ne 0 ]; } || { [ "$want" = FAIL ] && [ $status -ne 1 ]; }; then
		echo "FAIL: $what: abi-check.sh exited $status, expected to $want:"
		sed 's/^/    /' "$work/log"
		failures=$((failures + 1))
	elif ! grep -Eq -- "$pattern" "$work/log"; then
		echo "FAIL: $what: abi-check.sh did $want without saying /$pattern/:"
		sed 's/^/    /' "$work/log"
		failures=$((failures + 1))
	else
		echo "ok: $what: $want, saying: $(grep -E -m 1 -- "$pattern" "$work/log" | sed 's/^ *//')"
	fi
}

# 0. abi/libsg.supp lets the sized structs grow at their end: it must name
# exactly the structs the headers' *_sized macros pass the sizeof of, and the
# info structs only the library allocates.
# (a macro's continued lines joined first)
sized=$(cat "$root"/include/sg/*.h | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' |
	grep -o '_sized(__VA_ARGS__, .*' | grep -o 'sizeof(struct sg_[a-z0-9_]*)' |
	sed 's/sizeof(struct sg_//; s/)//' | sort -u | tr '\n' '|')
suppressed=$(sed -n '/label = handed over/,/^$/s/^ *name_regexp = ^sg_(\(.*\))\$$/\1/p' "$root/abi/libsg.supp")
if [ "${sized%|}" != "$suppressed" ]; then
	echo "FAIL: abi/libsg.supp's sized structs ($suppressed) are not those the *_sized macros of"
	echo "    include/sg pass (${sized%|}): put that list in its name_regexp ^sg_(...)$"
	failures=$((failures + 1))
else
	echo "ok: abi/libsg.supp names the $(echo "$suppressed" | tr '|' '\n' | wc -l) structs handed over with their size"
fi

# 1. libsg
libsg_args=(--headers "$root/include/sg" --headers "$build/include/sg" --stored "$root/abi"
	--suppressions "$root/abi/libsg.supp")
expect PASS "libsg as built" "^ok: libsg\.so\.[0-9]+ has the ABI of" -- --lib "$lib" "${libsg_args[@]}"
expect FAIL "libsg without $removed" "\[D\] 'function .*\b$removed\(" -- --lib "$removed_lib" "${libsg_args[@]}"
echo "    (the report: $(grep -E -m 1 'Removed|incompatible' "$work/log"))"

# 2. the toy library: toy NAME SONAME DEFINE...: compiles tests/abi/toy.c.
toy() {
	local name=$1 soname=$2
	shift 2
	mkdir -p "$work/$name"
	if ! "${cc[@]}" -g -O0 -shared -fPIC -Wl,-soname,"$soname" "$@" -o "$work/$name/$soname" \
		"$root/tests/abi/toy.c" 2>"$work/cc.log"; then
		echo "FAIL: the toy library $name does not compile:"
		cat "$work/cc.log"
		exit 1
	fi
	echo "$work/$name/$soname"
}
mkdir -p "$work/stored"
"$root/scripts/abi-dump.sh" --lib "$(toy release libtoy.so.1)" --headers "$root/tests/abi" \
	--out "$work/stored/libtoy.so.1.abi" || { echo "FAIL: abi-dump.sh on the toy library"; exit 1; }
toy_args=(--headers "$root/tests/abi" --stored "$work/stored" --suppressions "$root/tests/abi/toy.supp")

expect PASS "toy unchanged" "^ok: libtoy\.so\.1 has the ABI" -- --lib "$(toy same libtoy.so.1)" "${toy_args[@]}"
expect PASS "toy with a function added" "toy_perimeter" -- \
	--lib "$(toy added libtoy.so.1 -DTOY_FUNCTION_ADDED)" "${toy_args[@]}"
expect PASS "toy with an enum value added at the end" "^ok: " -- \
	--lib "$(toy enum libtoy.so.1 -DTOY_ENUM_VALUE_ADDED)" "${toy_args[@]}"
expect PASS "toy with a sized struct grown at its end" "^ok: " -- \
	--lib "$(toy grown libtoy.so.1 -DTOY_STATS_GROWN)" "${toy_args[@]}"
expect PASS "toy with a pointer parameter made pointer to const" "^ok: " -- \
	--lib "$(toy const libtoy.so.1 -DTOY_CONST_ADDED)" "${toy_args[@]}"
expect FAIL "toy with a function removed" "\[D\] 'function int toy_area\(" -- \
	--lib "$(toy removed libtoy.so.1 -DTOY_FUNCTION_REMOVED)" "${toy_args[@]}"
expect FAIL "toy with a field inserted" "'int depth', at offset 32" -- \
	--lib "$(toy inserted libtoy.so.1 -DTOY_FIELD_INSERTED)" "${toy_args[@]}"
expect FAIL "toy with a parameter's type changed" "parameter 2 of type 'int' changed" -- \
	--lib "$(toy parameter libtoy.so.1 -DTOY_PARAMETER_CHANGED)" "${toy_args[@]}"
expect FAIL "toy with a new soname" "no stored ABI for libtoy\.so\.2" -- \
	--lib "$(toy soname libtoy.so.2 -DTOY_FUNCTION_REMOVED)" "${toy_args[@]}"

[ "$failures" -eq 0 ] || exit 1
echo "abi-check: refuses a removed function, an inserted field and a changed parameter; passes additions"
