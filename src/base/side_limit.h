/* Internal: the largest side, in pixels, of a texture, a PNG read, a scene
 * file's output and a renderer's output. GLES 3 guarantees only 2048, but
 * llvmpipe and every desktop driver take 16384; beyond that a single RGBA8
 * image is 1 GiB, so this one number bounds every image libsg allocates. */
#ifndef SG_BASE_SIDE_LIMIT_H
#define SG_BASE_SIDE_LIMIT_H

#define SG_MAX_SIDE 16384

#endif
