/* sg-render: messages that are safe to show on a terminal.
 *
 * File names and option values come from whoever invoked sg-render, and a
 * library message may quote them: a raw escape sequence in one could move the
 * cursor, retitle the window or hide text. Every line sg-render prints goes
 * through here. */
#ifndef SG_RENDER_ESCAPE_H
#define SG_RENDER_ESCAPE_H

#include <stdio.h>

/* Writes text with control characters (C0, DEL, C1) and bytes that are not
 * UTF-8 shown as \n, \t, \r or \xHH, and bidi controls as \u202e (the rule
 * is the library's, sg_utf8_is_shown); printable text, UTF-8 included, is kept.
 * A backslash is kept as is: text that was already escaped (a library message)
 * is not escaped twice. */
void escape_write(FILE *out, const char *text);

/* printf(format, ...) with every argument's text escaped, then a newline.
 * format is always a constant of sg-render's. */
__attribute__((format(printf, 2, 3))) void escape_printf(FILE *out, const char *format, ...);

/* escape_printf(stderr, "sg-render: " format "\n", ...). */
#define say_error(...) escape_printf(stderr, "sg-render: " __VA_ARGS__)

#endif
