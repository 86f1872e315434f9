/* Standalone probe: which DRM devices exist, and do GBM and EGL work on them?
 * Build: cc tests/vm/probe-gbm.c $(pkg-config --cflags --libs gbm egl glesv2 libdrm) -o /tmp/probe
 * Run:   tests/vm/run.sh --device vgem -- /tmp/probe
 * Prints one line a step, "ok" or "FAIL" with errno; exits 0 when at least
 * one node got through every required step (gbm_bo_create_with_modifiers2
 * is reported but not required: kms_swrast answers it with ENOSYS). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>
#include <gbm.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#ifndef EGL_PLATFORM_GBM_KHR
#define EGL_PLATFORM_GBM_KHR 0x31D7
#endif

static void step(const char *what, int ok, int err)
{
    if (ok)
        printf("  %-38s ok\n", what);
    else
        printf("  %-38s FAIL (errno %d: %s)\n", what, err, strerror(err));
}

static void list_devices(void)
{
    drmDevicePtr devs[16];
    int n = drmGetDevices2(0, devs, 16);
    if (n < 0) {
        printf("drmGetDevices2: FAIL (%d: %s)\n", n, strerror(-n));
        return;
    }
    printf("drmGetDevices2: %d device(s)\n", n);
    for (int i = 0; i < n; i++) {
        static const char *kind[] = {"primary", "control", "render"};
        printf("  device %d bustype %d:", i, devs[i]->bustype);
        for (int t = 0; t < DRM_NODE_MAX; t++)
            if (devs[i]->available_nodes & (1 << t))
                printf(" %s=%s", t < 3 ? kind[t] : "?", devs[i]->nodes[t]);
        printf("\n");
    }
    drmFreeDevices(devs, n);
}

/* Returns 1 when every step passed. */
static int probe(const char *path)
{
    int all = 1, e;
    printf("%s\n", path);

    int fd = open(path, O_RDWR | O_CLOEXEC);
    e = errno;
    step("open", fd >= 0, e);
    if (fd < 0)
        return 0;

    drmVersionPtr v = drmGetVersion(fd);
    if (v) {
        printf("  %-38s %s %d.%d.%d\n", "kernel driver", v->name, v->version_major,
               v->version_minor, v->version_patchlevel);
        drmFreeVersion(v);
    }

    errno = 0;
    struct gbm_device *gbm = gbm_create_device(fd);
    e = errno;
    step("gbm_create_device", gbm != NULL, e);
    if (!gbm) {
        close(fd);
        return 0;
    }
    printf("  %-38s %s\n", "gbm backend", gbm_device_get_backend_name(gbm));

    errno = 0;
    struct gbm_bo *bo = gbm_bo_create(gbm, 64, 64, GBM_FORMAT_ABGR8888,
                                      GBM_BO_USE_RENDERING | GBM_BO_USE_LINEAR);
    e = errno;
    step("gbm_bo_create 64x64 ABGR8888", bo != NULL, e);
    all &= bo != NULL;
    if (bo) {
        printf("  %-38s stride %u modifier 0x%llx\n", "", gbm_bo_get_stride(bo),
               (unsigned long long)gbm_bo_get_modifier(bo));
        int dfd = gbm_bo_get_fd(bo);
        e = errno;
        step("gbm_bo_get_fd (PRIME export)", dfd >= 0, e);
        all &= dfd >= 0;
        if (dfd >= 0)
            close(dfd);
        gbm_bo_destroy(bo);
    }

    /* Looked up at run time: older libgbm (before Mesa 21.3) lacks it. */
    struct gbm_bo *(*create2)(struct gbm_device *, uint32_t, uint32_t, uint32_t,
                              const uint64_t *, unsigned int, uint32_t) =
        (struct gbm_bo *(*)(struct gbm_device *, uint32_t, uint32_t, uint32_t,
                            const uint64_t *, unsigned int, uint32_t))
            dlsym(RTLD_DEFAULT, "gbm_bo_create_with_modifiers2");
    if (create2) {
        uint64_t linear = 0; /* DRM_FORMAT_MOD_LINEAR */
        errno = 0;
        bo = create2(gbm, 64, 64, GBM_FORMAT_ABGR8888, &linear, 1, GBM_BO_USE_RENDERING);
        e = errno;
        step("gbm_bo_create_with_modifiers2 LINEAR", bo != NULL, e); /* informative only */
        if (bo)
            gbm_bo_destroy(bo);
    } else {
        printf("  %-38s not in this libgbm\n", "gbm_bo_create_with_modifiers2");
    }

    errno = 0;
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, gbm, NULL);
    e = errno;
    step("eglGetPlatformDisplay(GBM)", dpy != EGL_NO_DISPLAY, e);
    EGLint major = 0, minor = 0;
    if (dpy != EGL_NO_DISPLAY) {
        EGLBoolean ok = eglInitialize(dpy, &major, &minor);
        e = errno;
        step("eglInitialize", ok, e);
        if (ok) {
            printf("  %-38s EGL %d.%d, %s\n", "", major, minor, eglQueryString(dpy, EGL_VENDOR));
            const char *(*driver_name)(EGLDisplay) =
                (const char *(*)(EGLDisplay))eglGetProcAddress("eglGetDisplayDriverName");
            const char *name = driver_name ? driver_name(dpy) : NULL;
            printf("  %-38s %s\n", "eglGetDisplayDriverName",
                   name ? name : driver_name ? "(null)" : "(no EGL_MESA_query_driver)");
            eglTerminate(dpy);
        } else {
            printf("  %-38s eglGetError 0x%x\n", "", eglGetError());
        }
        all &= ok;
    } else {
        printf("  %-38s eglGetError 0x%x\n", "", eglGetError());
        all = 0;
    }

    gbm_device_destroy(gbm);
    close(fd);
    return all;
}

int main(int argc, char **argv)
{
    const char *fallback[] = {"/dev/dri/renderD128", "/dev/dri/card0"};
    int good = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    list_devices();
    if (argc > 1)
        for (int i = 1; i < argc; i++)
            good += probe(argv[i]);
    else
        for (int i = 0; i < 2; i++)
            good += probe(fallback[i]);
    printf("%d node(s) passed every step\n", good);
    return good ? 0 : 1;
}
