/* Clock, statistics and child processes shared by the benchmark programs. */
#ifndef SG_BENCH_TIMING_H
#define SG_BENCH_TIMING_H

#include <stdbool.h>

/* CLOCK_MONOTONIC in milliseconds. */
double now_ms(void);
/* CPU time of the whole process (all its threads), in milliseconds. */
double process_cpu_ms(void);
/* The time this process's threads have spent runnable but waiting for a CPU
 * (the second field of /proc/self/task/TID/schedstat, summed), in
 * milliseconds; NAN where the kernel does not keep it. Over a frame: how
 * much of it the machine, other programs or the process's own threads made
 * it wait, which a frame time alone cannot tell apart from slower work. */
double threads_waited_ms(void);
/* Median of count values (sorts them in place); the mean of the middle two
 * for an even count. */
double median(double *values, int count);

/* The smallest, the median and the largest of count values (sorts them in
 * place); all NAN for no values. */
struct spread {
	double min, median, max;
};
struct spread spread_of(double *values, int count);

/* Samples by name, as a child prints them: one line "NAME value value ...". */
#define SAMPLES_MAX_KEYS 32
struct sample_series {
	char key[32];
	double *values;
	int count, capacity;
};
struct samples {
	struct sample_series series[SAMPLES_MAX_KEYS];
	int count;
};

/* Prints the line "key v v v" that samples_add_line() reads back. */
void samples_print(const char *key, const double *values, int count);
/* Adds the values of a "NAME number number ..." line (at least one number) to
 * the series NAME and returns true; false, nothing added, for any other line. */
bool samples_add_line(struct samples *samples, const char *line);
/* The series key, NULL when no line named it. */
struct sample_series *samples_get(struct samples *samples, const char *key);
void samples_free(struct samples *samples);

/* Runs this program again (/proc/self/exe) with argv (argv[0] first, NULL
 * last), each contestant of a benchmark in a process of its own as a user's
 * program runs: a fresh heap, its own caches and its own peak RSS. Sample
 * lines of its output go to samples, other lines to stdout. False when it
 * could not start or did not exit with 0. */
bool run_self(char *const argv[], struct samples *samples);

#endif
