/* The hand-written GLES program of bench/dashboard (dashboard_baseline.c). */
#ifndef SG_BENCH_DASHBOARD_BASELINE_H
#define SG_BENCH_DASHBOARD_BASELINE_H

#include <stdbool.h>

#include "dashboard_scene.h"

/* Draws the dashboard's variant, 3 warm-up frames and then frames timed
 * ones; prints "frame_ms ..." and "build_ms ..." sample lines. */
int run_dashboard_baseline(enum dash_variant variant, int frames, const char *font_path);

#endif
