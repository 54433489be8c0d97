// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr topdown -- COMMAND: count the top-down events that exist on this
 * machine while COMMAND runs.  cycles, instructions and branch-misses are
 * perf's generic events; the others are looked up by name among the cpu
 * PMU's sysfs event aliases.  Each counts on its own (read_format with
 * enabled/running times, scaled when the kernel multiplexes them).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include <rvctr/pmu_event.h>
#include <rvctr/topdown.h>
#include "builtin.h"

#define PMU_DIR "/sys/bus/event_source/devices/cpu"

struct counter {
	struct perf_evsel *evsel;
	unsigned int ev;
};

static const char *read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return n ? buf : NULL;
}

static const char *sysfs_format(void *ctx, const char *term)
{
	char path[512];

	if ((size_t)snprintf(path, sizeof(path), PMU_DIR "/format/%s", term) >= sizeof(path))
		return NULL;	/* no such format */
	return read_small(path, ctx, 256);
}

/* The attr of topdown event @ev here, or -1 if this machine has no such event. */
static int event_attr(unsigned int ev, struct perf_event_attr *a)
{
	static const struct { unsigned int ev; uint64_t config; } generic[] = {
		{ TD_CPU_CYCLES, PERF_COUNT_HW_CPU_CYCLES },
		{ TD_INST_RETIRED, PERF_COUNT_HW_INSTRUCTIONS },
		{ TD_BR_MIS_PRED, PERF_COUNT_HW_BRANCH_MISSES },
	};
	char path[512], spec[256], fmt[256], err[256], type[32];
	unsigned int i;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (generic[i].ev == ev) {
			a->type = PERF_TYPE_HARDWARE;
			a->config = generic[i].config;
			return 0;
		}
	if ((size_t)snprintf(path, sizeof(path), PMU_DIR "/events/%s",
			     rvctr_topdown__event_name(ev)) >= sizeof(path) ||
	    !read_small(path, spec, sizeof(spec)) ||
	    !read_small(PMU_DIR "/type", type, sizeof(type)))
		return -1;
	a->type = strtoul(type, NULL, 10);
	if (rvctr_pmu_event__parse(spec, sysfs_format, fmt, a, err, sizeof(err))) {
		error("%s: %s", path, err);
		return -1;
	}
	return 0;
}

static unsigned int open_counters(struct counter *c, struct perf_thread_map *threads,
				  unsigned int *absent)
{
	struct perf_event_attr a;
	unsigned int ev, n = 0;

	*absent = 0;
	for (ev = 0; ev < TD_NR_EVENTS; ev++) {
		if (event_attr(ev, &a)) {
			*absent |= 1u << ev;
			continue;
		}
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = 1;
		a.enable_on_exec = 1;
		a.inherit = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		c[n].evsel = perf_evsel__new(&a);
		c[n].ev = ev;
		if (!c[n].evsel || perf_evsel__open(c[n].evsel, NULL, threads)) {
			perf_evsel__delete(c[n].evsel);
			*absent |= 1u << ev;
			continue;
		}
		n++;
	}
	return n;
}

static void print_absent(unsigned int absent)
{
	unsigned int ev;

	if (!absent)
		return;
	printf("# not counted (no such event on this PMU):");
	for (ev = 0; ev < TD_NR_EVENTS; ev++)
		if (absent & (1u << ev))
			printf(" %s", rvctr_topdown__event_name(ev));
	printf("\n");
}

int topdown_run(char **argv, struct rvctr_topdown *td, unsigned int level)
{
	struct counter c[TD_NR_EVENTS];
	struct perf_thread_map *threads = perf_thread_map__new_dummy();
	unsigned int n, i, absent;
	int go, status = 0;
	pid_t pid;

	if (!threads)
		return error("out of memory");
	pid = workload_start(argv, &go, 0);
	if (pid < 0)
		return error("fork: %m");
	perf_thread_map__set_pid(threads, 0, pid);
	n = open_counters(c, threads, &absent);
	signal(SIGINT, SIG_IGN);
	if (write(go, "g", 1) != 1)
		error("cannot start the workload");
	close(go);
	waitpid(pid, &status, 0);
	for (i = 0; i < n; i++) {
		struct perf_counts_values v = { .val = 0 };

		if (!perf_evsel__read(c[i].evsel, 0, 0, &v)) {
			perf_counts_values__scale(&v, true, NULL);
			rvctr_topdown__set(td, rvctr_topdown__event_name(c[i].ev), (double)v.val);
		}
		perf_evsel__close(c[i].evsel);
		perf_evsel__delete(c[i].evsel);
	}
	perf_thread_map__put(threads);
	print_absent(absent);
	if (!n)
		return error("none of the top-down events could be opened on this machine");
	rvctr_topdown__print(td, stdout, level);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}
