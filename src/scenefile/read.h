/* Internal: typed reads of JSON values, each failing with the value's JSON path.
 *
 * The keyed readers look key up in object, push it on the path while reading and
 * pop it after. An absent optional key leaves *out as the caller set it (its
 * default); an absent required one fails with "missing". */
#ifndef SG_SCENEFILE_READ_H
#define SG_SCENEFILE_READ_H

#include <stdint.h>

#include "scene_file_internal.h"

/* SG_ERR_FORMAT with "FILE: PATH: message". */
sg_result sg_parse_fail(struct sg_parse *p, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* SG_ERR_LIMIT with "FILE: PATH: message"; the message names the limit, the
 * value and how to raise it (SG_LIMIT_HOW). */
sg_result sg_parse_limit(struct sg_parse *p, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* The end of every limit message: the option field and the sg-render flag. */
#define SG_LIMIT_HOW(field, flag) "(raise it with " field ", sg-render --limit " flag "=N)"
/* Keeps result and the library's message, prefixed with "FILE: PATH: ". */
sg_result sg_parse_fail_prefix(struct sg_parse *p, sg_result result);
/* The library's last result and message, the message escaped (it may quote
 * a file name or a string of the file), prefixed with "FILE: PATH: ". */
sg_result sg_parse_fail_escaped(struct sg_parse *p);
/* SG_ERR_NO_MEMORY with "FILE: PATH: out of memory". */
sg_result sg_parse_no_memory(struct sg_parse *p);

/* Fails on a key that is not in allowed (NULL-terminated); "comment" is always allowed. */
sg_result sg_read_keys(struct sg_parse *p, struct json_object *object, const char *const *allowed);
sg_result sg_read_object(struct sg_parse *p, struct json_object *value);
struct json_object *sg_read_field(struct json_object *object, const char *key);

sg_result sg_read_number_value(struct sg_parse *p, struct json_object *value, double min,
                               double max, float *out);
sg_result sg_read_int_value(struct sg_parse *p, struct json_object *value, long min, long max,
                            int *out);
/* An array of exactly count numbers. */
sg_result sg_read_vector_value(struct sg_parse *p, struct json_object *value, int count,
                               float *out);

sg_result sg_read_number(struct sg_parse *p, struct json_object *object, const char *key,
                         bool required, double min, double max, float *out);
sg_result sg_read_int(struct sg_parse *p, struct json_object *object, const char *key,
                      bool required, long min, long max, int *out);
sg_result sg_read_vector(struct sg_parse *p, struct json_object *object, const char *key,
                         bool required, int count, float *out);
/* A string with no NUL ("\u0000" would cut it where C reads it): every string
 * value of a scene file is read through it. */
sg_result sg_read_string_value(struct sg_parse *p, struct json_object *value, const char **out);
sg_result sg_read_string(struct sg_parse *p, struct json_object *object, const char *key,
                         bool required, const char **out);
/* One of names (NULL-terminated); *out is its index. */
sg_result sg_read_choice(struct sg_parse *p, struct json_object *object, const char *key,
                         const char *const *names, int *out);
/* The same for a key that must be present: missing, it fails at the object,
 * naming the key and its choices (the "type" of nodes, textures, meshes). */
sg_result sg_read_required_choice(struct sg_parse *p, struct json_object *object, const char *key,
                                  const char *const *names, int *out);
/* [r, g, b] or [r, g, b, a] of integers 0 .. 255, or "#rrggbb" / "#rrggbbaa". */
sg_result sg_read_color_value(struct sg_parse *p, struct json_object *value, uint8_t rgba[4]);
sg_result sg_read_color(struct sg_parse *p, struct json_object *object, const char *key,
                        uint8_t rgba[4]);
/* true or false. */
sg_result sg_read_bool(struct sg_parse *p, struct json_object *object, const char *key,
                       bool *out);
/* A linear colour of the 3D keys (materials, lights, views): components
 * numbers 0 .. 1 as written ([r, g, b], or [r, g, b, a] where components is
 * 4, alpha then 1 when left out), or "#rrggbb" ("#rrggbbaa" where components
 * is 4), sRGB as colour pickers show it, decoded to linear (alpha is not). */
sg_result sg_read_linear_color(struct sg_parse *p, struct json_object *object, const char *key,
                               int components, float *out);

#endif
