/* $.output: the image size and the background colour. */
#include "read.h"

sg_result sg_parse_output_section(struct sg_parse *p, struct json_object *root)
{
	struct json_object *output = sg_read_field(root, "output");
	if (!output)
		return SG_OK;
	static const char *const keys[] = {"width", "height", "background", NULL};
	size_t mark = sg_json_path_push_key(&p->path, "output");
	uint8_t background[4] = {0, 0, 0, 255};
	sg_result result = sg_read_object(p, output);
	if (!result)
		result = sg_read_keys(p, output, keys);
	if (!result)
		result = sg_read_int(p, output, "width", false, 1, SG_SCENE_FILE_MAX_SIDE,
		                     &p->out->width);
	if (!result)
		result = sg_read_int(p, output, "height", false, 1, SG_SCENE_FILE_MAX_SIDE,
		                     &p->out->height);
	uint64_t pixels = (uint64_t)p->out->width * (uint64_t)p->out->height;
	if (!result && pixels > p->limits.max_output_pixels)
		result = sg_parse_limit(p,
		                        "%dx%d = %llu pixels is over the limit of %llu output pixels "
		                        SG_LIMIT_HOW("max_output_pixels", "output-pixels"),
		                        p->out->width, p->out->height, (unsigned long long)pixels,
		                        (unsigned long long)p->limits.max_output_pixels);
	if (!result)
		result = sg_read_color(p, output, "background", background);
	for (int i = 0; i < 4; i++)
		p->out->background[i] = background[i] / 255.0f;
	sg_json_path_pop(&p->path, mark);
	return result;
}
