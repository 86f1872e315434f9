#!/bin/sh
# sg-render MODEL (a file not named .json, imported on a stage) and the viewer
# demo: a glTF sample rendered at --size, not all background; a turntable of
# --frames N named as scene frames are; a missing and a corrupt model give
# status 3 and name the file. Without model import in libsg, status 1 and
# the reason.
# Usage: test_sg_render_model.sh PATH/TO/sg-render [PATH/TO/viewer]; run from
# the source root with SG_MODELS_DIR (tests/models/gltf) and SG_IMPORT
# (yes or no) set, as tests/meson.build does.
set -u

. "$(dirname "$0")/sg_render_common.sh"
VIEWER=${2:-}
MODELS=${SG_MODELS_DIR:?SG_MODELS_DIR names the folder of the glTF samples}

# png_check FILE WIDTH HEIGHT RGB: FILE is an 8-bit RGBA PNG of WIDTH x
# HEIGHT (as sg-render writes them) in which at least 5% of the pixels are
# not the colour RGB (hex, the background).
png_check() {
	if verdict=$(python3 - "$@" <<'PY'
import struct, sys, zlib
path, width, height, background = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def verdict(text, ok):
    print(text)
    sys.exit(0 if ok else 1)
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    verdict("not a PNG", False)
at, idat, ihdr = 8, b"", None
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    body = data[at + 8:at + 8 + length]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    at += 12 + length
w, h, depth, colour, _, _, interlace = ihdr
if (w, h) != (width, height):
    verdict("%dx%d, expected %dx%d" % (w, h, width, height), False)
if (depth, colour, interlace) != (8, 6, 0):
    verdict("not 8-bit RGBA without interlace", False)
raw, stride, rows, previous = zlib.decompress(idat), w * 4, [], bytearray(w * 4)
for y in range(h):
    kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - 4] if x >= 4 else 0
        b = previous[x]
        c = previous[x - 4] if x >= 4 else 0
        if kind == 1: line[x] = (line[x] + a) & 255
        elif kind == 2: line[x] = (line[x] + b) & 255
        elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    previous = line
rgb = bytes.fromhex(background)
drawn = sum(1 for line in rows for x in range(w) if bytes(line[x * 4:x * 4 + 3]) != rgb)
verdict("%d of %d pixels drawn" % (drawn, w * h), drawn * 20 >= w * h)
PY
	); then
		echo "ok: $1: $verdict"
	else
		fail "$1: $verdict"
	fi
}

if [ "${SG_IMPORT:-yes}" = no ]; then
	expect 1 "a model, libsg without import" -- "$MODELS/Box.gltf" -o "$WORK/box.png" --surfaceless -q
	stderr_has "libsg was built without model import"
	no_output "$WORK/box.png"
	finish
fi

# one frame, at --size, over --background
expect 0 "Box.gltf" -- "$MODELS/Box.gltf" -o "$WORK/box.png" --size 96x64 --background '#102030' \
	--surfaceless -q
png_check "$WORK/box.png" 96 64 102030
# the defaults: 512x512 over #1f2126
expect 0 "Box.gltf, the defaults" -- "$MODELS/Box.gltf" -o "$WORK/default.png" --surfaceless -q
png_check "$WORK/default.png" 512 512 1f2126
# a turntable: frames named as a scene's, each turned
expect 0 "a turntable of 4 frames" -- "$MODELS/BoxTextured.gltf" -o "$WORK/turn.png" --frames 4 \
	--size 48x48 --surfaceless -q
for n in 0000 0001 0002 0003; do png_check "$WORK/turn-$n.png" 48 48 1f2126; done
[ -e "$WORK/turn-0004.png" ] && fail "--frames 4 wrote a fifth frame"
cmp -s "$WORK/turn-0000.png" "$WORK/turn-0001.png" && fail "frame 1 is not turned"
# frame 2 of 4 is 180 degrees: the range renders it alone, the same bytes
expect 0 "a turntable's frame range" -- "$MODELS/BoxTextured.gltf" -o "$WORK/part-%d.png" \
	--frames 4 --frame-range 2:2 --size 48x48 --surfaceless -q
cmp -s "$WORK/part-2.png" "$WORK/turn-0002.png" || fail "--frame-range 2:2 differs from frame 2"
# a file's own camera (Cameras.gltf has two: the first is used)
expect 0 "Cameras.gltf" -- "$MODELS/Cameras.gltf" -o "$WORK/cameras.png" --size 64x48 \
	--surfaceless -q
png_check "$WORK/cameras.png" 64 48 1f2126
# a glTF of points: libsg draws triangles only, so the stage's view has
# lights and no model (that list of draws, empty, once stopped UBSan)
printf '%s' '{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":0}]}],
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}]}' \
	>"$WORK/points.gltf"
expect 0 "a glTF of points" -- "$WORK/points.gltf" -o "$WORK/points.png" --size 16x16 --surfaceless -q
is_png "$WORK/points.png"

# triangle_gltf FILE X SCALE: a glTF of one triangle (0,0,0) (X,0,0) (0,1,0)
# under a node "part" of scale SCALE; X may be nan.
triangle_gltf() {
	python3 - "$@" <<'PY'
import base64, json, struct, sys
path, x, scale = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
data = struct.pack("<9f", 0, 0, 0, x, 0, 0, 0, 1, 0)
json.dump({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
           "nodes": [{"name": "part", "mesh": 0, "scale": [scale] * 3}],
           "meshes": [{"name": "shape", "primitives": [{"attributes": {"POSITION": 0}}]}],
           "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,"
                        + base64.b64encode(data).decode()}],
           "bufferViews": [{"buffer": 0, "byteLength": 36}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}]},
          open(path, "w"))
PY
}
# lit_gltf FILE N INTENSITY: a quad facing +Z with N directional lights
# "lamp0".. of INTENSITY shining along -Z (KHR_lights_punctual)
lit_gltf() {
	python3 - "$@" <<'PY'
import base64, json, struct, sys
path, count, intensity = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
data = struct.pack("<12f", -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0) + struct.pack("<6H", 0, 1, 2, 0, 2, 3)
gltf = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "quad", "mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.8, 0.8, 1],
                                                "metallicFactor": 0, "roughnessFactor": 1}}],
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64,"
                     + base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                       "min": [-1, -1, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}]}
if count:
    gltf["extensionsUsed"] = ["KHR_lights_punctual"]
    gltf["extensions"] = {"KHR_lights_punctual": {"lights": [
        {"type": "directional", "name": "lamp%d" % i, "intensity": intensity} for i in range(count)]}}
    for i in range(count):
        gltf["nodes"].append({"name": "lamp%d" % i, "extensions": {"KHR_lights_punctual": {"light": i}}})
        gltf["scenes"][0]["nodes"].append(len(gltf["nodes"]) - 1)
json.dump(gltf, open(path, "w"))
PY
}
# a file's own lights light it alone: 6 render (with the stage's three they
# were 9, refused), and a file whose one light is dark is not lit by the rig
lit_gltf "$WORK/six.gltf" 6 0.5
expect 0 "a model with 6 lights" -- "$WORK/six.gltf" -o "$WORK/six.png" --size 32x32 --surfaceless -q
png_check "$WORK/six.png" 32 32 1f2126
lit_gltf "$WORK/unlit.gltf" 0 0
lit_gltf "$WORK/dark.gltf" 1 0
expect 0 "a model without lights" -- "$WORK/unlit.gltf" -o "$WORK/rig.png" --size 32x32 \
	--surfaceless -q
expect 0 "a model with a dark light" -- "$WORK/dark.gltf" -o "$WORK/dark.png" --size 32x32 \
	--surfaceless -q
cmp -s "$WORK/rig.png" "$WORK/dark.png" && fail "the stage's rig lit a model that has a light"
# 3: a model with 9 lights, over SG_VIEW3D_MAX_LIGHTS, the light and the view named once
lit_gltf "$WORK/nine.gltf" 9 0.1
expect 3 "a model with 9 lights" -- "$WORK/nine.gltf" -o "$WORK/out.png" --size 32x32 --surfaceless -q
stderr_has "nine.gltf': light 'lamp8' would be light 9 of 3D view 'stage', more than SG_VIEW3D_MAX_LIGHTS (8)"

# 3: coordinates no camera of the stage frames, or no float holds, named
triangle_gltf "$WORK/far.gltf" 3e38 1
expect 3 "a model reaching 3e38" -- "$WORK/far.gltf" -o "$WORK/out.png" --size 16x16 --surfaceless -q
stderr_has "far.gltf': the model's bounds reach 3e+38"
triangle_gltf "$WORK/scaled.gltf" 1 1e38
expect 3 "a node scaled by 1e38" -- "$WORK/scaled.gltf" -o "$WORK/out.png" --size 16x16 \
	--surfaceless -q
stderr_has "scaled.gltf': the model's bounds reach 1e+38"
triangle_gltf "$WORK/nan.gltf" nan 1
expect 3 "a NaN position" -- "$WORK/nan.gltf" -o "$WORK/out.png" --size 16x16 --surfaceless -q
stderr_has "nan.gltf': mesh 'shape': position 1 is NaN or infinite"
triangle_gltf "$WORK/overflow.gltf" 3e38 10
expect 3 "a position times its node's scale past 3.4e38" -- "$WORK/overflow.gltf" \
	-o "$WORK/out.png" --size 16x16 --surfaceless -q
stderr_has "node 'part': mesh 'shape' placed by the node's matrices overflows"
no_output "$WORK/out.png"

# 3: a missing and a corrupt model, named
expect 3 "a missing model" -- "$WORK/missing.glb" -o "$WORK/out.png" --surfaceless -q
stderr_has "missing.glb"
printf 'glTF\002\000\000\000this is not a binary glTF' >"$WORK/corrupt.glb"
expect 3 "a corrupt model" -- "$WORK/corrupt.glb" -o "$WORK/out.png" --surfaceless -q
stderr_has "corrupt.glb"
printf '{"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {"POSITION": 7}}]}]}' \
	>"$WORK/corrupt.gltf"
expect 3 "a glTF naming an accessor it lacks" -- "$WORK/corrupt.gltf" -o "$WORK/out.png" \
	--surfaceless -q
stderr_has "corrupt.gltf"
no_output "$WORK/out.png"
# 2: what does not apply to a model
expect 2 "--display with a model" -- "$MODELS/Box.gltf" --display
expect 2 "--allow-path with a model" -- "$MODELS/Box.gltf" -o "$WORK/out.png" --allow-path /tmp
expect 2 "a bad --background" -- "$MODELS/Box.gltf" -o "$WORK/out.png" --background red
no_output "$WORK/out.png"

# the viewer demo writes the same turntable
if [ -n "$VIEWER" ]; then
	"$VIEWER" "$MODELS/BoxTextured.gltf" --frames 4 --size 48x48 -o "$WORK/viewer" \
		>"$WORK/stdout" 2>"$WORK/stderr" || fail "viewer: exit $?: $(cat "$WORK/stderr")"
	for n in 0000 0001 0002 0003; do
		cmp -s "$WORK/viewer-$n.png" "$WORK/turn-$n.png" ||
			fail "viewer frame $n differs from sg-render's"
	done
	"$VIEWER" "$WORK/missing.glb" -o "$WORK/viewer-missing" >/dev/null 2>"$WORK/stderr" &&
		fail "viewer: a missing model succeeded"
	stderr_has "missing.glb"
fi
finish
