/* sg_texture_import_renderer: render-to-texture as one renderer's exported
 * output buffer imported into another scene (docs/dmabuf-import.md). */
#include <unistd.h>

#include <sg/dmabuf.h>
#include <sg/renderer.h>

#include "../base/error.h"

sg_texture sg_texture_import_renderer(struct sg_scene *scene, struct sg_renderer *source,
                                      enum sg_filter filter)
{
	const sg_texture none = {0};
	if (!scene || !source) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_import_renderer: %s is NULL",
		        !scene ? "scene" : "source");
		return none;
	}
	struct sg_dmabuf dmabuf;
	sg_result result = sg_renderer_export_dmabuf(source, &dmabuf);
	if (result) {
		sg_fail_prefix(result, "sg_texture_import_renderer: ");
		return none;
	}
	struct sg_dmabuf_desc desc = {
	    .width = dmabuf.width,
	    .height = dmabuf.height,
	    .fourcc = dmabuf.fourcc,
	    .modifier = dmabuf.modifier,
	    .plane_count = dmabuf.plane_count,
	    .filter = filter,
	};
	/* Every plane of the export is in the one buffer. */
	for (int i = 0; i < dmabuf.plane_count && i < SG_DMABUF_MAX_PLANES; i++)
		desc.planes[i] =
		    (struct sg_dmabuf_plane){dmabuf.fd, dmabuf.offsets[i], dmabuf.strides[i]};
	sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
	close(dmabuf.fd); /* the texture holds its own dup */
	if (!texture.generation)
		sg_fail_prefix(sg_last_result(), "sg_texture_import_renderer: ");
	return texture;
}
