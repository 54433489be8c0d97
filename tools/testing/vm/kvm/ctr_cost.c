// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost of the KVM CTR switch (Documentation/kvm-ctr.rst, "Cost"): the
 * time of one exit to the VMM and back (KVM_RUN returns and is called
 * again: one vcpu put and one load) for
 *
 *   idle       a vcpu that never touches CTR;
 *   stopped    one that filled its buffer (DEPTH valid entries) and then
 *              turned recording off: KVM releases CTR at the next put,
 *              so every later switch should cost what an idle one does;
 *              the switch that released it is timed once, apart;
 *   recording  one that records in S-mode all along (a full buffer);
 *
 * and the idle and recording vcpus again with a branch-stack perf event
 * of the host on the vcpu thread (what ctr_test's host-perf test opens,
 * with a period that never overflows), which the vcpu's load takes CTR
 * from and its put gives CTR back to.
 *
 * Built as a KVM selftest (tools/testing/vm/kvm/ctr_cost.mk, by
 * build-kvm-selftest).  On an -icount board one nanosecond is one
 * instruction of the L1 host's hart, so the times count instructions:
 * the L1 kernel's and the VMM's, and the guest's few of a ucall, the
 * same in every row.  The clock (the time CSR, 10 MHz on QEMU virt)
 * ticks every 100 ns, and a timer tick of the host (HZ=250: every 4
 * million instructions) adds 12000 or more to the exit it lands in; so
 * the exits are timed in batches of BATCH, and a row's figure is the
 * mean of the batches without a tick, those within TICK_FREE of the
 * fastest.
 *
 *   ctr_cost [N]                              the table, N exits a row
 *   ctr_cost idle|stopped|recording DEPTH N [host]   one row
 *
 * DEPTH is sctrdepth.DEPTH (0 to 4: 16 to 256 entries); N, at least
 * 10 batches, is rounded down to whole batches.
 */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kvm_util.h"
#include "processor.h"
#include "ucall_common.h"

#define CSR_SCTRCTL		0x14e
#define CSR_SCTRSTATUS		0x14f
#define CTRCTL_S_ENABLE		2UL

#define WARMUP			10
#define BATCH			100
#define TICK_FREE		1000	/* ns of a batch: a tick adds 12000 or more */

enum mode { IDLE, STOPPED, RECORDING };

static const char *const mode_name[] = { "idle", "stopped", "recording" };

asm(".pushsection .text\n"
	".option push\n"
	".option norvc\n"
	"cost_leaf:\n"
	"	jr	t0\n"
	".option pop\n"
	".popsection\n");

/*
 * n calls of cost_leaf and their returns, recorded in S-mode (VS-mode):
 * 2n entries.  Stopped: one exit still recording, then recording off and
 * one exit (the put that releases CTR), then the loop.
 */
static void guest_code(unsigned long mode, unsigned long n)
{
	unsigned long i;

	if (mode != IDLE) {
		asm volatile(".word 0x10400073" ::: "memory");	/* SCTRCLR */
		csr_write(CSR_SCTRSTATUS, 0);
		csr_write(CSR_SCTRCTL, CTRCTL_S_ENABLE);
		for (i = 0; i < n; i++)
			asm volatile("jal t0, cost_leaf" ::: "t0", "memory");
	}
	GUEST_SYNC(1);
	if (mode == STOPPED)
		csr_write(CSR_SCTRCTL, 0);
	GUEST_SYNC(2);
	for (;;)
		GUEST_SYNC(0);
}

static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * A branch-stack event of the host on this thread, the vcpu thread, as
 * ctr_test's host-perf test opens it, but with a fixed period too long
 * to overflow: no sample and no perf tick work is timed, only the
 * hand-over of CTR at every load and put.
 */
static int host_event(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.sample_period = 1ULL << 62,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
		.exclude_hv = 1,
	};
	int fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);

	__TEST_REQUIRE(fd >= 0, "no branch-stack perf event on the host (errno %d)", errno);
	return fd;
}

/* The event was on the PMU all along, and counted */
static void host_event_close(int fd)
{
	uint64_t v[3];	/* value, time enabled, time running */

	TEST_ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
	TEST_ASSERT(v[0] && v[2] == v[1], "host event: %lu counted, running %lu of %lu ns",
		    (unsigned long)v[0], (unsigned long)v[2], (unsigned long)v[1]);
	close(fd);
}

static void run_sync(struct kvm_vcpu *vcpu, uint64_t want)
{
	struct ucall uc;

	vcpu_run(vcpu);
	switch (get_ucall(vcpu, &uc)) {
	case UCALL_ABORT:
		REPORT_GUEST_ASSERT(uc);
		break;
	case UCALL_SYNC:
		TEST_ASSERT_EQ(uc.args[1], want);
		break;
	default:
		TEST_FAIL("Unexpected exit %s", exit_reason_str(vcpu->run->exit_reason));
	}
}

struct cost {
	unsigned long long once;	/* the exit that ends in GUEST_SYNC(2)'s put */
	unsigned long long each;	/* per exit: the batches without a tick */
	unsigned long clean, batches;
};

static struct cost measure(enum mode mode, unsigned long depth, unsigned long n, bool host)
{
	unsigned long long t0, min = ~0ULL, sum = 0, *t;
	unsigned long i, j, nb = n / BATCH;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	struct cost c;
	int fd = -1;

	TEST_ASSERT(nb >= 10, "fewer than %d exits", 10 * BATCH);
	t = calloc(nb, sizeof(*t));
	TEST_ASSERT(t, "calloc");

	vm = vm_create_with_one_vcpu(&vcpu, guest_code);
	__TEST_REQUIRE(__vcpu_has_isa_ext(vcpu, KVM_RISCV_ISA_EXT_SSCTR),
		       "Ssctr not available to guests");
	vcpu_set_reg(vcpu, __kvm_reg_id(KVM_REG_RISCV_CSR, KVM_REG_RISCV_CSR_SSCTR,
					KVM_REG_RISCV_CSR_SSCTR_REG(sctrdepth),
					KVM_REG_SIZE_ULONG), depth);
	/* half the depth in calls, as many returns: DEPTH valid entries */
	vcpu_args_set(vcpu, 2, (unsigned long)mode, 8UL << depth);
	if (host)
		fd = host_event();
	run_sync(vcpu, 1);
	/* this exit's put finds a stopped vcpu's recording off */
	t0 = now();
	run_sync(vcpu, 2);
	c.once = now() - t0;
	for (i = 0; i < WARMUP; i++)
		run_sync(vcpu, 0);
	for (i = 0; i < nb; i++) {
		t0 = now();
		for (j = 0; j < BATCH; j++)
			run_sync(vcpu, 0);
		t[i] = now() - t0;
		if (t[i] < min)
			min = t[i];
	}
	if (fd >= 0)
		host_event_close(fd);
	kvm_vm_free(vm);
	c.clean = 0;
	for (i = 0; i < nb; i++) {
		if (t[i] > min + TICK_FREE)
			continue;
		sum += t[i];
		c.clean++;
	}
	c.batches = nb;
	/* A batch is shorter than a tick period: most go without one */
	TEST_ASSERT(c.clean >= 2, "%lu of %lu batches without a timer tick", c.clean, nb);
	c.each = (sum + c.clean * BATCH / 2) / (c.clean * BATCH);
	free(t);
	return c;
}

static const struct row {
	enum mode mode;
	unsigned long depth;
	bool host;
} rows[] = {
	{ IDLE, 4, false },
	{ STOPPED, 0, false },
	{ STOPPED, 2, false },
	{ STOPPED, 4, false },
	{ RECORDING, 0, false },
	{ RECORDING, 2, false },
	{ RECORDING, 4, false },
	{ IDLE, 4, true },
	{ RECORDING, 0, true },
	{ RECORDING, 2, true },
	{ RECORDING, 4, true },
};

static void table(unsigned long n)
{
	long long idle = 0;
	unsigned int i;

	printf("# ctr_cost: ns per exit and entry (one put, one load), %lu exits a row,\n"
	       "# the batches of %d without a timer tick; release: the one exit whose\n"
	       "# put released CTR\n", n / BATCH * BATCH, BATCH);
	printf("# %-24s %5s %10s %7s %10s\n", "vcpu", "depth", "per switch", "added",
	       "release");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		char name[32], rel[16] = "";
		struct cost c = measure(r->mode, r->depth, n, r->host);

		if (!i)
			idle = c.each;
		snprintf(name, sizeof(name), "%s%s", mode_name[r->mode],
			 r->host ? ", host event" : "");
		if (r->mode == STOPPED)
			snprintf(rel, sizeof(rel), "%llu", c.once);
		printf("  %-24s %5lu %10llu %+7lld %10s\n", name, 16UL << r->depth, c.each,
		       (long long)c.each - idle, rel);
		fflush(stdout);
	}
}

int main(int argc, char *argv[])
{
	unsigned long depth, n;
	enum mode mode;
	struct cost c;
	bool host;

	if (argc <= 2) {
		table(argc == 2 ? strtoul(argv[1], NULL, 0) : 300);
		return 0;
	}
	TEST_ASSERT(argc == 4 || argc == 5,
		    "usage: ctr_cost [N] | ctr_cost idle|stopped|recording DEPTH N [host]");
	for (mode = IDLE; mode <= RECORDING; mode++)
		if (!strcmp(argv[1], mode_name[mode]))
			break;
	TEST_ASSERT(mode <= RECORDING, "unknown mode %s", argv[1]);
	depth = strtoul(argv[2], NULL, 0);
	n = strtoul(argv[3], NULL, 0);
	host = argc == 5 && !strcmp(argv[4], "host");
	c = measure(mode, depth, n, host);
	printf("ctr_cost %s%s depth %lu: %llu ns per exit and entry", argv[1],
	       host ? " host" : "", 16UL << depth, c.each);
	printf(" (%lu of %lu batches of %d without a tick), %llu ns the release exit\n",
	       c.clean, c.batches, BATCH, c.once);
	return 0;
}
