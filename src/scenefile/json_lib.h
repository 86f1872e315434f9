/* Internal: json-c, opened with dlopen at the scene-file layer's first use
 * (the first scene file a process loads) instead of being linked to libsg.
 * Linked, it sits in every libsg program's global symbol scope, scene file or
 * not, and each later symbol lookup walks past it: Mesa's and LLVM's, when
 * EGL loads the driver, are part of a program's start. */
#ifndef SG_SCENEFILE_JSON_LIB_H
#define SG_SCENEFILE_JSON_LIB_H

#include <json-c/json.h>
#include <stdbool.h>

#include <sg/error.h>

/* The one list of the functions src/scenefile calls. */
#define SG_JSON_C_FUNCTIONS(F)                                                                     \
	F(json_object_array_get_idx)                                                               \
	F(json_object_array_length)                                                                \
	F(json_object_get_boolean)                                                                 \
	F(json_object_get_double)                                                                  \
	F(json_object_get_object)                                                                  \
	F(json_object_get_string)                                                                  \
	F(json_object_get_string_len)                                                              \
	F(json_object_is_type)                                                                     \
	F(json_object_new_object)                                                                  \
	F(json_object_object_add)                                                                  \
	F(json_object_object_get_ex)                                                               \
	F(json_object_object_length)                                                               \
	F(json_object_put)                                                                         \
	F(json_tokener_error_desc)                                                                 \
	F(json_tokener_free)                                                                       \
	F(json_tokener_get_error)                                                                  \
	F(json_tokener_get_parse_end)                                                              \
	F(json_tokener_new)                                                                        \
	F(json_tokener_new_ex)                                                                     \
	F(json_tokener_parse_ex)                                                                   \
	F(json_tokener_reset)                                                                      \
	F(json_tokener_set_flags)

/* Each member is named after its function and has the type the headers
 * declare for it: json_c->json_object_is_type(value, json_type_object). */
struct sg_json_lib {
#define SG_JSON_LIB_MEMBER(name) __typeof__(name) *name;
	SG_JSON_C_FUNCTIONS(SG_JSON_LIB_MEMBER)
#undef SG_JSON_LIB_MEMBER
};

/* Opens libjson-c.so.5 (RTLD_LOCAL | RTLD_NOW) and finds every function, once
 * per process, from any thread; it stays open until the process ends. Returns
 * the table, or NULL with SG_ERR_UNSUPPORTED and a message naming the library
 * and dlerror()'s reason ("loading json-c: libjson-c.so.5: cannot open shared
 * object file: ..."), the same message on every later call. */
const struct sg_json_lib *sg_json_lib_load(void);

/* For tests: the name sg_json_lib_load() opens instead of the real one (NULL
 * keeps it: dlopen(NULL) would open the program itself). False, changing
 * nothing, once loading was tried. */
bool sg_json_lib_set_name_for_testing(const char *name);

/* A key and value of a JSON object, for a walk of its members in order:
 *	for (struct sg_json_member m = sg_json_first_member(json_c, object); m.key;
 *	     sg_json_next_member(&m))
 * json-c's json_object_object_foreach would call json_object_get_object itself;
 * the lh_* functions it walks with are inline ones of linkhash.h. */
struct sg_json_member {
	const char *key; /* NULL after the last member */
	struct json_object *value;
	struct lh_entry *entry;
};

static inline void sg_json_member_at(struct sg_json_member *member, struct lh_entry *entry)
{
	member->entry = entry;
	member->key = entry ? (const char *)lh_entry_k(entry) : NULL;
	member->value = entry ? (struct json_object *)lh_entry_v(entry) : NULL;
}

static inline struct sg_json_member sg_json_first_member(const struct sg_json_lib *json_c,
                                                         struct json_object *object)
{
	struct sg_json_member member;
	struct lh_table *table = json_c->json_object_get_object(object); /* NULL: not an object */
	sg_json_member_at(&member, table ? lh_table_head(table) : NULL);
	return member;
}

static inline void sg_json_next_member(struct sg_json_member *member)
{
	sg_json_member_at(member, lh_entry_next(member->entry));
}

#endif
