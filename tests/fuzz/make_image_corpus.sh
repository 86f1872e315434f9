#!/usr/bin/env bash
# Writes the seed corpus of fuzz_image: tests/fuzz/make_image_corpus.sh [DIR]
# (default tests/fuzz/corpus/image). The files are committed; this says how
# they were made. Needs Debian's libjpeg-turbo-progs (cjpeg) and webp (cwebp,
# webpmux, img2webp), which the build does not: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-tests/fuzz/corpus/image}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 12x8 pictures: a colour gradient (PPM), its grey twin (PGM), and one with alpha (PAM).
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
w, h = 12, 8
rgb = bytes(v for y in range(h) for x in range(w) for v in (x * 20, y * 30, (x ^ y) * 16))
open(f"{d}/rgb.ppm", "wb").write(b"P6\n%d %d\n255\n" % (w, h) + rgb)
open(f"{d}/grey.pgm", "wb").write(b"P5\n%d %d\n255\n" % (w, h) + bytes((x + y) * 12 for y in range(h) for x in range(w)))
rgba = bytes(v for y in range(h) for x in range(w) for v in (x * 20, y * 30, 99, x * 21 + 3))
open(f"{d}/rgba.pam", "wb").write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (w, h) + rgba)
# EXIF, big-endian TIFF, orientation 6, and the same as a JPEG APP1 segment
tiff = b"MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0"
open(f"{d}/exif.bin", "wb").write(tiff)
open(f"{d}/app1.bin", "wb").write(b"\xff\xe1" + (2 + 6 + len(tiff)).to_bytes(2, "big") + b"Exif\0\0" + tiff)
PY

cjpeg -quality 80 "$tmp/rgb.ppm" >"$out/baseline.jpg"
cjpeg -quality 80 -progressive "$tmp/rgb.ppm" >"$out/progressive.jpg"
cjpeg -quality 90 -grayscale "$tmp/grey.pgm" >"$out/grey.jpg"
# SOI, JFIF's APP0, then the EXIF APP1: orientation 6
python3 - "$out/baseline.jpg" "$tmp/app1.bin" "$out/exif-rotated.jpg" <<'PY'
import sys
jpeg, app1 = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
head = 4 + int.from_bytes(jpeg[4:6], "big")
open(sys.argv[3], "wb").write(jpeg[:head] + app1 + jpeg[head:])
PY

cwebp -quiet -q 80 "$tmp/rgb.ppm" -o "$out/lossy.webp"
cwebp -quiet -lossless "$tmp/rgb.ppm" -o "$out/lossless.webp"
cwebp -quiet -q 80 "$tmp/rgba.pam" -o "$out/lossy-alpha.webp"
webpmux -set exif "$tmp/exif.bin" "$out/lossless.webp" -o "$out/exif-rotated.webp"
img2webp -lossless "$tmp/rgb.ppm" -d 100 "$tmp/grey.pgm" -o "$out/animated.webp" >/dev/null
ls -l "$out"
