/* The hand-written GLES program of bench3d (baseline3d.c). */
#ifndef SG_BENCH_BASELINE3D_H
#define SG_BENCH_BASELINE3D_H

/* Renders scene (cubes-10000 or mesh-1m), spinning or static, warmup and
 * then frames timed frames; prints "frame_ms ..." sample lines. */
int run_baseline3d(const char *scene, int spin, int warmup, int frames);

#endif
