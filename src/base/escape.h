/* Internal: untrusted text (JSON keys and values, file names) made safe to echo
 * in a message: a terminal never receives a control character from a file. */
#ifndef SG_BASE_ESCAPE_H
#define SG_BASE_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

enum sg_escape_style {
	SG_ESCAPE_TEXT, /* \\ \n \t \xNN; quotes kept: file names, values in '...' */
	SG_ESCAPE_JSON, /* a JSON string body: \" \\ \n \u001b, so a path pastes into jq */
};

/* Writes text into out (size > 4 bytes, always terminated): C0 and C1 control
 * characters, DEL and bytes that are not UTF-8 escaped, bidi controls as
 * \u202e (sg_utf8_is_shown in utf8.h is the rule), other UTF-8 kept. Text
 * too long for out ends with "...". Returns out. */
char *sg_escape(const char *text, enum sg_escape_style style, char *out, size_t size);

/* sg_escape(path, SG_ESCAPE_TEXT, ...) for a file path (size > 4 bytes, as
 * there): one too long for out loses its middle ("/srv/a/b...c/d/scene.json"),
 * as the end names the file. */
char *sg_escape_path(const char *path, char *out, size_t size);

#endif
