/* sg_texture_import_dmabuf: the desc is checked against the buffer itself
 * (its fds and their sizes) here, so that a bad one fails at the call that
 * made it rather than at some later render; what only a display knows (can
 * it import this format and modifier?) is the renderer's, at first draw. */
#include "dmabuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "resource.h"
#include "scene_internal.h"
#include "../base/side_limit.h"
#include "../base/sized.h"

const char *sg_fourcc_name(uint32_t fourcc)
{
	static _Thread_local char names[4][16];
	static _Thread_local unsigned next;
	char *name = names[next++ % 4];
	char c[4] = {(char)(fourcc & 0xff), (char)((fourcc >> 8) & 0xff),
	             (char)((fourcc >> 16) & 0xff), (char)(fourcc >> 24)};
	bool printable = true;
	for (int i = 0; i < 4; i++)
		printable = printable && c[i] >= ' ' && c[i] <= '~';
	if (printable)
		snprintf(name, 16, "%c%c%c%c", c[0], c[1], c[2], c[3]);
	else
		snprintf(name, 16, "0x%08x", fourcc);
	return name;
}

void sg_texture_import_free(struct sg_texture_import *import)
{
	if (!import)
		return;
	for (int i = 0; i < SG_DMABUF_MAX_PLANES; i++)
		if (import->fds[i] >= 0)
			close(import->fds[i]);
	if (import->acquire_fence >= 0)
		close(import->acquire_fence);
	sg_free(import);
}

/* Planes of the formats this version imports; 0 for any other. */
static int format_planes(uint32_t fourcc)
{
	switch (fourcc) {
	case SG_FOURCC_ARGB8888:
	case SG_FOURCC_XRGB8888:
	case SG_FOURCC_ABGR8888:
	case SG_FOURCC_XBGR8888: return 1;
	case SG_FOURCC_NV12: return 2;
	}
	return 0;
}

/* The bytes of a row and the rows of plane of a width x height image. */
static void plane_size(uint32_t fourcc, int plane, int width, int height, uint64_t *row, int *rows)
{
	if (fourcc != SG_FOURCC_NV12) {
		*row = (uint64_t)width * 4;
		*rows = height;
	} else if (plane == 0) { /* Y: a byte per texel */
		*row = (uint64_t)width;
		*rows = height;
	} else { /* CbCr pairs at half resolution, rounded up */
		*row = (uint64_t)((width + 1) / 2) * 2;
		*rows = (height + 1) / 2;
	}
}

static bool has_alpha(uint32_t fourcc)
{
	return fourcc == SG_FOURCC_ARGB8888 || fourcc == SG_FOURCC_ABGR8888;
}

static sg_result check_desc(const struct sg_dmabuf_desc *desc)
{
	if (desc->width < 1 || desc->height < 1 || desc->width > SG_MAX_SIDE ||
	    desc->height > SG_MAX_SIDE)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_import_dmabuf: size %dx%d is outside 1x1 .. %dx%d",
		               desc->width, desc->height, SG_MAX_SIDE, SG_MAX_SIDE);
	if ((unsigned)desc->filter > SG_FILTER_LINEAR || (unsigned)desc->wrap > SG_WRAP_REPEAT)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_import_dmabuf: filter %d or wrap %d is unknown",
		               desc->filter, desc->wrap);
	int planes = format_planes(desc->fourcc);
	if (!planes)
		return sg_fail(
		    SG_ERR_UNSUPPORTED,
		    "sg_texture_import_dmabuf: format %s is not one libsg imports (AR24, "
		    "XR24, AB24, XB24, NV12)",
		    sg_fourcc_name(desc->fourcc));
	if (desc->plane_count != planes)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_import_dmabuf: format %s has %d plane%s, desc gives %d",
		               sg_fourcc_name(desc->fourcc), planes, planes == 1 ? "" : "s",
		               desc->plane_count);
	if ((unsigned)desc->encoding > SG_YUV_BT709 || (unsigned)desc->range > SG_YUV_FULL)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_import_dmabuf: YUV encoding %d or range %d is unknown",
		               desc->encoding, desc->range);
	/* Clamp only (as GL_TEXTURE_EXTERNAL_OES, which drivers' own YUV sampling
	 * takes): a CbCr plane rounded up from an odd size would not repeat in
	 * step with its Y plane. */
	if (planes > 1 && desc->wrap != SG_WRAP_CLAMP)
		return sg_fail(
		    SG_ERR_INVALID_ARGUMENT,
		    "sg_texture_import_dmabuf: format %s can only clamp to edge, not repeat",
		    sg_fourcc_name(desc->fourcc));
	return SG_OK;
}

/* The size of the buffer behind fd: a dma-buf answers lseek(SEEK_END) with
 * it. The file position is put back, the caller sharing it through the dup. */
static sg_result buffer_size(int fd, int plane, off_t *size)
{
	off_t position = lseek(fd, 0, SEEK_CUR);
	*size = lseek(fd, 0, SEEK_END);
	int error = errno;
	if (position >= 0)
		lseek(fd, position, SEEK_SET);
	if (*size < 0)
		return sg_fail(
		    SG_ERR_INVALID_ARGUMENT,
		    "sg_texture_import_dmabuf: plane %d: fd %d is not a dma-buf (lseek to "
		    "its end: %s)",
		    plane, fd, strerror(error));
	return SG_OK;
}

/* Dups plane's fd into import and checks that its rows fit in the buffer. */
static sg_result take_plane(const struct sg_dmabuf_desc *desc, int plane,
                            struct sg_texture_import *import)
{
	const struct sg_dmabuf_plane *p = &desc->planes[plane];
	int fd = p->fd < 0 ? -1 : fcntl(p->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0 && p->fd >= 0 && errno != EBADF) /* EMFILE: the process's limit, not the fd */
		return sg_fail(SG_ERR_IO, "sg_texture_import_dmabuf: plane %d: cannot dup fd %d: %s",
		               plane, p->fd, strerror(errno));
	if (fd < 0)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_import_dmabuf: plane %d: fd %d is not open (%s)", plane,
		               p->fd, p->fd < 0 ? "negative" : strerror(errno));
	import->fds[plane] = fd;
	import->offsets[plane] = p->offset;
	import->strides[plane] = p->stride;
	uint64_t row;
	int rows;
	plane_size(desc->fourcc, plane, desc->width, desc->height, &row, &rows);
	if (p->stride < row)
		return sg_fail(
		    SG_ERR_INVALID_ARGUMENT,
		    "sg_texture_import_dmabuf: plane %d: stride %u is less than the %llu "
		    "bytes of a row (width %d in %s)",
		    plane, p->stride, (unsigned long long)row, desc->width,
		    sg_fourcc_name(desc->fourcc));
	off_t size;
	sg_result result = buffer_size(fd, plane, &size);
	if (result)
		return result;
	/* A tiled layout (a modifier other than linear or implicit) is the
	 * driver's to know: only its start is checked then. */
	bool linear = desc->modifier == 0 || desc->modifier == SG_DMABUF_MOD_IMPLICIT;
	uint64_t end =
	    (uint64_t)p->offset + (linear ? (uint64_t)p->stride * (uint64_t)(rows - 1) + row : 1);
	if (end > (uint64_t)size)
		return sg_fail(
		    SG_ERR_INVALID_ARGUMENT,
		    "sg_texture_import_dmabuf: plane %d (offset %u, stride %u, %d rows) ends "
		    "at byte %llu, beyond the buffer's %lld bytes",
		    plane, p->offset, p->stride, rows, (unsigned long long)end, (long long)size);
	return SG_OK;
}

sg_texture sg_texture_import_dmabuf_sized(struct sg_scene *scene, const struct sg_dmabuf_desc *desc,
                                          size_t size)
{
	struct sg_dmabuf_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_dmabuf_desc, range),
	                                 "sg_texture_import_dmabuf")))
		return (sg_texture){0};
	const sg_texture none = {0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_import_dmabuf: %s is NULL",
		        !scene ? "scene" : "desc");
		return none;
	}
	if (check_desc(desc))
		return none;
	struct sg_texture_import *import = sg_calloc(1, sizeof(*import));
	if (!import) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory importing a %dx%d dma-buf", desc->width,
		        desc->height);
		return none;
	}
	for (int i = 0; i < SG_DMABUF_MAX_PLANES; i++)
		import->fds[i] = -1;
	import->acquire_fence = -1;
	import->fourcc = desc->fourcc;
	import->modifier = desc->modifier;
	import->plane_count = desc->plane_count;
	import->encoding = desc->encoding;
	import->range = desc->range;
	uint32_t index;
	for (int i = 0; i < desc->plane_count; i++) {
		if (take_plane(desc, i, import))
			goto fail;
	}
	if (!sg_scene_alloc_texture(scene, &index))
		goto fail;
	scene->textures[index] = (struct sg_texture_data){
	    .width = desc->width,
	    .height = desc->height,
	    .filter = desc->filter,
	    .wrap = desc->wrap,
	    /* Unknown texels: a format with alpha is drawn blended, in order. */
	    .translucent_texels = has_alpha(desc->fourcc),
	    .import = import,
	};
	return (sg_texture){scene->id, index, scene->texture_pool.generation[index]};
fail:
	sg_texture_import_free(import);
	return none;
}

bool sg_texture_is_imported(const struct sg_scene *scene, sg_texture texture)
{
	const struct sg_texture_data *t = sg_scene_texture(scene, texture);
	return t && t->import;
}

sg_result sg_texture_mark_changed(struct sg_scene *scene, sg_texture texture,
                                  const struct sg_dmabuf_rect *rect, int acquire_fence_fd)
{
	sg_result result = sg_scene_check_texture(scene, texture, "sg_texture_mark_changed");
	if (result)
		return result;
	struct sg_texture_data *t = &scene->textures[texture.index];
	if (!t->import)
		return sg_fail(
		    SG_ERR_INVALID_ARGUMENT,
		    "sg_texture_mark_changed: texture #%u is not an imported dma-buf (use "
		    "sg_texture_update)",
		    texture.index);
	struct sg_dmabuf_rect r = rect ? *rect : (struct sg_dmabuf_rect){0, 0, t->width, t->height};
	/* In 64 bits, so that x + width cannot wrap around. */
	if (r.x < 0 || r.y < 0 || r.width < 1 || r.height < 1 ||
	    (int64_t)r.x + r.width > t->width || (int64_t)r.y + r.height > t->height)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_mark_changed: rectangle %dx%d at (%d, %d) is empty or "
		               "outside texture #%u (%dx%d)",
		               r.width, r.height, r.x, r.y, texture.index, t->width, t->height);
	int fence = -1;
	if (acquire_fence_fd >= 0 && (fence = fcntl(acquire_fence_fd, F_DUPFD_CLOEXEC, 0)) < 0 &&
	    errno != EBADF) /* EMFILE: the process's limit, not the fd */
		return sg_fail(SG_ERR_IO, "sg_texture_mark_changed: cannot dup acquire fence fd %d: %s",
		               acquire_fence_fd, strerror(errno));
	if (acquire_fence_fd != -1 && (acquire_fence_fd < 0 || fence < 0))
		return sg_fail(
		    SG_ERR_INVALID_ARGUMENT,
		    "sg_texture_mark_changed: acquire fence fd %d of texture #%u is not open "
		    "(%s)",
		    acquire_fence_fd, texture.index,
		    acquire_fence_fd < 0 ? "negative; -1 means none" : strerror(errno));
	if (t->import->acquire_fence >= 0)
		close(t->import->acquire_fence);
	t->import->acquire_fence = fence;
	/* As sg_texture_update records an update (resource.c), for the renderers
	 * and whatever tracks what changed on screen. */
	t->update_serial++;
	scene->texture_updates++;
	t->updates[t->update_serial % SG_TEXTURE_UPDATE_HISTORY] =
	    (struct sg_texture_rect){r.x, r.y, r.width, r.height};
	return SG_OK;
}
