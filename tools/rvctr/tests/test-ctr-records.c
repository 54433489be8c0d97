// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tool's decoder (riscv_ctr_decode()) on a whole buffer as hardware
 * with MISP and cycle counting would record it (QEMU never sets MISP, CCV
 * or CC).  A buffer recorded on QEMU is checked by the backend's KUnit
 * suite, drivers/perf/riscv_ctr_rec_kunit.c, which make check also runs.
 */
#include <rvctr/ctr.h>
#include <rvctr/hpm.h>
#include <riscv_ctr_rec.h>
#include <rvctr/ctr_decode.h>

#include "tests.h"

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
	test_hw_buffer();
	return tests_done();
}
