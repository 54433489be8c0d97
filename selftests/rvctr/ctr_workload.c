// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload for stock perf on the board, opening no perf event of its
 * own.  The CTR selftests open their own sampling event, so they make poor
 * perf workloads.  QEMU counts an event on one programmable counter only
 * (target/riscv/pmu.c keeps one counter per event in pmu_event_ctr_map):
 * a second instructions:u event on the same hart would then see nothing.
 *
 *   ctr_workload loop N    ct_loop(N): the known transfers of ctr_test_lib.h
 *   ctr_workload chain N   main -> wl_a -> wl_b -> wl_c, spinning N times in wl_c
 */
#include "ctr_test_lib.h"

static volatile long wl_sink;

static noinline __attribute__((__noclone__)) long wl_c(long n)
{
	long i;

	for (i = 0; i < n; i++)
		wl_sink += i;
	return wl_sink;
}

static noinline __attribute__((__noclone__)) long wl_b(long n)
{
	long r = wl_c(n);

	asm volatile("" ::: "memory");
	return r + 1;
}

static noinline __attribute__((__noclone__)) long wl_a(long n)
{
	long r = wl_b(n);

	asm volatile("" ::: "memory");
	return r + 1;
}

int main(int argc, char **argv)
{
	char *end;
	long n;

	if (argc != 3)
		goto usage;
	n = strtol(argv[2], &end, 0);
	if (*end || n <= 0)
		goto usage;
	if (!strcmp(argv[1], "loop"))
		ct_loop(n);
	else if (!strcmp(argv[1], "chain"))
		wl_a(n);
	else
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: %s loop|chain COUNT\n", argv[0]);
	return 2;
}
