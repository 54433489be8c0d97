// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for include/rvctr/isa.h (drivers/perf/rvctr/rvctr_rhct.c):
 * ISA strings and the ACPI RHCT, as the driver reads them on an ACPI boot.  The bench boots with a device
 * tree, so the RHCT walk is only tested here, on tables laid out the way
 * QEMU's virt machine builds them (hw/riscv/virt-acpi-build.c: one ISA
 * string node, an MMU node, then one hart info node per hart pointing at
 * both), plus corrupt ones.
 */
#include <errno.h>
#include <stdlib.h>

#include <rvctr/isa.h>

#include "tests.h"

static const char *const names[] = { "sscofpmf", "smctr", "ssctr", "h", "sscsrind" };
#define NAMES (int)(sizeof(names) / sizeof(names[0]))

static int has(const char *isa, const char *name)
{
	return rvctr_isa_has(isa, strlen(isa), name);
}

static void test_isa_strings(void)
{
	const char *q = "rv64imafdch_zicsr_zifencei_smcsrind_sscofpmf_sscsrind_smctr_ssctr";

	T_OK(has(q, "sscofpmf"), "multi-letter extension in the middle");
	T_OK(has(q, "ssctr"), "multi-letter extension at the end");
	T_OK(has(q, "h"), "single letter in the base");
	T_OK(has(q, "i"), "first base letter");
	T_OK(!has(q, "v"), "absent single letter");
	T_OK(!has(q, "ssc"), "a prefix of a token is not the extension");
	T_OK(!has(q, "ssctrx"), "a longer name is not the token");
	T_OK(!has(q, "zicsr_zifencei"), "names do not span tokens");
	T_OK(!has(q, "smcdeleg"), "absent multi-letter extension");
	T_OK(has("RV64IMAFDC_SSCOFPMF", "sscofpmf"), "case-insensitive");
	T_OK(has("rv64i2p1m2p0a2p1h1p0_sscofpmf1p0", "h"), "versioned base letter");
	T_OK(!has("rv64i2p1m2p0a2p1_zicsr", "p"), "a version's p is not the P extension");
	T_OK(has("rv64i2p1m2p0a2p1_sscofpmf1p0_smctr1", "sscofpmf"), "versioned token");
	T_OK(has("rv64i2p1m2p0a2p1_sscofpmf1p0_smctr1", "smctr"), "version without minor");
	T_OK(!has("rv64imac_sscofpmfx1p0", "sscofpmf"), "a suffix that is not a version");
	T_OK(!has("x86_64_sscofpmf", "sscofpmf"), "not an ISA string");
	T_OK(!has("rv", "i"), "too short");
	T_OK(!has("rv64imac", ""), "empty name");
	T_EQ(rvctr_isa_has("rv64imac_sscofpmf", 12, "sscofpmf"), 0,
	     "the length bounds the string");
	T_EQ(rvctr_isa_exts(q, strlen(q), names, NAMES), 0x1f, "every name of the list");
	T_EQ(rvctr_isa_exts("rv64imafdc_sscofpmf", 19, names, NAMES), 0x1,
	     "only what the string has");
}

/* A little-endian RHCT builder. */
struct tbl {
	unsigned char b[1024];
	unsigned int len, nodes;
};

static void put(struct tbl *t, unsigned int at, unsigned long v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		t->b[at + i] = (v >> (8 * i)) & 0xff;
}

static void tbl_init(struct tbl *t)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->b, "RHCT", 4);
	t->len = RVCTR_RHCT_HDR_LEN;
	put(t, 40, 10000000, 8);	/* time base frequency */
	put(t, 52, RVCTR_RHCT_HDR_LEN, 4);
}

static void tbl_done(struct tbl *t)
{
	put(t, 4, t->len, 4);
	put(t, 48, t->nodes, 4);
}

static unsigned int add_isa(struct tbl *t, const char *isa)
{
	unsigned int at = t->len, n = strlen(isa) + 1, padded = n + (n & 1);

	put(t, at, RVCTR_RHCT_NODE_ISA, 2);
	put(t, at + 2, 8 + padded, 2);
	put(t, at + 4, 1, 2);
	put(t, at + 6, n, 2);
	memcpy(t->b + at + 8, isa, n);
	t->len += 8 + padded;
	t->nodes++;
	return at;
}

static unsigned int add_mmu(struct tbl *t)
{
	unsigned int at = t->len;

	put(t, at, 2, 2);
	put(t, at + 2, 8, 2);
	put(t, at + 4, 1, 2);
	put(t, at + 7, 1, 1);		/* Sv48 */
	t->len += 8;
	t->nodes++;
	return at;
}

static void add_hart(struct tbl *t, unsigned int uid, int n, const unsigned int *offs)
{
	unsigned int at = t->len;

	put(t, at, RVCTR_RHCT_NODE_HART_INFO, 2);
	put(t, at + 2, 12 + 4 * n, 2);
	put(t, at + 4, 1, 2);
	put(t, at + 6, n, 2);
	put(t, at + 8, uid, 4);
	for (int i = 0; i < n; i++)
		put(t, at + 12 + 4 * i, offs[i], 4);
	t->len += 12 + 4 * n;
	t->nodes++;
}

static int walk(struct tbl *t, unsigned long *ext, unsigned int *harts)
{
	return rvctr_rhct_exts(t->b, sizeof(t->b), names, NAMES, ext, harts);
}

/* QEMU virt with 2 harts and the bench's CPU flags. */
static void qemu_table(struct tbl *t)
{
	unsigned int offs[2];

	tbl_init(t);
	offs[0] = add_isa(t, "rv64imafdch_zicsr_smcsrind_sscofpmf_sscsrind_smctr_ssctr");
	offs[1] = add_mmu(t);
	add_hart(t, 0, 2, offs);
	add_hart(t, 1, 2, offs);
	tbl_done(t);
}

static void test_rhct(void)
{
	struct tbl t;
	unsigned int offs[2], harts;
	unsigned long ext;
	unsigned int isa0, isa1, mmu;

	qemu_table(&t);
	T_EQ(walk(&t, &ext, &harts), 0, "QEMU-like RHCT");
	T_EQ(ext, 0x1f, "every extension of the shared ISA string");
	T_EQ(harts, 2, "two hart info nodes");

	/* Two ISA strings: only what both harts have. */
	tbl_init(&t);
	isa0 = add_isa(&t, "rv64imafdch_sscofpmf_sscsrind_smctr_ssctr");
	isa1 = add_isa(&t, "rv64imafdc_sscofpmf_sscsrind");
	mmu = add_mmu(&t);
	offs[0] = mmu;
	offs[1] = isa0;
	add_hart(&t, 0, 2, offs);
	offs[1] = isa1;
	add_hart(&t, 1, 2, offs);
	add_hart(&t, 2, 1, &isa0);
	tbl_done(&t);
	T_EQ(walk(&t, &ext, &harts), 0, "harts with different ISA strings");
	T_EQ(ext, 0x11, "the intersection: sscofpmf and sscsrind");
	T_EQ(harts, 3, "three harts");
}

static void test_rhct_corrupt(void)
{
	struct tbl t, c;
	unsigned int harts, off, bad = 0, crashed_not = 0;
	unsigned long ext;

	qemu_table(&t);
	off = RVCTR_RHCT_HDR_LEN;

	c = t;
	put(&c, 4, sizeof(c.b) + 1, 4);
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "table length beyond the buffer");
	T_EQ(rvctr_rhct_exts(t.b, 40, names, NAMES, &ext, &harts), -EINVAL,
	     "buffer shorter than the header");
	c = t;
	put(&c, off + 2, 0, 2);
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "a node of length 0 (would loop)");
	c = t;
	put(&c, off + 2, 2000, 2);
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "a node longer than the table");
	c = t;
	put(&c, 52, c.len + 4, 4);
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "first node outside the table");
	c = t;
	put(&c, off + 6, 200, 2);
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "ISA string longer than its node");
	c = t;
	/* The first hart info node follows the ISA and MMU nodes. */
	off = RVCTR_RHCT_HDR_LEN + 8 + 58 + 8;
	T_EQ(c.b[off] | c.b[off + 1] << 8, RVCTR_RHCT_NODE_HART_INFO, "test layout");
	put(&c, off + 12, 4000, 4);
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "hart info offset outside the table");
	c = t;
	put(&c, off + 12, RVCTR_RHCT_HDR_LEN + 66, 4);	/* the MMU node twice */
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "a hart without an ISA string");
	c = t;
	put(&c, off + 6, 60, 2);
	T_EQ(walk(&c, &ext, &harts), -EINVAL, "more offsets than the node holds");

	tbl_init(&c);
	add_isa(&c, "rv64imac_sscofpmf");
	tbl_done(&c);
	T_EQ(walk(&c, &ext, &harts), -ENOENT, "no hart info node");
	T_EQ(ext, 0, "no hart: no extension");

	/* Random corruption: any result but a crash (ASan/UBSan watch). */
	srand(1);
	for (int i = 0; i < 200000; i++) {
		c = t;
		for (int k = 0; k < 1 + rand() % 4; k++)
			c.b[rand() % t.len] = rand();
		if (walk(&c, &ext, &harts))
			bad++;
		else
			crashed_not++;
	}
	T_OK(bad > 0 && crashed_not > 0, "200000 corrupted tables walked without a crash");
	printf("# corrupted tables: %u rejected, %u accepted\n", bad, crashed_not);
}

int main(void)
{
	test_isa_strings();
	test_rhct();
	test_rhct_corrupt();
	return tests_done();
}
