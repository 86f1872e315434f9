#include "timing.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

double process_cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

double threads_waited_ms(void)
{
	DIR *tasks = opendir("/proc/self/task");
	if (!tasks)
		return NAN;
	double ns = 0;
	bool any = false;
	for (struct dirent *e; (e = readdir(tasks));) {
		if (e->d_name[0] == '.')
			continue;
		char path[300];
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", e->d_name);
		FILE *f = fopen(path, "r");
		unsigned long long ran, waited;
		if (f && fscanf(f, "%llu %llu", &ran, &waited) == 2)
			ns += (double)waited, any = true;
		if (f)
			fclose(f);
	}
	closedir(tasks);
	return any ? ns / 1e6 : NAN;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double median(double *values, int count)
{
	qsort(values, (size_t)count, sizeof(*values), compare_doubles);
	return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

struct spread spread_of(double *values, int count)
{
	if (count < 1)
		return (struct spread){NAN, NAN, NAN};
	double m = median(values, count); /* sorts */
	return (struct spread){values[0], m, values[count - 1]};
}

void samples_print(const char *key, const double *values, int count)
{
	printf("%s", key);
	for (int i = 0; i < count; i++)
		printf(" %.6f", values[i]);
	printf("\n");
}

static struct sample_series *series_for(struct samples *samples, const char *key, size_t length)
{
	for (int i = 0; i < samples->count; i++)
		if (strlen(samples->series[i].key) == length &&
		    strncmp(samples->series[i].key, key, length) == 0)
			return &samples->series[i];
	if (samples->count == SAMPLES_MAX_KEYS || length >= sizeof(samples->series[0].key))
		return NULL;
	struct sample_series *s = &samples->series[samples->count++];
	*s = (struct sample_series){0};
	memcpy(s->key, key, length);
	return s;
}

static bool append(struct sample_series *s, double v)
{
	if (s->count == s->capacity) {
		int capacity = s->capacity ? s->capacity * 2 : 64;
		double *values = realloc(s->values, (size_t)capacity * sizeof(*values));
		if (!values)
			return false;
		s->values = values, s->capacity = capacity;
	}
	s->values[s->count++] = v;
	return true;
}

bool samples_add_line(struct samples *samples, const char *line)
{
	size_t length = strcspn(line, " \n");
	const char *p = line + length;
	/* a sample line: a name, then numbers only, at least one */
	int numbers = 0;
	for (const char *q = p;; numbers++) {
		char *end;
		q += strspn(q, " ");
		if (*q == '\n' || *q == '\0')
			break;
		strtod(q, &end);
		if (end == q || (*end != ' ' && *end != '\n' && *end != '\0'))
			return false;
		q = end;
	}
	struct sample_series *s = length && numbers ? series_for(samples, line, length) : NULL;
	if (!s)
		return false;
	for (char *end; *(p += strspn(p, " ")) && *p != '\n'; p = end)
		if (!append(s, strtod(p, &end)))
			return false;
	return true;
}

struct sample_series *samples_get(struct samples *samples, const char *key)
{
	for (int i = 0; i < samples->count; i++)
		if (strcmp(samples->series[i].key, key) == 0)
			return &samples->series[i];
	return NULL;
}

void samples_free(struct samples *samples)
{
	for (int i = 0; i < samples->count; i++)
		free(samples->series[i].values);
	samples->count = 0;
}

bool run_self(char *const argv[], struct samples *samples)
{
	int fds[2];
	if (pipe(fds))
		return false;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]), close(fds[1]);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[1]);
		/* exec, not a bare fork: a fresh heap, and a peak RSS of its own */
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(fds[1]);
	FILE *in = fdopen(fds[0], "r");
	if (!in)
		close(fds[0]);
	char *line = NULL;
	size_t size = 0;
	while (in && getline(&line, &size, in) > 0)
		if (!samples_add_line(samples, line))
			fputs(line, stdout);
	free(line);
	if (in)
		fclose(in);
	int status;
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
