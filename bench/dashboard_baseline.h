/* The hand-written GLES program of bench/dashboard (dashboard_baseline.c). */
#ifndef SG_BENCH_DASHBOARD_BASELINE_H
#define SG_BENCH_DASHBOARD_BASELINE_H

#include <stdbool.h>

/* Draws the dashboard (live: 5 values replaced a frame), 3 warm-up frames
 * and then frames timed ones; prints "frame_ms ..." and "build_ms ..." sample
 * lines. */
int run_dashboard_baseline(bool live, int frames, const char *font_path);

#endif
