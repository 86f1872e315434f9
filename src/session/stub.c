/* libsg built without libseat (meson option 'seat'): every call says so. */
#include <stddef.h>

#include <sg/session.h>

#include "../base/error.h"
#include "../base/sized.h"

static const char unsupported[] =
    "libsg was built without libseat (meson -Dseat=disabled, or libseat missing): open "
    "the devices directly, as root or a member of their groups";

struct sg_session *sg_session_open_sized(const struct sg_session_desc *desc, size_t size)
{
	struct sg_session_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_session_desc, enable_timeout_ms),
	                                 "sg_session_open")))
		return NULL;
	(void)desc;
	sg_fail(SG_ERR_UNSUPPORTED, "sg_session_open: %s", unsupported);
	return NULL;
}

void sg_session_close(struct sg_session *session)
{
	(void)session;
}

const char *sg_session_get_seat_name(const struct sg_session *session)
{
	(void)session;
	return NULL;
}

bool sg_session_is_active(const struct sg_session *session)
{
	(void)session;
	return false;
}

int sg_session_get_fd(const struct sg_session *session)
{
	(void)session;
	return -1;
}

sg_result sg_session_dispatch(struct sg_session *session)
{
	(void)session;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_session_dispatch: %s", unsupported);
}

int sg_session_open_device(struct sg_session *session, const char *path)
{
	(void)session, (void)path;
	sg_fail(SG_ERR_UNSUPPORTED, "sg_session_open_device: %s", unsupported);
	return -1;
}

sg_result sg_session_close_device(struct sg_session *session, int fd)
{
	(void)session, (void)fd;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_session_close_device: %s", unsupported);
}

sg_result sg_session_switch(struct sg_session *session, int session_number)
{
	(void)session, (void)session_number;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_session_switch: %s", unsupported);
}
