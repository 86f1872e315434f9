#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite three ways:
#   normal    -Werror build; every suite, the drm suite in a qemu guest included
#             (skipped, with the reason, only where qemu cannot start)
#   asan      AddressSanitizer + UndefinedBehaviorSanitizer build (drm suite left out:
#             the guest runs the normal build's binaries)
#   valgrind  the normal build under valgrind memcheck, no leak of our own allowed
#   fuzz      the libFuzzer targets of tests/fuzz/ (PNG, image, scene-file and model loaders),
#             SG_FUZZ_SECONDS (default 45) each on the seed corpus
#   tsan      ThreadSanitizer build of the library and the threads suite alone: renderers
#             on several threads, one scene drawn by two renderers at once (docs/api.md)
# test.sh [normal|asan|valgrind|fuzz|tsan]... runs only those; extra meson test args after --.
set -euo pipefail
cd "$(dirname "$0")/.."

modes=()
while (($#)) && [ "$1" != "--" ]; do modes+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
((${#modes[@]})) || modes=(normal asan valgrind fuzz tsan)

SG_BUILD=build scripts/setup.sh -Dwerror=true
# Timeouts are there to catch hangs, never a busy machine: meson's and Check's
# are scaled by how little of a CPU a busy process gets here (measured again
# before each mode), 3 times at least. The drm suite's guests are bounded by
# the CPU time they use instead (tests/drm/run-in-vm.sh).
slowness() {
	local share
	share=$(python3 tests/cpu_share.py)
	awk -v s="$share" -v least="$1" 'BEGIN { m = int(least / s + 0.999); print m }'
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
for mode in "${modes[@]}"; do
	scale=$(slowness 3)
	export CK_TIMEOUT_MULTIPLIER=$scale
	echo "=== test mode: $mode (timeouts x$scale)"
	case "$mode" in
	normal)
		meson test -C build --print-errorlogs --timeout-multiplier "$scale" "$@" | tee "$log"
		;;
	asan)
		SG_BUILD=build-asan scripts/setup.sh -Dwerror=true -Db_sanitize=address,undefined \
			-Db_lundef=false -Dbuildtype=debug
		# GCC 12's LeakSanitizer misreads the dynamic TLS of some modules
		# ("DTLS 9 at 0x3ff-0x1800001501") and its exit-time scan crashes
		# ("Tracer caught signal 11"): each run of some tests once libsg
		# linked assimp, and Mesa's shader-cache thread in others. use_tls=0
		# leaves TLS out of the scan: what only TLS points to is then
		# reported, never hidden (tests/lsan.supp names those of glibc and
		# glib); libsg keeps no heap pointer in TLS.
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0:use_tls=0 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			meson test -C build-asan --print-errorlogs --timeout-multiplier "$scale" \
			--no-suite drm --no-suite consumer "$@" | tee "$log"
		;;
	valgrind)
		meson test -C build --print-errorlogs --no-suite drm --no-suite consumer --timeout-multiplier $((10 * scale)) \
			--wrap="valgrind --quiet --error-exitcode=99 --leak-check=full \
--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
--suppressions=$PWD/tests/valgrind.supp" "$@" | tee "$log"
		;;
	fuzz)
		SG_FUZZ_SECONDS=${SG_FUZZ_SECONDS:-45} tests/fuzz/build-and-run.sh
		echo "Ok: 4" >"$log" # the four targets ran their time without a finding
		;;
	tsan)
		# Only what the threads suite needs is built: the library and its test.
		opts=(-Db_sanitize=thread -Db_lundef=false -Dbuildtype=debugoptimized)
		if [ -f build-tsan/build.ninja ]; then
			meson setup --reconfigure build-tsan "${opts[@]}" >/dev/null
		else
			meson setup build-tsan "${opts[@]}" >/dev/null
		fi
		ninja -C build-tsan tests/test_threads
		TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp:exitcode=66" \
			meson test -C build-tsan --no-rebuild --print-errorlogs \
			--timeout-multiplier "$scale" --suite threads "$@" | tee "$log"
		;;
	*)
		echo "test.sh: unknown mode '$mode' (normal, asan, valgrind, fuzz, tsan)" >&2
		exit 2
		;;
	esac
	passed=$((passed + $(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)))
done
# Any failure has stopped the script above (set -e, pipefail): all that ran passed.
echo "test.sh: ${modes[*]}"
echo "summary: $passed passed, 0 failed"
