/* The kiosk demo's screen (kiosk_scene.h). */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <string.h>

#include "kiosk_scene.h"

static const float slide_colors[KIOSK_SLIDES][2][4] = {
    {{0.11f, 0.21f, 0.34f, 1}, {0.27f, 0.48f, 0.62f, 1}},
    {{0.55f, 0.16f, 0.22f, 1}, {0.90f, 0.42f, 0.30f, 1}},
    {{0.13f, 0.40f, 0.25f, 1}, {0.55f, 0.78f, 0.43f, 1}},
    {{0.32f, 0.20f, 0.50f, 1}, {0.68f, 0.52f, 0.85f, 1}},
    {{0.60f, 0.45f, 0.08f, 1}, {0.96f, 0.80f, 0.35f, 1}},
};

static sg_node add_model(struct sg_scene *scene, sg_node parent, const char *name, sg_mesh mesh,
                         sg_texture texture, float x, float y)
{
	sg_node node = sg_node_new_model(
	    scene, &(struct sg_model_desc){
	               .name = name, .mesh = mesh, .texture = texture, .position = {x, y, 0}});
	sg_node_add_child(scene, parent, node);
	return node;
}

static void add_label(struct sg_scene *scene, sg_node parent, sg_font font, const char *text,
                      float x, float y, float width, const float color[4], sg_node *out)
{
	sg_node node = sg_node_new_text(scene, &(struct sg_text_desc){
	                                           .font = font,
	                                           .utf8 = text,
	                                           .color = {color[0], color[1], color[2], color[3]},
	                                           .max_width = width,
	                                           .max_lines = 1,
	                                           .align = SG_TEXT_ALIGN_CENTER,
	                                           .position = {x, y, 0}});
	sg_node_add_child(scene, parent, node);
	sg_node_set_pickable(scene, node, false); /* a touch on a label is its button's */
	if (out)
		*out = node;
}

sg_result kiosk_build(struct kiosk *k, int width, int height, const char *font_path)
{
	*k = (struct kiosk){.width = width, .height = height};
	struct sg_scene *scene = k->scene = sg_scene_create();
	if (!scene)
		return sg_last_result();
	sg_node root = sg_scene_root(scene);
	float w = (float)width, h = (float)height;
	float margin = (w < h ? w : h) / 24.0f;
	float bar = h / 10.0f;
	float button_h = h / 8.0f > 48.0f ? h / 8.0f : 48.0f;
	float button_w = (w - 3.0f * margin) / 2.0f;
	float slide_y = bar + margin, slide_h = h - bar - 3.0f * margin - button_h;
	sg_font font = {0};
	if (font_path && sg_text_available())
		font = sg_font_load(scene, font_path, (int)(bar * 0.45f));
	int label_px = (int)(button_h * 0.4f);

	/* The title bar: a gradient from edge to edge. */
	struct sg_shape_desc title = {.width = w,
	                              .height = bar,
	                              .gradient = SG_GRADIENT_LINEAR,
	                              .gradient_end = {w, 0},
	                              .stop_count = 2,
	                              .stops = {{0, {0.11f, 0.21f, 0.34f, 1}}, {1, {0.27f, 0.48f, 0.62f, 1}}}};
	add_model(scene, root, "Title bar", sg_mesh_create_shape(scene, &title),
	          sg_texture_create_shape(scene, &title), 0, 0);
	const float white[4] = {1, 1, 1, 1};
	if (sg_font_exists(scene, font)) {
		add_label(scene, root, font, "libsg kiosk: touch, click or press \u2190 \u2192", margin,
		          bar * 0.25f, w - 2 * margin, white, NULL);
	}

	/* The slides, one shown at a time. */
	for (int i = 0; i < KIOSK_SLIDES; i++) {
		struct sg_shape_desc slide = {.width = w - 2 * margin,
		                              .height = slide_h,
		                              .radii = {margin, margin, margin, margin},
		                              .gradient = SG_GRADIENT_LINEAR,
		                              .gradient_end = {0, slide_h},
		                              .stop_count = 2};
		for (int s = 0; s < 2; s++) {
			slide.stops[s].offset = (float)s;
			memcpy(slide.stops[s].color, slide_colors[i][s], sizeof(slide.stops[s].color));
		}
		char name[32];
		snprintf(name, sizeof(name), "Slide %d", i + 1);
		k->slides[i] = sg_node_new_group(scene, name);
		sg_node_add_child(scene, root, k->slides[i]);
		add_model(scene, k->slides[i], name, sg_mesh_create_shape(scene, &slide),
		          sg_texture_create_shape(scene, &slide), margin, slide_y);
		if (sg_font_exists(scene, font)) {
			char text[48];
			snprintf(text, sizeof(text), "Slide %d of %d", i + 1, KIOSK_SLIDES);
			add_label(scene, k->slides[i], font, text, margin, slide_y + slide_h / 2 - bar / 4,
			          w - 2 * margin, white, NULL);
		}
		sg_node_set_visible(scene, k->slides[i], i == 0);
	}

	/* The buttons. */
	k->button = (struct sg_shape_desc){.width = button_w,
	                                   .height = button_h,
	                                   .radii = {button_h / 4, button_h / 4, button_h / 4,
	                                             button_h / 4},
	                                   .fill = {0.93f, 0.94f, 0.96f, 1},
	                                   .border_width = 2,
	                                   .border_color = {0.11f, 0.21f, 0.34f, 1}};
	sg_mesh button_mesh = sg_mesh_create_shape(scene, &k->button);
	float button_y = h - margin - button_h;
	k->prev_shape = sg_texture_create_shape(scene, &k->button);
	k->next_shape = sg_texture_create_shape(scene, &k->button);
	k->prev = add_model(scene, root, "Previous", button_mesh, k->prev_shape, margin, button_y);
	k->next = add_model(scene, root, "Next", button_mesh, k->next_shape, 2 * margin + button_w,
	                    button_y);
	sg_font label_font = {0};
	if (font_path && sg_text_available())
		label_font = sg_font_load(scene, font_path, label_px);
	if (sg_font_exists(scene, label_font)) {
		const float ink[4] = {0.11f, 0.21f, 0.34f, 1};
		float label_y = button_y + (button_h - (float)label_px * 1.2f) / 2;
		add_label(scene, root, label_font, "\u25c0 Previous", margin, label_y, button_w, ink,
		          NULL);
		add_label(scene, root, label_font, "Next \u25b6", 2 * margin + button_w, label_y,
		          button_w, ink, NULL);
	}
	if (!sg_node_exists(scene, k->prev) || !sg_node_exists(scene, k->next))
		return sg_last_result();
	return SG_OK;
}

void kiosk_finish(struct kiosk *k)
{
	sg_scene_destroy(k->scene);
	k->scene = NULL;
}

void kiosk_advance(struct kiosk *k, int step)
{
	sg_node_set_visible(k->scene, k->slides[k->slide], false);
	k->slide = ((k->slide + step) % KIOSK_SLIDES + KIOSK_SLIDES) % KIOSK_SLIDES;
	sg_node_set_visible(k->scene, k->slides[k->slide], true);
}

/* A button lit (pressed) or at rest. */
static void light(struct kiosk *k, sg_texture shape, bool lit)
{
	struct sg_shape_desc desc = k->button;
	if (lit) {
		const float pressed[4] = {0.27f, 0.48f, 0.62f, 1};
		memcpy(desc.fill, pressed, sizeof(desc.fill));
	}
	sg_texture_set_shape(k->scene, shape, &desc);
}

static bool same(sg_node a, sg_node b)
{
	return a.index == b.index && a.generation == b.generation && a.scene == b.scene;
}

static bool press(struct kiosk *k, const struct sg_input_event *e)
{
	struct sg_pick_hit hit;
	if (sg_input_pick(k->scene, NULL, k->width, k->height, e, &hit) != SG_OK)
		return false;
	bool prev = same(hit.node, k->prev);
	if (!prev && !same(hit.node, k->next))
		return false;
	k->presses++;
	light(k, prev ? k->prev_shape : k->next_shape, true);
	kiosk_advance(k, prev ? -1 : 1);
	return true;
}

static bool release(struct kiosk *k)
{
	light(k, k->prev_shape, false);
	light(k, k->next_shape, false);
	return true;
}

bool kiosk_handle(struct kiosk *k, const struct sg_input_event *e, bool *quit)
{
	switch (e->kind) {
	case SG_INPUT_TOUCH_DOWN:
		return press(k, e);
	case SG_INPUT_POINTER_BUTTON:
		return e->button == BTN_LEFT && (e->pressed ? press(k, e) : release(k));
	case SG_INPUT_TOUCH_UP:
	case SG_INPUT_TOUCH_CANCEL:
		return release(k);
	case SG_INPUT_KEY:
		if (!e->pressed)
			return false;
		if (e->key == KEY_ESC || e->key == KEY_Q)
			*quit = true;
		else if (e->key == KEY_LEFT || e->key == KEY_RIGHT || e->key == KEY_SPACE)
			kiosk_advance(k, e->key == KEY_LEFT ? -1 : 1);
		else
			return false;
		return true;
	default:
		return false;
	}
}
