#!/bin/sh
# src/check-layers.py on copies of src/ and include/sg/ with one wrong include
# added each time: a lower layer including a higher layer's private or public
# header, and a public header including a higher layer's, must each stop the
# build with a message naming the file, the line and the layers; the tree as
# it is must pass. Then docs/architecture.md: its tables must be the ones the
# script makes from its layer map, and its drawing must name every layer; a
# copy with a row changed, or with a layer left out of the drawing, must fail;
# so must a public header without a row, and a row without a header. Then
# docs/README.md must link every page of docs/, and only those.
# Usage: test_layer_check.sh SOURCE_ROOT
set -eu
[ $# -eq 1 ] || { echo "usage: $0 SOURCE_ROOT"; exit 99; }
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fresh() {
	rm -rf "$work/tree"
	mkdir -p "$work/tree/include"
	cp -R "$root/src" "$work/tree/src"
	cp -R "$root/include/sg" "$work/tree/include/sg"
}

check() { python3 "$work/tree/src/check-layers.py" --src "$work/tree/src" --output "$work/out.h"; }

# expect_refused FILE LINE-TO-ADD PATTERN: the check fails, saying PATTERN.
expect_refused() {
	fresh
	printf '%s\n' "$2" >>"$work/tree/$1"
	if check >"$work/log" 2>&1; then
		echo "FAIL: '$2' in $1 passed the layer check"
		failures=$((failures + 1))
	elif ! grep -q -- "$3" "$work/log"; then
		echo "FAIL: '$2' in $1 was refused without naming it ('$3'):"
		cat "$work/log"
		failures=$((failures + 1))
	else
		echo "ok: '$2' in $1 refused"
	fi
}

fresh
if ! check >"$work/log" 2>&1; then
	echo "FAIL: the tree as it is fails the layer check:"
	cat "$work/log"
	failures=$((failures + 1))
fi

expect_refused src/traverse/damage.h '#include <sg/renderer.h>' \
	'src/traverse/damage.h:[0-9]*: layer traverse may not include <sg/renderer.h>: it belongs to render'
expect_refused src/graph/node.c '#include <sg/text.h>' \
	'layer graph may not include <sg/text.h>: it belongs to text'
expect_refused src/base/error.c '#include <sg/scene.h>' \
	'layer base may not include <sg/scene.h>: it belongs to graph'
expect_refused src/target/target.h '#include <sg/output.h>' \
	'layer target may not include <sg/output.h>: it belongs to output'
expect_refused src/render/renderer.c '#include <sg/sg.h>' \
	'may not include <sg/sg.h>, which includes every layer'
expect_refused src/gl/batch.c '#include "../render/select.h"' \
	'layer gl may not include "../render/select.h": src/render/ is not below it'
expect_refused src/graph/scene.c '#include "../traverse/traverse.h"' \
	'layer graph may not include "../traverse/traverse.h"'
expect_refused include/sg/scene.h '#include <sg/renderer.h>' \
	'include/sg/scene.h:[0-9]*: layer graph may not include <sg/renderer.h>'
expect_refused src/traverse/world.c '#include <sg/unknown.h>' \
	"<sg/unknown.h> has no layer"

# docs/architecture.md against the layer map
doc=$root/docs/architecture.md
checkdoc() { python3 "$root/src/check-layers.py" --check-docs "$1" >"$work/log" 2>&1; }
if ! checkdoc "$doc"; then
	echo "FAIL: docs/architecture.md differs from the build's layer map:"
	cat "$work/log"
	failures=$((failures + 1))
fi
# expect_doc_refused SED-SCRIPT PATTERN: the doc so edited fails, saying PATTERN.
expect_doc_refused() {
	sed "$1" "$doc" >"$work/architecture.md"
	if cmp -s "$doc" "$work/architecture.md"; then
		echo "FAIL: '$1' did not change docs/architecture.md (the test is stale)"
		failures=$((failures + 1))
	elif checkdoc "$work/architecture.md" || ! grep -q -- "$2" "$work/log"; then
		echo "FAIL: docs/architecture.md edited by '$1' was not refused with '$2':"
		cat "$work/log"
		failures=$((failures + 1))
	else
		echo "ok: docs/architecture.md edited by '$1' refused"
	fi
}
expect_doc_refused 's/^| scenefile | `src\/scenefile\/` | animate, /| scenefile | `src\/scenefile\/` | /' \
	'its tables differ from the layer map'
expect_doc_refused '/^| `<sg\/window.h>` | window |$/d' 'its tables differ from the layer map'
expect_doc_refused 's/| session  libseat:  |/| seat     libseat:  |/; s/| traverse, session) |/| traverse, seat)    |/' \
	'the drawing of the layers lacks session'

# Every public header has a row in the tables: a header added to a copy of
# include/sg without one, or a row left for a header that is gone, fails.
fresh
printf '#ifndef SG_EXTRA_H\n#define SG_EXTRA_H\n#endif\n' >"$work/tree/include/sg/extra.h"
if python3 "$work/tree/src/check-layers.py" --check-docs "$doc" >"$work/log" 2>&1 ||
	! grep -q 'include/sg/extra.h: has no row in the tables' "$work/log"; then
	echo "FAIL: a public header without a row in docs/architecture.md's tables was not refused:"
	cat "$work/log"
	failures=$((failures + 1))
else
	echo "ok: a public header without a row refused"
fi
fresh
rm "$work/tree/include/sg/pick.h"
if python3 "$work/tree/src/check-layers.py" --check-docs "$doc" >"$work/log" 2>&1 ||
	! grep -q 'the tables list <sg/pick.h>, which include/sg does not have' "$work/log"; then
	echo "FAIL: a row for a header include/sg lacks was not refused:"
	cat "$work/log"
	failures=$((failures + 1))
else
	echo "ok: a row for a missing header refused"
fi

# docs/README.md indexes every page of docs/: a copy with a page added, a
# page's line removed, or a line for a page that is not there, fails.
checkindex() { python3 "$root/src/check-layers.py" --check-docs-index "$1" >"$work/log" 2>&1; }
if ! checkindex "$root/docs"; then
	echo "FAIL: docs/README.md does not index docs/:"
	cat "$work/log"
	failures=$((failures + 1))
fi
# expect_index_refused WHAT PATTERN: the copy in $work/docs fails, saying PATTERN.
expect_index_refused() {
	if checkindex "$work/docs" || ! grep -q -- "$2" "$work/log"; then
		echo "FAIL: docs/ with $1 was not refused with '$2':"
		cat "$work/log"
		failures=$((failures + 1))
	else
		echo "ok: docs/ with $1 refused"
	fi
}
fresh_docs() { rm -rf "$work/docs" && cp -R "$root/docs" "$work/docs"; }
fresh_docs
echo '# A new page' >"$work/docs/new-page.md"
expect_index_refused "a page README.md lacks" 'no line for new-page.md'
fresh_docs
sed -i '/(abi.md)/d' "$work/docs/README.md"
expect_index_refused "abi.md's line removed" 'no line for abi.md'
fresh_docs
rm "$work/docs/damage.md"
expect_index_refused "damage.md removed" 'links damage.md, which'

[ "$failures" -eq 0 ] || exit 1
echo "layer check: every wrong include refused, docs/architecture.md as the build, docs/README.md indexes docs/"
