// SPDX-License-Identifier: GPL-2.0-only
/*
 * vlenb in the sampled registers (PERF_REG_RISCV_VLENB, index 32 after
 * the 32 general registers): where the kernel supports V or Zve* for
 * user space, a sampling event asking for it opens, and every sample
 * carries the value this process reads from the vlenb CSR, beside the
 * general registers of the mask in index order; elsewhere such an event
 * fails to open with -EINVAL while the same event without the bit opens.
 * An unwinder needs vlenb for the CFA of frames with RVV spills (DWARF
 * register 7202).
 *
 * The samples are taken before the process first touches V (the csrr
 * that reads vlenb comes after), so they also show the value of a task
 * that has not used V yet.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"

/*
 * The UAPI names, for headers that predate them: PERF_REG_RISCV_VLENB is
 * an enumerator of asm/perf_regs.h, not a macro a test could probe.
 */
#define REG_PC		0	/* PERF_REG_RISCV_PC */
#define REG_SP		2	/* PERF_REG_RISCV_SP */
#define REG_VLENB	32	/* PERF_REG_RISCV_VLENB */

/* riscv_hwprobe(2), for libc headers without asm/hwprobe.h */
#define NR_riscv_hwprobe	258
#define HWPROBE_KEY_IMA_EXT_0	4
#define HWPROBE_IMA_V		(1ULL << 2)
#define HWPROBE_EXT_ZVE32X	(1ULL << 37)

#define DATA_PAGES	16

struct hwprobe_pair {
	int64_t key;
	uint64_t value;
};

/* Does the kernel give user space V or a Zve* extension? */
static int user_vector(void)
{
	struct hwprobe_pair p = { .key = HWPROBE_KEY_IMA_EXT_0 };

	if (syscall(NR_riscv_hwprobe, &p, 1, 0, NULL, 0) || p.key < 0)
		return 0;
	return !!(p.value & (HWPROBE_IMA_V | HWPROBE_EXT_ZVE32X));
}

/* csrr vlenb, by number: the assembler knows the name only with V */
static uint64_t read_vlenb(void)
{
	uint64_t v;

	asm volatile("csrr %0, 0xc22" : "=r"(v));
	return v;
}

static int open_event(struct perf_event_attr *attr)
{
	return syscall(__NR_perf_event_open, attr, 0, -1, -1, 0);
}

static void sampling_attr(struct perf_event_attr *attr, uint32_t type,
			  uint64_t config, uint64_t period, int intr,
			  uint64_t mask)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->sample_period = period;
	attr->sample_type = PERF_SAMPLE_IP |
			    (intr ? PERF_SAMPLE_REGS_INTR : PERF_SAMPLE_REGS_USER);
	if (intr)
		attr->sample_regs_intr = mask;
	else
		attr->sample_regs_user = mask;
	attr->exclude_kernel = type == PERF_TYPE_HARDWARE;
	attr->exclude_hv = 1;
	attr->disabled = 1;
}

static volatile unsigned long sink;

/* Scalar work, and a system call now and then: samples in kernel mode too */
static void work(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		sink += i;
		if (!(i & 0xffff))
			getppid();
	}
}

FIXTURE(vlenb) {
	int fd;
	void *ring;
	size_t len;
	int vector;
};

/*
 * The three ways a sample gets the register: a hardware event in user
 * mode (user registers are the interrupted ones), a software clock that
 * also fires in kernel mode (user registers from task_pt_regs()), and
 * the interrupted registers (PERF_SAMPLE_REGS_INTR).
 */
FIXTURE_VARIANT(vlenb) {
	uint32_t type;
	uint64_t config;
	uint64_t period;
	int intr;
};

FIXTURE_VARIANT_ADD(vlenb, hw_user) {
	.type = PERF_TYPE_HARDWARE,
	.config = PERF_COUNT_HW_INSTRUCTIONS,
	.period = 200000,
};

FIXTURE_VARIANT_ADD(vlenb, sw_user) {
	.type = PERF_TYPE_SOFTWARE,
	.config = PERF_COUNT_SW_TASK_CLOCK,
	.period = 200000,	/* ns */
};

FIXTURE_VARIANT_ADD(vlenb, hw_intr) {
	.type = PERF_TYPE_HARDWARE,
	.config = PERF_COUNT_HW_INSTRUCTIONS,
	.period = 200000,
	.intr = 1,
};

FIXTURE_SETUP(vlenb)
{
	self->fd = -1;
	self->ring = MAP_FAILED;
	self->len = (DATA_PAGES + 1) * getpagesize();
	self->vector = user_vector();
}

FIXTURE_TEARDOWN(vlenb)
{
	if (self->ring != MAP_FAILED)
		munmap(self->ring, self->len);
	if (self->fd >= 0)
		close(self->fd);
}

/* Without the bit the event opens: a failure with it is the bit's. */
static int opens_without_vlenb(const FIXTURE_VARIANT(vlenb) *variant)
{
	struct perf_event_attr attr;
	int fd;

	sampling_attr(&attr, variant->type, variant->config, variant->period,
		      variant->intr, 1ULL << REG_PC | 1ULL << REG_SP);
	fd = open_event(&attr);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

TEST_F(vlenb, open)
{
	uint64_t mask = 1ULL << REG_PC | 1ULL << REG_SP | 1ULL << REG_VLENB;
	struct perf_event_attr attr;

	if (!opens_without_vlenb(variant))
		SKIP(return, "this event does not open here (%s)", strerror(errno));
	sampling_attr(&attr, variant->type, variant->config, variant->period,
		      variant->intr, mask);
	self->fd = open_event(&attr);
	if (!self->vector) {
		ASSERT_EQ(-1, self->fd);
		ASSERT_EQ(EINVAL, errno);
		TH_LOG("no V for user space: the vlenb bit is refused with EINVAL");
		return;
	}
	ASSERT_LE(0, self->fd) TH_LOG("perf_event_open with the vlenb bit: %s",
				       strerror(errno));
	/* The index after vlenb stays reserved. */
	sampling_attr(&attr, variant->type, variant->config, variant->period,
		      variant->intr, mask | 1ULL << (REG_VLENB + 1));
	ASSERT_EQ(-1, open_event(&attr));
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(vlenb, samples)
{
	uint64_t mask = 1ULL << REG_PC | 1ULL << REG_SP | 1ULL << REG_VLENB;
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	uint64_t head, tail, vlenb, seen_vlenb = 0;
	unsigned int samples = 0, bad = 0, rounds;
	unsigned char *data;
	size_t size;

	if (!self->vector)
		SKIP(return, "no V for user space (the open test checks EINVAL)");
	sampling_attr(&attr, variant->type, variant->config, variant->period,
		      variant->intr, mask);
	self->fd = open_event(&attr);
	if (self->fd < 0 && !opens_without_vlenb(variant))
		SKIP(return, "this event does not open here");
	ASSERT_LE(0, self->fd) TH_LOG("perf_event_open: %s", strerror(errno));
	self->ring = mmap(NULL, self->len, PROT_READ | PROT_WRITE, MAP_SHARED,
			  self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->ring);
	pg = self->ring;
	data = (unsigned char *)self->ring + getpagesize();
	size = DATA_PAGES * getpagesize();

	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	/* Enough for a few dozen samples, not enough to fill the ring */
	for (rounds = 0; rounds < 50; rounds++) {
		work(200000);
		if (__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE) > size / 4)
			break;
	}
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));

	/* The first V use of this process: after the samples. */
	vlenb = read_vlenb();
	TH_LOG("csrr vlenb: %llu", (unsigned long long)vlenb);
	ASSERT_NE(0ULL, vlenb);

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head) {
		struct perf_event_header hdr;
		uint64_t rec[8];
		size_t off = tail % size, i;

		for (i = 0; i < sizeof(hdr); i++)
			((unsigned char *)&hdr)[i] = data[(off + i) % size];
		ASSERT_NE(0, hdr.size);
		if (hdr.type == PERF_RECORD_SAMPLE) {
			/* ip, abi, pc, sp, vlenb */
			ASSERT_EQ(sizeof(hdr) + 5 * 8, hdr.size);
			for (i = 0; i < 5 * 8; i++)
				((unsigned char *)rec)[i] =
					data[(off + sizeof(hdr) + i) % size];
			ASSERT_EQ((uint64_t)PERF_SAMPLE_REGS_ABI_64, rec[1]);
			ASSERT_NE(0ULL, rec[3]);	/* sp, before vlenb */
			if (rec[4] != vlenb) {
				if (!bad++)
					TH_LOG("sample at %#llx: vlenb %llu, csrr says %llu",
					       (unsigned long long)rec[0],
					       (unsigned long long)rec[4],
					       (unsigned long long)vlenb);
			}
			seen_vlenb = rec[4];
			samples++;
		}
		tail += hdr.size;
	}
	pg->data_tail = tail;
	TH_LOG("%u samples, last vlenb %llu", samples,
	       (unsigned long long)seen_vlenb);
	ASSERT_LT(0U, samples);
	ASSERT_EQ(0U, bad);
}

TEST_HARNESS_MAIN
