// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hand-made perf-script text (rvctr/perfscript.h) against printf of
 * the format it stands for, on addresses of every length (0, one digit,
 * 8 and 9 digits where the formatter switches halves, 16 digits of a
 * kernel address, all ones), every branch type, mispredict flags and
 * cycle counts, and pseudo-random values; and records repeated (copied
 * from the text before) next to ones that differ from the one before in
 * a single field.  The buffer is exactly the size the header promises,
 * so AddressSanitizer sees any store past it.
 */
#include <stdlib.h>

#include <rvctr/perfscript.h>

#include "tests.h"

/* What rvctr_perfscript__format_sample() must write, the slow way. */
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

/* one formatter for all: its cache holds what the samples before left */
static struct rvctr_perfscript *ps;

static int same(const struct rvctr_sample *s, const char *what)
{
	static char want[RVCTR_MAX_BRANCHES * 100 + 64];
	size_t room = RVCTR_PERFSCRIPT_SAMPLE_MAX(s->nr_branches);
	size_t got_len, want_len = reference(want, sizeof(want), s);
	char *got = malloc(room);
	int ok;

	if (!got)
		return 0;
	got_len = rvctr_perfscript__format_sample(ps, got, s) - got;
	ok = got_len == want_len && !memcmp(got, want, want_len);
	if (!ok)
		printf("# %s:\n#  got  %.*s#  want %s", what, (int)got_len, got, want);
	free(got);
	return ok;
}

/* Entry @j of a run: like the one before, or one field changed (@how). */
static void vary(struct perf_branch_entry *br, unsigned int j, unsigned int how)
{
	br[j] = br[j - 1];
	switch (how) {
	case 0: br[j].from ^= 1; break;
	case 1: br[j].to += 0x10; break;
	case 2: br[j].mispred ^= 1; break;
	case 3: br[j].predicted ^= 1; break;
	case 4: br[j].cycles++; break;
	case 5: br[j].type = (br[j].type + 1) & 15; break;
	case 6: br[j].to <<= 4; break;	/* a longer line */
	default: break;			/* a repeat */
	}
}

/*
 * MMAP2 lines carry the map's protection as perf script --show-mmap-events
 * prints it (perf_event__fprintf_mmap2): llvm-profgen moves a binary's base
 * only on executable maps, so a data map shown as r-xp would move it.
 * Records that carry none (MMAP, and kernel maps synthesized with prot 0)
 * are executable unless marked data, as perf prints them ("x" or "r").
 */
static void test_mmap(void)
{
	static const struct {
		uint32_t prot, flags;
		uint16_t misc;
		const char *perm;
	} cases[] = {
		{ 5, 2, PERF_RECORD_MISC_USER, "r-xp" },
		{ 3, 2, PERF_RECORD_MISC_USER, "rw-p" },
		{ 1, 2, PERF_RECORD_MISC_USER, "r--p" },
		{ 1, 1, PERF_RECORD_MISC_USER, "r--s" },
		{ 7, 1, PERF_RECORD_MISC_USER, "rwxs" },
		{ 4, 2, PERF_RECORD_MISC_USER, "--xp" },
		{ 0, 2, PERF_RECORD_MISC_USER, "---p" },	/* a PROT_NONE gap */
		{ 0, 0, PERF_RECORD_MISC_KERNEL, "r-xp" },	/* no protection recorded */
		{ 0, 0, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, "r--p" },
	};
	struct rvctr_mmap m = { .pid = 42, .tid = 43, .start = 0x10000, .len = 0x2000,
				.pgoff = 0x1000, .filename = "/usr/bin/a" };
	char got[512], want[512], name[128];
	unsigned int i;
	int n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		m.prot = cases[i].prot;
		m.flags = cases[i].flags;
		m.misc = cases[i].misc;
		n = rvctr_perfscript__format_mmap(got, sizeof(got), &m, NULL);
		snprintf(want, sizeof(want), "%16s %6d %24s PERF_RECORD_MMAP2 42/43: "
			 "[0x10000(0x2000) @ 0x1000 00:00 0 0]: %s /usr/bin/a\n",
			 ":-1", 42, "0.000000:", cases[i].perm);
		snprintf(name, sizeof(name), "MMAP2 line, prot %u flags %u misc %#x: %s",
			 cases[i].prot, cases[i].flags, cases[i].misc, cases[i].perm);
		T_STREQ(n > 0 ? got : NULL, want, name);
	}
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
	static struct perf_branch_entry pool[3000];

	ps = rvctr_perfscript__new();
	if (!ps)
		return 1;

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

	bad = 0;
	for (i = 0; i < 200; i++) {
		s.nr_branches = next(&x) % RVCTR_MAX_BRANCHES + 1;
		s.ip = next(&x) >> (next(&x) & 63);
		memset(&br[0], 0, sizeof(br[0]));
		br[0].from = next(&x) >> (next(&x) & 63);
		br[0].to = next(&x) >> (next(&x) & 63);
		br[0].cycles = next(&x) & 0xff;
		for (j = 1; j < s.nr_branches; j++)
			vary(br, j, next(&x) % 14);	/* half of them repeats */
		bad += !same(&s, "repeated records");
	}
	T_EQ(bad, 0, "200 samples of runs of repeated records: as printf writes them");

	/* more distinct records than the cache has places: hits and evictions */
	for (j = 0; j < sizeof(pool) / sizeof(pool[0]); j++) {
		memset(&pool[j], 0, sizeof(pool[j]));
		pool[j].from = 0x10000 + (next(&x) & 0xfffe);
		pool[j].to = j % 3 ? 0x10000 + (next(&x) & 0xfffe) : next(&x);
		pool[j].type = next(&x) & 15;
		pool[j].mispred = !(next(&x) & 7);
		pool[j].cycles = next(&x) & 3;
	}
	bad = 0;
	for (i = 0; i < 400; i++) {
		s.nr_branches = next(&x) % RVCTR_MAX_BRANCHES + 1;
		s.ip = 0x10000 + (next(&x) & 0xfffe);
		for (j = 0; j < s.nr_branches; j++)
			br[j] = pool[next(&x) % (i < 200 ? 300 : 3000)];
		bad += !same(&s, "records from a pool");
	}
	T_EQ(bad, 0, "400 samples drawn from 300, then 3000 distinct records: as printf writes them");
	rvctr_perfscript__delete(ps);
	test_mmap();
	return tests_done();
}
