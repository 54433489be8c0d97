// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address maps: overlapping MMAPs, the any-pid fallback, and agreement with
 * a plain scan of every map (the previous implementation) on a large
 * system-wide-like input; prints the lookup speed of both.
 */
#include <stdlib.h>
#include <time.h>

#include <rvctr/maps.h>

#include "tests.h"

static void mmap_of(struct rvctr_mmap *mm, uint32_t pid, uint64_t start, uint64_t len,
		    uint64_t pgoff, const char *name)
{
	memset(mm, 0, sizeof(*mm));
	mm->pid = mm->tid = pid;
	mm->start = start;
	mm->len = len;
	mm->pgoff = pgoff;
	snprintf(mm->filename, sizeof(mm->filename), "%s", name);
}

static uint64_t file_off(const struct rvctr_map *m, uint64_t addr)
{
	return addr - m->start + m->pgoff;
}

static void test_overlap(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	const struct rvctr_map *r;
	struct rvctr_mmap mm;

	mmap_of(&mm, 5, 0x1000, 0x4000, 0x10000, "/a");
	rvctr_maps__add(m, &mm);
	mmap_of(&mm, 5, 0x2000, 0x1000, 0, "/b");
	rvctr_maps__add(m, &mm);
	r = rvctr_maps__find(m, 5, 0x1800);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "/a", "below the new map: the old one");
	T_EQ(r ? file_off(r, 0x1800) : 0, 0x10800, "at its file offset");
	r = rvctr_maps__find(m, 5, 0x2800);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "/b", "inside: the newer map");
	r = rvctr_maps__find(m, 5, 0x3800);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "/a", "above: the rest of the old one");
	T_EQ(r ? file_off(r, 0x3800) : 0, 0x12800, "file offset kept past the cut");
	T_OK(!rvctr_maps__find(m, 5, 0x5000), "end is exclusive");
	/* other pids: newest holding the address; -1 is the kernel */
	mmap_of(&mm, -1, 0xffffffff80000000ULL, 0x1000000, 0, "[kernel.kallsyms]_text");
	rvctr_maps__add(m, &mm);
	mmap_of(&mm, 6, 0x2000, 0x1000, 0, "/c");
	rvctr_maps__add(m, &mm);
	r = rvctr_maps__find(m, 7, 0x2800);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "/c", "unknown pid: newest of any");
	r = rvctr_maps__find(m, 5, 0xffffffff80001000ULL);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "[kernel.kallsyms]_text",
		"kernel address: the pid -1 map");
	mmap_of(&mm, 5, 0x0, 0x10000, 0, "/d");	/* covers all of pid 5's */
	rvctr_maps__add(m, &mm);
	r = rvctr_maps__find(m, 5, 0x3800);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "/d", "a map over several replaces all");
	mmap_of(&mm, 5, ~0ULL - 0xfff, 0x1000, 0, "/top");
	rvctr_maps__add(m, &mm);
	r = rvctr_maps__find(m, 5, ~0ULL);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "/top", "the last byte of the space");
	rvctr_maps__delete(m);
}

/* The previous implementation: every map, newest first, per lookup. */
struct ref {
	struct rvctr_mmap *maps;
	unsigned int nr;
};

static const struct rvctr_mmap *ref_find(const struct ref *r, uint32_t pid, uint64_t addr)
{
	const struct rvctr_mmap *any = NULL;
	unsigned int i;

	for (i = r->nr; i-- > 0;) {
		const struct rvctr_mmap *m = &r->maps[i];

		if (addr < m->start || addr - m->start >= m->len)
			continue;
		if (m->pid == pid)
			return m;
		if (!any)
			any = m;
	}
	return any;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define PIDS		400
#define MAPS_PER_PID	150
#define LOOKUPS		200000

/*
 * A system-wide recording's shape: 400 processes, 150 maps each (60000),
 * libraries at per-process random bases, some maps replacing earlier ones;
 * lookups from random processes mostly inside their maps.
 */
static void test_many(void)
{
	struct ref ref = { calloc(PIDS * MAPS_PER_PID, sizeof(struct rvctr_mmap)), 0 };
	struct rvctr_maps *m = rvctr_maps__new();
	uint64_t *addr = calloc(LOOKUPS, sizeof(*addr)), sum_new = 0, sum_ref = 0;
	uint32_t *pid = calloc(LOOKUPS, sizeof(*pid));
	unsigned int i, j, bad = 0, hits = 0, ref_n = LOOKUPS / 50;
	double t0, t_new, t_ref;
	char name[64];

	srand(1);
	for (j = 0; j < MAPS_PER_PID; j++) {
		for (i = 0; i < PIDS; i++) {
			uint64_t base = 0x3f00000000ULL + ((uint64_t)(rand() % 0x10000) << 12);

			snprintf(name, sizeof(name), "/usr/lib/lib%u.so", j % 97);
			mmap_of(&ref.maps[ref.nr], 1000 + i, base, 0x1000 * (1 + rand() % 64),
				(rand() % 16) << 12, name);
			if (rvctr_maps__add(m, &ref.maps[ref.nr]))
				bad++;
			ref.nr++;
		}
	}
	T_EQ(bad, 0, "60000 maps added");
	for (i = 0; i < LOOKUPS; i++) {
		const struct rvctr_mmap *mm = &ref.maps[rand() % ref.nr];

		pid[i] = rand() % 8 ? mm->pid : 5000;	/* some with no maps of their own */
		addr[i] = mm->start + rand() % (mm->len + 0x1000);
	}
	for (i = 0; i < LOOKUPS; i++) {
		const struct rvctr_map *a = rvctr_maps__find(m, pid[i], addr[i]);
		const struct rvctr_mmap *b = ref_find(&ref, pid[i], addr[i]);

		if (i >= ref_n)
			break;
		hits += !!b;
		if (!a != !b || (a && (strcmp(rvctr_maps__dso_name(m, a->dso), b->filename) ||
				      a->pid != b->pid ||
				      file_off(a, addr[i]) != addr[i] - b->start + b->pgoff)))
			bad++;
	}
	T_EQ(bad, 0, "same map and file offset as a scan of every map");
	T_OK(hits > ref_n / 2, "most lookups hit a map");
	t0 = now();
	for (i = 0; i < LOOKUPS; i++) {
		const struct rvctr_map *a = rvctr_maps__find(m, pid[i], addr[i]);

		sum_new += a ? a->start : 1;
	}
	t_new = (now() - t0) / LOOKUPS;
	t0 = now();
	for (i = 0; i < ref_n; i++) {
		const struct rvctr_mmap *b = ref_find(&ref, pid[i], addr[i]);

		sum_ref += b ? b->start : 1;
	}
	t_ref = (now() - t0) / ref_n;
	printf("# %u maps of %u pids: %.0f ns per lookup (scan of every map: %.0f ns, %.0fx)\n",
	       ref.nr, PIDS, t_new * 1e9, t_ref * 1e9, t_ref / t_new);
	T_OK(sum_new && sum_ref, "timed lookups ran");
	rvctr_maps__delete(m);
	free(ref.maps);
	free(addr);
	free(pid);
}

int main(void)
{
	test_overlap();
	test_many();
	return tests_done();
}
