// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for include/rvctr/ctr.h on recorded register values.  QEMU
 * never sets MISP, CCV or CC, so these are the only tests of those fields.
 */
#include <rvctr/ctr.h>
#include <rvctr/hpm.h>
#include <riscv_ctr_rec.h>
#include <rvctr/ctr_decode.h>

#include "ctr_oracle.h"
#include "tests.h"

/* 32 + TYPE for every type CTR v1.0 defines an inhibit bit for. */
static uint64_t inh_of_types(void)
{
	uint64_t m = 0;
	unsigned int t;

	for (t = CTRDATA_TYPE_EXCEPTION; t < RISCV_CTR_NR_TYPES; t++)
		if (t != CTRDATA_TYPE_NONTAKEN_BRANCH && t != 6 && t != 7)
			m |= 1ULL << (32 + t);
	return m;
}

static void test_layout(void)
{
	/* Ratified v1.0 positions (DESIGN.md section 1), not the v0.1.4 draft. */
	T_EQ(CSR_SCTRCTL, 0x14e, "sctrctl is CSR 0x14e");
	T_EQ(CSR_SCTRSTATUS, 0x14f, "sctrstatus is CSR 0x14f");
	T_EQ(CSR_SCTRDEPTH, 0x15f, "sctrdepth is CSR 0x15f");
	T_EQ(CTRCTL_LCOFIFRZ, 1ULL << 12, "LCOFIFRZ is bit 12");
	T_EQ(CTRCTL_RASEMU, 1ULL << 7, "RASEMU is bit 7");
	T_EQ(SCTRSTATUS_FROZEN, 1ULL << 31, "FROZEN is bit 31");
	T_EQ(CTRCTL_RET_INH, 1ULL << (32 + CTRDATA_TYPE_RETURN), "RETINH is 32 + TYPE");
	T_EQ(CTRCTL_TKBRINH, 1ULL << (32 + CTRDATA_TYPE_TAKEN_BRANCH), "TKBRINH is 32 + TYPE");
	T_EQ(CTRCTL_DIRLJUMP_INH, 1ULL << (32 + CTRDATA_TYPE_OTHER_DIRECT_JUMP), "DIRLJMPINH is 32 + TYPE");
	T_EQ(RISCV_CTR_INH_ALL & CTRCTL_NTBREN, 0, "NTBREN is not an inhibit");
	T_EQ(RISCV_CTR_INH_ALL, inh_of_types(),
	     "an inhibit bit per type but NTBR and the reserved 6, 7");
	T_EQ(__builtin_popcountll(RISCV_CTR_INH_ALL), 12, "12 inhibit bits");
	T_EQ(RISCV_CTR_SCTRCTL_FIELDS & (CTRCTL_M_ENABLE | CTRCTL_MTE), 0,
	     "M and MTE are not sctrctl fields");
	T_EQ(RVCTR_GET(SCTRSTATUS_WRPTR_MASK, 0x800000a5ULL), 0xa5, "WRPTR field");
}

static void test_depth(void)
{
	T_EQ(riscv_ctr_depth_decode(0), 16, "depth enc 0 = 16");
	T_EQ(riscv_ctr_depth_decode(4), 256, "depth enc 4 = 256");
	T_EQ(riscv_ctr_depth_decode(7), 0, "depth enc 7 is not a depth");
	T_EQ(riscv_ctr_depth_decode(0xfffffff8ULL | 2), 64, "depth ignores high bits");
	T_EQ(riscv_ctr_depth_encode(64), 2, "64 encodes as 2");
	T_EQ(riscv_ctr_depth_encode(48), (uint64_t)-1, "48 is rejected");
	T_EQ(riscv_ctr_depth_encode(512), (uint64_t)-1, "512 is rejected");
}

/* ctrdata with cycle count fields */
static uint64_t cc(unsigned int cce, unsigned int ccm)
{
	return RVCTR_PREP(CTRDATA_CCE_MASK, cce) | RVCTR_PREP(CTRDATA_CCM_MASK, ccm) |
	       CTRDATA_CCV | CTRDATA_TYPE_TAKEN_BRANCH;
}

static void test_cycles(void)
{
	T_EQ(riscv_ctr_cycles(cc(0, 0)), 0, "CCE 0 CCM 0");
	T_EQ(riscv_ctr_cycles(cc(0, 4095)), 4095, "CCE 0 = CCM");
	T_EQ(riscv_ctr_cycles(cc(1, 0)), 4096, "CCE 1 = 4096 + CCM");
	T_EQ(riscv_ctr_cycles(cc(1, 5)), 4101, "CCE 1 CCM 5");
	T_EQ(riscv_ctr_cycles(cc(3, 1)), 4097 << 2, "CCE 3 shifts by 2");
	T_EQ(riscv_ctr_cycles_unbiased(cc(3, 1)), (4097 << 2) + 1, "CCE 3 unbias adds (2^2-1)/2");
	T_EQ(riscv_ctr_cycles_unbiased(cc(1, 1)), 4097, "CCE 1 has no undercount");
	T_EQ(riscv_ctr_cycles(cc(15, 4095)), 8191ULL << 14, "saturated CC");
	T_EQ(riscv_ctr_cycles_sat16(riscv_ctr_cycles(cc(5, 0))), 0xffff, "saturates to 16 bits");
	T_EQ(riscv_ctr_cycles_sat16(65535), 65535, "65535 fits");
	T_EQ(riscv_ctr_ccv(cc(1, 1)), 1, "CCV set");
	T_EQ(riscv_ctr_ccv(CTRDATA_TYPE_TAKEN_BRANCH), 0, "CCV clear");
}

static void test_types(void)
{
	/* What perf's own branch tests expect (DESIGN.md section 1). */
	T_EQ(riscv_ctr_type_to_perf(CTRDATA_TYPE_DIRECT_JUMP), PERF_BR_UNCOND, "direct jump -> UNCOND");
	T_EQ(riscv_ctr_type_to_perf(CTRDATA_TYPE_INDIRECT_CALL), PERF_BR_IND_CALL, "indirect call -> IND_CALL");
	T_EQ(riscv_ctr_type_to_perf(CTRDATA_TYPE_DIRECT_CALL), PERF_BR_CALL, "direct call -> CALL");
	T_EQ(riscv_ctr_type_to_perf(CTRDATA_TYPE_RETURN), PERF_BR_RET, "return -> RET");
	T_EQ(riscv_ctr_type_to_perf(CTRDATA_TYPE_TAKEN_BRANCH), PERF_BR_COND, "taken branch -> COND");
	T_EQ(riscv_ctr_type_to_perf(CTRDATA_TYPE_INTERRUPT), PERF_BR_IRQ, "interrupt -> IRQ");
	T_EQ(riscv_ctr_type_to_perf(6), PERF_BR_UNKNOWN, "reserved 6 -> UNKNOWN");
	T_EQ(riscv_ctr_type_to_perf(16), PERF_BR_UNKNOWN, "out of range -> UNKNOWN");
	T_EQ(riscv_ctr_type_to_perf(~0U), PERF_BR_UNKNOWN, "huge -> UNKNOWN");
}

static void test_decode(void)
{
	/* Recorded on QEMU: a user-mode direct call, and an invalid entry. */
	const struct riscv_ctr_raw call = {
		.source = 0x2aaaaab0a4ULL | CTRSOURCE_VALID,
		.target = 0x2aaaaab200ULL,
		.data = CTRDATA_TYPE_DIRECT_CALL,
	};
	/* Made up like hardware with MISP and cycle counting would record. */
	const struct riscv_ctr_raw misp = {
		.source = 0xffffffff80001000ULL | CTRSOURCE_VALID,
		.target = 0xffffffff80002000ULL | CTRTARGET_MISP,
		.data = cc(2, 10),
	};
	const struct riscv_ctr_raw empty = { .source = 0x1000, .target = 0x2000 };
	struct riscv_ctr_branch b;

	memset(&b, 0xaa, sizeof(b));
	T_EQ(riscv_ctr_decode(&call, 0, &b), 1, "valid entry decodes");
	T_EQ(b.from, 0x2aaaaab0a4ULL, "from drops V");
	T_EQ(b.to, 0x2aaaaab200ULL, "to");
	T_EQ(b.perf_type, PERF_BR_CALL, "type CALL");
	T_EQ(b.mispred | b.predicted, 0, "no MISP claims without MISP support");
	T_EQ(b.cycles_valid, 0, "no cycles without CCV");
	T_EQ(b.cycles, 0, "cycles 0 without CCV");
	T_EQ(riscv_ctr_is_kernel(b.from), 0, "user address");

	T_EQ(riscv_ctr_decode(&misp, 1, &b), 1, "MISP entry decodes");
	T_EQ(b.to, 0xffffffff80002000ULL, "to drops MISP");
	T_EQ(b.mispred, 1, "mispredicted");
	T_EQ(b.predicted, 0, "not predicted");
	T_EQ(b.cycles, 8212, "cycles (4096 + 10) << 1");
	T_EQ(riscv_ctr_is_kernel(b.from), 1, "kernel address");
	T_EQ(riscv_ctr_decode(&empty, 1, &b), 0, "V = 0 is not an entry");
}

/* xorshift64: reproducible random register values. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random raw entry: V, MISP, CCV and kernel addresses all common. */
static struct riscv_ctr_raw rnd_entry(uint64_t *s)
{
	struct riscv_ctr_raw e;
	uint64_t r = rnd(s);

	e.source = rnd(s) & ~RVCTR_BIT(63);
	e.target = rnd(s) & ~RVCTR_BIT(63);
	if (r & 1)
		e.source |= RVCTR_BIT(63);
	if (r & 2)
		e.target |= RVCTR_BIT(63);
	if (r & 4)
		e.source = CTRSOURCE_VALID;	/* from == 0: a trap from a disabled mode */
	e.source = (e.source & ~CTRSOURCE_VALID) | ((r & 0x18) ? CTRSOURCE_VALID : 0);
	e.data = rnd(s);
	return e;
}

/*
 * The sample path's riscv_ctr_fast() against the reference decode-and-
 * fill, byte for byte, for every combination of MISP support and of the
 * options that change a record (KERNEL, NO_FLAGS, NO_CYCLES).
 */
static void test_perf_fast(void)
{
	const uint64_t opts[] = { PERF_SAMPLE_BRANCH_KERNEL,
				  PERF_SAMPLE_BRANCH_NO_FLAGS,
				  PERF_SAMPLE_BRANCH_NO_CYCLES };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned int combo, i, k, bad = 0, ok = 0, hidden = 0, end = 0;

	for (combo = 0; combo < 16; combo++) {
		uint64_t bst = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
		int has_misp = combo & 8;
		struct riscv_ctr_tmpl t;

		for (k = 0; k < 3; k++)
			if (combo & (1u << k))
				bst |= opts[k];
		memset(&t, 0, sizeof(t));
		riscv_ctr_tmpl_init(&t, has_misp, bst);
		if (t.key != riscv_ctr_tmpl_key(has_misp, bst))
			bad++;
		for (i = 0; i < 20000; i++) {
			struct riscv_ctr_raw e = rnd_entry(&seed);
			struct perf_branch_entry ref, fast;
			int r1, r2;

			memset(&ref, 0x5a, sizeof(ref));
			memset(&fast, 0x5a, sizeof(fast));
			r1 = ctr_oracle_to_perf(&e, has_misp, bst, &ref);
			r2 = riscv_ctr_fast(&t, e.source, e.target, e.data, &fast);
			if (r1 != r2 || memcmp(&ref, &fast, sizeof(ref))) {
				if (bad++ < 3)
					printf("# mismatch: bst %#llx misp %d src %#llx tgt %#llx data %#llx: %d/%d\n",
					       (unsigned long long)bst, has_misp,
					       (unsigned long long)e.source,
					       (unsigned long long)e.target,
					       (unsigned long long)e.data, r1, r2);
				continue;
			}
			ok += r1 == RISCV_CTR_OK;
			hidden += r1 == RISCV_CTR_HIDDEN;
			end += r1 == RISCV_CTR_END;
		}
	}
	T_EQ(bad, 0, "fast path equals the reference on 320000 random records");
	printf("# %u written, %u hidden, %u end\n", ok, hidden, end);
	T_OK(ok > 100000 && hidden > 10000 && end > 10000,
	     "every outcome exercised");
}

/* The fast path's fields, read back through the bitfields. */
static void test_perf_fast_fields(void)
{
	struct riscv_ctr_tmpl t;
	struct perf_branch_entry pe;

	riscv_ctr_tmpl_init(&t, 1, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			     PERF_SAMPLE_BRANCH_KERNEL);
	T_EQ(riscv_ctr_fast(&t, 0xffffffff80001000ULL | CTRSOURCE_VALID,
			     0xffffffff80002000ULL | CTRTARGET_MISP, cc(2, 10) |
			     CTRDATA_TYPE_RETURN, &pe), RISCV_CTR_OK, "kernel return written");
	T_EQ(pe.from, 0xffffffff80001000ULL, "from");
	T_EQ(pe.to, 0xffffffff80002000ULL, "to");
	T_EQ(pe.mispred, 1, "mispred");
	T_EQ(pe.predicted, 0, "not predicted");
	T_EQ(pe.type, PERF_BR_RET, "type RET");
	T_EQ(pe.cycles, 8212, "cycles");
	T_EQ(pe.priv, PERF_BR_PRIV_KERNEL, "kernel priv");
	T_EQ(pe.reserved, 0, "reserved bits zero");
	riscv_ctr_tmpl_init(&t, 0, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			     PERF_SAMPLE_BRANCH_NO_FLAGS);
	T_EQ(riscv_ctr_fast(&t, 0x1000 | CTRSOURCE_VALID, 0xffffffff80002000ULL,
			     CTRDATA_TYPE_EXCEPTION, &pe), RISCV_CTR_HIDDEN,
	     "user-only event: a record into the kernel is hidden");
	T_EQ(riscv_ctr_fast(&t, 0x1000 | CTRSOURCE_VALID, 0x2000, CTRDATA_TYPE_DIRECT_CALL, &pe),
	     RISCV_CTR_OK, "user call written");
	T_EQ(pe.type, PERF_BR_CALL, "NO_FLAGS keeps the type");
	T_EQ(pe.priv, PERF_BR_PRIV_USER, "user priv");
	T_EQ(riscv_ctr_fast(&t, 0x1000, 0x2000, 0, &pe), RISCV_CTR_END, "V = 0 ends");
}

int main(void)
{
	test_layout();
	test_depth();
	test_cycles();
	test_types();
	test_decode();
	test_perf_fast();
	test_perf_fast_fields();
	return tests_done();
}
