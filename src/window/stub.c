/* libsg built without Wayland (meson option 'wayland'): every call says so. */
#include <stddef.h>

#include <sg/window.h>

#include "../base/error.h"
#include "../base/sized.h"

static const char unsupported[] =
    "libsg was built without Wayland (meson -Dwayland=disabled, or libwayland-client, "
    "wayland-protocols, wayland-scanner or xkbcommon missing)";

struct sg_window *sg_window_create_sized(const struct sg_window_desc *desc, size_t size)
{
	struct sg_window_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_window_desc, user_data),
	                                 "sg_window_create")))
		return NULL;
	(void)desc;
	sg_fail(SG_ERR_UNSUPPORTED, "sg_window_create: %s", unsupported);
	return NULL;
}

void sg_window_destroy(struct sg_window *window)
{
	(void)window;
}

const struct sg_window_info *sg_window_get_info(const struct sg_window *window)
{
	(void)window;
	return NULL;
}

sg_result sg_window_set_clear_color(struct sg_window *window, float r, float g, float b, float a)
{
	(void)window, (void)r, (void)g, (void)b, (void)a;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_window_set_clear_color: %s", unsupported);
}

sg_result sg_window_present(struct sg_window *window, const struct sg_scene *scene,
                            const struct sg_camera *camera)
{
	(void)window, (void)scene, (void)camera;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_window_present: %s", unsupported);
}

int sg_window_get_fd(const struct sg_window *window)
{
	(void)window;
	return -1;
}

sg_result sg_window_dispatch(struct sg_window *window)
{
	(void)window;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_window_dispatch: %s", unsupported);
}

sg_result sg_window_wait(struct sg_window *window, int timeout_ms)
{
	(void)window, (void)timeout_ms;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_window_wait: %s", unsupported);
}

sg_result sg_window_set_fullscreen(struct sg_window *window, bool fullscreen)
{
	(void)window, (void)fullscreen;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_window_set_fullscreen: %s", unsupported);
}

bool sg_window_should_close(const struct sg_window *window)
{
	(void)window;
	return false;
}

struct sg_renderer *sg_window_get_renderer(struct sg_window *window)
{
	(void)window;
	return NULL;
}
