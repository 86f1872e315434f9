/* Writing PNG files through libpng: to a path (see output_file.c) or to an open fd. */
#include <errno.h>
#include <png.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sg/image.h>

#include "alloc.h"
#include "error.h"
#include "escape.h"
#include "atomic_file.h"

struct png_sink {
	int fd;
	const char *name;  /* for messages */
	int error;         /* errno of the failed write; 0 when libpng itself gave up */
	char message[128]; /* libpng's */
	size_t used;
	/* libpng hands over chunk headers of 4 and 8 bytes: gathered into few writes */
	unsigned char buffer[64 * 1024];
};

/* A reader that went away must come back as EPIPE, not end the process with
 * SIGPIPE: the signal is blocked for the write and the one it raised taken back. */
static int write_all(int fd, const unsigned char *data, size_t size)
{
	sigset_t pipe_only, old_mask, pending;
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask);
	bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
	int error = 0;
	while (size > 0 && !error) {
		ssize_t written = write(fd, data, size);
		if (written > 0) {
			data += written;
			size -= (size_t)written;
		} else if (written < 0 && errno == EAGAIN) { /* a non-blocking fd: wait for room */
			poll(&(struct pollfd){.fd = fd, .events = POLLOUT}, 1, -1);
		} else if (!(written < 0 && errno == EINTR)) {
			error = written < 0 ? errno : EIO;
		}
	}
	if (error == EPIPE && !was_pending)
		sigtimedwait(&pipe_only, NULL, &(struct timespec){0});
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	return error;
}

static void on_write_error(png_structp png, png_const_charp message)
{
	struct png_sink *sink = png_get_error_ptr(png);
	snprintf(sink->message, sizeof(sink->message), "%s", message);
	png_longjmp(png, 1);
}

static void on_write_warning(png_structp png, png_const_charp message)
{
	(void)png;
	(void)message; /* nothing a writer warns about stops the write */
}

static void sink_flush(png_structp png)
{
	struct png_sink *sink = png_get_io_ptr(png);
	sink->error = write_all(sink->fd, sink->buffer, sink->used);
	sink->used = 0;
	if (sink->error)
		png_error(png, "write failed");
}

static void sink_write(png_structp png, png_bytep data, size_t size)
{
	struct png_sink *sink = png_get_io_ptr(png);
	while (size > 0) {
		if (sink->used == sizeof(sink->buffer))
			sink_flush(png);
		size_t part = sizeof(sink->buffer) - sink->used;
		part = part < size ? part : size;
		memcpy(sink->buffer + sink->used, data, part);
		sink->used += part;
		data += part;
		size -= part;
	}
}

static sg_result encode(struct png_sink *sink, int width, int height, const unsigned char *rgba,
                        size_t row_stride)
{
	png_structp png =
	    png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, on_write_error, on_write_warning);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	sg_result result = SG_OK;
	if (!info) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory writing '%s'", sink->name);
	} else if (setjmp(png_jmpbuf(png))) {
		result = sg_fail(SG_ERR_IO, "writing '%s' failed: %s", sink->name,
		                 sink->error ? strerror(sink->error) : sink->message);
	} else {
		png_set_write_fn(png, sink, sink_write, sink_flush);
		png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
		             PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		             PNG_FILTER_TYPE_DEFAULT);
		png_write_info(png, info);
		for (int y = 0; y < height; y++)
			png_write_row(png, rgba + row_stride * (size_t)y);
		png_write_end(png, NULL);
		sink_flush(png);
	}
	png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
	return result;
}

static sg_result write_png(int fd, const char *name, int width, int height, const void *rgba,
                           size_t stride)
{
	const size_t row_stride = stride ? stride : (size_t)width * 4;
	char shown[512];
	sg_escape_path(name, shown, sizeof(shown));
	struct png_sink *sink = sg_malloc(sizeof(*sink));
	if (!sink)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory writing '%s'", shown);
	/* Field by field: a compound literal would zero the 64 KiB buffer too,
	 * 16 pages faulted in for a PNG that may be 1 KiB. */
	sink->fd = fd;
	sink->name = shown;
	sink->error = 0;
	sink->message[0] = '\0';
	sink->used = 0;
	sg_result result = encode(sink, width, height, rgba, row_stride);
	sg_free(sink);
	return result;
}

static sg_result check_arguments(const char *function, const char *name, int width, int height,
                                 const void *rgba, size_t stride)
{
	if (!name || !rgba || width < 1 || height < 1)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: bad arguments (%s, %dx%d%s)", function,
		               name ? name : "NULL name", width, height,
		               rgba ? "" : ", NULL pixels");
	if (stride && stride < (size_t)width * 4)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "%s: stride %zu is less than width * 4 = %zu", function, stride,
		               (size_t)width * 4);
	return SG_OK;
}

sg_result sg_image_write_png_fd(int fd, const char *name_for_messages, int width, int height,
                                const void *rgba, size_t stride)
{
	sg_result result = check_arguments("sg_image_write_png_fd", name_for_messages, width,
	                                   height, rgba, stride);
	if (!result && fd < 0)
		result = sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_image_write_png_fd: fd %d for '%s'",
		                 fd, name_for_messages);
	return result ? result : write_png(fd, name_for_messages, width, height, rgba, stride);
}

sg_result sg_image_write_png(const char *path, int width, int height, const void *rgba,
                             size_t stride)
{
	sg_result result = check_arguments("sg_image_write_png", path, width, height, rgba, stride);
	struct sg_atomic_file out;
	if (!result)
		result = sg_atomic_file_open(&out, path);
	if (result)
		return result;
	result = write_png(out.fd, path, width, height, rgba, stride);
	if (result) {
		sg_atomic_file_abort(&out);
		return result;
	}
	return sg_atomic_file_commit(&out);
}
