#!/bin/sh
# sg-render's trust and budget options reach the scene-file loader: --allow-path
# widens where textures may be read from, --limit raises or lowers each budget,
# and --size and --frames, which bypass the file, are held to the same limits.
# Usage: test_sg_render_limits.sh [PATH/TO/sg-render]; run from the source root.
set -u

. "$(dirname "$0")/sg_render_common.sh"

# uses_texture PATH: a scene whose one model draws the PNG at PATH
uses_texture() {
	printf '{"output": {"width": 16, "height": 16},
 "textures": {"t": {"type": "png", "path": "%s"}},
 "meshes": {"q": {"type": "quad", "width": 8, "height": 8}},
 "nodes": [{"type": "model", "mesh": "q", "texture": "t"}]}' "$1"
}
mkdir "$WORK/scene" "$WORK/tex"
cp scenes/textures/tile.png "$WORK/tex/t.png"
uses_texture "$WORK/tex/t.png" >"$WORK/scene/absolute.json"
uses_texture ../tex/t.png >"$WORK/scene/dotdot.json"
mkfifo "$WORK/scene/fifo.png" "$WORK/scene/fifo.json"
uses_texture fifo.png >"$WORK/scene/texture-fifo.json"
printf '{"output": {"width": 16, "height": 16}}' >"$WORK/small.json"

# Where textures may come from.
expect 3 "an absolute texture path is refused" -- "$WORK/scene/absolute.json" \
	-o "$WORK/out.png" --surfaceless
no_output "$WORK/out.png"
expect 0 "and read with --allow-path" -- "$WORK/scene/absolute.json" -o "$WORK/out.png" \
	--allow-path "$WORK/tex" -q --surfaceless
is_png "$WORK/out.png"
expect 3 "a ../ texture path is refused" -- "$WORK/scene/dotdot.json" -o "$WORK/dd.png" \
	--surfaceless
no_output "$WORK/dd.png"
expect 0 "several --allow-path" -- "$WORK/scene/absolute.json" -o "$WORK/out.png" \
	--allow-path "$WORK/scene" --allow-path "$WORK/tex" -q --surfaceless
expect 3 "an --allow-path that does not exist" -- "$WORK/scene/absolute.json" \
	-o "$WORK/dd.png" --allow-path "$WORK/nowhere" --allow-path "$WORK/tex" --surfaceless
stderr_has "$WORK/nowhere"
# A FIFO never opens for reading while nobody writes it: refused at once, not
# waited on (timeout's 124 would show a hang).
timeout 60 "$SG_RENDER" "$WORK/scene/texture-fifo.json" -o "$WORK/fifo.png" --surfaceless \
	2>"$WORK/stderr"
status=$?
[ "$status" -eq 3 ] || fail "a FIFO texture: exit $status, expected 3: $(cat "$WORK/stderr")"
timeout 60 "$SG_RENDER" "$WORK/scene/fifo.json" -o "$WORK/fifo.png" --surfaceless \
	2>"$WORK/stderr"
status=$?
[ "$status" -eq 3 ] || fail "a FIFO scene: exit $status, expected 3: $(cat "$WORK/stderr")"
no_output "$WORK/fifo.png"

# Each budget: refused with status 3 naming it, accepted once raised.
expect 3 "file-bytes" -- scenes/solar.json -o "$WORK/l.png" --limit file-bytes=1K --frames 1 \
	--surfaceless
stderr_has "file-bytes"
expect 0 "file-bytes raised (M suffix)" -- scenes/solar.json -o "$WORK/l.png" \
	--limit file-bytes=1M --frames 1 -q --surfaceless
expect 3 "json-depth" -- scenes/three-rects.json -o "$WORK/l.png" --limit json-depth=2 \
	--surfaceless
stderr_has "json-depth"
expect 0 "json-depth raised" -- scenes/three-rects.json -o "$WORK/l.png" --limit json-depth=8 \
	-q --surfaceless
# three 64 x 64 RGBA checkerboards: 49152 bytes
expect 3 "texture-bytes" -- scenes/three-rects.json -o "$WORK/l.png" \
	--limit texture-bytes=49151 --surfaceless
stderr_has "texture-bytes"
expect 0 "texture-bytes at the total (K suffix)" -- scenes/three-rects.json -o "$WORK/l.png" \
	--limit texture-bytes=48K -q --surfaceless
expect 3 "output-pixels of the file" -- scenes/three-rects.json -o "$WORK/l.png" \
	--limit output-pixels=65535 --surfaceless
stderr_has "output-pixels"
expect 0 "output-pixels raised" -- scenes/three-rects.json -o "$WORK/l.png" \
	--limit output-pixels=65536 -q --surfaceless
expect 3 "frames of the file" -- scenes/solar.json -o "$WORK/l.png" --limit frames=47 \
	--surfaceless
stderr_has "frames"
no_output "$WORK/l-0000.png"

# --size and --frames are held to the same limits, with the loader's defaults
# (4096 x 4096 pixels, 10000 frames) when no --limit is given: the file and the
# command line are refused at the same value. An empty range (past the last
# frame, status 2) stops each run after the load, before any rendering.
printf '{"output": {"width": 4096, "height": 4097}}' >"$WORK/over-pixels.json"
printf '{"output": {"width": 4096, "height": 4096}}' >"$WORK/at-pixels.json"
printf '{"output": {"width": 16, "height": 16}, "frames": 10001}' >"$WORK/over-frames.json"
printf '{"output": {"width": 16, "height": 16}, "frames": 10000}' >"$WORK/at-frames.json"
expect 3 "the file's output over the default" -- "$WORK/over-pixels.json" -o "$WORK/s.png" \
	--frame-range 1:1
expect 3 "--size over the default" -- "$WORK/small.json" -o "$WORK/s.png" --size 4096x4097 \
	--frame-range 1:1
stderr_has "--limit output-pixels="
expect 2 "the file's output at the default" -- "$WORK/at-pixels.json" -o "$WORK/s.png" \
	--frame-range 1:1
stderr_has "--frame-range 1:1"
expect 2 "--size at the default" -- "$WORK/small.json" -o "$WORK/s.png" --size 4096x4096 \
	--frame-range 1:1
stderr_has "--frame-range 1:1"
expect 3 "the file's frames over the default" -- "$WORK/over-frames.json" -o "$WORK/f.png" \
	--frame-range 10000:10000
expect 3 "--frames over the default" -- "$WORK/small.json" -o "$WORK/f.png" --frames 10001 \
	--frame-range 10000:10000
stderr_has "--limit frames="
expect 2 "the file's frames at the default" -- "$WORK/at-frames.json" -o "$WORK/f.png" \
	--frame-range 10000:10000
stderr_has "10000 frames"
expect 2 "--frames at the default" -- "$WORK/small.json" -o "$WORK/f.png" --frames 10000 \
	--frame-range 10000:10000
stderr_has "10000 frames"
expect 3 "--size over --limit output-pixels" -- "$WORK/small.json" -o "$WORK/s.png" \
	--size 100x100 --limit output-pixels=9999 --surfaceless
expect 0 "--size at --limit output-pixels" -- "$WORK/small.json" -o "$WORK/s.png" \
	--size 100x100 --limit output-pixels=10000 -q --surfaceless
expect 3 "--frames over --limit frames" -- "$WORK/small.json" -o "$WORK/f.png" --frames 3 \
	--limit frames=2 --surfaceless
expect 0 "--frames at --limit frames" -- "$WORK/small.json" -o "$WORK/f.png" --frames 2 \
	--limit frames=2 -q --surfaceless
is_png "$WORK/f-0001.png"
no_output "$WORK/f-0002.png"

# The whole job, pixels x frames to render, is held to job-pixels (default
# 2^32) before any rendering: a 54-byte file asking for 10000 frames of
# 4096 x 4096 is refused at once (timeout's 124 would show it rendering).
printf '{"output":{"width":4096,"height":4096},"frames":10000}' >"$WORK/job.json"
timeout 60 "$SG_RENDER" "$WORK/job.json" -o "$WORK/job.png" --surfaceless >"$WORK/stdout" \
	2>"$WORK/stderr"
status=$?
[ "$status" -eq 3 ] || fail "a 10000-frame 4096x4096 job: exit $status, expected 3: $(cat "$WORK/stderr")"
[ "$(cat "$WORK/stderr")" = "sg-render: 10000 frames of 4096x4096 = 167772160000 pixels is over \
the job-pixels limit of 4294967296 (--limit job-pixels=N raises it, --frame-range renders fewer \
frames)" ] || fail "the job-pixels message: $(cat "$WORK/stderr")"
no_output "$WORK/job-0000.png"
# 257 frames of 4096 x 4096 are one frame over 2^32; the frames of the range count
expect 3 "257 frames of 4096x4096 over the default" -- "$WORK/job.json" -o "$WORK/job.png" \
	--frame-range 100:356 --surfaceless
stderr_has "257 frames of 4096x4096 = 4311744512 pixels"
expect 3 "--size and --frames make the job" -- "$WORK/small.json" -o "$WORK/j.png" \
	--size 4096x4096 --frames 300 --surfaceless
stderr_has "300 frames of 4096x4096 = 5033164800 pixels"
# 16 x 16 x 4 = 1024 pixels: refused one below, rendered at the limit
expect 3 "job-pixels one below the job" -- "$WORK/small.json" -o "$WORK/j.png" --frames 4 \
	--limit job-pixels=1023 --surfaceless
stderr_has "4 frames of 16x16 = 1024 pixels is over the job-pixels limit of 1023"
no_output "$WORK/j-0000.png"
expect 0 "job-pixels at the job" -- "$WORK/small.json" -o "$WORK/j.png" --frames 4 \
	--limit job-pixels=1024 -q --surfaceless
is_png "$WORK/j-0003.png"
expect 0 "job-pixels counts the range only" -- "$WORK/small.json" -o "$WORK/r.png" --frames 4 \
	--frame-range 2:3 --limit job-pixels=512 -q --surfaceless
is_png "$WORK/r-0003.png"
no_output "$WORK/r-0001.png"
expect 3 "one frame over job-pixels" -- "$WORK/small.json" -o "$WORK/o.png" \
	--limit job-pixels=255 --surfaceless
stderr_has "1 frame of 16x16 = 256 pixels"
no_output "$WORK/o.png"

# Bad --limit arguments are bad usage.
expect 2 "an unknown limit" -- "$WORK/small.json" -o "$WORK/u.png" --limit pixels=5
stderr_has "file-bytes, json-depth, texture-bytes, output-pixels, frames, job-pixels"
for bad in job-pixels=0 job-pixels=1K job-pixels=18446744073709551616 frames=0 frames=1K file-bytes=1T file-bytes=99999999999999999999 \
	json-depth=10001 frames frames= file-bytes=-1 file-bytes=1KB; do
	expect 2 "--limit $bad" -- "$WORK/small.json" -o "$WORK/u.png" --limit "$bad"
done
no_output "$WORK/u.png"

finish
