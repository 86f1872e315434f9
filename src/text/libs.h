/* Internal: FreeType and HarfBuzz, opened with dlopen at the text layer's
 * first use (the first font a process loads) instead of being linked to
 * libsg. Linked, they and their dependencies (glib, pcre2, graphite2, brotli)
 * sit in every libsg program's global symbol scope, text or not, and each
 * later symbol lookup walks past them: Mesa's and LLVM's, when EGL loads the
 * driver, cost a program without text about 3 % of its start. */
#ifndef SG_TEXT_LIBS_H
#define SG_TEXT_LIBS_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb-ft.h>
#include <hb.h>
#include <stdbool.h>

#include <sg/error.h>

/* The one list of the functions src/text calls, by library. */
#define SG_FREETYPE_FUNCTIONS(F)                                                                   \
	F(FT_Init_FreeType)                                                                        \
	F(FT_Done_FreeType)                                                                        \
	F(FT_New_Face)                                                                             \
	F(FT_Done_Face)                                                                            \
	F(FT_Set_Pixel_Sizes)                                                                      \
	F(FT_Load_Glyph)                                                                           \
	F(FT_Render_Glyph)

#define SG_HARFBUZZ_FUNCTIONS(F)                                                                   \
	F(hb_ft_font_create_referenced)                                                            \
	F(hb_font_get_empty)                                                                       \
	F(hb_font_destroy)                                                                         \
	F(hb_buffer_create)                                                                        \
	F(hb_buffer_allocation_successful)                                                         \
	F(hb_buffer_destroy)                                                                       \
	F(hb_buffer_clear_contents)                                                                \
	F(hb_buffer_add_utf8)                                                                      \
	F(hb_buffer_guess_segment_properties)                                                      \
	F(hb_buffer_get_segment_properties)                                                        \
	F(hb_buffer_set_segment_properties)                                                        \
	F(hb_shape)                                                                                \
	F(hb_buffer_get_glyph_infos)                                                               \
	F(hb_buffer_get_glyph_positions)

/* Each member is named after its function and has the type the headers
 * declare for it: libs->FT_Load_Glyph(face, glyph, flags). */
struct sg_text_libs {
#define SG_TEXT_LIBS_MEMBER(name) __typeof__(name) *name;
	SG_FREETYPE_FUNCTIONS(SG_TEXT_LIBS_MEMBER)
	SG_HARFBUZZ_FUNCTIONS(SG_TEXT_LIBS_MEMBER)
#undef SG_TEXT_LIBS_MEMBER
};

/* Opens libfreetype.so.6 and libharfbuzz.so.0 (RTLD_LOCAL | RTLD_NOW) and
 * finds every function, once per process, from any thread; they stay open
 * until the process ends. Returns the table, or NULL with SG_ERR_UNSUPPORTED
 * and a message naming the library and dlerror()'s reason ("loading FreeType:
 * libfreetype.so.6: cannot open shared object file: ..."), the same message
 * on every later call. */
const struct sg_text_libs *sg_text_libs_load(void);

/* For tests: the names sg_text_libs_load() opens instead of the real ones (a
 * NULL keeps that one). False, changing nothing, once loading was tried. */
bool sg_text_libs_set_names_for_testing(const char *freetype, const char *harfbuzz);

#endif
