// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hand-made perf-script text (rvctr/perfscript.h) against printf of
 * the format it stands for, on addresses of every length (0, one digit,
 * 8 and 9 digits where the formatter switches halves, 16 digits of a
 * kernel address, all ones), every branch type, mispredict flags and
 * cycle counts, and pseudo-random values; and a sample long enough to
 * flush the formatter's buffer mid-way.
 */
#include <stdlib.h>

#include <rvctr/perfscript.h>

#include "tests.h"

/* What rvctr_perfscript__sample() must write, the slow way. */
static size_t reference(char *out, size_t len, const struct rvctr_sample *s)
{
	size_t n = snprintf(out, len, "%16" PRIx64, s->ip);
	uint64_t i;

	for (i = 0; i < s->nr_branches; i++) {
		const struct perf_branch_entry *b = &s->branches[i];

		n += snprintf(out + n, len - n, " 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/%u/%s/-",
			      (uint64_t)b->from, (uint64_t)b->to,
			      b->mispred ? 'M' : b->predicted ? 'P' : '-', (unsigned int)b->cycles,
			      rvctr_perf_branch_type_name(b->type));
	}
	n += snprintf(out + n, len - n, "\n");
	return n;
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int same(const struct rvctr_sample *s, const char *what)
{
	static char want[RVCTR_MAX_BRANCHES * 100 + 64];
	char *got = NULL;
	size_t got_len = 0, want_len = reference(want, sizeof(want), s);
	FILE *f = open_memstream(&got, &got_len);
	int ok;

	rvctr_perfscript__sample(f, s);
	fclose(f);
	ok = got_len == want_len && !memcmp(got, want, want_len);
	if (!ok)
		printf("# %s:\n#  got  %.*s#  want %s", what, (int)got_len, got, want);
	free(got);
	return ok;
}

int main(void)
{
	static const uint64_t edges[] = {
		0, 1, 0x9, 0xa, 0xf, 0x10, 0x10654, 0xfffffff, 0x10000000, 0xffffffff,
		0x100000000ULL, 0x123456789ULL, 0x3fa0001000ULL, 0x7fffffffffffffffULL,
		0xffffffff80002040ULL, 0xffffffffffffffffULL,
	};
	static struct perf_branch_entry br[RVCTR_MAX_BRANCHES];
	struct rvctr_sample s = { .branches = br };
	unsigned int i, j, bad = 0;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		for (j = 0; j < sizeof(edges) / sizeof(edges[0]); j++) {
			memset(br, 0, sizeof(br[0]));
			br[0].from = edges[i];
			br[0].to = edges[j];
			br[0].type = (i + j) & 15;
			br[0].mispred = j & 1;
			br[0].predicted = !(j & 1) && (i & 1);
			br[0].cycles = (i * 7919 + j) & 0xffff;
			s.ip = edges[j];
			s.nr_branches = 1;
			bad += !same(&s, "edge values");
		}
	}
	T_EQ(bad, 0, "every address length, type, flag: as printf writes them");

	bad = 0;
	for (i = 0; i < 200; i++) {
		s.nr_branches = next(&x) % RVCTR_MAX_BRANCHES + 1;
		s.ip = next(&x) >> (next(&x) & 63);
		for (j = 0; j < s.nr_branches; j++) {
			memset(&br[j], 0, sizeof(br[j]));
			br[j].from = next(&x) >> (next(&x) & 63);
			br[j].to = next(&x) >> (next(&x) & 63);
			br[j].type = next(&x) & 15;
			br[j].mispred = next(&x) & 1;
			br[j].predicted = !br[j].mispred && (next(&x) & 1);
			br[j].cycles = next(&x) & 0xffff;
		}
		bad += !same(&s, "random samples");
	}
	T_EQ(bad, 0, "200 random samples of up to 256 records: as printf writes them");
	return tests_done();
}
