// SPDX-License-Identifier: GPL-2.0-only
/* The raw CTR snapshot parser and its decoding to perf branch entries. */
#include <rvctr/ctr.h>
#include <rvctr/hpm.h>
#include <riscv_ctr_rec.h>
#include <rvctr/snapshot.h>

#include "tests.h"

static int parse(const char *text, struct rvctr_snapshot *s, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct rvctr_snapshot_reader *r = rvctr_snapshot_reader__new(f);
	int ret = 0, n;

	while ((n = rvctr_snapshot_reader__next(r, s)) > 0)
		ret++;
	if (n < 0) {
		snprintf(err, errlen, "%s", rvctr_snapshot_reader__error(r));
		ret = -1;
	}
	rvctr_snapshot_reader__delete(r);
	fclose(f);
	return ret;
}

static char *snapshot_text(unsigned int depth, unsigned int nr)
{
	static char buf[16384];
	size_t n;
	unsigned int i;

	n = snprintf(buf, sizeof(buf),
		     "# comment\nsctrstatus 0x80000003 depth %u sctrctl 0x1007\n", depth);
	for (i = 0; i < nr; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%u 0x%x 0x%x 0x%llx\n", i,
			      0x1001 + 0x10 * i, 0x2000 + 0x10 * i + (i == 2),
			      /* TYPE dircall for 0, tkbr else; CCV; CCE 1 CCM 5 */
			      (unsigned long long)(RVCTR_PREP(CTRDATA_TYPE_MASK,
					i ? CTRDATA_TYPE_TAKEN_BRANCH : CTRDATA_TYPE_DIRECT_CALL) |
				CTRDATA_CCV | RVCTR_PREP(CTRDATA_CCE_MASK, 1) |
				RVCTR_PREP(CTRDATA_CCM_MASK, 5)));
	return buf;
}

static void test_good(void)
{
	static struct rvctr_snapshot s;
	struct perf_branch_entry br[RISCV_CTR_DEPTH_MAX];
	char err[256];
	unsigned int n;

	T_EQ(parse(snapshot_text(16, 16), &s, err, sizeof(err)), 1, "one snapshot");
	T_EQ(s.sctrstatus, 0x80000003, "sctrstatus");
	T_EQ(s.sctrctl, 0x1007, "sctrctl, as the driver prints it");
	T_EQ(s.nr, 16, "16 entries");
	T_EQ(s.entries[1].source, 0x1011, "entry 1 source (raw, with V)");
	n = riscv_ctr_stack_to_perf(s.entries, s.nr, 1, RVCTR_SNAPSHOT_BST, br);
	T_EQ(n, 16, "all valid");
	T_EQ(br[0].from, 0x1000, "V bit stripped from source");
	T_EQ(br[0].type, PERF_BR_CALL, "dircall -> PERF_BR_CALL");
	T_EQ(br[1].type, PERF_BR_COND, "tkbr -> PERF_BR_COND");
	T_EQ(br[2].to, 0x2020, "MISP bit stripped from target");
	T_EQ(br[2].mispred, 1, "MISP -> mispred");
	T_EQ(br[1].predicted, 1, "no MISP -> predicted when the hart has MISP");
	T_EQ(br[0].cycles, 4096 + 5, "cycles: CCE 1 -> 4096 + CCM");
	n = riscv_ctr_stack_to_perf(s.entries, s.nr, 0, RVCTR_SNAPSHOT_BST, br);
	T_EQ(br[2].mispred + br[1].predicted, 0, "no mispredict claims without MISP");
}

static void test_invalid_entries(void)
{
	static struct rvctr_snapshot s;
	struct perf_branch_entry br[RISCV_CTR_DEPTH_MAX];
	char err[256];
	char *t = snapshot_text(16, 16);

	/* clear V of entry 5 */
	strstr(t, "\n5 0x1051")[8] = '0';
	T_EQ(parse(t, &s, err, sizeof(err)), 1, "parses");
	/* As the driver's copy: the first invalid entry ends the stack. */
	T_EQ(riscv_ctr_stack_to_perf(s.entries, s.nr, 0, RVCTR_SNAPSHOT_BST, br), 5,
	     "the stack ends at the first invalid entry");
}

static void test_two(void)
{
	static struct rvctr_snapshot s;
	char text[40000], err[256];

	snprintf(text, sizeof(text), "%s", snapshot_text(32, 32));
	strcat(text, "\n");
	strcat(text, snapshot_text(16, 16));
	T_EQ(parse(text, &s, err, sizeof(err)), 2, "two snapshots in one file");
	T_EQ(s.depth, 16, "second depth");
}

static void expect_error(const char *text, const char *want, const char *name)
{
	static struct rvctr_snapshot s;
	char err[256] = "";

	T_EQ(parse(text, &s, err, sizeof(err)), (uint64_t)-1, name);
	if (!strstr(err, want))
		printf("# error \"%s\" lacks \"%s\"\n", err, want);
}

static void test_errors(void)
{
	char long_line[600];

	expect_error(snapshot_text(16, 15), "truncated snapshot: 15 of 16", "truncated");
	expect_error("sctrstatus 0x0 depth 48\n", "depth 48", "depth not a power of two");
	expect_error("sctrstatus 0x0 depth 16\n1 0x1 0x2 0x3\n", "out of order", "index gap");
	expect_error("sctrstatus 0x0 depth 16\n0 1 0x2 0x3\n", "line 2", "missing 0x");
	expect_error("sctrstatus 0x0 depth 16\n0 0x1 0x2 0x3 junk\n", "line 2", "trailing junk");
	expect_error("sctrstatus 0x0 depth 16\n0 0x1 0x2 0x123456789abcdef01\n", "line 2",
		     "overflowing value");
	expect_error("ctrstatus 0x0 depth 16\n", "expected", "bad header");
	memset(long_line, 'a', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = 0;
	expect_error(long_line, "longer than", "overlong line");
	expect_error("sctrstatus 0x0 depth 16\n0 0x1 0x2 0x3\nsctrstatus 0x0 depth 16\n",
		     "ended after 1", "snapshot cut by the next header");
	expect_error("sctrstatus 0x0 depth 16 sctrctl 12\n", "bad sctrctl", "sctrctl without 0x");
	expect_error("sctrstatus 0x0 depth 16 foo 0x1\n", "unexpected text", "unknown header field");
	T_OK(rvctr_snapshot__probe("# x\nsctrstatus 0x0", 16), "probe after a comment");
	T_OK(!rvctr_snapshot__probe("PERFILE2", 8), "probe rejects perf.data");
}

int main(void)
{
	test_good();
	test_invalid_entries();
	test_two();
	test_errors();
	return tests_done();
}
