# Shared by the sg-render test scripts (sourced): the binary, a scratch folder
# and the checks. Usage in a script: . "$(dirname "$0")/sg_render_common.sh"
SG_RENDER=${1:-${SG_RENDER:-build/tools/sg-render}}
WORK=$(mktemp -d /tmp/sg-render-test-XXXXXX)
# No trap for the cleanup: dash never frees a trap's string, which valgrind (the
# valgrind test mode wraps this script) reports as a leak.
failures=0
# This checks statuses, not leaks: sg-render does not link tests/keep_driver.c, so
# under AddressSanitizer Mesa's known leak (tests/lsan.supp) would lose its frames
# and turn every exit status into LeakSanitizer's. test_scenefile covers our leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# expect STATUS DESCRIPTION -- COMMAND...: runs sg-render with COMMAND's arguments,
# its output in $WORK/stdout and $WORK/stderr.
expect() {
	want=$1
	what=$2
	shift 3
	"$SG_RENDER" "$@" >"$WORK/stdout" 2>"$WORK/stderr"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$what: exit $got, expected $want; stderr: $(cat "$WORK/stderr")"
	else
		echo "ok: $what (exit $got)"
	fi
}

# stderr_has TEXT: the last expect's standard error holds TEXT.
stderr_has() {
	grep -qF -- "$1" "$WORK/stderr" || fail "stderr lacks '$1': $(cat "$WORK/stderr")"
}

# no_output FILE...: none of the files, nor any temporary beside them, exists.
no_output() {
	for file in "$@"; do
		[ -e "$file" ] && fail "$file exists after a failure"
		for temporary in "$file".tmp-*; do
			[ -e "$temporary" ] && fail "temporary $temporary left behind"
		done
	done
	return 0
}

is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
		fail "$1 is not a PNG file"
}

# finish: removes the scratch folder and exits with the verdict.
finish() {
	rm -rf "$WORK"
	if [ "$failures" -ne 0 ]; then
		echo "$failures failure(s)"
		exit 1
	fi
	echo "all $(basename "$0") checks passed"
	exit 0
}
