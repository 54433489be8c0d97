// SPDX-License-Identifier: GPL-2.0-only
/*
 * Open one hardware event for this task and say what perf_event_open()
 * answered, which stock perf hides behind its own messages and
 * fallbacks.  A helper for profile_test.sh, not a test:
 *
 *   pmu_try_open [-u] [-p PERIOD] [-b] [-c CONFIG3] cycles|instructions
 *
 * -u counts user mode only (exclude_kernel, exclude_hv), -p PERIOD makes
 * it a sampling event, -b adds a branch stack (any branch, user mode),
 * -c sets attr.config3 (the CTR options).  Prints "opened" and exits 0,
 * or "errno N (TEXT)" and exits 1; 2 for a usage error.
 */
#define _GNU_SOURCE
#include <getopt.h>

#include "pmu_test_lib.h"

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	unsigned long long period = 0, config3 = 0;
	int branch = 0, user = 0, opt, fd;
	uint64_t config;

	while ((opt = getopt(argc, argv, "up:bc:")) != -1) {
		switch (opt) {
		case 'c':
			config3 = strtoull(optarg, NULL, 0);
			break;
		case 'p':
			period = strtoull(optarg, NULL, 0);
			break;
		case 'b':
			branch = 1;
			break;
		case 'u':
			user = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	if (!strcmp(argv[optind], "cycles"))
		config = PERF_COUNT_HW_CPU_CYCLES;
	else if (!strcmp(argv[optind], "instructions"))
		config = PERF_COUNT_HW_INSTRUCTIONS;
	else
		goto usage;

	pmu_attr(&attr, PERF_TYPE_HARDWARE, config);
	attr.exclude_kernel = user;
	attr.exclude_hv = user;
	attr.config3 = config3;
	if (period) {
		attr.sample_period = period;
		attr.sample_type = PERF_SAMPLE_IP;
	}
	if (branch) {
		attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					  PERF_SAMPLE_BRANCH_USER;
	}
	fd = pmu_open(&attr, 0, -1, -1);
	if (fd < 0) {
		printf("errno %d (%s)\n", errno, strerror(errno));
		return 1;
	}
	close(fd);
	printf("opened\n");
	return 0;
usage:
	fprintf(stderr, "usage: %s [-u] [-p PERIOD] [-b] [-c CONFIG3] cycles|instructions\n",
		argv[0]);
	return 2;
}
