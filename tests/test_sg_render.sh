#!/bin/sh
# sg-render's exit statuses (0 ok, 1 render/output failure, 2 usage, 3 bad input)
# and that a failure leaves no output file, partial or temporary, behind.
# Usage: test_sg_render.sh [PATH/TO/sg-render]; run from the source root.
set -u

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

# expect STATUS DESCRIPTION -- COMMAND...: runs sg-render with COMMAND's arguments.
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

cat >"$WORK/bad-json.json" <<'JSON'
{
  "nodes": [ {"type": "group",, } ]
}
JSON
printf '{"nodes": [{"type": "sphere"}]}' >"$WORK/bad-kind.json"
printf '{"textures": {"t": {"type": "png", "path": "missing.png"}}}' >"$WORK/missing-png.json"
printf 'not a png' >"$WORK/text.png"
printf '{"textures": {"t": {"type": "png", "path": "text.png"}}}' >"$WORK/not-png.json"
printf '{"output": {"width": 100000, "height": 1}}' >"$WORK/huge.json"

# 0: success
expect 0 "--help" -- --help
expect 0 "three-rects" -- scenes/three-rects.json -o "$WORK/three.png" --surfaceless --quiet
is_png "$WORK/three.png"
expect 0 "--size" -- scenes/three-rects.json -o "$WORK/big.png" --size 64x32 --surfaceless -q
is_png "$WORK/big.png"
expect 0 "three frames" -- scenes/solar.json -o "$WORK/solar.png" --frames 3 --surfaceless -q
for n in 0000 0001 0002; do is_png "$WORK/solar-$n.png"; done
[ -e "$WORK/solar-0003.png" ] && fail "--frames 3 wrote a fourth frame"
expect 0 "printf pattern" -- scenes/solar.json -o "$WORK/p%03d.png" --frames 2 --surfaceless -q
is_png "$WORK/p000.png"
is_png "$WORK/p001.png"
expect 0 "--info" -- --info --surfaceless
grep -q "GL_RENDERER" "$WORK/stdout" || fail "--info prints no GL_RENDERER"

# 2: bad usage
expect 2 "no arguments" --
expect 2 "no output" -- scenes/three-rects.json
expect 2 "unknown option" -- scenes/three-rects.json -o "$WORK/u.png" --bogus
expect 2 "bad --size" -- scenes/three-rects.json -o "$WORK/u.png" --size 0x10
expect 2 "bad --frames" -- scenes/three-rects.json -o "$WORK/u.png" --frames -1
expect 2 "two scenes" -- scenes/three-rects.json scenes/solar.json -o "$WORK/u.png"
expect 2 "bad pattern" -- scenes/three-rects.json -o "$WORK/u%s.png"
expect 2 "--device and --surfaceless" -- scenes/three-rects.json -o "$WORK/u.png" \
	--device /dev/dri/renderD128 --surfaceless
expect 2 "--surfaceless and --device, that order" -- scenes/three-rects.json -o "$WORK/u.png" \
	--surfaceless --device /dev/dri/renderD128
no_output "$WORK/u.png"

# 3: bad input, and nothing written
for scene in bad-json bad-kind missing-png not-png huge; do
	expect 3 "$scene" -- "$WORK/$scene.json" -o "$WORK/$scene.png" --surfaceless
	no_output "$WORK/$scene.png"
done
expect 3 "bad JSON names line:column" -- "$WORK/bad-json.json" -o "$WORK/x.png" --surfaceless
grep -q "bad-json.json:2:31: " "$WORK/stderr" || fail "no line:column in: $(cat "$WORK/stderr")"
expect 3 "missing scene" -- "$WORK/nothing.json" -o "$WORK/nothing.png" --surfaceless
no_output "$WORK/nothing.png"
# A failure keeps an existing output intact.
cp "$WORK/three.png" "$WORK/keep.png"
expect 3 "existing output kept" -- "$WORK/bad-kind.json" -o "$WORK/keep.png" --surfaceless
cmp -s "$WORK/three.png" "$WORK/keep.png" || fail "a failed run changed keep.png"

# 1: device or output failure
expect 1 "missing device" -- scenes/three-rects.json -o "$WORK/dev.png" --device "$WORK/no-such-node"
no_output "$WORK/dev.png"
expect 1 "unwritable output" -- scenes/three-rects.json -o "$WORK/no-such-dir/out.png" --surfaceless

rm -rf "$WORK"
if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "all sg-render checks passed"
