/* Streams the expanded path's vertices and indices into their buffer
 * objects a chunk at a time (see stream.h for why). */
#include "stream.h"

#include "../base/alloc.h"
#include "check.h"

static void flush(struct sg_gl_stream *s)
{
	if (!s->used)
		return;
	glBufferSubData(s->target, (GLintptr)s->written, (GLsizeiptr)s->used, s->chunk);
	s->written += s->used;
	s->used = 0;
}

sg_result sg_gl_stream_begin(struct sg_gl_stream *s, GLenum target, GLuint buffer, size_t bytes,
                             size_t *allocated)
{
	if (!s->chunk && !(s->chunk = sg_malloc(SG_GL_STREAM_CHUNK)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a %u-byte upload chunk",
		               SG_GL_STREAM_CHUNK);
	s->target = target;
	s->written = s->used = 0;
	glBindBuffer(target, buffer);
	if (*allocated != bytes) {
		/* Storage only: the chunks write every byte of it. */
		*allocated = 0;
		glBufferData(target, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW);
		sg_result result = sg_gl_check("allocating a buffer for expanded draws");
		if (result)
			return result;
		*allocated = bytes;
	}
	return SG_OK;
}

void *sg_gl_stream_reserve(struct sg_gl_stream *s, size_t bytes)
{
	if (s->used + bytes > SG_GL_STREAM_CHUNK)
		flush(s);
	void *p = s->chunk + s->used;
	s->used += bytes;
	return p;
}

sg_result sg_gl_stream_end(struct sg_gl_stream *s, const char *what)
{
	flush(s);
	return sg_gl_check(what);
}

void sg_gl_stream_finish(struct sg_gl_stream *s)
{
	sg_free(s->chunk);
	*s = (struct sg_gl_stream){0};
}
