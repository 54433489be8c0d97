// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoding whole CTR buffers: register values read on the QEMU board
 * through /sys/kernel/debug/rvctr/ctr (user-mode recording of `cat`), and
 * buffers as hardware with MISP and cycle counting would record them
 * (QEMU never sets MISP, CCV or CC).
 */
#include <rvctr/ctr.h>
#include <rvctr/hpm.h>
#include <riscv_ctr_rec.h>
#include <rvctr/ctr_decode.h>

#include "tests.h"

/* Recorded: "sctrstatus 0x8 depth 16 sctrctl 0x1001", entries 0..10. */
static const struct riscv_ctr_raw qemu[] = {
	{ 0xb58dd, 0xb5920, 0x5 },
	{ 0xb5933, 0xb58c8, 0x9 },
	{ 0xd7f09, 0xb592e, 0xb },
	{ 0x13c8b, 0xd7efe, 0x9 },
	{ 0x13433, 0x13c6a, 0x9 },
	{ 0x13427, 0x1342c, 0x5 },
	{ 0x134ad, 0x13424, 0xb },
	{ 0xd9cf9, 0x134a2, 0xd },
	{ 0x12889, 0xd9ce2, 0xb },
	{ 0x1349f, 0x1287a, 0x9 },
	{ 0x1348f, 0x1349c, 0x5 },
	{ 0x0, 0x0, 0x0 },		/* never written: V = 0 ends the stack */
	{ 0x1001, 0x2000, 0x9 },	/* stale, after the end: not a record */
};

/* Decode newest first up to the first invalid entry, like the driver. */
static unsigned int decode_all(const struct riscv_ctr_raw *e, unsigned int n,
			       int has_misp, struct riscv_ctr_branch *out)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!riscv_ctr_decode(&e[i], has_misp, &out[i]))
			break;
	return i;
}

static void test_qemu_buffer(void)
{
	static const unsigned int want_type[] = {
		PERF_BR_COND, PERF_BR_CALL, PERF_BR_UNCOND, PERF_BR_CALL,
		PERF_BR_CALL, PERF_BR_COND, PERF_BR_UNCOND, PERF_BR_RET,
		PERF_BR_UNCOND, PERF_BR_CALL, PERF_BR_COND,
	};
	struct riscv_ctr_branch b[16];
	unsigned int n, i, ok_types = 0, ok_addr = 0, chained = 0;

	n = decode_all(qemu, sizeof(qemu) / sizeof(qemu[0]), 0, b);
	T_EQ(n, 11, "11 valid entries, stop at V = 0");
	for (i = 0; i < n; i++) {
		ok_types += b[i].perf_type == want_type[i];
		ok_addr += b[i].from == (qemu[i].source & ~1ULL) &&
			   b[i].to == qemu[i].target && !riscv_ctr_is_kernel(b[i].from);
	}
	T_EQ(ok_types, n, "recorded TYPEs map to perf types");
	T_EQ(ok_addr, n, "V stripped from sources, user addresses");
	T_EQ(b[0].from, 0xb58dc, "newest source");
	T_EQ(b[7].type, CTRDATA_TYPE_RETURN, "entry 7 is a return");
	/* Execution runs straight from a record's target to the newer one's source. */
	for (i = 1; i < n; i++)
		chained += b[i].to <= b[i - 1].from;
	T_EQ(chained, n - 1, "each target precedes the next newer source");
	for (i = 0; i < n; i++)
		if (b[i].mispred || b[i].predicted || b[i].cycles_valid)
			break;
	T_EQ(i, n, "no MISP or cycle claims from QEMU records");
	for (i = 0; i < n; i++)
		if (!riscv_ctr_filter_passes(CTRCTL_U_ENABLE | CTRCTL_LCOFIFRZ, b[i].type))
			break;
	T_EQ(i, n, "every record passes the filter it was recorded with");
}

static uint64_t data(unsigned int type, int ccv, unsigned int cce, unsigned int ccm)
{
	return type | (ccv ? CTRDATA_CCV : 0) | RVCTR_PREP(CTRDATA_CCE_MASK, cce) |
	       RVCTR_PREP(CTRDATA_CCM_MASK, ccm);
}

/* As hardware with MISP and cycle counting records a kernel path. */
static void test_hw_buffer(void)
{
	const struct riscv_ctr_raw hw[] = {
		{ 0xffffffff80001001ULL, 0xffffffff80002001ULL, data(5, 1, 0, 17) },
		{ 0xffffffff80000f01ULL, 0xffffffff80000f80ULL, data(13, 1, 3, 2) },
		{ 0x0000000000010001ULL, 0xffffffff80000100ULL, data(1, 1, 15, 4095) },
		{ 0x0000000000001001ULL, 0x0000000000010000ULL, data(9, 0, 2, 5) },
	};
	struct riscv_ctr_branch b[4];

	T_EQ(decode_all(hw, 4, 1, b), 4, "4 records");
	T_EQ(b[0].mispred, 1, "MISP set: mispredicted");
	T_EQ(b[0].predicted, 0, "... not predicted");
	T_EQ(b[1].predicted, 1, "MISP clear on a MISP hart: predicted");
	T_EQ(b[0].to, 0xffffffff80002000ULL, "MISP stripped from the target");
	T_EQ(b[0].cycles, 17, "CCE 0: CCM cycles");
	T_EQ(b[1].cycles, (4096 + 2) << 2, "CCE 3: (4096 + CCM) << 2");
	T_EQ(b[2].cycles, 0xffff, "CCE 15 saturates at 16 bits");
	T_EQ(b[2].perf_type, PERF_BR_SYSCALL, "exception from user: SYSCALL");
	T_EQ(riscv_ctr_is_kernel(b[2].from), 0, "... from user");
	T_EQ(b[3].cycles_valid, 0, "CCV 0: no cycles");
	T_EQ(b[3].cycles, 0, "... reported as 0");
	T_EQ(riscv_ctr_is_kernel(b[0].from), 1, "kernel source");
}

int main(void)
{
	test_qemu_buffer();
	test_hw_buffer();
	return tests_done();
}
