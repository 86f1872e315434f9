/* Fonts (one FreeType face at one pixel size, with its HarfBuzz font) and the
 * scene's text state, made with the scene's text hooks when the first font is
 * loaded. Each scene has its own FT_Library: FreeType objects are not
 * thread-safe, and a scene is used by one thread at a time. */
#include <errno.h>
#include <fcntl.h>
#include <hb-ft.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "text_internal.h"

bool sg_text_available(void)
{
	return true;
}

void sg_text_font_free(struct sg_text_state *state, uint32_t index)
{
	struct sg_font_data *font = &state->fonts[index];
	struct sg_font_fallbacks *fallbacks = &font->fallbacks;
	for (size_t i = 0; i < fallbacks->loaded_count; i++) {
		sg_font loaded = fallbacks->loaded[i].font;
		if (sg_pool_holds(&state->font_pool, loaded.index, loaded.generation))
			sg_text_font_free(state, loaded.index);
		sg_free(fallbacks->loaded[i].file);
	}
	sg_text_fallbacks_finish(fallbacks);
	font = &state->fonts[index];
	hb_font_destroy(font->hb_font); /* drops its reference to the face first */
	FT_Done_Face(font->face);
	sg_free(font->path);
	*font = (struct sg_font_data){0};
	sg_pool_free(&state->font_pool, index);
}

static void free_text(struct sg_text *text)
{
	sg_text_layout_finish(&text->layout);
	sg_free(text->utf8);
	sg_free(text);
}

static void node_freed(struct sg_scene *scene, uint32_t index)
{
	struct sg_model_data *model = sg_scene_model(scene, index);
	struct sg_text *text = sg_index_map_take(&scene->texts, index);
	scene->flags[index] &= (uint8_t)~SG_NODE_TEXT_RECORD;
	if (sg_mesh_exists(scene, sg_model_mesh(scene, model)))
		sg_mesh_destroy(scene, sg_model_mesh(scene, model));
	sg_atlas_release(scene, scene->text_state, text->page);
	free_text(text);
}

static void scene_destroyed(struct sg_scene *scene)
{
	struct sg_text_state *state = scene->text_state;
	/* The scene frees the meshes and textures themselves. */
	for (uint32_t n = SG_ROOT_INDEX; n < scene->node_pool.used; n++)
		if (scene->flags[n] & SG_NODE_TEXT_RECORD)
			free_text(sg_scene_text(scene, n));
	for (uint32_t i = 0; i < state->font_pool.used; i++)
		if (state->fonts[i].face)
			sg_text_font_free(state, i);
	sg_pool_finish(&state->font_pool);
	sg_free(state->fonts);
	sg_atlas_finish(state);
	FT_Done_FreeType(state->library);
	sg_free(state);
	scene->text_state = NULL;
	scene->text_ops = NULL;
}

static const struct sg_text_ops text_ops = {
    .node_freed = node_freed,
    .scene_destroyed = scene_destroyed,
};

/* FreeType's own table of messages, which FT_Error_String() returns only
 * where FreeType was built with FT_CONFIG_OPTION_ERROR_STRINGS (Debian's is
 * not): fterrors.h expands it wherever these macros say, as its manual shows. */
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) {e, s},
#define FT_ERROR_START_LIST {
#define FT_ERROR_END_LIST                                                                          \
	{                                                                                          \
		0, NULL                                                                            \
	}                                                                                          \
	}                                                                                          \
	;
static const struct {
	int code;
	const char *message;
} ft_errors[] =
#include FT_ERRORS_H

    static const char * ft_reason(FT_Error error)
{
	static _Thread_local char number[32];
	for (size_t i = 0; ft_errors[i].message; i++)
		if (ft_errors[i].code == error)
			return ft_errors[i].message;
	snprintf(number, sizeof(number), "FreeType error %d", error);
	return number;
}

struct sg_text_state *sg_text_state_get(struct sg_scene *scene)
{
	if (scene->text_state)
		return scene->text_state;
	struct sg_text_state *state = sg_calloc(1, sizeof(*state));
	if (!state) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for the scene's text state");
		return NULL;
	}
	FT_Error error = FT_Init_FreeType(&state->library);
	if (error) {
		sg_free(state);
		sg_fail(SG_ERR_NO_MEMORY, "FT_Init_FreeType failed: %s", ft_reason(error));
		return NULL;
	}
	sg_pool_init(&state->font_pool, "font", 0, 4, true);
	state->current_page = SIZE_MAX;
	state->page_budget = UINT64_MAX;
	scene->text_state = state;
	scene->text_ops = &text_ops;
	return state;
}

struct sg_font_data *sg_text_font(const struct sg_scene *scene, sg_font font, const char *function)
{
	if (!scene) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: scene is NULL", function);
		return NULL;
	}
	if (!scene->text_state) {
		if (font.generation && font.scene == scene->id)
			sg_fail(SG_ERR_STALE_HANDLE,
			        "%s: font #%u (generation %u) was never loaded", function,
			        font.index, font.generation);
		else
			sg_pool_check(&(struct sg_pool){.kind = "font"}, scene->id, font.scene,
			              font.index, font.generation, function);
		return NULL;
	}
	struct sg_text_state *state = scene->text_state;
	if (sg_pool_check(&state->font_pool, scene->id, font.scene, font.index, font.generation,
	                  function))
		return NULL;
	return &state->fonts[font.index];
}

static bool grow_fonts(void *owner, uint32_t capacity)
{
	struct sg_text_state *state = owner;
	void *p = sg_realloc_array(state->fonts, capacity, sizeof(*state->fonts));
	if (p)
		state->fonts = p;
	return p != NULL;
}

/* SG_OK when path is a readable regular file, else SG_ERR_IO naming it.
 * O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
static sg_result check_readable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return sg_fail(SG_ERR_IO, "font '%s': %s", path, strerror(errno));
	struct stat st;
	int failed = fstat(fd, &st), saved = errno;
	close(fd);
	if (failed)
		return sg_fail(SG_ERR_IO, "font '%s': %s", path, strerror(saved));
	if (!S_ISREG(st.st_mode))
		return sg_fail(SG_ERR_IO, "font '%s': not a regular file", path);
	return SG_OK;
}

static sg_result open_face(const struct sg_text_state *state, const char *path, int face_index,
                           int pixel_size, FT_Face *face)
{
	sg_result result = check_readable(path);
	if (result)
		return result;
	FT_Error error = FT_New_Face(state->library, path, face_index, face);
	if (error == FT_Err_Cannot_Open_Resource)
		return sg_fail(SG_ERR_IO, "font '%s': FreeType cannot open it: %s", path,
		               ft_reason(error));
	if (error)
		return sg_fail(SG_ERR_FORMAT, "font '%s': FreeType cannot open it as a face: %s",
		               path, ft_reason(error));
	if ((error = FT_Set_Pixel_Sizes(*face, 0, (FT_UInt)pixel_size))) {
		FT_Done_Face(*face);
		return sg_fail(SG_ERR_FORMAT,
		               "font '%s': no %d-pixel size (FT_Set_Pixel_Sizes: %s)", path,
		               pixel_size, ft_reason(error));
	}
	return SG_OK;
}

sg_font sg_font_load(struct sg_scene *scene, const char *path, int pixel_size)
{
	const sg_font none = {0};
	if (!scene || !path) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_font_load: %s is NULL",
		        scene ? "path" : "scene");
		return none;
	}
	if (pixel_size < 1 || pixel_size > 1024) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "font '%s': pixel size %d is outside 1 .. 1024",
		        path, pixel_size);
		return none;
	}
	return sg_text_font_open(scene, path, 0, pixel_size);
}

sg_font sg_text_font_open(struct sg_scene *scene, const char *path, int face_index,
                          int pixel_size)
{
	const sg_font none = {0};
	struct sg_text_state *state = sg_text_state_get(scene);
	if (!state)
		return none;
	FT_Face face;
	if (open_face(state, path, face_index, pixel_size, &face))
		return none;
	hb_font_t *hb_font = hb_ft_font_create_referenced(face);
	char *copy = sg_strdup(path);
	uint32_t index;
	if (hb_font == hb_font_get_empty() || !copy ||
	    !sg_pool_alloc(&state->font_pool, grow_fonts, state, &index)) {
		if (hb_font != hb_font_get_empty())
			sg_fail(SG_ERR_NO_MEMORY, "out of memory loading font '%s'", path);
		else
			sg_fail(SG_ERR_NO_MEMORY, "font '%s': hb_ft_font_create_referenced failed",
			        path);
		sg_free(copy);
		hb_font_destroy(hb_font);
		FT_Done_Face(face);
		return none;
	}
	const FT_Size_Metrics *metrics = &face->size->metrics;
	state->fonts[index] = (struct sg_font_data){
	    .face = face,
	    .hb_font = hb_font,
	    .path = copy,
	    .pixel_size = pixel_size,
	    .ascent = (float)metrics->ascender / 64.0f,
	    .descent = (float)-metrics->descender / 64.0f,
	    .height = (float)metrics->height / 64.0f,
	};
	return (sg_font){scene->id, index, state->font_pool.generation[index]};
}

sg_result sg_font_destroy(struct sg_scene *scene, sg_font font)
{
	struct sg_font_data *data = sg_text_font(scene, font, "sg_font_destroy");
	if (!data)
		return sg_last_result();
	/* Its glyphs stay on their pages for the text nodes drawing them; the
	 * generation in their key keeps a later font in the slot from finding them. */
	sg_text_font_free(scene->text_state, font.index);
	return SG_OK;
}

bool sg_font_exists(const struct sg_scene *scene, sg_font font)
{
	return scene && scene->text_state && font.scene == scene->id &&
	       sg_pool_holds(&scene->text_state->font_pool, font.index, font.generation);
}
