/* Internal: a scene file's text, from the file to a checked json-c tree. */
#ifndef SG_SCENEFILE_JSON_TEXT_H
#define SG_SCENEFILE_JSON_TEXT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

/* Reads the regular file path (name: how messages call it) into a new
 * NUL-terminated *text of *length bytes. A file of more than max_bytes is
 * SG_ERR_LIMIT; exactly max_bytes is read. */
sg_result sg_json_read_file(const char *path, const char *name, uint64_t max_bytes, char **text,
                            size_t *length);
/* Parses text into a JSON object *root, strict, at most max_depth levels deep,
 * with duplicate keys and keys with a NUL refused. Errors name "NAME:LINE:COL". */
sg_result sg_json_parse(const char *name, const char *text, size_t length, int max_depth,
                        struct json_object **root);
/* sg_fail(result, "NAME:LINE:COL: message") for the character at offset. */
sg_result sg_json_fail_at(sg_result result, const char *name, const char *text, size_t offset,
                          const char *format, ...) __attribute__((format(printf, 5, 6)));
/* Refuses what json-c 0.16 accepts silently: a duplicate key (it keeps the
 * last value) and a key with a NUL ("\u0000": it cuts the key there). text is
 * what json-c parsed into root. */
sg_result sg_json_check_keys(const char *name, const char *text, size_t length,
                             struct json_object *root);

#endif
