/* Text nodes: model nodes whose record points to a struct sg_text, whose mesh
 * is one quad per glyph with pixels, at the glyph bitmap's pixel-aligned
 * rectangle, textured from one atlas page. A string is first shaped and laid
 * out (layout.c), then its glyphs are found or rasterised on a page (atlas.c),
 * then the mesh is made; only then does the node change, so that a failure
 * changes nothing. */
#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "text_internal.h"
#include "../base/utf8.h"
#include "../base/sized.h"

/* What a string becomes: its layout, page and mesh. */
struct built {
	struct sg_text_layout layout;
	size_t page;
	sg_mesh mesh;
};

/* One quad per glyph with pixels; a string with none (empty, spaces) gets a
 * degenerate triangle, which draws nothing and which picking never hits, as
 * a mesh cannot be empty. */
static sg_result make_mesh(struct sg_scene *scene, const struct sg_text_state *state,
                           struct built *built)
{
	const struct sg_text_layout *layout = &built->layout;
	const struct sg_atlas_page *page =
	    built->page == SIZE_MAX ? NULL : &state->pages[built->page];
	struct sg_vertex *vertices =
	    sg_realloc_array(NULL, layout->count * 4 + 3, sizeof(*vertices));
	uint32_t *indices = sg_realloc_array(NULL, layout->count * 6 + 3, sizeof(*indices));
	if (!vertices || !indices) {
		sg_free(vertices);
		sg_free(indices);
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the mesh of %zu glyphs",
		               layout->count);
	}
	size_t quads = 0;
	const float texel = 1.0f / SG_ATLAS_SIDE;
	for (size_t i = 0; page && i < layout->count; i++) {
		const struct sg_text_glyph *g = &layout->glyphs[i];
		const struct sg_atlas_glyph *a = sg_atlas_find(page, g->font, g->glyph);
		if (!a || !a->width)
			continue;
		/* The pen rounded to whole pixels, so that glyph texels land on pixels. */
		float x0 = roundf(g->pen_x + g->x_offset) + (float)a->left;
		float y0 = roundf(g->pen_y - g->y_offset) - (float)a->top;
		float x1 = x0 + (float)a->width, y1 = y0 + (float)a->height;
		float u0 = (float)a->x * texel, v0 = (float)a->y * texel;
		float u1 = (float)(a->x + a->width) * texel, v1 = (float)(a->y + a->height) * texel;
		struct sg_vertex *v = &vertices[quads * 4];
		v[0] = (struct sg_vertex){{x0, y0, 0}, {u0, v0}};
		v[1] = (struct sg_vertex){{x0, y1, 0}, {u0, v1}};
		v[2] = (struct sg_vertex){{x1, y0, 0}, {u1, v0}};
		v[3] = (struct sg_vertex){{x1, y1, 0}, {u1, v1}};
		static const uint32_t corners[6] = {0, 1, 2, 2, 1, 3};
		for (int k = 0; k < 6; k++)
			indices[quads * 6 + (size_t)k] = (uint32_t)(quads * 4) + corners[k];
		quads++;
	}
	struct sg_mesh_desc desc = {.vertices = vertices,
	                            .vertex_count = quads * 4,
	                            .indices = indices,
	                            .index_count = quads * 6};
	if (!quads) {
		memset(vertices, 0, 3 * sizeof(*vertices));
		desc = (struct sg_mesh_desc){.vertices = vertices, .vertex_count = 3};
		built->page = SIZE_MAX; /* nothing drawn from it */
	}
	built->mesh = sg_mesh_create(scene, &desc);
	sg_free(vertices);
	sg_free(indices);
	return built->mesh.generation ? SG_OK : sg_last_result();
}

static sg_result build(struct sg_scene *scene, struct sg_text_state *state, sg_font font,
                       const char *utf8, float max_width, int max_lines, enum sg_text_align align,
                       float line_height, struct built *built)
{
	size_t length = strlen(utf8);
	sg_result result;
	if ((result = sg_utf8_check(utf8, length)) ||
	    (result = sg_text_layout_run(&built->layout, scene, font, utf8, length, max_width, max_lines,
	                                 align, line_height)) ||
	    (result = sg_atlas_place(scene, state, &built->layout, &built->page)) ||
	    (result = make_mesh(scene, state, built))) {
		sg_text_layout_finish(&built->layout);
		return result;
	}
	return SG_OK;
}

static sg_result check_desc(const struct sg_text_desc *desc, const char *label, float color[4])
{
	static const float black[4] = {0, 0, 0, 1};
	bool zero = !desc->color[0] && !desc->color[1] && !desc->color[2] && !desc->color[3];
	memcpy(color, zero ? black : desc->color, sizeof(float) * 4);
	for (int i = 0; i < 4; i++)
		if (!sg_float_unit(color[i]))
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "text '%.100s': colour component %d = %g is not in [0, 1]",
			               label, i, (double)color[i]);
	if (!isfinite(desc->max_width) || desc->max_width < 0)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "text '%.100s': max_width %g is negative or not finite", label,
		               (double)desc->max_width);
	if (desc->max_lines < 0)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "text '%.100s': max_lines %d is negative",
		               label, desc->max_lines);
	if (!isfinite(desc->line_height) || desc->line_height < 0)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "text '%.100s': line_height %g is negative or not finite", label,
		               (double)desc->line_height);
	if ((unsigned)desc->align > SG_TEXT_ALIGN_RIGHT)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "text '%.100s': align %d is unknown", label,
		               desc->align);
	if (!sg_floats_finite(desc->position, 3))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "text '%.100s': position is not finite",
		               label);
	return SG_OK;
}

sg_node sg_node_new_text_sized(struct sg_scene *scene, const struct sg_text_desc *desc, size_t size)
{
	struct sg_text_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_text_desc, position),
	                                 "sg_node_new_text")))
		return (sg_node){0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_new_text: %s is NULL",
		        scene ? "desc" : "scene");
		return SG_NODE_NONE;
	}
	const char *label = desc->name ? desc->name : "";
	float color[4];
	const struct sg_font_data *data = sg_text_font(scene, desc->font, "font");
	if (!data) {
		sg_fail_prefix(sg_last_result(), "text '%.100s': ", label);
		return SG_NODE_NONE;
	}
	if (check_desc(desc, label, color))
		return SG_NODE_NONE;
	const char *utf8 = desc->utf8 ? desc->utf8 : "";
	struct sg_text *text = sg_calloc(1, sizeof(*text));
	char *name = desc->name ? sg_strdup(desc->name) : NULL;
	char *copy = sg_strdup(utf8);
	if (!text || !copy || (desc->name && !name) ||
	    (name && !sg_index_map_reserve(&scene->names)) || !sg_index_map_reserve(&scene->texts)) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for text '%.100s'", label);
		goto fail;
	}
	struct sg_text_state *state = scene->text_state;
	struct built built = {0};
	if (build(scene, state, desc->font, utf8, desc->max_width, desc->max_lines, desc->align,
	          desc->line_height, &built)) {
		sg_fail_prefix(sg_last_result(), "text '%.100s': ", label);
		goto fail;
	}
	uint32_t index = sg_scene_alloc_node(scene, SG_NODE_MODEL);
	if (!index) {
		sg_mesh_destroy(scene, built.mesh);
		sg_text_layout_finish(&built.layout);
		goto fail;
	}
	*text = (struct sg_text){
	    .font = desc->font,
	    .utf8 = copy,
	    .max_width = desc->max_width,
	    .max_lines = desc->max_lines,
	    .line_height = desc->line_height,
	    .align = desc->align,
	    .page = built.page,
	    .layout = built.layout,
	};
	sg_atlas_use(scene, state, built.page);
	struct sg_model_data *model = sg_scene_model(scene, index);
	model->mesh = SG_RESOURCE_REF(built.mesh);
	model->texture = SG_RESOURCE_REF(
	    built.page == SIZE_MAX ? SG_TEXTURE_NONE : state->pages[built.page].texture);
	memcpy(model->color, color, sizeof(model->color));
	sg_index_map_put(&scene->texts, index, text); /* room reserved above */
	scene->flags[index] |= SG_NODE_TEXT_RECORD;
	sg_scene_set_name(scene, index, name); /* room reserved above: cannot fail */
	glm_vec3_copy((float *)desc->position, model->position);
	return sg_scene_handle(scene, index);

fail:
	sg_free(text);
	sg_free(name);
	sg_free(copy);
	return SG_NODE_NONE;
}

/* The record of a live text node, or NULL with a message naming function. */
static struct sg_text *text_of(const struct sg_scene *scene, sg_node node, const char *function)
{
	if (sg_scene_check_node(scene, node, function))
		return NULL;
	struct sg_text *text = sg_scene_text(scene, node.index);
	if (!text)
		sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: node %s is not a text node", function,
		        sg_scene_node_label(scene, node.index));
	return text;
}

sg_result sg_text_set_string(struct sg_scene *scene, sg_node node, const char *utf8)
{
	struct sg_text *text = text_of(scene, node, "sg_text_set_string");
	if (!text)
		return sg_last_result();
	if (!utf8)
		utf8 = "";
	if (strcmp(text->utf8, utf8) == 0)
		return SG_OK; /* the same string: the same glyphs */
	const struct sg_font_data *data = sg_text_font(scene, text->font, "sg_text_set_string");
	if (!data)
		return sg_fail_prefix(sg_last_result(),
		                      "text node %s: ", sg_scene_node_label(scene, node.index));
	char *copy = sg_strdup(utf8);
	if (!copy)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory copying the string of text node %s",
		               sg_scene_node_label(scene, node.index));
	struct sg_text_state *state = scene->text_state;
	struct built built = {0};
	sg_result result = build(scene, state, text->font, utf8, text->max_width, text->max_lines, text->align,
	                         text->line_height, &built);
	if (result) {
		sg_free(copy);
		return sg_fail_prefix(result,
		                      "text node %s: ", sg_scene_node_label(scene, node.index));
	}
	struct sg_model_data *model = sg_scene_model(scene, node.index);
	sg_mesh old_mesh = sg_model_mesh(scene, model);
	sg_atlas_use(scene, state, built.page);
	sg_atlas_release(scene, state, text->page);
	model->mesh = SG_RESOURCE_REF(built.mesh);
	model->texture = SG_RESOURCE_REF(
	    built.page == SIZE_MAX ? SG_TEXTURE_NONE : state->pages[built.page].texture);
	sg_scene_structure_changed(scene);
	sg_scene_journal(scene, node.index);
	if (sg_mesh_exists(scene, old_mesh))
		sg_mesh_destroy(scene, old_mesh);
	sg_free(text->utf8);
	text->utf8 = copy;
	text->page = built.page;
	sg_text_layout_finish(&text->layout);
	text->layout = built.layout;
	return SG_OK;
}

const char *sg_text_get_string(const struct sg_scene *scene, sg_node node)
{
	struct sg_text *text = text_of(scene, node, "sg_text_get_string");
	return text ? text->utf8 : NULL;
}

static sg_result text_get_extent(const struct sg_scene *scene, sg_node node,
                                 struct sg_text_extent *extent)
{
	struct sg_text *text = text_of(scene, node, "sg_text_get_extent");
	if (!text)
		return sg_last_result();
	if (!extent)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_text_get_extent: extent is NULL");
	*extent = text->layout.extent;
	return SG_OK;
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
