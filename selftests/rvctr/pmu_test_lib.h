/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the PMU core selftests (pmu_*_test.c): opening events on
 * the "cpu" PMU and a workload with a known instruction count.
 */
#ifndef PMU_TEST_LIB_H
#define PMU_TEST_LIB_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * 2 * n instructions exactly: addi + bnez per iteration.  Under QEMU
 * -icount shift=0 instret counts retired instructions; without it, QEMU
 * counts host ticks (DESIGN.md section 2).
 */
static inline void pmu_loop(unsigned long n)
{
	asm volatile("1:	addi %0, %0, -1\n"
		     "	bnez %0, 1b\n" : "+r"(n));
}

static inline int pmu_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group, 0);
}

/* A disabled counting event of @type/@config for this task. */
static inline void pmu_attr(struct perf_event_attr *attr, uint32_t type,
			    uint64_t config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->disabled = 1;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
}

struct pmu_value {
	uint64_t count, enabled, running;
};

static inline int pmu_read(int fd, struct pmu_value *v)
{
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 0 : -1;
}

/* Count @n loop iterations with @fd; returns the count or -1. */
static inline int64_t pmu_count_loop(int fd, unsigned long n)
{
	struct pmu_value v;

	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	pmu_loop(n);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) || pmu_read(fd, &v))
		return -1;
	return v.count;
}

/*
 * The smallest of @reps counts of the loop.  Under -icount an interrupt
 * that lands in the loop shifts a few thousand instructions between
 * modes in QEMU's accounting; runs without one are exact, and with small
 * loops most runs are.
 */
static inline int64_t pmu_min_count(int fd, unsigned long n, int reps)
{
	int64_t best = -1, c;

	while (reps--) {
		c = pmu_count_loop(fd, n);
		if (c < 0)
			return -1;
		if (best < 0 || c < best)
			best = c;
	}
	return best;
}

/*
 * Stay on the hart the test runs on: QEMU keeps its event-to-counter map
 * per hart, and perf rotates groups per CPU.  0 or -1 (errno).
 */
static inline int pmu_pin_here(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The runner's --icount pass sets RVCTR_ICOUNT=1 (selftests/rvctr/icount). */
static inline int pmu_icount(void)
{
	const char *s = getenv("RVCTR_ICOUNT");

	return s && *s == '1';
}

/*
 * Is the CPU PMU the rvctr module's?  Not on the series kernel, whose
 * built-in riscv_pmu_sbi keeps some of stock's choices.
 */
static inline int pmu_is_rvctr(void)
{
	return access("/sys/module/rvctr", F_OK) == 0;
}

/* Does the boot hart have ISA extension @ext (single letter or name)? */
static inline int pmu_hart_has(const char *ext)
{
	char line[1024], *isa;
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "isa", 3))
			continue;
		isa = strchr(line, ':');
		if (!isa)
			break;
		isa += 2;
		if (strlen(ext) == 1) {
			/* rv64imafdch_...: the single letters before '_' */
			char *end = strchr(isa, '_');

			found = memchr(isa + 4, ext[0], (end ? end : isa + strlen(isa)) - isa - 4) != NULL;
		} else {
			found = strstr(isa, ext) != NULL;
		}
		break;
	}
	fclose(f);
	return found;
}

/*
 * Read hpmcounter CSR cycle + @n from user space, as rdpmc does on x86:
 * it raises SIGILL unless scounteren (and mcounteren) open it.  csrr
 * takes a constant: one case per counter CSR.
 */
#define PMU_RD_HPM(n) \
	case n: asm volatile("csrr %0, %1" : "=r"(v) : "i"(0xc00 + n)); break
static inline uint64_t pmu_read_hpm(unsigned int n)
{
	uint64_t v = 0;

	switch (n) {
	PMU_RD_HPM(0); PMU_RD_HPM(1); PMU_RD_HPM(2); PMU_RD_HPM(3);
	PMU_RD_HPM(4); PMU_RD_HPM(5); PMU_RD_HPM(6); PMU_RD_HPM(7);
	PMU_RD_HPM(8); PMU_RD_HPM(9); PMU_RD_HPM(10); PMU_RD_HPM(11);
	PMU_RD_HPM(12); PMU_RD_HPM(13); PMU_RD_HPM(14); PMU_RD_HPM(15);
	PMU_RD_HPM(16); PMU_RD_HPM(17); PMU_RD_HPM(18); PMU_RD_HPM(19);
	PMU_RD_HPM(20); PMU_RD_HPM(21); PMU_RD_HPM(22); PMU_RD_HPM(23);
	PMU_RD_HPM(24); PMU_RD_HPM(25); PMU_RD_HPM(26); PMU_RD_HPM(27);
	PMU_RD_HPM(28); PMU_RD_HPM(29); PMU_RD_HPM(30); PMU_RD_HPM(31);
	}
	return v;
}

/* An integer sysctl (/proc/sys/...): its value, or -1. */
static inline int pmu_sysctl_get(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static inline int pmu_sysctl_set(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", v) > 0 ? 0 : -1;
	return fclose(f) || ret ? -1 : 0;
}

#endif /* PMU_TEST_LIB_H */
