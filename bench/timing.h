/* Clock and median for the benchmark programs. */
#ifndef SG_BENCH_TIMING_H
#define SG_BENCH_TIMING_H

/* CLOCK_MONOTONIC in milliseconds. */
double now_ms(void);
/* Median of count values (sorts them in place); the mean of the middle two
 * for an even count. */
double median(double *values, int count);

#endif
