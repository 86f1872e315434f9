/* A key's keysym, text and modifiers under an xkb state (keys.h). */
#include "keys.h"

static uint32_t modifiers_of(struct xkb_state *state)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} names[] = {{XKB_MOD_NAME_SHIFT, SG_MODIFIER_SHIFT},
	             {XKB_MOD_NAME_CTRL, SG_MODIFIER_CTRL},
	             {XKB_MOD_NAME_ALT, SG_MODIFIER_ALT},
	             {XKB_MOD_NAME_LOGO, SG_MODIFIER_LOGO}};
	uint32_t bits = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (xkb_state_mod_name_is_active(state, names[i].name, XKB_STATE_MODS_EFFECTIVE) > 0)
			bits |= names[i].bit;
	return bits;
}

void sg_keys_describe(struct xkb_state *state, uint32_t key, bool pressed,
                      struct sg_input_event *event)
{
	if (!state)
		return;
	xkb_keycode_t code = key + 8; /* evdev to xkb: the offset X11 gave keycodes */
	event->keysym = xkb_state_key_get_one_sym(state, code);
	if (pressed)
		xkb_state_key_get_utf8(state, code, event->text, sizeof(event->text));
	event->modifiers = modifiers_of(state);
}
