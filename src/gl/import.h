/* Internal: imported textures (sg_texture_import_dmabuf). GL alone cannot
 * give a texture the storage of a dma-buf (that takes an EGLImage), and this
 * layer may not include EGL: the layer that knows both (src/target/import.c)
 * hands the texture cache these operations. */
#ifndef SG_GL_IMPORT_H
#define SG_GL_IMPORT_H

#include <GLES3/gl3.h>

#include <sg/error.h>

struct sg_texture_data;

/* GL textures (and EGLImages) per imported texture: one for the RGB formats;
 * NV12 has one per plane, Y (R8) then CbCr (GR88), which libsg's own program
 * converts (src/gl/material_nv12.c): drivers' YUV sampling is not trusted. */
#define SG_GL_IMPORT_PLANES 2

struct sg_gl_import_ops {
	/* Gives the fresh GL_TEXTURE_2D textures names (one per plane of
	 * t->import, see SG_GL_IMPORT_PLANES) the buffer's planes as their
	 * storage, binding each on the active unit; images[i] gets what release()
	 * takes (on failure, what was made so far). index names the texture in
	 * messages. */
	sg_result (*attach)(void *data, const struct sg_texture_data *t, uint32_t index,
	                    const GLuint names[SG_GL_IMPORT_PLANES],
	                    void *images[SG_GL_IMPORT_PLANES]);
	/* The texture's buffer has new content (sg_texture_mark_changed): waits
	 * for its acquire fence and has GL sample the new content (binding names
	 * as attach does). */
	sg_result (*changed)(void *data, const struct sg_texture_data *t, uint32_t index,
	                     const GLuint names[SG_GL_IMPORT_PLANES],
	                     void *const images[SG_GL_IMPORT_PLANES]);
	/* Frees an image attach made, once its GL texture is deleted; current context. */
	void (*release)(void *data, void *image);
	void *data;
};

#endif
