/* The test compositor of mini_compositor.h. One surface state per
 * wl_surface (pending and current buffer, damage, frame callbacks and
 * presentation feedbacks); no subsurfaces or outputs; a seat where asked, whose events
 * the test thread has sent through a pipe that the compositor's loop
 * reads (mini_compositor_send). The xdg_toplevel and
 * xdg_positioner requests are taken by a dispatcher that ignores all but
 * destroy, so that a client's set_title or set_fullscreen is no abort. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server.h>

#include "fractional-scale-v1-server-protocol.h"
#include "linux-dmabuf-unstable-v1-server-protocol.h"
#include "mini_compositor.h"
#include "presentation-time-server-protocol.h"
#include "viewporter-server-protocol.h"
#include "xdg-shell-server-protocol.h"

struct mini_compositor {
	struct mini_compositor_desc desc;
	dev_t device;
	char dir[64], socket_path[108];
	struct wl_display *display;
	struct wl_event_loop *loop;
	pthread_t thread;
	atomic_bool stop;
	uint32_t serial;
	int next_buffer; /* the number of the next dma-buf wl_buffer */

	int commands[2];              /* the pipe of mini_compositor_send */
	struct wl_event_source *reader; /* of its read end */
	struct wl_resource *surface;  /* the wl_surface made last, or NULL */
	struct wl_list pointers, touches, keyboards; /* seat devices' resources */
	bool pointer_entered, keyboard_entered; /* into surface */

	pthread_mutex_t lock; /* the records and stats: the test thread reads them */
	struct mini_commit *records;
	int record_count, record_capacity;
	struct mini_stats stats;
};

/* A reference to a wl_buffer that a destroyed buffer clears. */
struct buffer_ref {
	struct wl_resource *resource;
	struct wl_listener destroyed;
};

struct surface {
	struct mini_compositor *compositor;
	struct wl_resource *resource;
	struct buffer_ref pending, current;
	bool attached; /* wl_surface.attach since the last commit (maybe of NULL) */
	int damage_count;
	bool damage_overflow;
	struct mini_rect damage[MINI_MAX_DAMAGE];
	struct wl_list frame_callbacks; /* wl_resource links, sent done at commit */
	/* wp_presentation_feedback resources: asked for since the last commit,
	 * and those of commits that are never answered */
	struct wl_list feedbacks, unanswered;
	int commits;
	int buffer_commits;
	struct xdg_surface_state *xdg;
};

struct xdg_surface_state {
	struct surface *surface;
	struct wl_resource *resource, *toplevel;
	bool configured;
};

struct dmabuf_buffer {
	struct mini_compositor *compositor;
	int number;
	int fd;
	uint32_t offset, stride, format;
	int32_t width, height;
	uint64_t modifier;
};

struct params {
	struct mini_compositor *compositor;
	int fd; /* plane 0's, -1 none */
	uint32_t offset, stride;
	uint64_t modifier;
	bool extra_planes, used;
};

static void lock_stats(struct mini_compositor *c)
{
	pthread_mutex_lock(&c->lock);
}

static void unlock_stats(struct mini_compositor *c)
{
	pthread_mutex_unlock(&c->lock);
}

static void destroy_resource(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

/* buffer references */

static void buffer_ref_destroyed(struct wl_listener *listener, void *data)
{
	(void)data;
	struct buffer_ref *ref = wl_container_of(listener, ref, destroyed);
	ref->resource = NULL;
	wl_list_remove(&ref->destroyed.link);
	wl_list_init(&ref->destroyed.link);
}

static void buffer_ref_set(struct buffer_ref *ref, struct wl_resource *resource)
{
	if (ref->resource == resource)
		return;
	wl_list_remove(&ref->destroyed.link);
	wl_list_init(&ref->destroyed.link);
	ref->resource = resource;
	if (resource)
		wl_resource_add_destroy_listener(resource, &ref->destroyed);
}

static void buffer_ref_init(struct buffer_ref *ref)
{
	ref->resource = NULL;
	ref->destroyed.notify = buffer_ref_destroyed;
	wl_list_init(&ref->destroyed.link);
}

/* dma-buf wl_buffers */

static const struct wl_buffer_interface dmabuf_buffer_impl = {.destroy = destroy_resource};

static void dmabuf_buffer_destroy(struct wl_resource *resource)
{
	struct dmabuf_buffer *buffer = wl_resource_get_user_data(resource);
	lock_stats(buffer->compositor);
	buffer->compositor->stats.buffers_destroyed++;
	unlock_stats(buffer->compositor);
	close(buffer->fd);
	free(buffer);
}

/* Reads the dma-buf as a client of it would: mapped, between the sync
 * ioctls that make the CPU's view coherent (a no-op for vgem's shmem). */
static void read_dmabuf(const struct dmabuf_buffer *buffer, struct mini_commit *record)
{
	size_t size = (size_t)buffer->offset + (size_t)buffer->stride * (size_t)buffer->height;
	uint8_t *map = mmap(NULL, size, PROT_READ, MAP_SHARED, buffer->fd, 0);
	if (map == MAP_FAILED) {
		snprintf(record->error, sizeof(record->error), "mmap of %zu bytes: %s", size,
		         strerror(errno));
		return;
	}
	struct dma_buf_sync sync = {.flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ};
	if (ioctl(buffer->fd, DMA_BUF_IOCTL_SYNC, &sync) < 0) {
		snprintf(record->error, sizeof(record->error), "DMA_BUF_IOCTL_SYNC start: %s",
		         strerror(errno));
		munmap(map, size);
		return;
	}
	size_t row = (size_t)buffer->width * 4;
	record->pixels = malloc(row * (size_t)buffer->height);
	for (int y = 0; record->pixels && y < buffer->height; y++)
		memcpy(record->pixels + row * (size_t)y,
		       map + buffer->offset + (size_t)buffer->stride * (size_t)y, row);
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ;
	if (ioctl(buffer->fd, DMA_BUF_IOCTL_SYNC, &sync) < 0)
		snprintf(record->error, sizeof(record->error), "DMA_BUF_IOCTL_SYNC end: %s",
		         strerror(errno));
	munmap(map, size);
}

static void read_shm(struct wl_shm_buffer *shm, struct mini_commit *record)
{
	record->width = wl_shm_buffer_get_width(shm);
	record->height = wl_shm_buffer_get_height(shm);
	uint32_t format = wl_shm_buffer_get_format(shm);
	record->format = format == WL_SHM_FORMAT_XRGB8888   ? DRM_FORMAT_XRGB8888
	                 : format == WL_SHM_FORMAT_ARGB8888 ? DRM_FORMAT_ARGB8888
	                                                    : format;
	size_t row = (size_t)record->width * 4;
	size_t stride = (size_t)wl_shm_buffer_get_stride(shm);
	record->pixels = malloc(row * (size_t)record->height);
	wl_shm_buffer_begin_access(shm);
	const uint8_t *data = wl_shm_buffer_get_data(shm);
	for (int y = 0; record->pixels && y < record->height; y++)
		memcpy(record->pixels + row * (size_t)y, data + stride * (size_t)y, row);
	wl_shm_buffer_end_access(shm);
}

static void record_commit(struct surface *surface, struct wl_resource *resource)
{
	struct mini_commit record = {.commit = surface->commits, .buffer = -1};
	struct wl_shm_buffer *shm = wl_shm_buffer_get(resource);
	if (shm) {
		record.kind = MINI_BUFFER_SHM;
		read_shm(shm, &record);
	} else if (wl_resource_instance_of(resource, &wl_buffer_interface, &dmabuf_buffer_impl)) {
		const struct dmabuf_buffer *buffer = wl_resource_get_user_data(resource);
		record.kind = MINI_BUFFER_DMABUF;
		record.buffer = buffer->number;
		record.width = buffer->width;
		record.height = buffer->height;
		record.format = buffer->format;
		record.modifier = buffer->modifier;
		read_dmabuf(buffer, &record);
	} else {
		snprintf(record.error, sizeof(record.error), "a wl_buffer of unknown kind");
	}
	record.damage_count = surface->damage_count;
	record.damage_overflow = surface->damage_overflow;
	memcpy(record.damage, surface->damage, sizeof(record.damage));

	struct mini_compositor *c = surface->compositor;
	lock_stats(c);
	if (c->desc.discard_records) {
		free(record.pixels);
		record.pixels = NULL;
	} else if (c->record_count == c->record_capacity) {
		int capacity = c->record_capacity ? c->record_capacity * 2 : 16;
		struct mini_commit *grown = realloc(c->records, sizeof(*grown) * (size_t)capacity);
		if (grown) {
			c->records = grown;
			c->record_capacity = capacity;
		}
	}
	if (!c->desc.discard_records && c->record_count < c->record_capacity)
		c->records[c->record_count++] = record;
	else
		free(record.pixels);
	c->stats.buffer_commits++;
	unlock_stats(c);
}

/* wl_surface */

static void surface_attach(struct wl_client *client, struct wl_resource *resource,
                           struct wl_resource *buffer, int32_t x, int32_t y)
{
	(void)client, (void)x, (void)y;
	struct surface *surface = wl_resource_get_user_data(resource);
	buffer_ref_set(&surface->pending, buffer);
	surface->attached = true;
}

static void surface_add_damage(struct wl_resource *resource, int32_t x, int32_t y, int32_t width,
                               int32_t height)
{
	struct surface *surface = wl_resource_get_user_data(resource);
	if (surface->damage_count == MINI_MAX_DAMAGE) {
		surface->damage_overflow = true;
		return;
	}
	surface->damage[surface->damage_count++] = (struct mini_rect){x, y, width, height};
}

static void surface_damage(struct wl_client *client, struct wl_resource *resource, int32_t x,
                           int32_t y, int32_t width, int32_t height)
{
	(void)client;
	surface_add_damage(resource, x, y, width, height); /* scale 1, no transform */
}

static void callback_destroy(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void surface_frame(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct surface *surface = wl_resource_get_user_data(resource);
	struct wl_resource *callback = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!callback) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(callback, NULL, NULL, callback_destroy);
	wl_list_insert(surface->frame_callbacks.prev, wl_resource_get_link(callback));
}

static void surface_set_region(struct wl_client *client, struct wl_resource *resource,
                               struct wl_resource *region)
{
	(void)client, (void)resource, (void)region;
}

static void send_configure(struct xdg_surface_state *xdg, int width, int height)
{
	struct mini_compositor *c = xdg->surface->compositor;
	struct wl_array states;
	wl_array_init(&states);
	xdg_toplevel_send_configure(xdg->toplevel, width, height, &states);
	wl_array_release(&states);
	xdg_surface_send_configure(xdg->resource, ++c->serial);
	xdg->configured = true;
	lock_stats(c);
	c->stats.configures++;
	unlock_stats(c);
}

static uint32_t now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint32_t)((uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000);
}

static void surface_commit(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct surface *surface = wl_resource_get_user_data(resource);
	struct mini_compositor *c = surface->compositor;
	surface->commits++;
	lock_stats(c);
	c->stats.commits++;
	unlock_stats(c);
	/* xdg-shell: the first commit without a buffer asks for the configure. */
	if (surface->xdg && surface->xdg->toplevel && !surface->xdg->configured)
		send_configure(surface->xdg, c->desc.width, c->desc.height);
	bool first_buffer = false;
	if (surface->attached) {
		struct wl_resource *before = surface->current.resource;
		buffer_ref_set(&surface->current, surface->pending.resource);
		buffer_ref_set(&surface->pending, NULL);
		surface->attached = false;
		if (surface->current.resource) {
			record_commit(surface, surface->current.resource);
			first_buffer = ++surface->buffer_commits == 1;
		}
		if (before && before != surface->current.resource) {
			wl_buffer_send_release(before);
			lock_stats(c);
			c->stats.releases++;
			unlock_stats(c);
		}
	}
	surface->damage_count = 0;
	surface->damage_overflow = false;
	if (first_buffer && surface->xdg && surface->xdg->toplevel &&
	    (c->desc.reconfigure_width > 0 || c->desc.reconfigure_height > 0))
		send_configure(surface->xdg, c->desc.reconfigure_width, c->desc.reconfigure_height);
	struct wl_resource *callback, *next;
	wl_resource_for_each_safe(callback, next, &surface->frame_callbacks)
	{
		wl_callback_send_done(callback, now_ms());
		wl_resource_destroy(callback);
	}
	/* After the frame callbacks, as a compositor presents at the page flip
	 * that follows the repaint which sent them. One frame late: the last
	 * commit's feedbacks now, this one's held for the next. */
	struct wl_list late;
	wl_list_init(&late);
	if (c->desc.presentation == MINI_PRESENTATION_ONE_LATE) {
		wl_list_insert_list(&late, &surface->feedbacks);
		wl_list_init(&surface->feedbacks);
		wl_list_insert_list(&surface->feedbacks, &surface->unanswered);
		wl_list_init(&surface->unanswered);
		wl_list_insert_list(&surface->unanswered, &late);
		wl_list_init(&late);
	}
	wl_resource_for_each_safe(callback, next, &surface->feedbacks)
	{
		wl_list_remove(wl_resource_get_link(callback));
		if (c->desc.presentation == MINI_PRESENTATION_UNANSWERED) {
			wl_list_insert(surface->unanswered.prev, wl_resource_get_link(callback));
			continue;
		}
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		wl_list_init(wl_resource_get_link(callback));
		wp_presentation_feedback_send_presented(
		    callback, (uint32_t)((uint64_t)now.tv_sec >> 32), (uint32_t)now.tv_sec,
		    (uint32_t)now.tv_nsec, 16666666, 0, (uint32_t)surface->commits, 0);
		wl_resource_destroy(callback);
		lock_stats(c);
		c->stats.presented++;
		unlock_stats(c);
	}
}

static void surface_set_int(struct wl_client *client, struct wl_resource *resource, int32_t value)
{
	(void)client, (void)resource, (void)value;
}

static void surface_damage_buffer(struct wl_client *client, struct wl_resource *resource, int32_t x,
                                  int32_t y, int32_t width, int32_t height)
{
	(void)client;
	surface_add_damage(resource, x, y, width, height);
}

static void surface_offset(struct wl_client *client, struct wl_resource *resource, int32_t x,
                           int32_t y)
{
	(void)client, (void)resource, (void)x, (void)y;
}

static const struct wl_surface_interface surface_impl = {
    .destroy = destroy_resource,
    .attach = surface_attach,
    .damage = surface_damage,
    .frame = surface_frame,
    .set_opaque_region = surface_set_region,
    .set_input_region = surface_set_region,
    .commit = surface_commit,
    .set_buffer_transform = surface_set_int,
    .set_buffer_scale = surface_set_int,
    .damage_buffer = surface_damage_buffer,
    .offset = surface_offset,
};

static void surface_destroy(struct wl_resource *resource)
{
	struct surface *surface = wl_resource_get_user_data(resource);
	buffer_ref_set(&surface->pending, NULL);
	buffer_ref_set(&surface->current, NULL);
	struct wl_resource *callback, *next;
	wl_resource_for_each_safe(callback, next, &surface->frame_callbacks)
	{
		wl_list_remove(wl_resource_get_link(callback));
		wl_list_init(wl_resource_get_link(callback));
	}
	struct wl_list *lists[] = {&surface->feedbacks, &surface->unanswered};
	for (int i = 0; i < 2; i++)
		wl_resource_for_each_safe(callback, next, lists[i])
		{
			wl_list_remove(wl_resource_get_link(callback));
			wl_list_init(wl_resource_get_link(callback));
		}
	if (surface->xdg)
		surface->xdg->surface = NULL;
	if (surface->compositor->surface == resource) {
		surface->compositor->surface = NULL;
		surface->compositor->pointer_entered = surface->compositor->keyboard_entered = false;
	}
	free(surface);
}

/* wl_region: nothing to keep */

static void region_rect(struct wl_client *client, struct wl_resource *resource, int32_t x,
                        int32_t y, int32_t width, int32_t height)
{
	(void)client, (void)resource, (void)x, (void)y, (void)width, (void)height;
}

static const struct wl_region_interface region_impl = {
    .destroy = destroy_resource,
    .add = region_rect,
    .subtract = region_rect,
};

/* wl_compositor */

static void compositor_create_surface(struct wl_client *client, struct wl_resource *resource,
                                      uint32_t id)
{
	struct surface *surface = calloc(1, sizeof(*surface));
	if (surface)
		surface->resource = wl_resource_create(client, &wl_surface_interface,
		                                       wl_resource_get_version(resource), id);
	if (!surface || !surface->resource) {
		free(surface);
		wl_client_post_no_memory(client);
		return;
	}
	surface->compositor = wl_resource_get_user_data(resource);
	buffer_ref_init(&surface->pending);
	buffer_ref_init(&surface->current);
	wl_list_init(&surface->frame_callbacks);
	wl_list_init(&surface->feedbacks);
	wl_list_init(&surface->unanswered);
	wl_resource_set_implementation(surface->resource, &surface_impl, surface, surface_destroy);
	surface->compositor->surface = surface->resource;
	surface->compositor->pointer_entered = surface->compositor->keyboard_entered = false;
}

static void compositor_create_region(struct wl_client *client, struct wl_resource *resource,
                                     uint32_t id)
{
	struct wl_resource *region =
	    wl_resource_create(client, &wl_region_interface, wl_resource_get_version(resource), id);
	if (!region) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(region, &region_impl, NULL, NULL);
}

static const struct wl_compositor_interface compositor_impl = {
    .create_surface = compositor_create_surface,
    .create_region = compositor_create_region,
};

static void bind_compositor(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
	    wl_resource_create(client, &wl_compositor_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &compositor_impl, data, NULL);
}

/* wp_presentation: feedbacks kept on the surface until its next commit */

static void feedback_unlink(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void presentation_feedback(struct wl_client *client, struct wl_resource *resource,
                                  struct wl_resource *surface_resource, uint32_t id)
{
	struct surface *surface = wl_resource_get_user_data(surface_resource);
	struct wl_resource *feedback = wl_resource_create(
	    client, &wp_presentation_feedback_interface, wl_resource_get_version(resource), id);
	if (!feedback) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(feedback, NULL, NULL, feedback_unlink);
	wl_list_insert(surface->feedbacks.prev, wl_resource_get_link(feedback));
	lock_stats(surface->compositor);
	surface->compositor->stats.presentation_feedbacks++;
	unlock_stats(surface->compositor);
}

static const struct wp_presentation_interface presentation_impl = {
    .destroy = destroy_resource,
    .feedback = presentation_feedback,
};

static void bind_presentation(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
	    wl_resource_create(client, &wp_presentation_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &presentation_impl, data, NULL);
	wp_presentation_send_clock_id(resource, CLOCK_MONOTONIC);
}

/* xdg-shell */

/* Every request but destroy accepted and ignored (none of xdg_toplevel's or
 * xdg_positioner's makes an object). */
static int ignore_requests(const void *implementation, void *target, uint32_t opcode,
                           const struct wl_message *message, union wl_argument *args)
{
	(void)implementation, (void)opcode, (void)args;
	if (!strcmp(message->name, "destroy"))
		wl_resource_destroy(target);
	return 0;
}

static void toplevel_destroy(struct wl_resource *resource)
{
	struct xdg_surface_state *xdg = wl_resource_get_user_data(resource);
	if (xdg)
		xdg->toplevel = NULL;
}

static void xdg_surface_get_toplevel(struct wl_client *client, struct wl_resource *resource,
                                     uint32_t id)
{
	struct xdg_surface_state *xdg = wl_resource_get_user_data(resource);
	xdg->toplevel = wl_resource_create(client, &xdg_toplevel_interface,
	                                   wl_resource_get_version(resource), id);
	if (!xdg->toplevel) {
		wl_client_post_no_memory(client);
		return;
	}
	/* the dispatcher needs a non-NULL implementation to be called */
	wl_resource_set_dispatcher(xdg->toplevel, ignore_requests, xdg, xdg, toplevel_destroy);
}

static void xdg_surface_get_popup(struct wl_client *client, struct wl_resource *resource,
                                  uint32_t id, struct wl_resource *parent,
                                  struct wl_resource *positioner)
{
	(void)client, (void)id, (void)parent, (void)positioner;
	wl_resource_post_error(resource, XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
	                       "the test compositor has no popups");
}

static void xdg_surface_set_window_geometry(struct wl_client *client, struct wl_resource *resource,
                                            int32_t x, int32_t y, int32_t width, int32_t height)
{
	(void)client, (void)resource, (void)x, (void)y, (void)width, (void)height;
}

static void xdg_surface_ack_configure(struct wl_client *client, struct wl_resource *resource,
                                      uint32_t serial)
{
	(void)client, (void)serial;
	struct xdg_surface_state *xdg = wl_resource_get_user_data(resource);
	struct mini_compositor *c = xdg->surface ? xdg->surface->compositor : NULL;
	if (!c)
		return;
	lock_stats(c);
	c->stats.acked++;
	unlock_stats(c);
}

static const struct xdg_surface_interface xdg_surface_impl = {
    .destroy = destroy_resource,
    .get_toplevel = xdg_surface_get_toplevel,
    .get_popup = xdg_surface_get_popup,
    .set_window_geometry = xdg_surface_set_window_geometry,
    .ack_configure = xdg_surface_ack_configure,
};

static void xdg_surface_destroy(struct wl_resource *resource)
{
	struct xdg_surface_state *xdg = wl_resource_get_user_data(resource);
	if (xdg->surface)
		xdg->surface->xdg = NULL;
	if (xdg->toplevel)
		wl_resource_set_user_data(xdg->toplevel, NULL);
	free(xdg);
}

static void wm_base_create_positioner(struct wl_client *client, struct wl_resource *resource,
                                      uint32_t id)
{
	struct wl_resource *positioner = wl_resource_create(client, &xdg_positioner_interface,
	                                                    wl_resource_get_version(resource), id);
	if (!positioner) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_dispatcher(positioner, ignore_requests, resource, NULL, NULL);
}

static void wm_base_get_xdg_surface(struct wl_client *client, struct wl_resource *resource,
                                    uint32_t id, struct wl_resource *surface_resource)
{
	struct xdg_surface_state *xdg = calloc(1, sizeof(*xdg));
	if (xdg)
		xdg->resource = wl_resource_create(client, &xdg_surface_interface,
		                                   wl_resource_get_version(resource), id);
	if (!xdg || !xdg->resource) {
		free(xdg);
		wl_client_post_no_memory(client);
		return;
	}
	xdg->surface = wl_resource_get_user_data(surface_resource);
	xdg->surface->xdg = xdg;
	wl_resource_set_implementation(xdg->resource, &xdg_surface_impl, xdg, xdg_surface_destroy);
}

static void wm_base_pong(struct wl_client *client, struct wl_resource *resource, uint32_t serial)
{
	(void)client, (void)resource, (void)serial;
}

static const struct xdg_wm_base_interface wm_base_impl = {
    .destroy = destroy_resource,
    .create_positioner = wm_base_create_positioner,
    .get_xdg_surface = wm_base_get_xdg_surface,
    .pong = wm_base_pong,
};

static void bind_wm_base(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
	    wl_resource_create(client, &xdg_wm_base_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &wm_base_impl, data, NULL);
}

/* wl_seat: pointer, touch and keyboard resources listed for the events the
 * test sends. */

/* A keymap that needs no xkb data files: 'a' (Shift: 'A') and Shift. */
static const char keymap[] =
    "xkb_keymap {\n"
    "xkb_keycodes \"mini\" { minimum = 8; maximum = 255; <AC01> = 38; <LFSH> = 50; };\n"
    "xkb_types \"mini\" {\n"
    "  type \"ONE_LEVEL\" { modifiers = none; level_name[Level1] = \"Any\"; };\n"
    "  type \"TWO_LEVEL\" { modifiers = Shift; map[Shift] = Level2;\n"
    "    level_name[Level1] = \"Base\"; level_name[Level2] = \"Shift\"; };\n"
    "  type \"ALPHABETIC\" { modifiers = Shift; map[Shift] = Level2;\n"
    "    level_name[Level1] = \"Base\"; level_name[Level2] = \"Caps\"; };\n"
    "};\n"
    "xkb_compatibility \"mini\" { interpret Shift_L { action = SetMods(modifiers = Shift); }; };\n"
    "xkb_symbols \"mini\" {\n"
    "  key <AC01> { type = \"ALPHABETIC\", [ a, A ] };\n"
    "  key <LFSH> { [ Shift_L ] };\n"
    "  modifier_map Shift { <LFSH> };\n"
    "};\n"
    "};\n";

static void unlist(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void release_device(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static const struct wl_touch_interface touch_impl = {.release = release_device};
static const struct wl_keyboard_interface keyboard_impl = {.release = release_device};

static void pointer_set_cursor(struct wl_client *client, struct wl_resource *resource,
                               uint32_t serial, struct wl_resource *surface, int32_t x, int32_t y)
{
	(void)client, (void)resource, (void)serial, (void)surface, (void)x, (void)y;
}

static const struct wl_pointer_interface pointer_impl = {
    .set_cursor = pointer_set_cursor, .release = release_device};

/* A pointer, touch or keyboard of the seat, listed in list for the events. */
static struct wl_resource *seat_device(struct wl_client *client, struct wl_resource *seat,
                                       uint32_t id, const struct wl_interface *interface,
                                       const void *implementation, struct wl_list *list)
{
	struct wl_resource *r =
	    wl_resource_create(client, interface, wl_resource_get_version(seat), id);
	if (!r) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	wl_resource_set_implementation(r, implementation, wl_resource_get_user_data(seat), unlist);
	wl_list_insert(list, wl_resource_get_link(r));
	return r;
}

static void seat_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct mini_compositor *c = wl_resource_get_user_data(resource);
	seat_device(client, resource, id, &wl_pointer_interface, &pointer_impl, &c->pointers);
}

static void seat_get_touch(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct mini_compositor *c = wl_resource_get_user_data(resource);
	seat_device(client, resource, id, &wl_touch_interface, &touch_impl, &c->touches);
}

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct mini_compositor *c = wl_resource_get_user_data(resource);
	struct wl_resource *r =
	    seat_device(client, resource, id, &wl_keyboard_interface, &keyboard_impl, &c->keyboards);
	int fd = r ? memfd_create("mini-keymap", MFD_CLOEXEC) : -1;
	if (fd >= 0 && write(fd, keymap, sizeof(keymap)) == (ssize_t)sizeof(keymap))
		wl_keyboard_send_keymap(r, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, sizeof(keymap));
	if (fd >= 0)
		close(fd);
}

static void seat_release(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static const struct wl_seat_interface seat_impl = {
    .get_pointer = seat_get_pointer,
    .get_keyboard = seat_get_keyboard,
    .get_touch = seat_get_touch,
    .release = seat_release,
};

static void bind_seat(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(client, &wl_seat_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &seat_impl, data, NULL);
	wl_seat_send_capabilities(resource, WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_TOUCH |
	                                        WL_SEAT_CAPABILITY_KEYBOARD);
}

/* Sends event e to the surface made last (in the compositor's thread). */
static void send_event(struct mini_compositor *c, const struct mini_event *e)
{
	struct wl_resource *surface = c->surface, *r;
	if (!surface)
		return;
	uint32_t time = now_ms();
	wl_fixed_t x = wl_fixed_from_double(e->x), y = wl_fixed_from_double(e->y);
	struct surface *state = wl_resource_get_user_data(surface);
	switch (e->kind) {
	case MINI_POINTER_MOTION:
		wl_resource_for_each(r, &c->pointers)
		{
			if (!c->pointer_entered)
				wl_pointer_send_enter(r, ++c->serial, surface, x, y);
			else
				wl_pointer_send_motion(r, time, x, y);
			if (wl_resource_get_version(r) >= WL_POINTER_FRAME_SINCE_VERSION)
				wl_pointer_send_frame(r);
		}
		c->pointer_entered = true;
		break;
	case MINI_POINTER_BUTTON:
		wl_resource_for_each(r, &c->pointers)
		{
			wl_pointer_send_button(r, ++c->serial, time, e->code,
			                       e->pressed ? WL_POINTER_BUTTON_STATE_PRESSED
			                                  : WL_POINTER_BUTTON_STATE_RELEASED);
			if (wl_resource_get_version(r) >= WL_POINTER_FRAME_SINCE_VERSION)
				wl_pointer_send_frame(r);
		}
		break;
	case MINI_TOUCH_DOWN:
		wl_resource_for_each(r, &c->touches)
		{
			wl_touch_send_down(r, ++c->serial, time, surface, e->id, x, y);
			wl_touch_send_frame(r);
		}
		break;
	case MINI_TOUCH_UP:
		wl_resource_for_each(r, &c->touches)
		{
			wl_touch_send_up(r, ++c->serial, time, e->id);
			wl_touch_send_frame(r);
		}
		break;
	case MINI_KEY:
		wl_resource_for_each(r, &c->keyboards)
		{
			if (!c->keyboard_entered) { /* the focus, once */
				struct wl_array keys;
				wl_array_init(&keys);
				wl_keyboard_send_enter(r, ++c->serial, surface, &keys);
				wl_array_release(&keys);
			}
			wl_keyboard_send_modifiers(r, ++c->serial, e->shift ? 1u : 0u, 0, 0, 0);
			wl_keyboard_send_key(r, ++c->serial, time, e->code,
			                     e->pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
			                                : WL_KEYBOARD_KEY_STATE_RELEASED);
		}
		c->keyboard_entered = true;
		break;
	case MINI_CLOSE:
		if (state->xdg && state->xdg->toplevel)
			xdg_toplevel_send_close(state->xdg->toplevel);
		break;
	case MINI_CONFIGURE:
		if (state->xdg && state->xdg->toplevel)
			send_configure(state->xdg, (int)e->x, (int)e->y);
		break;
	case MINI_PROTOCOL_ERROR:
		if (state->xdg)
			wl_resource_post_error(state->xdg->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			                       "the test compositor's error");
		break;
	}
}

static int read_commands(int fd, uint32_t mask, void *data)
{
	(void)mask;
	struct mini_compositor *c = data;
	struct mini_event e;
	while (read(fd, &e, sizeof(e)) == (ssize_t)sizeof(e))
		send_event(c, &e);
	return 0;
}

void mini_compositor_send(struct mini_compositor *compositor, const struct mini_event *event)
{
	if (write(compositor->commands[1], event, sizeof(*event)) != (ssize_t)sizeof(*event))
		fprintf(stderr, "mini_compositor: the event pipe is full\n");
}

/* wp_viewporter and wp_fractional_scale_manager_v1: the destination kept,
 * the preferred scale sent at once. */

static void viewport_set_source(struct wl_client *client, struct wl_resource *resource,
                                wl_fixed_t x, wl_fixed_t y, wl_fixed_t width, wl_fixed_t height)
{
	(void)client, (void)resource, (void)x, (void)y, (void)width, (void)height;
}

static void viewport_set_destination(struct wl_client *client, struct wl_resource *resource,
                                     int32_t width, int32_t height)
{
	(void)client;
	struct mini_compositor *c = wl_resource_get_user_data(resource);
	lock_stats(c);
	c->stats.viewport_width = width;
	c->stats.viewport_height = height;
	unlock_stats(c);
}

static const struct wp_viewport_interface viewport_impl = {
    .destroy = destroy_resource,
    .set_source = viewport_set_source,
    .set_destination = viewport_set_destination,
};

static void viewporter_get_viewport(struct wl_client *client, struct wl_resource *resource,
                                    uint32_t id, struct wl_resource *surface)
{
	(void)surface;
	struct wl_resource *r =
	    wl_resource_create(client, &wp_viewport_interface, wl_resource_get_version(resource), id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &viewport_impl, wl_resource_get_user_data(resource), NULL);
}

static const struct wp_viewporter_interface viewporter_impl = {
    .destroy = destroy_resource,
    .get_viewport = viewporter_get_viewport,
};

static const struct wp_fractional_scale_v1_interface fractional_impl = {
    .destroy = destroy_resource,
};

static void fractional_get(struct wl_client *client, struct wl_resource *resource, uint32_t id,
                           struct wl_resource *surface)
{
	(void)surface;
	struct mini_compositor *c = wl_resource_get_user_data(resource);
	struct wl_resource *r = wl_resource_create(client, &wp_fractional_scale_v1_interface,
	                                           wl_resource_get_version(resource), id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &fractional_impl, c, NULL);
	wp_fractional_scale_v1_send_preferred_scale(r, (uint32_t)c->desc.fractional_120);
}

static const struct wp_fractional_scale_manager_v1_interface fractional_manager_impl = {
    .destroy = destroy_resource,
    .get_fractional_scale = fractional_get,
};

static void bind_viewporter(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *r = wl_resource_create(client, &wp_viewporter_interface, (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &viewporter_impl, data, NULL);
}

static void bind_fractional(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *r =
	    wl_resource_create(client, &wp_fractional_scale_manager_v1_interface, (int)version, id);
	if (!r) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &fractional_manager_impl, data, NULL);
}

/* linux-dmabuf */

static bool offered(const struct mini_compositor *c, uint32_t format, uint64_t modifier)
{
	if (format != DRM_FORMAT_XRGB8888 && format != DRM_FORMAT_ARGB8888)
		return false;
	for (int i = 0; i < c->desc.modifier_count; i++)
		if (c->desc.modifiers[i] == modifier)
			return true;
	return false;
}

static void params_add(struct wl_client *client, struct wl_resource *resource, int32_t fd,
                       uint32_t plane, uint32_t offset, uint32_t stride, uint32_t modifier_hi,
                       uint32_t modifier_lo)
{
	(void)client;
	struct params *params = wl_resource_get_user_data(resource);
	if (plane != 0 || params->fd >= 0) {
		params->extra_planes = true; /* only one-plane formats here: refused at create */
		close(fd);
		return;
	}
	params->fd = fd;
	params->offset = offset;
	params->stride = stride;
	params->modifier = ((uint64_t)modifier_hi << 32) | modifier_lo;
}

/* Why a dma-buf cannot be taken, or NULL. */
static const char *refusal(const struct params *params, int32_t width, int32_t height,
                           uint32_t format)
{
	if (params->used)
		return "params already used";
	if (params->fd < 0 || params->extra_planes)
		return "not exactly one plane";
	if (width < 1 || height < 1 || params->stride < (uint32_t)width * 4)
		return "bad size or stride";
	if (!offered(params->compositor, format, params->modifier))
		return "format or modifier not offered";
	off_t size = lseek(params->fd, 0, SEEK_END);
	if (size < 0 ||
	    (uint64_t)size < params->offset + (uint64_t)params->stride * (uint64_t)height)
		return "the dma-buf is smaller than the plane";
	return NULL;
}

static void make_buffer(struct wl_client *client, struct wl_resource *resource, uint32_t id,
                        int32_t width, int32_t height, uint32_t format)
{
	struct params *params = wl_resource_get_user_data(resource);
	struct mini_compositor *c = params->compositor;
	const char *why = refusal(params, width, height, format);
	params->used = true;
	if (why) {
		fprintf(stderr, "mini_compositor: dma-buf refused: %s\n", why);
		lock_stats(c);
		c->stats.params_failed++;
		unlock_stats(c);
		if (id)
			wl_resource_post_error(resource,
			                       ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_WL_BUFFER,
			                       "%s", why);
		else
			zwp_linux_buffer_params_v1_send_failed(resource);
		return;
	}
	struct dmabuf_buffer *buffer = calloc(1, sizeof(*buffer));
	struct wl_resource *buffer_resource =
	    buffer ? wl_resource_create(client, &wl_buffer_interface, 1, id) : NULL;
	if (!buffer_resource) {
		free(buffer);
		wl_client_post_no_memory(client);
		return;
	}
	*buffer = (struct dmabuf_buffer){
	    .compositor = c,
	    .number = c->next_buffer++,
	    .fd = params->fd,
	    .offset = params->offset,
	    .stride = params->stride,
	    .format = format,
	    .width = width,
	    .height = height,
	    .modifier = params->modifier,
	};
	params->fd = -1; /* the buffer's now */
	wl_resource_set_implementation(buffer_resource, &dmabuf_buffer_impl, buffer,
	                               dmabuf_buffer_destroy);
	lock_stats(c);
	c->stats.buffers_created++;
	unlock_stats(c);
	if (!id)
		zwp_linux_buffer_params_v1_send_created(resource, buffer_resource);
}

static void params_create(struct wl_client *client, struct wl_resource *resource, int32_t width,
                          int32_t height, uint32_t format, uint32_t flags)
{
	(void)flags;
	make_buffer(client, resource, 0, width, height, format);
}

static void params_create_immed(struct wl_client *client, struct wl_resource *resource, uint32_t id,
                                int32_t width, int32_t height, uint32_t format, uint32_t flags)
{
	(void)flags;
	make_buffer(client, resource, id, width, height, format);
}

static const struct zwp_linux_buffer_params_v1_interface params_impl = {
    .destroy = destroy_resource,
    .add = params_add,
    .create = params_create,
    .create_immed = params_create_immed,
};

static void params_destroy(struct wl_resource *resource)
{
	struct params *params = wl_resource_get_user_data(resource);
	if (params->fd >= 0)
		close(params->fd);
	free(params);
}

static void dmabuf_create_params(struct wl_client *client, struct wl_resource *resource,
                                 uint32_t id)
{
	struct params *params = calloc(1, sizeof(*params));
	struct wl_resource *params_resource =
	    params ? wl_resource_create(client, &zwp_linux_buffer_params_v1_interface,
	                                wl_resource_get_version(resource), id)
	           : NULL;
	if (!params_resource) {
		free(params);
		wl_client_post_no_memory(client);
		return;
	}
	params->compositor = wl_resource_get_user_data(resource);
	params->fd = -1;
	wl_resource_set_implementation(params_resource, &params_impl, params, params_destroy);
}

static void feedback_destroy(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	struct mini_compositor *c = wl_resource_get_user_data(resource);
	lock_stats(c);
	c->stats.feedbacks_destroyed++;
	unlock_stats(c);
	wl_resource_destroy(resource);
}

static const struct zwp_linux_dmabuf_feedback_v1_interface feedback_impl = {
    .destroy = feedback_destroy,
};

/* The format table, the main device and one tranche of every entry. */
static void send_feedback(struct mini_compositor *c, struct wl_resource *feedback)
{
	struct entry {
		uint32_t format, padding;
		uint64_t modifier;
	} table[2 * MINI_MAX_MODIFIERS];
	static const uint32_t formats[] = {DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888};
	int entries = 0;
	for (int f = 0; f < 2; f++)
		for (int m = 0; m < c->desc.modifier_count; m++)
			table[entries++] = (struct entry){formats[f], 0, c->desc.modifiers[m]};
	size_t size = sizeof(table[0]) * (size_t)entries;
	int fd = memfd_create("mini-compositor-format-table", MFD_CLOEXEC);
	if (fd < 0 || write(fd, table, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		wl_client_post_no_memory(wl_resource_get_client(feedback));
		return;
	}
	zwp_linux_dmabuf_feedback_v1_send_format_table(feedback, fd, (uint32_t)size);
	close(fd); /* libwayland sent a duplicate */
	struct wl_array device;
	wl_array_init(&device);
	dev_t *id = wl_array_add(&device, sizeof(dev_t));
	if (id)
		*id = c->device;
	zwp_linux_dmabuf_feedback_v1_send_main_device(feedback, &device);
	zwp_linux_dmabuf_feedback_v1_send_tranche_target_device(feedback, &device);
	wl_array_release(&device);
	struct wl_array indices;
	wl_array_init(&indices);
	for (int i = 0; i < entries; i++) {
		uint16_t *index = wl_array_add(&indices, sizeof(uint16_t));
		if (index)
			*index = (uint16_t)i;
	}
	zwp_linux_dmabuf_feedback_v1_send_tranche_formats(feedback, &indices);
	wl_array_release(&indices);
	zwp_linux_dmabuf_feedback_v1_send_tranche_flags(feedback, 0);
	zwp_linux_dmabuf_feedback_v1_send_tranche_done(feedback);
	zwp_linux_dmabuf_feedback_v1_send_done(feedback);
	lock_stats(c);
	c->stats.feedbacks++;
	unlock_stats(c);
}

static void dmabuf_get_feedback(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct wl_resource *feedback = wl_resource_create(
	    client, &zwp_linux_dmabuf_feedback_v1_interface, wl_resource_get_version(resource), id);
	if (!feedback) {
		wl_client_post_no_memory(client);
		return;
	}
	struct mini_compositor *c = wl_resource_get_user_data(resource);
	wl_resource_set_implementation(feedback, &feedback_impl, c, NULL);
	send_feedback(c, feedback);
}

static void dmabuf_get_surface_feedback(struct wl_client *client, struct wl_resource *resource,
                                        uint32_t id, struct wl_resource *surface)
{
	(void)surface; /* one device: the surface's feedback is the default one */
	dmabuf_get_feedback(client, resource, id);
}

static const struct zwp_linux_dmabuf_v1_interface dmabuf_impl = {
    .destroy = destroy_resource,
    .create_params = dmabuf_create_params,
    .get_default_feedback = dmabuf_get_feedback,
    .get_surface_feedback = dmabuf_get_surface_feedback,
};

static void bind_dmabuf(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
	    wl_resource_create(client, &zwp_linux_dmabuf_v1_interface, (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	/* version 4: no format or modifier events; the feedback says it all */
	wl_resource_set_implementation(resource, &dmabuf_impl, data, NULL);
}

/* the thread and the public functions */

static void *run(void *data)
{
	struct mini_compositor *c = data;
	while (!atomic_load(&c->stop)) {
		wl_display_flush_clients(c->display);
		wl_event_loop_dispatch(c->loop, 20);
		int clients = 0;
		struct wl_client *client;
		wl_client_for_each(client, wl_display_get_client_list(c->display))
		{
			clients++;
		}
		lock_stats(c);
		c->stats.clients = clients;
		unlock_stats(c);
	}
	return NULL;
}

static int listen_at(const char *path)
{
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	snprintf(address.sun_path, sizeof(address.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof(address)) < 0 ||
	    listen(fd, 8) < 0) {
		fprintf(stderr, "mini_compositor: socket at %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void free_compositor(struct mini_compositor *c)
{
	if (c->reader) /* the loop leaves its sources to their owners */
		wl_event_source_remove(c->reader);
	if (c->display) {
		wl_display_destroy_clients(c->display);
		wl_display_destroy(c->display); /* closes the listening socket */
	}
	if (c->socket_path[0])
		unlink(c->socket_path);
	for (int i = 0; i < 2; i++)
		if (c->commands[i] >= 0)
			close(c->commands[i]);
	if (c->dir[0])
		rmdir(c->dir);
	for (int i = 0; i < c->record_count; i++)
		free(c->records[i].pixels);
	free(c->records);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

struct mini_compositor *mini_compositor_start(const struct mini_compositor_desc *desc)
{
	struct mini_compositor *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->desc = *desc;
	if (!c->desc.modifier_count) {
		c->desc.modifiers[0] = DRM_FORMAT_MOD_INVALID;
		c->desc.modifiers[1] = DRM_FORMAT_MOD_LINEAR;
		c->desc.modifier_count = 2;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->commands[0] = c->commands[1] = -1;
	wl_list_init(&c->pointers);
	wl_list_init(&c->touches);
	wl_list_init(&c->keyboards);
	const char *node = desc->device ? desc->device : "/dev/dri/card0";
	c->desc.device = NULL; /* not kept */
	struct stat st;
	if (!desc->no_dmabuf && stat(node, &st) < 0) {
		fprintf(stderr, "mini_compositor: stat %s: %s\n", node, strerror(errno));
		goto fail;
	}
	c->device = desc->no_dmabuf ? 0 : st.st_rdev;
	if (pipe2(c->commands, O_CLOEXEC | O_NONBLOCK) < 0) {
		fprintf(stderr, "mini_compositor: pipe2: %s\n", strerror(errno));
		goto fail;
	}
	snprintf(c->dir, sizeof(c->dir), "/tmp/sg-mini-compositor-XXXXXX");
	if (!mkdtemp(c->dir)) {
		fprintf(stderr, "mini_compositor: mkdtemp: %s\n", strerror(errno));
		c->dir[0] = '\0';
		goto fail;
	}
	snprintf(c->socket_path, sizeof(c->socket_path), "%s/wayland-0", c->dir);
	c->display = wl_display_create();
	if (!c->display)
		goto fail;
	c->loop = wl_display_get_event_loop(c->display);
	int fd = listen_at(c->socket_path);
	if (fd < 0 || wl_display_add_socket_fd(c->display, fd) < 0) {
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	if (wl_display_init_shm(c->display) < 0 ||
	    !wl_global_create(c->display, &wl_compositor_interface,
	                      c->desc.compositor_version ? c->desc.compositor_version : 4, c,
	                      bind_compositor) ||
	    (!desc->no_wm_base &&
	     !wl_global_create(c->display, &xdg_wm_base_interface, 1, c, bind_wm_base)) ||
	    (!desc->no_dmabuf &&
	     !wl_global_create(c->display, &zwp_linux_dmabuf_v1_interface, 4, c, bind_dmabuf)) ||
	    (desc->seat && !wl_global_create(c->display, &wl_seat_interface, 5, c, bind_seat)) ||
	    (desc->presentation &&
	     !wl_global_create(c->display, &wp_presentation_interface, 1, c, bind_presentation)) ||
	    (desc->fractional_120 > 0 &&
	     (!wl_global_create(c->display, &wp_viewporter_interface, 1, c, bind_viewporter) ||
	      !wl_global_create(c->display, &wp_fractional_scale_manager_v1_interface, 1, c,
	                        bind_fractional))) ||
	    !(c->reader = wl_event_loop_add_fd(c->loop, c->commands[0], WL_EVENT_READABLE,
	                                       read_commands, c))) {
		fprintf(stderr, "mini_compositor: cannot make the globals\n");
		goto fail;
	}
	if (pthread_create(&c->thread, NULL, run, c)) {
		fprintf(stderr, "mini_compositor: pthread_create failed\n");
		goto fail;
	}
	return c;
fail:
	free_compositor(c);
	return NULL;
}

const char *mini_compositor_socket(const struct mini_compositor *compositor)
{
	return compositor->socket_path;
}

void mini_compositor_stats(struct mini_compositor *compositor, struct mini_stats *stats)
{
	lock_stats(compositor);
	*stats = compositor->stats;
	unlock_stats(compositor);
}

bool mini_compositor_commit(struct mini_compositor *compositor, int index,
                            struct mini_commit *commit)
{
	lock_stats(compositor);
	bool found = index >= 0 && index < compositor->record_count;
	if (found) {
		*commit = compositor->records[index];
		const struct mini_commit *record = &compositor->records[index];
		size_t size = (size_t)record->width * (size_t)record->height * 4;
		commit->pixels = record->pixels ? malloc(size) : NULL;
		if (commit->pixels)
			memcpy(commit->pixels, record->pixels, size);
	}
	unlock_stats(compositor);
	return found;
}

bool mini_compositor_wait_no_clients(struct mini_compositor *compositor, int timeout_ms)
{
	for (int waited = 0;; waited += 5) {
		struct mini_stats stats;
		mini_compositor_stats(compositor, &stats);
		if (!stats.clients)
			return true;
		if (waited >= timeout_ms)
			return false;
		nanosleep(&(struct timespec){.tv_nsec = 5000000}, NULL);
	}
}

void mini_compositor_stop(struct mini_compositor *compositor)
{
	if (!compositor)
		return;
	atomic_store(&compositor->stop, true);
	pthread_join(compositor->thread, NULL);
	free_compositor(compositor);
}
