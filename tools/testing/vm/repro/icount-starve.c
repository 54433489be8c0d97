// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU 10.0.2 -icount starvation reproducer (Documentation/driver.rst,
 * "Explained: under -icount on two harts").  Pinned to the hart given as
 * argv[1], it sweeps the user-mode distance between enabling a user-only
 * sampling event of period 1000 and a getppid(), so that in one trial the
 * counter is at all-ones when the hart enters the kernel.  With "kernel"
 * as argv[2] the event counts the kernel too (the control).
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PERIOD	1000
#define FIRST	250
#define LAST	520

static void loop(unsigned long n)
{
	asm volatile("1:	addi %0, %0, -1\n"
		     "	bnez %0, 1b\n" : "+r"(n));
}

int main(int argc, char **argv)
{
	int cpu = argc > 1 ? atoi(argv[1]) : 1, n, odd, fd;
	struct perf_event_attr a;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.sample_period = PERIOD;
	a.exclude_kernel = !(argc > 2 && !strcmp(argv[2], "kernel"));
	a.exclude_hv = 1;
	a.disabled = 1;
	for (n = FIRST; n < LAST; n++) {
		for (odd = 0; odd < 2; odd++) {
			fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
			if (fd < 0) {
				perror("perf_event_open");
				return 1;
			}
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			loop(n);
			if (odd)
				asm volatile("nop");
			syscall(__NR_getppid);
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
			close(fd);
		}
	}
	printf("icount-starve: swept %d..%d on cpu%d\n", FIRST, LAST, cpu);
	return 0;
}
