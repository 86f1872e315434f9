#!/usr/bin/env python3
"""Embeds GLSL sources into a C file: embed.py OUT.c NAME=FILE..."""
import sys

out, pairs = sys.argv[1], sys.argv[2:]
with open(out, "w") as c:
    c.write("/* Generated from the GLSL sources of src/gl/ by src/gl/embed.py: do not edit. */\n")
    for pair in pairs:
        name, path = pair.split("=", 1)
        with open(path) as f:
            text = f.read()
        c.write(f"const char {name}[] =\n")
        for line in text.splitlines():
            escaped = line.replace("\\", "\\\\").replace('"', '\\"')
            c.write(f'\t"{escaped}\\n"\n')
        c.write(";\n")
