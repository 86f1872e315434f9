/* Internal: fills a GL buffer object through a small staging chunk. */
#ifndef SG_GL_STREAM_H
#define SG_GL_STREAM_H

#include <GLES3/gl3.h>
#include <stddef.h>

#include "../base/error.h"

/* Bytes staged before each glBufferSubData: small enough to stay in cache,
 * large enough that the calls cost nothing beside the copy. */
#define SG_GL_STREAM_CHUNK (256u << 10)

/* A buffer of the expanded path written from start to end. The data then
 * exists once, in GL, rather than twice: as a CPU array as large as the
 * buffer and as GL's copy of it (on llvmpipe both in system memory: a large
 * part of tree-1048576's peak, bench/README.md). */
struct sg_gl_stream {
	GLenum target;
	size_t written; /* bytes already handed to GL */
	size_t used;    /* bytes staged in chunk */
	unsigned char *chunk;
};

/* Binds buffer to target (for GL_ELEMENT_ARRAY_BUFFER the caller binds the
 * vertex array first) and gives it bytes of storage, reusing the storage it
 * has (*allocated bytes) when the size is the same. */
sg_result sg_gl_stream_begin(struct sg_gl_stream *s, GLenum target, GLuint buffer, size_t bytes,
                             size_t *allocated);
/* Room for bytes (at most SG_GL_STREAM_CHUNK) in the chunk, handing the
 * chunk to GL first where it is full. */
void *sg_gl_stream_reserve(struct sg_gl_stream *s, size_t bytes);
/* Hands the rest to GL; what; names the buffer in a GL error's message. */
sg_result sg_gl_stream_end(struct sg_gl_stream *s, const char *what);
/* Frees the chunk (sg_gl_stream_begin allocates it once). */
void sg_gl_stream_finish(struct sg_gl_stream *s);

#endif
