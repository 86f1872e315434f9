/* Internal: the JSON path of the value being read ("$.nodes[2].transform"), kept
 * in a fixed buffer so that naming a value in an error costs no allocation. */
#ifndef SG_SCENEFILE_JSON_PATH_H
#define SG_SCENEFILE_JSON_PATH_H

#include <stddef.h>

struct sg_json_path {
	char text[512];
	size_t length;
};

void sg_json_path_init(struct sg_json_path *path);
/* Each push returns the length to hand back to sg_json_path_pop(). A path too
 * long for the buffer is cut, with "..." at its end. */
size_t sg_json_path_push_key(struct sg_json_path *path, const char *key);
size_t sg_json_path_push_index(struct sg_json_path *path, size_t index);
void sg_json_path_pop(struct sg_json_path *path, size_t length);

#endif
