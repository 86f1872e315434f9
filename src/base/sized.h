/* Internal: structs a caller hands over with its own sizeof (docs/abi.md).
 *
 * A public function that takes or fills a caller's struct is exported as
 * NAME_sized(..., size_t size); the header's NAME(...) is a macro passing
 * sizeof the struct as the caller's header defines it. So a program built
 * against an older header hands over fewer bytes than this library knows,
 * one built against a newer header more: these functions reconcile the two
 * the way Linux's copy_struct_from_user does. */
#ifndef SG_BASE_SIZED_H
#define SG_BASE_SIZED_H

#include <stdbool.h>
#include <stddef.h>

/* The size of a struct's layout up to and with member: the least a caller of
 * the first release (1.0) hands over, written with that release's last
 * member, so that it stays when members are added after it. */
#define SG_SIZE_THROUGH(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

/* Copies a caller's struct of size bytes into copy (copy_size bytes: the
 * struct as this library knows it) and zeroes the rest of copy: members an
 * older caller lacks read as zero, their default. Returns copy, or NULL with
 * a message naming function for a size under least (the first release's
 * layout, SG_SIZE_THROUGH) or a larger size whose bytes past copy_size are
 * not all zero (members of a newer libsg, set: this one cannot honour them). */
const void *sg_sized_in(void *copy, size_t copy_size, const void *given, size_t size, size_t least,
                        const char *function);

/* Whether a caller's struct of size bytes is one the library may fill:
 * false, with a message naming function, for a size under least. */
bool sg_sized_out_fits(size_t size, size_t least, const char *function);

/* Hands a filled struct (full, full_size bytes) to the caller's of size bytes
 * (already checked by sg_sized_out_fits): the bytes the caller has, and
 * zeroes past full_size where the caller's struct is larger (members of a
 * newer libsg, which this one leaves at their default). */
void sg_sized_out(void *out, size_t size, const void *full, size_t full_size);

#endif
