// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixed workloads for the benchmarks, cross-built static for the guest.
 * Each prints the CLOCK_MONOTONIC time it took in ns; under QEMU's
 * -icount shift=0 guest time advances one ns per instruction, so that is
 * the number of instructions the system ran meanwhile, interrupts and
 * perf's work included.
 *
 *   workload branches N   N iterations of calls, returns and branches
 *   workload pingpong N   N round trips between two processes over pipes
 *
 * Built with -DBENCH_MARKS (./funcprof), it also opens and closes the
 * window of the funcprof.c QEMU plugin around the timed part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static unsigned long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000UL + ts.tv_nsec;
}

/* Calls, returns, taken and not-taken branches the compiler keeps. */
static __attribute__((noinline)) unsigned long leaf(unsigned long x)
{
	if (x & 1)
		return x * 3 + 1;
	return x >> 1;
}

static __attribute__((noinline)) unsigned long mid(unsigned long x)
{
	unsigned long i, s = 0;

	for (i = 0; i < 4; i++)
		s += leaf(x + i);
	return s;
}

static int branches(unsigned long n)
{
	volatile unsigned long sink = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += mid(i);
	return sink == 42;
}

static int pingpong(unsigned long n)
{
	int ab[2], ba[2];
	unsigned long i;
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		return perror("pipe"), 1;
	pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (!pid) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
	waitpid(pid, NULL, 0);
	return 0;
}

#ifdef BENCH_MARKS
/* Hints (RISC-V "HINT Instructions": addi x0, x0, imm) the plugin watches. */
#define WINDOW_OPEN()	asm volatile(".4byte 0x5a100013" ::: "memory")
#define WINDOW_CLOSE()	asm volatile(".4byte 0x5a200013" ::: "memory")
#else
#define WINDOW_OPEN()	do { } while (0)
#define WINDOW_CLOSE()	do { } while (0)
#endif

int main(int argc, char **argv)
{
	unsigned long n, t0, t1;
	int ret;

	if (argc != 3 || !(n = strtoul(argv[2], NULL, 0))) {
		fprintf(stderr, "usage: %s branches|pingpong N\n", argv[0]);
		return 2;
	}
	WINDOW_OPEN();
	t0 = now_ns();
	if (!strcmp(argv[1], "branches"))
		ret = branches(n);
	else if (!strcmp(argv[1], "pingpong"))
		ret = pingpong(n);
	else
		return fprintf(stderr, "unknown workload %s\n", argv[1]), 2;
	t1 = now_ns();
	WINDOW_CLOSE();
	printf("%lu\n", t1 - t0);
	return ret;
}
