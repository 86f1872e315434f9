#!/usr/bin/env python3
"""Writes the PNG seed corpus of the fuzz targets: tests/fuzz/make_corpus.py [DIR].

Small images of each colour type and depth that sg_texture_load_png() turns into
RGBA8, an Adam7-interlaced one, and broken ones. The files are committed; this
script says how they were made and makes them again."""
import os
import struct
import sys
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png(width, height, depth, color, rows, interlace=0, extra=b""):
    """rows: the filtered scanlines (each with its filter byte), already in pass
    order for an interlaced image."""
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra +
            chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def plain(width, height, bytes_per_row, value):
    return [b"\x00" + bytes(value(x, y) & 0xff for x in range(bytes_per_row))
            for y in range(height)]


def adam7_rows(width, height, channels, value):
    """RGBA8 scanlines of the seven Adam7 passes (filter type 0)."""
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
              (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    rows = []
    for x0, y0, dx, dy in passes:
        xs = range(x0, width, dx)
        for y in range(y0, height, dy):
            if len(xs):
                rows.append(b"\x00" + bytes(value(x, y, c) & 0xff
                                            for x in xs for c in range(channels)))
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus", "png")
    os.makedirs(out, exist_ok=True)
    files = {
        "rgba8-2x2.png": png(2, 2, 8, 6, plain(2, 2, 8, lambda x, y: x * 40 + y)),
        "rgb8-3x2.png": png(3, 2, 8, 2, plain(3, 2, 9, lambda x, y: x * 29 + y * 7)),
        "gray8-4x1.png": png(4, 1, 8, 0, plain(4, 1, 4, lambda x, y: x * 60)),
        "gray1-9x2.png": png(9, 2, 1, 0, plain(9, 2, 2, lambda x, y: 0xa5 ^ y)),
        "gray-alpha8-2x2.png": png(2, 2, 8, 4, plain(2, 2, 4, lambda x, y: 255 - x * 9)),
        "rgb16-2x2.png": png(2, 2, 16, 2, plain(2, 2, 12, lambda x, y: x * 17 + y)),
        "rgba16-1x1.png": png(1, 1, 16, 6, plain(1, 1, 8, lambda x, y: x + 200)),
        "palette4-3x3-trns.png": png(
            3, 3, 4, 3, plain(3, 3, 2, lambda x, y: (x * 16 + y) % 3 * 0x11),
            extra=chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])) +
            chunk(b"tRNS", bytes([255, 128]))),
        "palette8-2x1-gama.png": png(
            2, 1, 8, 3, [b"\x00\x00\x01"],
            extra=chunk(b"gAMA", struct.pack(">I", 45455)) +
            chunk(b"PLTE", bytes([10, 20, 30, 200, 100, 50]))),
        "interlaced-rgba8-9x9.png": png(
            9, 9, 8, 6, adam7_rows(9, 9, 4, lambda x, y, c: x * 28 + y * 3 + c * 60),
            interlace=1),
    }
    whole = files["rgba8-2x2.png"]
    files["truncated-rgba8.png"] = whole[:len(whole) - 20]  # cut inside IDAT
    bad = bytearray(files["rgb8-3x2.png"])
    bad[29] ^= 0xff  # the IHDR CRC
    files["bad-crc-ihdr.png"] = bytes(bad)
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
