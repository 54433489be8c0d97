// SPDX-License-Identifier: GPL-2.0-only
/* AutoFDO text aggregation and the counter table under it. */
#include <stdlib.h>

#include <rvctr/autofdo.h>
#include <rvctr/table.h>

#include "afdo-tests.h"
#include "tests.h"

static void test_text(void)
{
	struct perf_branch_entry s[3];
	struct rvctr_afdo *a = rvctr_afdo__new();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	/* newest first: ...->0x10100 (range 0x10100..0x10120), 0x10120->0x10200 */
	br(&s[0], 0x10220, 0x10300);
	br(&s[1], 0x10120, 0x10200);
	br(&s[2], 0x10080, 0x10100);
	rvctr_afdo__add(a, 0x10300, s, 3, xlate, NULL);
	rvctr_afdo__add(a, 0x10300, s, 3, xlate, NULL);
	/* a branch from outside the binary: only its target side counts */
	br(&s[1], 0x90000, 0x10200);
	rvctr_afdo__add(a, 0x90000, s, 2, xlate, NULL);
	T_EQ(rvctr_afdo__write(a, f), 0, "writes");
	fclose(f);
	T_STREQ(buf, "2\n100-120:2\n200-220:3\n1\n300:2\n3\n80->100:2\n120->200:2\n220->300:3\n",
		"ranges, addresses, branches");
	T_EQ(rvctr_afdo__nr_ranges(a), 2, "two ranges");
	free(buf);
	rvctr_afdo__delete(a);
}

static void test_bogus(void)
{
	struct perf_branch_entry s[2];
	struct rvctr_afdo *a = rvctr_afdo__new();

	/* a "range" going backwards and one over 1 MB are dropped like AutoFDO does */
	br(&s[0], 0x10100, 0x10000);
	br(&s[1], 0x10000, 0x10200);
	rvctr_afdo__add(a, 0, s, 2, xlate, NULL);
	T_EQ(rvctr_afdo__nr_ranges(a), 0, "backward range dropped");
	rvctr_afdo__delete(a);
}

/*
 * Entries whose ends do not translate must not be compared as if they had:
 * the head's source is outside the binary here, so it cannot be the
 * duplicated-head artefact, and the range from entry 1 counts.  (Before
 * the fix the failed ends were left uninitialized and compared anyway:
 * MemorySanitizer reports it, see the msan-unit make target.)
 */
static void test_untranslated_head(void)
{
	struct perf_branch_entry s[3];
	struct rvctr_afdo *a = rvctr_afdo__new();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	br(&s[0], 0x90000, 0x10100);	/* from outside the binary */
	br(&s[1], 0x18000, 0x10100);	/* same target, long loop body */
	br(&s[2], 0x10000, 0x10200);
	rvctr_afdo__add(a, 0x10100, s, 3, xlate, NULL);
	/* the reverse: entry 1's source does not translate */
	br(&s[0], 0x18000, 0x10100);
	br(&s[1], 0x90000, 0x10100);
	rvctr_afdo__add(a, 0x10100, s, 2, xlate, NULL);
	/* a real duplicated head: entry 1 dropped, entry 2 counts */
	br(&s[1], 0x18000, 0x10100);
	br(&s[2], 0x17000, 0x10300);
	rvctr_afdo__add(a, 0x10100, s, 3, xlate, NULL);
	T_EQ(rvctr_afdo__write(a, f), 0, "writes");
	fclose(f);
	T_STREQ(buf, "3\n100-8000:1\n200-8000:1\n300-8000:1\n1\n100:3\n"
		"3\n0->200:1\n7000->300:1\n8000->100:2\n",
		"an untranslated end never makes a duplicated head; a real one is dropped");
	free(buf);
	rvctr_afdo__delete(a);
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * A stack wholly in one map added with its offsets made on the way
 * (rvctr_afdo__add_biased, the sink's fast path) counts exactly what the
 * general path counts: runs of repeated records (each table's last-key
 * cache), duplicated heads, backward and over-long ranges, an ip in and
 * out of the binary, and enough distinct keys that the tables grow under
 * the cache.
 */
static void test_biased(void)
{
	static struct perf_branch_entry s[RVCTR_MAX_BRANCHES];
	struct rvctr_afdo *general = rvctr_afdo__new(), *biased = rvctr_afdo__new();
	uint64_t x = 0x9e3779b97f4a7c15ULL, n, i, ip, ip_off = 0;
	unsigned int k;
	int ip_ok;
	char *want, *got;

	for (k = 0; k < 3000; k++) {
		n = next(&x) % RVCTR_MAX_BRANCHES + 1;
		for (i = 0; i < n; i++) {
			if (i && next(&x) % 2) {
				s[i] = s[i - 1];	/* a loop's back edge, again */
				continue;
			}
			/* k < 1500: few distinct keys; then many (the tables grow) */
			br(&s[i], 0x10000 + (next(&x) % (k < 1500 ? 64 : 0x8000)) * 2,
			   0x10000 + (next(&x) % (k < 1500 ? 64 : 0x8000)) * 2);
		}
		if (n > 1 && next(&x) % 8 == 0) {
			br(&s[0], 0x1f000, 0x10000);	/* a long loop body: a duplicated head */
			s[1] = s[0];
		}
		ip = next(&x) % 4 ? s[0].to : 0x90000;
		ip_ok = !xlate(NULL, ip, &ip_off);
		rvctr_afdo__add(general, ip, s, n, xlate, NULL);
		rvctr_afdo__add_biased(biased, ip_ok, ip_off, s, n, (uint64_t)0 - 0x10000);
	}
	want = text_of(general);
	got = text_of(biased);
	T_OK(want && got && !strcmp(want, got), "one map's stacks, offsets made on the way: "
	     "the same profile as the general path");
	T_OK(rvctr_afdo__nr_ranges(general) > 10000, "with tables grown well past their start");
	free(want);
	free(got);
	rvctr_afdo__delete(general);
	rvctr_afdo__delete(biased);
}

static void test_table(void)
{
	struct rvctr_table *t = rvctr_table__new();
	struct rvctr_counts *c;
	size_t n, i, ok = 1;

	for (i = 0; i < 100000; i++)
		rvctr_table__get(t, i % 5000, i % 7)->count++;
	T_EQ(rvctr_table__size(t), 35000, "distinct keys after growth");
	c = rvctr_table__sorted(t, &n);
	for (i = 1; i < n; i++)
		ok &= c[i - 1].a < c[i].a || (c[i - 1].a == c[i].a && c[i - 1].b < c[i].b);
	T_OK(ok, "sorted by key");
	free(c);
	rvctr_table__get(t, 1, 1)->count += 1000;
	c = rvctr_table__by_count(t, &n);
	T_EQ(c[0].a, 1, "by count: hottest first");
	free(c);
	rvctr_table__delete(t);
}

int main(void)
{
	test_text();
	test_bogus();
	test_untranslated_head();
	test_biased();
	test_table();
	return tests_done();
}
