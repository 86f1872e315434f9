/* Accessors of a loaded scene file. */
#include <string.h>

#include "scene_file_internal.h"

struct sg_scene *sg_scene_file_get_scene(const struct sg_scene_file *file)
{
	return file ? file->scene : NULL;
}

void sg_scene_file_get_size(const struct sg_scene_file *file, int *width, int *height)
{
	if (width)
		*width = file ? file->width : 0;
	if (height)
		*height = file ? file->height : 0;
}

void sg_scene_file_get_background(const struct sg_scene_file *file, float rgba[4])
{
	static const float black[4] = {0, 0, 0, 1};
	memcpy(rgba, file ? file->background : black, sizeof(black));
}

float sg_scene_file_get_fps(const struct sg_scene_file *file)
{
	return file ? file->fps : 0;
}

int sg_scene_file_get_frame_count(const struct sg_scene_file *file)
{
	return file ? file->frame_count : 0;
}
