/* The damage tests' scene and edits (damage_scene.h). */
#include <check.h>
#include <stdint.h>

#include "damage_scene.h"

unsigned damage_world_random(struct damage_world *w)
{
	w->seed = w->seed * 1103515245u + 12345u;
	return (w->seed >> 16) & 0x7fff;
}

static float random_unit(struct damage_world *w)
{
	return (float)damage_world_random(w) / 32767.0f;
}

/* An 8x8 texture of a pattern of its own: index 1 has translucent texels. */
static sg_texture make_texture(struct sg_scene *scene, int index)
{
	uint8_t pixels[8 * 8 * 4];
	for (int i = 0; i < 64; i++) {
		pixels[i * 4 + 0] = (uint8_t)(i * 37 + index * 80);
		pixels[i * 4 + 1] = (uint8_t)(i * 11 + index * 30);
		pixels[i * 4 + 2] = (uint8_t)(255 - i * 3);
		pixels[i * 4 + 3] = index == 1 ? (uint8_t)(64 + i * 3) : 255;
	}
	sg_texture t = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 8, .height = 8, .pixels = pixels});
	ck_assert_msg(t.generation, "%s", sg_last_error());
	return t;
}

static sg_node make_model(struct damage_world *w, int i)
{
	sg_node m = sg_node_new_model(
	    w->scene,
	    &(struct sg_model_desc){.mesh = w->meshes[i % 3],
	                            .texture = i % 4 == 3 ? SG_TEXTURE_NONE : w->textures[i % 3],
	                            .position = {random_unit(w) * w->width * 0.8f,
	                                         random_unit(w) * w->height * 0.8f, 0}});
	ck_assert_msg(m.generation, "%s", sg_last_error());
	return m;
}

/* big: meshes[2] has more vertices than the expanded path takes, so that
 * the scene is drawn instanced (src/gl/batch.c) instead. */
void damage_world_build(struct damage_world *w, unsigned seed, bool big, int width, int height)
{
	*w = (struct damage_world){.seed = seed, .width = width, .height = height};
	w->scene = sg_scene_create();
	ck_assert_ptr_nonnull(w->scene);
	for (int t = 0; t < 3; t++)
		w->textures[t] = make_texture(w->scene, t);
	w->meshes[0] = sg_mesh_create_quad(w->scene, 20, 14);
	w->meshes[1] = sg_mesh_create_quad(w->scene, 9, 25);
	/* a triangle, so that rotations change pixels and not only boxes */
	static const struct sg_vertex triangle[] = {
	    {{0, 0, 0}, {0, 0}}, {{18, 4, 0}, {1, 0}}, {{5, 16, 0}, {0, 1}}};
	w->meshes[2] = sg_mesh_create(w->scene, &(struct sg_mesh_desc){triangle, 3, NULL, 0});
	if (big) { /* a fan of 30 thin triangles: 90 vertices */
		static struct sg_vertex fan[90];
		for (int t = 0; t < 30; t++) {
			fan[t * 3] = triangle[0];
			fan[t * 3 + 1] =
			    (struct sg_vertex){{18.0f - t * 0.4f, 4.0f + t * 0.3f, 0}, {1, 0}};
			fan[t * 3 + 2] =
			    (struct sg_vertex){{17.6f - t * 0.4f, 4.3f + t * 0.3f, 0}, {0, 1}};
		}
		w->meshes[2] = sg_mesh_create(w->scene, &(struct sg_mesh_desc){fan, 90, NULL, 0});
	}
	for (int g = 0; g < DAMAGE_GROUPS; g++) {
		w->groups[g] = sg_node_new_transform(w->scene, &(struct sg_transform_desc){0});
		ck_assert_int_eq(sg_node_add_child(w->scene, sg_scene_root(w->scene), w->groups[g]),
		                 SG_OK);
		for (int i = 0; i < DAMAGE_PER_GROUP; i++) {
			sg_node m = w->models[g * DAMAGE_PER_GROUP + i] =
			    make_model(w, g * DAMAGE_PER_GROUP + i);
			ck_assert_int_eq(sg_node_add_child(w->scene, w->groups[g], m), SG_OK);
		}
	}
}

void damage_camera_init(struct sg_camera *camera, int width, int height, bool perspective,
                        float tilt)
{
	float w = (float)width, h = (float)height;
	if (!perspective) {
		sg_camera_init_pixels(camera, w + tilt * 20, h);
		return;
	}
	sg_camera_init_perspective(camera, 0.9f, w / h, 1.0f, 1000.0f);
	const float eye[3] = {w / 2.0f + tilt * 30, h / 2.0f, -90.0f};
	const float centre[3] = {w / 2.0f, h / 2.0f, 0.0f}, up[3] = {0, -1, 0};
	sg_camera_look_at(camera, eye, centre, up);
}

/* One random edit of the kinds the issue lists. camera: changed in place. */
const char *damage_world_edit(struct damage_world *w, struct sg_camera *camera, float clear[4])
{
	struct sg_scene *s = w->scene;
	int count = DAMAGE_GROUPS * DAMAGE_PER_GROUP;
	sg_node m = w->models[damage_world_random(w) % count];
	sg_node g = w->groups[damage_world_random(w) % DAMAGE_GROUPS];
	switch (damage_world_random(w) % 14) {
	case 0:
	case 1:
		if (sg_node_exists(s, m))
			sg_model_set_position(s, m, random_unit(w) * w->width,
			                      random_unit(w) * w->height, 0);
		return "move a model";
	case 2:
		sg_transform_rotate(s, g, random_unit(w) * 0.3f - 0.15f, 0,
		                    w->perspective ? 0.3f : 0, 1);
		sg_transform_translate(s, g, random_unit(w) * 6 - 3, random_unit(w) * 6 - 3, 0);
		return "move a group";
	case 3: {
		uint8_t texels[3 * 2 * 4];
		for (int i = 0; i < 24; i++)
			texels[i] = (uint8_t)damage_world_random(w);
		sg_texture_update(s, w->textures[damage_world_random(w) % 3],
		                  (int)(damage_world_random(w) % 6),
		                  (int)(damage_world_random(w) % 7), 3, 2, texels, 0);
		return "texture update";
	}
	case 4: {
		bool visible;
		sg_node n = damage_world_random(w) % 2 ? m : g;
		if (sg_node_exists(s, n) && sg_node_get_visible(s, n, &visible) == SG_OK)
			sg_node_set_visible(s, n, !visible);
		return "visibility";
	}
	case 5:
		sg_node_set_opacity(s, damage_world_random(w) % 2 ? g : m,
		                    0.25f + random_unit(w) * 0.75f);
		return "opacity";
	case 6:
		if (sg_node_exists(s, m))
			sg_model_set_color(s, m, random_unit(w), random_unit(w), random_unit(w),
			                   0.5f + random_unit(w) * 0.5f);
		return "colour";
	case 7: /* reorder: to the front or the back of its siblings, or to another group */
		if (sg_node_exists(s, m)) {
			sg_node parent = damage_world_random(w) % 2 ? g : sg_node_get_parent(s, m);
			if (!sg_node_exists(s, parent))
				parent = g;
			sg_node_remove(s, m);
			if (damage_world_random(w) % 2)
				sg_node_insert_child(s, parent, 0, m);
			else
				sg_node_add_child(s, parent, m);
		}
		return "reorder";
	case 8: { /* remove (destroy) a model and add a new one in its slot */
		int i = (int)(damage_world_random(w) % (unsigned)count);
		if (sg_node_exists(s, w->models[i]))
			sg_node_destroy(s, w->models[i]);
		w->models[i] = make_model(w, i);
		sg_node_add_child(s, g, w->models[i]);
		return "remove and add";
	}
	case 9: /* detach a model, keeping it for a later reorder */
		if (sg_node_exists(s, m))
			sg_node_remove(s, m);
		return "detach";
	case 10:
		if (sg_node_exists(s, m)) {
			sg_model_set_mesh(s, m, w->meshes[damage_world_random(w) % 3]);
			sg_model_set_texture(s, m,
			                     damage_world_random(w) % 3
			                         ? w->textures[damage_world_random(w) % 3]
			                         : SG_TEXTURE_NONE);
		}
		return "mesh and texture";
	case 11:
		if (damage_world_random(w) % 4 == 0) {
			damage_camera_init(camera, w->width, w->height, w->perspective,
			                   random_unit(w));
			return "camera";
		}
		return "nothing";
	case 12:
		if (damage_world_random(w) % 4 == 0) {
			clear[0] = random_unit(w);
			return "clear colour";
		}
		return "nothing";
	default: return "nothing";
	}
}

const char *damage_world_frame_edits(struct damage_world *w, struct sg_camera *camera,
                                     float clear[4], int frame)
{
	const char *what = "first frame";
	for (int e = 0; frame && e < 1 + (int)(damage_world_random(w) % 3); e++)
		what = damage_world_edit(w, camera, clear);
	return what;
}
