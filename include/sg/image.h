/* libsg: image files. */
#ifndef SG_IMAGE_H
#define SG_IMAGE_H

#include <stddef.h>

#include <sg/error.h>
#include <sg/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Pixels are RGBA8 with straight alpha, as PNG files hold them. A render
 * (sg_renderer_read_pixels, the buffer object, its dma-buf) holds premultiplied
 * alpha, as compositors expect: sg_image_unpremultiply() converts one for
 * writing. Opaque pixels (alpha 255) are the same either way. */

/* Converts premultiplied RGBA8 pixels to straight alpha in place: each colour
 * component becomes round(c * 255 / alpha), capped at 255; a pixel of alpha 0
 * becomes (0, 0, 0, 0). stride 0 means width * 4. */
SG_API void sg_image_unpremultiply(void *rgba, int width, int height, size_t stride);

/* Writes RGBA8 pixels (top row first, stride bytes per row; 0 means width * 4)
 * as a PNG to path, the way cp and convert treat a destination, but atomically:
 * - a new or existing regular file is replaced by a complete file renamed over
 *   it: on any failure (a full disk included, reported by fsync) path keeps its
 *   old content and no temporary file remains. An existing file keeps its mode,
 *   and its owner and group where the process may set them (root); a new file
 *   gets 0666 less the umask (or the folder's default ACL).
 * - a symlink, a chain of them, or a dangling one is followed: the file it ends
 *   at is replaced (or created) in that file's own folder; the symlink stays.
 * - an existing device or FIFO (/dev/null, /dev/stdout, a terminal) is written
 *   in place, opened without creating or renaming anything; opening a FIFO waits
 *   for its reader. A socket or a directory is refused (SG_ERR_IO naming it).
 * The data is written to an unnamed file (O_TMPFILE) in the destination folder,
 * so a signal during the encoding leaves nothing; it gets a short temporary name
 * (".sg-" and 10 characters, so a final name of NAME_MAX bytes works) only for
 * the link and rename at the end, with SIGINT, SIGTERM, SIGHUP and SIGQUIT held
 * back meanwhile. Where the file system or the process cannot (no O_TMPFILE, or
 * neither CAP_DAC_READ_SEARCH nor /proc to link it), the file is named from the
 * start, and a signal that kills the process during the write leaves that
 * ".sg-*" file behind. A closed pipe is reported as EPIPE, without SIGPIPE. */
SG_API sg_result sg_image_write_png(const char *path, int width, int height, const void *rgba,
                                    size_t stride);

/* Writes the same PNG to an open file descriptor (a pipe, standard output, a
 * socket) at its current position. fd stays open and owned by the caller; it is
 * not synced. A failed write (EPIPE from a reader that left, without raising
 * SIGPIPE; ENOSPC) is SG_ERR_IO with a message naming name_for_messages, e.g.
 * "standard output". Bytes already written stay written. */
SG_API sg_result sg_image_write_png_fd(int fd, const char *name_for_messages, int width, int height,
                                       const void *rgba, size_t stride);

#ifdef __cplusplus
}
#endif

#endif
