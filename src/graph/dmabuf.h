/* Internal: what the scene keeps of an imported dma-buf (sg/dmabuf.h) for the
 * renderers, which make their EGLImage from it (src/target/import.c). */
#ifndef SG_GRAPH_DMABUF_H
#define SG_GRAPH_DMABUF_H

#include <stdbool.h>
#include <stdint.h>

#include <sg/dmabuf.h>

#define SG_FOURCC(a, b, c, d)                                                                      \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))
#define SG_FOURCC_ARGB8888 SG_FOURCC('A', 'R', '2', '4')
#define SG_FOURCC_XRGB8888 SG_FOURCC('X', 'R', '2', '4')
#define SG_FOURCC_ABGR8888 SG_FOURCC('A', 'B', '2', '4')
#define SG_FOURCC_XBGR8888 SG_FOURCC('X', 'B', '2', '4')
#define SG_FOURCC_NV12 SG_FOURCC('N', 'V', '1', '2')

struct sg_texture_import {
	uint32_t fourcc;
	uint64_t modifier;
	int plane_count;
	int fds[SG_DMABUF_MAX_PLANES]; /* dup'ed, owned here; -1 past plane_count */
	uint32_t offsets[SG_DMABUF_MAX_PLANES], strides[SG_DMABUF_MAX_PLANES];
	/* sg_texture_mark_changed's sync_file (dup'ed, owned here) or -1: the
	 * renderers wait for it before sampling the texture again. */
	int acquire_fence;
	/* NV12: converted to RGB by libsg's shader (src/gl/material_nv12.c) as these say. */
	enum sg_yuv_encoding encoding;
	enum sg_yuv_range range;
};

/* Closes the fds and frees the record; accepts NULL. */
void sg_texture_import_free(struct sg_texture_import *import);

/* The fourcc as its four characters ("XR24"), or as hex when they are not
 * printable. Static buffer per thread, one of four used in turn. */
const char *sg_fourcc_name(uint32_t fourcc);

#endif
