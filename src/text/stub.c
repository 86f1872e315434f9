/* sg/text.h where libsg is built without FreeType and HarfBuzz (meson option
 * 'text'): every function exists and fails with SG_ERR_UNSUPPORTED, so that
 * programs link against any libsg and ask sg_text_available() at run time. */
#include <sg/text.h>

#include "../base/error.h"
#include "budget.h"
#include "../base/sized.h"

#define WITHOUT_TEXT "libsg was built without text: FreeType and HarfBuzz not found"

bool sg_text_available(void)
{
	return false;
}

sg_font sg_font_load(struct sg_scene *scene, const char *path, int pixel_size)
{
	(void)scene;
	(void)pixel_size;
	sg_fail(SG_ERR_UNSUPPORTED, "sg_font_load '%s': " WITHOUT_TEXT, path ? path : "(null)");
	return (sg_font){0};
}

sg_result sg_font_destroy(struct sg_scene *scene, sg_font font)
{
	(void)scene;
	(void)font;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_font_destroy: " WITHOUT_TEXT);
}

bool sg_font_exists(const struct sg_scene *scene, sg_font font)
{
	(void)scene;
	(void)font;
	return false;
}

sg_result sg_font_add_fallback(struct sg_scene *scene, sg_font font, sg_font fallback)
{
	(void)scene;
	(void)font;
	(void)fallback;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_font_add_fallback: " WITHOUT_TEXT);
}

sg_result sg_font_set_system_fallback(struct sg_scene *scene, sg_font font, bool enabled)
{
	(void)scene;
	(void)font;
	(void)enabled;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_font_set_system_fallback: " WITHOUT_TEXT);
}

sg_node sg_node_new_text_sized(struct sg_scene *scene, const struct sg_text_desc *desc, size_t size)
{
	struct sg_text_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_text_desc, position),
	                                 "sg_node_new_text")))
		return (sg_node){0};
	(void)scene;
	(void)desc;
	sg_fail(SG_ERR_UNSUPPORTED, "sg_node_new_text: " WITHOUT_TEXT);
	return SG_NODE_NONE;
}

sg_result sg_text_set_string(struct sg_scene *scene, sg_node node, const char *utf8)
{
	(void)scene;
	(void)node;
	(void)utf8;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_text_set_string: " WITHOUT_TEXT);
}

const char *sg_text_get_string(const struct sg_scene *scene, sg_node node)
{
	(void)scene;
	(void)node;
	sg_fail(SG_ERR_UNSUPPORTED, "sg_text_get_string: " WITHOUT_TEXT);
	return NULL;
}

static sg_result text_get_extent(const struct sg_scene *scene, sg_node node,
                                 struct sg_text_extent *extent)
{
	(void)scene;
	(void)node;
	(void)extent;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_text_get_extent: " WITHOUT_TEXT);
}

sg_result sg_text_get_extent_sized(const struct sg_scene *scene, sg_node node,
                                   struct sg_text_extent *extent, size_t size)
{
	if (extent && !sg_sized_out_fits(size, SG_SIZE_THROUGH(struct sg_text_extent, descent),
	                                 "sg_text_get_extent"))
		return sg_last_result();
	struct sg_text_extent full;
	sg_result result = text_get_extent(scene, node, extent ? &full : NULL);
	if (extent && result == SG_OK)
		sg_sized_out(extent, size, &full, sizeof full);
	return result;
}

sg_result sg_text_set_atlas_budget(struct sg_scene *scene, uint64_t bytes)
{
	(void)scene;
	(void)bytes;
	return SG_OK; /* no pages are ever made */
}

uint64_t sg_text_atlas_bytes(const struct sg_scene *scene)
{
	(void)scene;
	return 0;
}

sg_result sg_text_check_marks(const char *utf8, size_t length)
{
	(void)utf8;
	(void)length;
	return SG_OK; /* text nodes are refused whole */
}
