#!/usr/bin/env bash
# Compares the ABI of the built libsg with the one stored for its soname in
# abi/ (docs/abi.md): abidw describes the library as scripts/abi-dump.sh
# does, abidiff compares. Fails (exit 1) on
#   - a removed function (abidiff's ABIDIFF_ABI_INCOMPATIBLE_CHANGE, 8);
#   - any other change abidiff reports (ABIDIFF_ABI_CHANGE, 4): a changed
#     parameter or return type, a field inserted, removed or retyped in a
#     public struct; abidiff cannot call these compatible, and for a C
#     library they are not. Growing a struct at its end is reported too,
#     except for the structs abi/libsg.supp names: those a caller hands over
#     with its size (the *_sized functions), or that only the library
#     allocates;
#   - a soname with no stored dump: the soname changed, so an incompatible
#     change is allowed, and the stored dump must be made for the new one.
# Added functions pass (--no-added-syms): they are listed, and join the
# stored dump the next time scripts/abi-dump.sh is run.
# Exit 77 (skipped, with the reason) where abidw/abidiff are missing, the
# library has no debug info, or the stored dump is for another architecture.
#
#   scripts/abi-check.sh [BUILD_DIR]          (default: build)
#   scripts/abi-check.sh --lib LIB --headers DIR [--headers DIR]... --stored DIR
#                        [--suppressions FILE]    (meson test 'abi'; tests)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

lib= headers=() stored= suppressions=
if [ "${1:-}" = "--lib" ]; then
	while (($#)); do
		case "$1" in
		--lib) lib=$2; shift 2 ;;
		--headers) headers+=("$2"); shift 2 ;;
		--stored) stored=$2; shift 2 ;;
		--suppressions) suppressions=$2; shift 2 ;;
		*) echo "abi-check: unknown argument '$1'" >&2; exit 2 ;;
		esac
	done
else
	build=${1:-build}
	lib=$build/libsg.so headers=("$root/include/sg" "$build/include/sg")
	stored=$root/abi suppressions=$root/abi/libsg.supp
fi
[ -n "$lib" ] && [ -n "$stored" ] && ((${#headers[@]})) ||
	{ echo "usage: $0 [BUILD_DIR] | --lib LIB --headers DIR... --stored DIR [--suppressions FILE]" >&2; exit 2; }

for tool in abidw abidiff readelf; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed (Debian: abigail-tools, binutils); scripts/setup.sh installs them"
		exit 77
	fi
done
# (no grep -q: it may stop reading early, and pipefail takes readelf's SIGPIPE
# for a failure)
if ! readelf -S "$lib" 2>/dev/null | grep '\.debug_info' >/dev/null; then
	echo "SKIP: $lib has no debug info (abidw needs -g: buildtype debug or debugoptimized)"
	exit 77
fi
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
dump=$stored/$soname.abi
if [ ! -f "$dump" ]; then
	others=$(cd "$stored" 2>/dev/null && ls -- *.abi 2>/dev/null | tr '\n' ' ')
	echo "FAIL: no stored ABI for $soname in $stored (it holds: ${others:-nothing})."
	echo "The soname changed, so incompatible changes are allowed with it; store the ABI of the"
	echo "new release: scripts/abi-dump.sh, and commit $(basename "$stored")/$soname.abi (docs/abi.md)."
	exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
header_args=()
for dir in "${headers[@]}"; do header_args+=(--headers "$dir"); done
"$root/scripts/abi-dump.sh" --lib "$lib" "${header_args[@]}" --out "$work/built.abi" || exit 1

arch() { sed -n "s/^<abi-corpus .*architecture='\([^']*\)'.*/\1/p" "$1" | head -n 1; }
if [ "$(arch "$dump")" != "$(arch "$work/built.abi")" ]; then
	echo "SKIP: $dump describes $(arch "$dump"), this build is $(arch "$work/built.abi")"
	exit 77
fi

supp_args=()
[ -z "$suppressions" ] || supp_args=(--suppressions "$suppressions")
abidiff --no-added-syms "${supp_args[@]}" "$dump" "$work/built.abi" >"$work/report" 2>&1
status=$?
# The functions added, for the log: allowed, stored at the next abi-dump.sh.
abidiff --added-fns --added-vars "$dump" "$work/built.abi" 2>/dev/null |
	sed -n "s/^  \[A\] '\(.*\)'.*/\1/p" >"$work/added"

verdict=
if ((status & 1)); then
	verdict="abidiff failed (exit status $status)"
elif ((status & 8)); then
	verdict="an incompatible ABI change (a function removed) without a new soname"
elif ((status & 4)); then
	verdict="an ABI change abidiff cannot call compatible (a type of a public function changed)"
fi
if [ -n "$verdict" ]; then
	echo "FAIL: $soname against $(basename "$stored")/$soname.abi: $verdict:"
	sed 's/^/    /' "$work/report"
	echo "Keep the old functions and types as they were and add new ones (docs/abi.md), or, for an"
	echo "incompatible change, raise the soname (meson.build's soversion). If the change is compatible"
	echo "after all (docs/abi.md says which are), store it: scripts/abi-dump.sh."
	exit 1
fi
if [ -s "$work/added" ]; then
	echo "abi-check: added since $(basename "$stored")/$soname.abi (compatible; stored by scripts/abi-dump.sh):"
	sed 's/^/    /' "$work/added"
fi
echo "ok: $soname has the ABI of $(basename "$stored")/$soname.abi ($(grep -c '<elf-symbol ' "$dump") symbols stored)"
