#!/usr/bin/env python3
"""Fails the build when a file of one src/ layer includes a layer that is not
below it (docs/architecture.md draws the layers).

Include paths cannot enforce this alone: a relative "../gl/x.h" is found next
to the including file whatever -I says. So this reads every #include of every
file under src/<layer>/ and resolves quoted ones the way the compiler does.
Run by meson before any layer compiles; writes an empty header as its stamp and
a depfile naming every file and folder it read, so that it runs again when any
of them changes (a folder changes when a file is added to it).
"""
import argparse
import os
import re
import sys

# Each layer and the layers directly below it; a layer may include any layer
# reachable downwards from it, and itself.
BELOW = {
    'base': [],
    'image': ['base'],
    'graph': ['image'],
    'animate': ['graph'],
    'text': ['graph'],
    'scenefile': ['graph', 'text', 'modelfile', 'animate'],
    'modelfile': ['graph'],
    'traverse': ['graph'],
    'gl': ['traverse'],
    'egl': ['base'],
    'target': ['gl', 'egl'],
    'surfaceless': ['target'],
    'gbm': ['target'],
    'render': ['surfaceless', 'gbm'],
    'ring': ['render'],
    'session': ['base'],
    'input': ['traverse', 'session'],
    'output': ['ring', 'input'],
    'window': ['ring', 'input'],
}

# System headers that only some layers may use: the graph and traversal know
# no GL, GL knows no EGL, only the device layers touch DRM and GBM, only the
# window layer Wayland, only the input layer libinput and udev (both of them
# xkbcommon), only the session layer libseat, only text FreeType and HarfBuzz
# (sg/text.h hides them), fontconfig and FriBidi, only base libpng, only the
# scene files json-c, only the model files assimp, only the images libjpeg and
# libwebp.
SYSTEM = [
    (re.compile(r'^gbm\.h$'), {'gbm'}, '<gbm.h>'),
    (re.compile(r'^xf86drmMode\.h$'), {'gbm', 'output'}, '<xf86drmMode.h>'),
    (re.compile(r'^(xf86drm|drm_fourcc)\.h$'), {'gbm', 'output', 'window'},
     '<xf86drm.h>, <drm_fourcc.h>'),
    (re.compile(r'^wayland-'), {'window'}, '<wayland-*.h>'),
    (re.compile(r'^xkbcommon/'), {'window', 'input'}, '<xkbcommon/...>'),
    (re.compile(r'^libinput\.h$'), {'input'}, '<libinput.h>'),
    (re.compile(r'^libudev\.h$'), {'input', 'output'}, '<libudev.h>'),
    (re.compile(r'^libseat\.h$'), {'session'}, '<libseat.h>'),
    (re.compile(r'^EGL/'), {'egl', 'target', 'surfaceless', 'gbm', 'render', 'output'},
     '<EGL/...>'),
    (re.compile(r'^(ft2build\.h|freetype/|hb(-[a-z]+)?\.h$|harfbuzz/|fontconfig/|fribidi)'),
     {'text'}, 'FreeType, HarfBuzz, fontconfig, FriBidi'),
    (re.compile(r'^png\.h$'), {'base'}, '<png.h>'),
    (re.compile(r'^json-c/'), {'scenefile'}, '<json-c/...>'),
    (re.compile(r'^assimp/'), {'modelfile'}, '<assimp/...>'),
    (re.compile(r'^(jpeglib\.h$|webp/)'), {'image'}, '<jpeglib.h>, <webp/...>'),
    (re.compile(r'^GLES'), {'gl', 'egl', 'target', 'surfaceless', 'gbm', 'render', 'output'},
     '<GLES*/...>'),
]

# The layer each public header belongs to: the lowest layer that defines what
# it declares. A layer may include <sg/X.h> only when X's layer is below it (or
# its own), and a public header only the public headers of layers below its
# own; a header missing here is refused until it is given a layer.
UMBRELLA = '(umbrella)'  # sg/sg.h: includes every header; no layer includes it
PUBLIC = {
    'export.h': 'base',
    'error.h': 'base',
    'log.h': 'base',
    'image.h': 'base',
    'types.h': 'base',
    'version.h': 'base',
    'scene.h': 'graph',
    'scene3d.h': 'graph',
    'shape.h': 'graph',
    'animation.h': 'animate',
    'dmabuf.h': 'graph',
    'text.h': 'text',
    'scene_file.h': 'scenefile',
    'model_file.h': 'modelfile',
    'camera.h': 'graph',
    'pick.h': 'traverse',
    'renderer.h': 'render',
    'output.h': 'output',
    'input.h': 'input',
    'session.h': 'session',
    'window.h': 'window',
    'sg.h': UMBRELLA,
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def visible(layer):
    seen, todo = set(), [layer]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(BELOW[current])
    return seen


def layer_of(path, src):
    relative = os.path.relpath(path, src)
    return None if relative.startswith('..') else relative.split(os.sep)[0]


def check_file(path, layer, src, allowed):
    errors = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            kind, name = match.groups()
            where = '%s:%d' % (os.path.relpath(path, os.path.dirname(src)), number)
            if kind == '<' and name.startswith('sg/'):
                errors.extend(check_public(where, layer, name[3:], allowed))
                continue
            if kind == '<':
                for pattern, layers, _ in SYSTEM:
                    if pattern.search(name) and layer not in layers:
                        errors.append('%s: layer %s may not include <%s> (only %s may)'
                                      % (where, layer, name, ', '.join(sorted(layers))))
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if not os.path.exists(target):
                continue  # a generated or misspelt header: the compiler judges it
            other = layer_of(target, src)
            if other is None:
                errors.append('%s: "%s" reaches outside src/; public headers are <sg/...>'
                              % (where, name))
            elif other not in BELOW:
                errors.append('%s: "%s" is in src/%s/, which is no layer' % (where, name, other))
            elif other not in allowed:
                errors.append('%s: layer %s may not include "%s": src/%s/ is not below it'
                              ' (it may include %s)'
                              % (where, layer, name, other, ', '.join(sorted(allowed))))
    return errors


def check_public(where, layer, header, allowed):
    owner = PUBLIC.get(header)
    if owner is None:
        return ['%s: <sg/%s> has no layer in src/check-layers.py\'s PUBLIC table; add it'
                % (where, header)]
    if owner == UMBRELLA:
        return ['%s: layer %s may not include <sg/%s>, which includes every layer: include the'
                ' headers it needs' % (where, layer, header)]
    if owner not in allowed:
        return ['%s: layer %s may not include <sg/%s>: it belongs to %s, which is not below it'
                ' (it may include %s)' % (where, layer, header, owner, ', '.join(sorted(allowed)))]
    return []


def check_public_headers(include, src):
    """The public headers obey the same order among themselves."""
    errors, read = [], [include]
    for name in sorted(os.listdir(include)):
        header = name[:-3] if name.endswith('.h.in') else name
        if not header.endswith('.h'):
            continue
        path = os.path.join(include, name)
        read.append(path)
        owner = PUBLIC.get(header)
        where = os.path.relpath(path, os.path.dirname(src))
        if owner == UMBRELLA:
            continue
        if owner is None:
            errors.append('%s: has no layer in src/check-layers.py\'s PUBLIC table; add it' % where)
            continue
        with open(path, encoding='utf-8', errors='replace') as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if match and match.group(1) == '<' and match.group(2).startswith('sg/'):
                    errors.extend(check_public('%s:%d' % (where, number), owner,
                                               match.group(2)[3:], visible(owner)))
    return errors, read


def bottom_up():
    """The layers, each after every layer below it (ties by name)."""
    order, placed = [], set()
    while len(order) < len(BELOW):
        ready = sorted(layer for layer in BELOW
                       if layer not in placed and set(BELOW[layer]) <= placed)
        order.extend(ready)
        placed.update(ready)
    return order


def markdown():
    """docs/architecture.md's tables, made from the tables above."""
    rows = ['| layer | folder | may include (besides itself) | system headers it may use |',
            '| --- | --- | --- | --- |']
    for layer in bottom_up():
        below = sorted(visible(layer) - {layer})
        system = [label for _, layers, label in SYSTEM if layer in layers]
        rows.append('| %s | `src/%s/` | %s | %s |' % (
            layer, layer, ', '.join(below) or 'nothing',
            '; '.join('`%s`' % s if s.startswith('<') else s for s in system)))
    rows += ['', '| public header | layer |', '| --- | --- |']
    for header, owner in sorted(PUBLIC.items(), key=lambda h: (bottom_up().index(h[1])
                                                             if h[1] in BELOW else 99, h[0])):
        rows.append('| `<sg/%s>` | %s |' % (header, owner if owner != UMBRELLA
                                            else 'none: it includes every other header'))
    return '\n'.join(rows) + '\n'


BEGIN = '<!-- tables made by src/check-layers.py --markdown: do not edit by hand -->\n'
END = '<!-- end of the made tables -->\n'


def check_docs(path):
    """The tables in the doc are the ones made here, and its drawing names
    every layer."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        return ['%s: no tables between the markers %r and %r' % (path, BEGIN.strip(), END.strip())]
    made = text.split(BEGIN, 1)[1].split(END, 1)[0]
    errors = []
    if made != markdown():
        errors.append('%s: its tables differ from the layer map of src/check-layers.py; put'
                      ' the output of `src/check-layers.py --markdown` between the markers'
                      % path)
    drawing = text.split('```', 2)[1] if text.count('```') >= 2 else ''
    for layer in BELOW:
        if not re.search(r'\b%s\b' % layer, drawing):
            errors.append('%s: the drawing of the layers lacks %s' % (path, layer))
    # The tables list PUBLIC; PUBLIC must list the headers there are (the
    # build refuses a header missing from it, but not an entry left behind).
    include = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'include', 'sg')
    if os.path.isdir(include):
        headers = {name[:-3] if name.endswith('.h.in') else name
                   for name in os.listdir(include) if name.endswith(('.h', '.h.in'))}
        for header in sorted(headers - set(PUBLIC)):
            errors.append('include/sg/%s: has no row in the tables: add it to PUBLIC in'
                          ' src/check-layers.py and remake them' % header)
        for header in sorted(set(PUBLIC) - headers):
            errors.append('%s: the tables list <sg/%s>, which include/sg does not have: remove it'
                          ' from PUBLIC in src/check-layers.py and remake them' % (path, header))
    return errors


INDEX_LINK = re.compile(r'\]\(([^)#/]+\.md)\)')


def check_docs_index(docs):
    """docs/README.md links every page of docs/ and no page that is not there."""
    index = os.path.join(docs, 'README.md')
    if not os.path.exists(index):
        return ['%s: missing: it indexes the pages of %s' % (index, docs)]
    with open(index, encoding='utf-8') as f:
        linked = set(INDEX_LINK.findall(f.read()))
    pages = {name for name in os.listdir(docs) if name.endswith('.md') and name != 'README.md'}
    errors = ['%s: no line for %s: add one saying which question it answers' % (index, page)
              for page in sorted(pages - linked)]
    errors += ['%s: links %s, which %s does not have' % (index, page, docs)
               for page in sorted(linked - pages)]
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--src')
    parser.add_argument('--output')
    parser.add_argument('--depfile')
    parser.add_argument('--markdown', action='store_true',
                        help="print docs/architecture.md's tables and exit")
    parser.add_argument('--check-docs', metavar='ARCHITECTURE_MD',
                        help='check that the doc holds the tables and draws every layer')
    parser.add_argument('--check-docs-index', metavar='DOCS_DIR',
                        help='check that DOCS_DIR/README.md links every page of DOCS_DIR')
    args = parser.parse_args()
    if args.markdown:
        sys.stdout.write(markdown())
        return 0
    if args.check_docs_index:
        errors = check_docs_index(args.check_docs_index)
        for error in errors:
            sys.stderr.write(error + '\n')
        return 1 if errors else 0
    if args.check_docs:
        errors = check_docs(args.check_docs)
        for error in errors:
            sys.stderr.write(error + '\n')
        return 1 if errors else 0
    if not args.src or not args.output:
        parser.error('--src and --output are required')
    src = os.path.abspath(args.src)

    errors, read = check_public_headers(os.path.join(os.path.dirname(src), 'include', 'sg'), src)
    read.append(src)
    for layer in sorted(os.listdir(src)):
        folder = os.path.join(src, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in BELOW:
            errors.append('src/%s/: not a layer known to src/check-layers.py; add it there'
                          ' and to docs/architecture.md' % layer)
            continue
        allowed = visible(layer)
        for root, _, names in os.walk(folder):
            read.append(root)
            for name in sorted(names):
                if name.endswith(('.c', '.h')):
                    path = os.path.join(root, name)
                    read.append(path)
                    errors.extend(check_file(path, layer, src, allowed))

    if errors:
        sys.stderr.write('layer check failed (see docs/architecture.md):\n  ' +
                         '\n  '.join(errors) + '\n')
        return 1
    with open(args.output, 'w') as f:
        f.write('/* Generated: the layers of src/ include only layers below them. */\n')
    if args.depfile:
        with open(args.depfile, 'w') as f:
            f.write('%s: %s\n' % (args.output, ' '.join(p.replace(' ', '\\ ') for p in read)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
