/* Internal: a key's event through an xkb keymap, for libinput's keyboards
 * (input.c) and a Wayland seat's (src/window/input.c). */
#ifndef SG_INPUT_KEYS_H
#define SG_INPUT_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include <xkbcommon/xkbcommon.h>

#include <sg/input.h>

/* Fills event's keysym, text (on a press) and modifiers for evdev key code
 * key under state (NULL: leaves them empty), as the key is pressed or
 * released: the state before the key changes it. */
void sg_keys_describe(struct xkb_state *state, uint32_t key, bool pressed,
                      struct sg_input_event *event);

#endif
