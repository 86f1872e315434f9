#!/bin/sh
# libsg.so exports its public API and nothing of the tests' scaffolding: no
# *_for_testing function, no test hook, no part of the old sg_kms_output_*
# API (tests/drm/kms_output.c now). Internal symbols are hidden
# (-fvisibility=hidden, SG_API); the tests reach them through the static layer
# libraries instead (sg_core_dep), and the *_for_testing hooks through
# sg_render_testing and sg_output_testing (the output layer built with its
# test hooks), which libsg does not link at all.
# Usage: test_exports.sh PATH/TO/libsg.so
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LIBSG.so"; exit 99; }
file=$1

if ! command -v nm >/dev/null 2>&1; then
	echo "SKIP: nm (binutils) is not installed"
	exit 77
fi
exports=$(nm -D --defined-only "$file" | awk '{ print $NF }')
if [ -z "$exports" ]; then
	echo "FAIL: nm -D --defined-only $file lists nothing: not a shared object?"
	exit 1
fi
echo "$file exports $(echo "$exports" | wc -l) symbols"
scaffolding=$(echo "$exports" | grep -E '_for_testing|test_hook|kms_output|spares' || true)
if [ -n "$scaffolding" ]; then
	echo "FAIL: $file exports test scaffolding:" $scaffolding
	exit 1
fi
# What the library defines at all, exported or not (none of it when stripped):
# the renderer's hooks are in sg_render_testing, the output's in
# sg_output_testing, the old KMS output API in tests/drm/kms_output.c.
moved=$(nm --defined-only "$file" 2>/dev/null |
	grep -E ' (sg_kms_output_|sg_renderer_.*_for_testing$|sg_output_create_for_testing$|sg_driver_lock_enable_for_testing$)' ||
	true)
if [ -n "$moved" ]; then
	echo "FAIL: $file still holds test scaffolding:" $moved
	exit 1
fi
echo "ok: no _for_testing, test hook or old KMS output symbol exported"
