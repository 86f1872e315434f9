#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz/ with clang (not through meson) and
# runs each one for a while on a copy of its seed corpus.
#
#   tests/fuzz/build-and-run.sh [TARGET...]    TARGET: png, image, scene_file, model_file (default: all)
#
# Environment: SG_FUZZ_BUILD (build folder, default build-fuzz), SG_FUZZ_SECONDS
# (per target, default 60), SG_FUZZ_JOBS (compile jobs, default 2), CC (clang).
# Run from anywhere; paths are relative to the source root. Exits non-zero when a
# target crashed, leaked, hung or ran out of memory; the reproducer's path is in
# the output ("artifact: ...").
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${SG_FUZZ_BUILD:-build-fuzz}
seconds=${SG_FUZZ_SECONDS:-60}
jobs=${SG_FUZZ_JOBS:-2}
cc=${CC:-clang}
targets=${*:-png image scene_file model_file}

packages="egl glesv2 gbm libdrm cglm libpng json-c"
mkdir -p "$build/obj" "$build/artifacts"

# The library's sources, exactly as the meson files list them: the layers of
# src/meson.build ('layer/file.c'; not src/output/, which no loader reaches and
# which needs a KMS device), the text layer's list (the FreeType + HarfBuzz one
# when both are installed, as meson's 'text' option 'auto' does, else the stub),
# the model-file layer's list the same way (assimp), the image layer's JPEG and
# WebP decoders where their libraries are installed (meson options jpeg and
# webp, 'auto') and the scene-file layer's own list.
sources=$(sed -n "s/^ *'\([a-z_]*\/[^']*\.c\)'.*/src\/\1/p" src/meson.build | grep -v '^src/output/')
text_lists=$(sed -n "s/^ *text_sources = \[\(.*\)\]/\1/p" src/meson.build)
if pkg-config --exists freetype2 harfbuzz; then
	text_list=$(echo "$text_lists" | head -n 1)
	packages="$packages freetype2 harfbuzz"
else
	text_list=$(echo "$text_lists" | tail -n 1)
fi
[ -n "$text_list" ] || { echo "no text_sources list found in src/meson.build" >&2; exit 1; }
sources="$sources $(echo "$text_list" | tr -d "'," | tr ' ' '\n' | sed -n 's/^\(text\/.*\.c\)$/src\/\1/p')"
modelfile_lists=$(sed -n "s/^ *modelfile_sources = \[\(.*\)\]/\1/p" src/meson.build)
if pkg-config --exists assimp; then
	modelfile_list=$(echo "$modelfile_lists" | head -n 1)
	packages="$packages assimp"
else
	modelfile_list=$(echo "$modelfile_lists" | tail -n 1)
fi
[ -n "$modelfile_list" ] || { echo "no modelfile_sources list found in src/meson.build" >&2; exit 1; }
sources="$sources $(echo "$modelfile_list" | tr -d "'," | tr ' ' '\n' | sed -n 's/^\(modelfile\/.*\.c\)$/src\/\1/p')"
sources="$sources $(sed -n "s/^ *'\([^']*\.c\)'.*/src\/scenefile\/\1/p" src/scenefile/meson.build)"
image_defines=""
if pkg-config --exists libjpeg; then
	packages="$packages libjpeg"
	image_defines="$image_defines -DSG_IMAGE_JPEG=1"
fi
if pkg-config --exists libwebp libwebpdemux; then
	packages="$packages libwebp libwebpdemux"
	image_defines="$image_defines -DSG_IMAGE_WEBP=1"
fi
# -fno-sanitize-recover: UBSan stops the run instead of printing and going on,
# so undefined behaviour counts as a crash like ASan's reports do.
sanitize="address,undefined"
cflags="-std=c11 -D_GNU_SOURCE -DSG_BUILDING_LIBRARY $image_defines -g -O1 -fno-omit-frame-pointer
 -fno-sanitize-recover=undefined -Wall -Wextra -Iinclude -I$build/include
 $(pkg-config --cflags $packages)"
libs="$(pkg-config --libs $packages) -lm -pthread"

# <sg/version.h> as include/sg/meson.build makes it, from the project version.
version=$(sed -n "s/^ *version : '\([0-9.]*\)'.*/\1/p" meson.build | head -n 1)
mkdir -p "$build/include/sg"
major=${version%%.*} minor_micro=${version#*.}
sed -e "s/@VERSION@/$version/" -e "s/@VERSION_MAJOR@/$major/" \
	-e "s/@VERSION_MINOR@/${minor_micro%%.*}/" -e "s/@VERSION_MICRO@/${minor_micro#*.}/" \
	include/sg/version.h.in >"$build/include/sg/version.h.new"
# replaced only when it changed, so that the objects are not all rebuilt
cmp -s "$build/include/sg/version.h.new" "$build/include/sg/version.h" ||
	mv "$build/include/sg/version.h.new" "$build/include/sg/version.h"
rm -f "$build/include/sg/version.h.new"
python3 src/gl/embed.py "$build/shaders.c" \
	sg_shader_textured_vert=src/gl/material_textured.vert \
	sg_shader_textured_frag=src/gl/material_textured.frag \
	sg_shader_nv12_frag=src/gl/material_nv12.frag sg_shader_shape_frag=src/gl/material_shape.frag \
	sg_shader_clip_glsl=src/gl/material_clip.glsl \
	sg_shader_solid_vert=src/gl/material_solid.vert sg_shader_solid_frag=src/gl/material_solid.frag
sources="$sources $build/shaders.c"

echo "== compiling $(echo $sources | wc -w) library sources into $build/libsg-fuzz.a"
objects=""
: >"$build/compile.cmds"
for source in $sources; do
	object="$build/obj/$(echo "$source" | tr / _ | sed 's/\.c$/.o/')"
	objects="$objects $object"
	# Rebuilt when its source or any header is newer.
	if [ ! -e "$object" ] || [ "$source" -nt "$object" ] ||
		[ -n "$(find include src -name '*.h' -newer "$object" | head -n 1)" ]; then
		rm -f "$object"
		echo "$cc $cflags -fsanitize=fuzzer-no-link,$sanitize -c $source -o $object" |
			tr '\n' ' ' >>"$build/compile.cmds"
		echo >>"$build/compile.cmds"
	fi
done
echo "$(wc -l <"$build/compile.cmds") to compile"
xargs -P "$jobs" -I{} sh -c '{}' <"$build/compile.cmds" || true
for object in $objects; do
	[ -e "$object" ] || { echo "missing $object: compilation failed" >&2; exit 1; }
done
rm -f "$build/libsg-fuzz.a"
# An archive: a target links only the objects it reaches, so the GL and GBM
# layers (and any EGL start-up) stay out of the loaders' targets.
# shellcheck disable=SC2086
ar rcs "$build/libsg-fuzz.a" $objects

status=0
for target in $targets; do
	case $target in
	png | image) max_len=65536 ;;
	scene_file) max_len=262144 ;;
	model_file) max_len=262144 ;;
	*) echo "unknown target '$target' (png, image, scene_file, model_file)" >&2; exit 2 ;;
	esac
	corpus_name=$target
	[ "$target" = scene_file ] && corpus_name=scene
	[ "$target" = model_file ] && corpus_name=model
	binary="$build/fuzz_$target"
	echo "== linking $binary"
	# shellcheck disable=SC2086
	$cc $cflags -fsanitize=fuzzer,$sanitize "tests/fuzz/fuzz_$target.c" "$build/libsg-fuzz.a" \
		$libs -o "$binary"

	corpus="$build/corpus/$corpus_name"
	mkdir -p "$corpus"
	cp -n "tests/fuzz/corpus/$corpus_name"/* "$corpus"/ 2>/dev/null || true
	suffix=png
	[ "$target" = image ] && suffix="png jpg webp"
	[ "$target" = scene_file ] && suffix=json
	[ "$target" = model_file ] && suffix=model
	for s in $suffix; do
		cp -n tests/fuzz/regressions/*."$s" "$corpus"/ 2>/dev/null || true
	done
	log="$build/fuzz_$target.log"
	echo "== running $binary for ${seconds}s on $corpus (log: $log)"
	# stdin from /dev/null: a scene may name /dev/stdin as a texture.
	rc=0
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
		"$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="$max_len" \
		-timeout=30 -print_final_stats=1 -dict="tests/fuzz/$corpus_name.dict" \
		-artifact_prefix="$build/artifacts/$target-" "$corpus" \
		</dev/null >"$log" 2>&1 || rc=$?
	# The last status line libFuzzer printed: #N DONE/pulse cov: ft: corp: exec/s: ...
	grep -E '^#[0-9]+' "$log" | tail -n 1 || true
	grep -E '^(stat::|Done )' "$log" || true
	echo "corpus files: $(ls "$corpus" | wc -l)"
	if [ "$rc" -ne 0 ]; then
		status=1
		echo "!! fuzz_$target failed (exit $rc):"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' \
			"$log" | head -n 20
		sed -n 's/.*Test unit written to \(.*\)/artifact: \1/p' "$log"
	fi
done
exit $status
