#!/bin/sh
# sg-render's exit statuses (0 ok, 1 render/output failure, 2 usage, 3 bad input),
# that a failure leaves no output file, partial or temporary, behind, and the
# output names: -o - (straight alpha, as in files), the pattern language,
# --frame-range.
# Usage: test_sg_render.sh [PATH/TO/sg-render]; run from the source root.
set -u

. "$(dirname "$0")/sg_render_common.sh"

cat >"$WORK/bad-json.json" <<'JSON'
{
  "nodes": [ {"type": "group",, } ]
}
JSON
printf '{"nodes": [{"type": "sphere"}]}' >"$WORK/bad-kind.json"
# uses_texture PATH: a scene whose one model draws the PNG at PATH (an unused
# texture is never read)
uses_texture() {
	printf '{"textures": {"t": {"type": "png", "path": "%s"}},
 "meshes": {"q": {"type": "quad", "width": 8, "height": 8}},
 "nodes": [{"type": "model", "mesh": "q", "texture": "t"}]}' "$1"
}
uses_texture missing.png >"$WORK/missing-png.json"
printf 'not a png' >"$WORK/text.png"
uses_texture text.png >"$WORK/not-png.json"
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
expect 0 "overlay" -- scenes/overlay.json -o "$WORK/overlay.png" --surfaceless -q
is_png "$WORK/overlay.png"
expect 0 "cube3d, a 3D view" -- scenes/cube3d.json -o "$WORK/cube3d.png" --surfaceless -q
is_png "$WORK/cube3d.png"
expect 0 "progress, two frames" -- scenes/progress.json -o "$WORK/progress.png" \
	--frame-range 11:12 --surfaceless -q
is_png "$WORK/progress-0011.png"
cmp -s "$WORK/progress-0011.png" "$WORK/progress-0012.png" && fail "the progress bar does not move"
expect 0 "--info" -- --info --surfaceless
grep -q "GL_RENDERER" "$WORK/stdout" || fail "--info prints no GL_RENDERER"
# text.json: both frames (the clock ticks) where libsg has text; without it,
# status 1 and a message that says why, and nothing written.
"$SG_RENDER" scenes/text.json -o "$WORK/text.png" --surfaceless -q 2>"$WORK/stderr"
status=$?
case $status in
0)
	echo "ok: text, two frames (exit 0)"
	is_png "$WORK/text-0000.png"
	is_png "$WORK/text-0001.png"
	cmp -s "$WORK/text-0000.png" "$WORK/text-0001.png" && fail "the clock of text.json does not tick"
	;;
1)
	echo "ok: text refused by a libsg without text (exit 1)"
	stderr_has "text.json: \$.nodes[0].children[1]: a text node, but this libsg was built without text"
	no_output "$WORK/text-0000.png"
	;;
*) fail "text: exit $status; stderr: $(cat "$WORK/stderr")" ;;
esac
# cards.json: shapes, ellipses and mixed directions (with text); without text,
# refused at its first text node.
"$SG_RENDER" scenes/cards.json -o "$WORK/cards.png" --surfaceless -q 2>"$WORK/stderr"
status=$?
case $status in
0)
	echo "ok: cards (exit 0)"
	is_png "$WORK/cards.png"
	;;
1)
	echo "ok: cards refused by a libsg without text (exit 1)"
	stderr_has "cards.json: \$.nodes[1]: a text node, but this libsg was built without text"
	no_output "$WORK/cards.png"
	;;
*) fail "cards: exit $status; stderr: $(cat "$WORK/stderr")" ;;
esac

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
# A shape the keys allow but sg_texture_create_shape refuses is bad input too:
# a shadow with a border or a gradient, a gradient's end at its start, an image
# with a blur.
shape() {
	printf '{"textures": {"t": {"type": "solid"}}, "nodes": [{"type": "shape", "width": 20,
 "height": 10, %s}]}' "$1" >"$WORK/$2.json"
}
stops='"stops": [{"offset": 0, "color": "#ffffff"}, {"offset": 1, "color": "#000000"}]'
shape '"blur": 2, "border": {"width": 1}' shadow-border
shape "\"blur\": 2, \"gradient\": {\"type\": \"linear\", \"start\": [0, 0], \"end\": [9, 0], $stops}" \
	shadow-gradient
shape "\"gradient\": {\"type\": \"radial\", \"start\": [1, 1], \"end\": [1, 1], $stops}" gradient-point
shape '"image": "t", "blur": 3' image-blur
for scene in shadow-border shadow-gradient gradient-point image-blur; do
	expect 3 "shape $scene" -- "$WORK/$scene.json" -o "$WORK/$scene.png" --surfaceless
	stderr_has "$scene.json: \$.nodes[0]: sg_texture_create_shape: "
	no_output "$WORK/$scene.png"
done

# 1: device or output failure
expect 1 "missing device" -- scenes/three-rects.json -o "$WORK/dev.png" --device "$WORK/no-such-node"
no_output "$WORK/dev.png"
expect 1 "unwritable output" -- scenes/three-rects.json -o "$WORK/no-such-dir/out.png" --surfaceless

# -o -: the PNG on standard output, the same bytes as a file render, and
# nothing else there (the "wrote" line goes to standard error).
expect 0 "-o - to a file" -- scenes/three-rects.json -o - --surfaceless
cp "$WORK/stdout" "$WORK/stdout.png"
is_png "$WORK/stdout.png"
cmp -s "$WORK/stdout.png" "$WORK/three.png" || fail "-o - differs from the file render"
stderr_has "wrote standard output"
"$SG_RENDER" scenes/three-rects.json -o - -q --surfaceless | cat >"$WORK/piped.png"
cmp -s "$WORK/piped.png" "$WORK/three.png" || fail "-o - | cat differs from the file render"
expect 0 "-o - with --info keeps stdout a PNG" -- scenes/three-rects.json -o - -i --surfaceless
is_png "$WORK/stdout"
# Straight alpha in every PNG: -o - un-premultiplies the pixels it reads, as
# the file writer does, so a translucent render gives the same bytes too.
printf '{"output": {"width": 16, "height": 8, "background": [0, 0, 255, 0]},
 "nodes": [{"type": "model", "mesh": {"type": "quad", "width": 8, "height": 8},
            "color": [1, 0.5, 0.25, 0.5]},
           {"type": "model", "mesh": {"type": "quad", "width": 4, "height": 4},
            "color": [0.2, 0.4, 0.6], "opacity": 0.3}]}' >"$WORK/translucent.json"
expect 0 "a translucent render to a file" -- "$WORK/translucent.json" -o "$WORK/translucent.png" \
	--surfaceless -q
expect 0 "-o - of a translucent render" -- "$WORK/translucent.json" -o - --surfaceless -q
cmp -s "$WORK/stdout" "$WORK/translucent.png" ||
	fail "-o - of a translucent render differs from the file render"
expect 0 "-o - of the overlay" -- scenes/overlay.json -o - --surfaceless -q
cmp -s "$WORK/stdout" "$WORK/overlay.png" || fail "-o - of overlay.json differs from the file"
expect 2 "-o - refuses several frames" -- scenes/solar.json -o - --surfaceless
stderr_has "-o - writes one image"
[ -s "$WORK/stdout" ] && fail "a refused -o - wrote to standard output"
expect 2 "-o - refuses --frames 3" -- scenes/solar.json -o - --frames 3 --surfaceless
expect 0 "-o - takes one frame of a range" -- scenes/solar.json -o - --frame-range 5:5 \
	--size 32x32 --surfaceless
is_png "$WORK/stdout"
# a terminal on standard output: refused before anything is rendered
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$SG_RENDER' scenes/three-rects.json -o - --surfaceless" /dev/null \
		>"$WORK/tty" 2>&1
	grep -q "standard output is a terminal" "$WORK/tty" ||
		fail "-o - on a terminal: $(cat "$WORK/tty")"
fi

# The pattern language: one %d, %Nd or %0Nd (N <= 9), %% for a %.
expect 0 "%% in a single-frame name" -- scenes/three-rects.json -o "$WORK/a%%b.png" -q \
	--surfaceless
is_png "$WORK/a%b.png"
expect 0 "%% and %d" -- scenes/solar.json -o "$WORK/c%%%d.png" --frames 2 --size 32x32 -q \
	--surfaceless
is_png "$WORK/c%0.png"
is_png "$WORK/c%1.png"
expect 0 "%4d pads with spaces" -- scenes/solar.json -o "$WORK/s%4d.png" --frames 2 \
	--size 32x32 -q --surfaceless
is_png "$WORK/s   1.png"
expect 0 "%09d" -- scenes/solar.json -o "$WORK/z%09d.png" --frames 1 --size 32x32 -q \
	--surfaceless
is_png "$WORK/z000000000.png"
for pattern in '%2147483648d' '%999999999d' '%10d' '%s' '%x' '%d-%d' '%' '%-4d' '%.3d' \
	'%ld'; do
	expect 2 "pattern '$pattern' refused" -- scenes/solar.json -o "$WORK/q$pattern.png" \
		--frames 2 --surfaceless
	stderr_has "a pattern holds one %d"
done
no_output "$WORK/q%2147483648d.png" "$WORK/q0.png" "$WORK/q.png"
long=$(printf '%0300d' 0)
long=$long/$long/$long/$long/$long/$long/$long
expect 2 "a frame name longer than PATH_MAX" -- scenes/three-rects.json \
	-o "$WORK/$long/$long.png" --surfaceless
stderr_has "longer than 4095 bytes"

# Escaping: what sg-render echoes has no raw control characters.
expect 2 "a newline in --size is escaped" -- scenes/three-rects.json -o "$WORK/u.png" \
	--size "$(printf '1\nx')"
stderr_has "--size '1\\nx'"
[ "$(wc -l <"$WORK/stderr")" -eq 1 ] || fail "the --size message spans lines"
esc=$(printf '\033')
expect 1 "an escape in -o is escaped" -- scenes/three-rects.json \
	-o "$WORK/no-such-dir/$esc[2J.png" --surfaceless
stderr_has '\x1b[2J'
grep -q "$esc" "$WORK/stderr" && fail "a raw ESC reached standard error"
# bidi overrides reorder the line a terminal shows: U+202E and U+2066 escaped
rlo=$(printf '\342\200\256')
lri=$(printf '\342\201\246')
expect 1 "a bidi override in -o is escaped" -- scenes/three-rects.json \
	-o "$WORK/no-such-dir/a${rlo}gnp.exe${lri}.png" --surfaceless
stderr_has 'a\u202egnp.exe\u2066.png'
grep -q "$rlo" "$WORK/stderr" && fail "a raw U+202E reached standard error"
grep -q "$lri" "$WORK/stderr" && fail "a raw U+2066 reached standard error"
# A path of over 1 KB: the message loses its middle, never its reason.
dirs=$(printf '%01100d' 0)
expect 1 "a 1 KB -o path keeps the reason" -- scenes/three-rects.json \
	-o "$WORK/no-such-dir/$dirs/out.png" --surfaceless
stderr_has "/out.png': its folder '"
grep -q "': No such file or directory\$" "$WORK/stderr" ||
	fail "the reason is cut from: $(cat "$WORK/stderr")"
# -o '' is no output name: with several frames it wrote -0000.png ... here
mkdir "$WORK/empty"
render="$(cd "$(dirname "$SG_RENDER")" && pwd)/$(basename "$SG_RENDER")"
solar="$PWD/scenes/solar.json"
(cd "$WORK/empty" && "$render" "$solar" -o '' --frames 2 --surfaceless >"$WORK/stdout" \
	2>"$WORK/stderr")
status=$?
[ "$status" -eq 2 ] || fail "-o '' with 2 frames: exit $status, expected 2"
stderr_has "-o '': the output name is empty"
[ -z "$(ls -A "$WORK/empty")" ] || fail "-o '' wrote $(ls -A "$WORK/empty")"
expect 2 "-o '' with one frame" -- scenes/three-rects.json -o '' --surfaceless
stderr_has "-o '': the output name is empty"

# --frame-range: two processes, two halves, the same bytes as one run.
mkdir "$WORK/whole" "$WORK/halves"
expect 0 "8 frames in one run" -- scenes/solar.json -o "$WORK/whole/f%02d.png" --frames 8 \
	--size 48x48 -q --surfaceless
expect 0 "the second half first" -- scenes/solar.json -o "$WORK/halves/f%02d.png" --frames 8 \
	--frame-range 5:7 --size 48x48 -q --surfaceless
[ -e "$WORK/halves/f04.png" ] && fail "--frame-range 5:7 wrote frame 4"
expect 0 "then the first" -- scenes/solar.json -o "$WORK/halves/f%02d.png" --frames 8 \
	--frame-range 0:4 --size 48x48 -q --surfaceless
for n in 00 01 02 03 04 05 06 07; do
	cmp -s "$WORK/whole/f$n.png" "$WORK/halves/f$n.png" ||
		fail "frame $n of --frame-range differs from the whole run"
done
cmp -s "$WORK/whole/f00.png" "$WORK/whole/f05.png" && fail "solar does not move: a weak test"
# The same for opacity and colour keyframes: frame 5 of progress.json alone
# is frame 5 of a whole run.
mkdir "$WORK/fade"
expect 0 "progress, every frame" -- scenes/progress.json -o "$WORK/fade/f%02d.png" \
	--size 80x30 -q --surfaceless
expect 0 "progress, frame 5 alone" -- scenes/progress.json -o "$WORK/fade/one%02d.png" \
	--frame-range 5:5 --size 80x30 -q --surfaceless
cmp -s "$WORK/fade/f05.png" "$WORK/fade/one05.png" ||
	fail "frame 5 of progress.json alone differs from the whole run"
expect 0 "a range keeps -NNNN numbers" -- scenes/solar.json -o "$WORK/r.png" --frame-range 46:47 \
	--size 32x32 -q --surfaceless
is_png "$WORK/r-0046.png"
is_png "$WORK/r-0047.png"
no_output "$WORK/r-0000.png" "$WORK/r-0045.png"
expect 2 "--frame-range past the end" -- scenes/solar.json -o "$WORK/u.png" --frame-range 40:48 \
	--surfaceless
stderr_has "48 frames (0 .. 47)"
expect 2 "--frame-range backwards" -- scenes/solar.json -o "$WORK/u.png" --frame-range 3:1
expect 2 "--frame-range not FIRST:LAST" -- scenes/solar.json -o "$WORK/u.png" --frame-range 3
expect 2 "--frame-range negative" -- scenes/solar.json -o "$WORK/u.png" --frame-range -1:2
no_output "$WORK/u.png" "$WORK/u-0040.png"

# --display: its command line, and its failure where there is no display. The
# display itself is shown in the qemu guest (tests/drm/run-in-vm.sh).
expect 2 "--display and -o" -- scenes/solar.json --display -o "$WORK/d.png"
stderr_has "--display and -o exclude each other"
no_output "$WORK/d.png"
expect 2 "--display and --surfaceless" -- scenes/solar.json --surfaceless --display
stderr_has "--display and --surfaceless exclude each other"
expect 2 "--display without a scene" -- --display
stderr_has "--display needs a scene file"
# --fps with -o: frame n is the scene at n / fps seconds. solar.json has no
# "fps": its frames are 1/24 s apart, so frame 1 at 12 fps is its frame 2.
expect 0 "--fps 24 with -o" -- scenes/solar.json -o "$WORK/f24-%d.png" --frames 2 --fps 24 \
	--surfaceless -q
expect 0 "--fps 12 with -o" -- scenes/solar.json -o "$WORK/f12-%d.png" --frames 2 --fps 12 \
	--surfaceless -q
cmp -s "$WORK/f24-1.png" "$WORK/solar-0001.png" || fail "--fps 24 differs from solar.json's own frame 1"
cmp -s "$WORK/f12-1.png" "$WORK/f24-1.png" && fail "--fps 12 renders frame 1 as --fps 24 does"
cmp -s "$WORK/f12-1.png" "$WORK/solar-0002.png" || fail "--fps 12's frame 1 is not solar.json's frame 2"
expect 2 "--fps with a model" -- tests/models/gltf/Box.gltf -o "$WORK/m.png" --fps 30
stderr_has "--fps samples a scene file's animation"
expect 2 "--fps 0" -- scenes/solar.json --display --fps 0
stderr_has "--fps '0' is not a rate 1..1000"
expect 2 "--display CONNECTOR and one operand more" -- scenes/solar.json --display Virtual-1 x
stderr_has "unexpected argument 'x'"
expect 2 "--display with a range past the end" -- scenes/solar.json --display --frame-range 0:48
expect 3 "--display of a bad scene" -- "$WORK/bad-json.json" --display
expect 1 "--display on a node that is missing" -- scenes/solar.json --display=HDMI-A-1 \
	--device "$WORK/no-such-card"
stderr_has "sg-render: --display: "
stderr_has "$WORK/no-such-card"
expect 1 "--display on a node without KMS" -- scenes/solar.json --display --device /dev/null
stderr_has "/dev/null"
if [ ! -e /dev/dri ]; then
	expect 1 "--display with no DRM device" -- scenes/solar.json --display
	stderr_has "sg-render: --display: no DRM card node"
fi

# --window: its command line, and its failure where no compositor listens. The
# window itself is shown by weston in tests/test_window.c.
expect 2 "--window and --display" -- scenes/solar.json --window --display
stderr_has "--display and --window exclude each other"
expect 2 "--window and -o" -- scenes/solar.json --window -o "$WORK/w.png"
stderr_has "--window and -o exclude each other"
expect 2 "--window and --surfaceless" -- scenes/solar.json --window --surfaceless
stderr_has "--window and --surfaceless exclude each other"
expect 2 "--window without a scene" -- --window
stderr_has "--window needs a scene file"
expect 2 "--window of a model file" -- tests/models/gltf/Box.gltf --window
stderr_has "--window shows scene files"
# (a runtime folder of its own: without one the message is about XDG_RUNTIME_DIR)
XDG_RUNTIME_DIR="$WORK" WAYLAND_DISPLAY=sg-render-test-no-such-socket \
	expect 1 "--window with no compositor" -- scenes/solar.json --window
if ! grep -q "built without Wayland" "$WORK/stderr"; then
	stderr_has "sg-render: --window: sg_window_create: no Wayland compositor at"
	stderr_has "sg-render-test-no-such-socket"
fi

finish
