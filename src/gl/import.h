/* Internal: imported textures (sg_texture_import_dmabuf). GL alone cannot
 * give a texture the storage of a dma-buf (that takes an EGLImage), and this
 * layer may not include EGL: the layer that knows both (src/target/import.c)
 * hands the texture cache these operations. */
#ifndef SG_GL_IMPORT_H
#define SG_GL_IMPORT_H

#include <GLES3/gl3.h>

#include <sg/error.h>

struct sg_texture_data;

struct sg_gl_import_ops {
	/* With a fresh texture bound (as for changed): gives it the buffer of
	 * t->import as its storage; *image gets what release() takes. index names
	 * the texture in messages. */
	sg_result (*attach)(void *data, const struct sg_texture_data *t, uint32_t index,
	                    void **image);
	/* The texture's buffer has new content (sg_texture_mark_changed): with the
	 * texture bound (GL_TEXTURE_2D, or GL_TEXTURE_EXTERNAL_OES for an external
	 * import), waits for its acquire fence and has GL
	 * sample the new content. */
	sg_result (*changed)(void *data, const struct sg_texture_data *t, uint32_t index,
	                     void *image);
	/* Frees what attach made, once its GL texture is deleted; current context. */
	void (*release)(void *data, void *image);
	void *data;
};

#endif
