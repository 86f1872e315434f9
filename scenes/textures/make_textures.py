#!/usr/bin/env python3
"""Writes the PNG textures of scenes/overlay.json: scenes/textures/make_textures.py [DIR].

landscape.png: an opaque 160x120 picture (sky, sun, hills, lake) for the
overlay to cover. badge.png: a 32x32 RGBA icon with straight alpha, a
translucent white disc (alpha 190) with soft edges around an opaque play
triangle, to show PNG alpha. python3 zlib/struct only; the files are
committed, this script says how they were made and makes them again."""
import math
import os
import struct
import sys
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filtered(row, previous, bpp):
    """The row with the filter of the five that leaves the smallest sum (the
    usual heuristic of libpng), its filter byte first."""
    best = None
    for kind in range(5):
        out = bytearray([kind])
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            predictor = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
            out.append((x - predictor) & 0xff)
        cost = sum(v if v < 128 else 256 - v for v in out[1:])
        if best is None or cost < best[0]:
            best = (cost, bytes(out))
    return best[1]


def png(width, height, channels, pixel):
    """pixel(x, y) gives channels integers 0 .. 255 (RGB or RGBA, straight alpha)."""
    color_type = {3: 2, 4: 6}[channels]
    rows, previous = [], bytes(width * channels)
    for y in range(height):
        row = bytes(v for x in range(width) for v in pixel(x, y))
        rows.append(filtered(row, previous, channels))
        previous = row
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def mix(a, b, t):
    t = min(max(t, 0.0), 1.0)
    return tuple(x + (y - x) * t for x, y in zip(a, b))


def landscape(x, y):
    sky = mix((40, 78, 150), (246, 178, 110), y / 70)
    colour = sky
    sun = math.hypot(x - 112, y - 44) - 13
    colour = mix((255, 238, 180), colour, sun)  # 1 px soft edge
    far = 72 + 8 * math.sin(x / 17 + 1) + 4 * math.sin(x / 7)
    colour = mix(colour, (70, 110, 120), y - far + 0.5)
    near = 86 + 10 * math.sin(x / 23 + 3) + 3 * math.sin(x / 5 + 1)
    colour = mix(colour, mix((60, 130, 60), (30, 80, 35), (y - near) / 30), y - near + 0.5)
    if y >= 104:  # a lake reflecting the sky
        colour = mix((40, 78, 150), (120, 150, 190), (y - 104) / 16)
    return tuple(int(round(c)) for c in colour)


def badge(x, y):
    px, py = x + 0.5 - 16, y + 0.5 - 16
    disc = min(max(14.5 - math.hypot(px, py), 0.0), 1.0)  # coverage of the disc
    # the play triangle: left edge x = -5, tip at (7, 0), half height 7
    inside = min(px + 5, (7 - px) * 7 / 12 - abs(py))
    triangle = min(max(inside + 0.5, 0.0), 1.0)
    if triangle > 0:
        # opaque triangle over the translucent disc (straight alpha)
        alpha = triangle + 190 / 255 * disc * (1 - triangle)
        rgb = mix((255, 255, 255), (32, 48, 64), triangle / alpha)
        return tuple(int(round(c)) for c in rgb) + (int(round(alpha * 255)),)
    if disc == 0:
        return (0, 0, 0, 0)
    return (255, 255, 255, int(round(190 * disc)))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files = {
        "landscape.png": png(160, 120, 3, landscape),
        "badge.png": png(32, 32, 4, badge),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
