// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address maps: overlapping MMAPs, which process's maps place an address
 * (its own and the kernel's, never another's; fork, exit, exec, a new
 * recording), a full table (of maps, of binaries; random ones against a
 * model; report's module map in one), and agreement with a plain scan of
 * every map on a large system-wide-like input; prints the lookup speed of
 * both.
 */
#include <stdlib.h>
#include <time.h>

#include <rvctr/insn.h>
#include <rvctr/machine.h>
#include <rvctr/maps.h>
#include <rvctr/report.h>
#include <unistd.h>

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
	T_OK(!rvctr_maps__find(m, 7, 0x2800), "a pid without maps: none of another's");
	r = rvctr_maps__find(m, 7, 0xffffffff80001000ULL);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "[kernel.kallsyms]_text",
		"a pid without maps: the kernel's");
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

static const char *name_at(struct rvctr_maps *m, uint32_t pid, uint64_t addr)
{
	const struct rvctr_map *r = rvctr_maps__find(m, pid, addr);

	return r ? rvctr_maps__dso_name(m, r->dso) : "(none)";
}

/*
 * A JIT's code (pid 100, an anonymous map it has) is at an address another
 * process (pid 200) maps a file at: pid 100's branches there are not
 * placed in pid 200's file.
 */
static void test_own_pid_only(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	struct rvctr_mmap mm;

	mmap_of(&mm, 100, 0x10000, 0x1000, 0, "/usr/bin/jit");
	rvctr_maps__add(m, &mm);
	mmap_of(&mm, 200, 0x40000, 0x1000, 0, "/usr/bin/other");
	rvctr_maps__add(m, &mm);
	T_STREQ(name_at(m, 100, 0x40800), "(none)", "pid 100 at pid 200's address: unplaced");
	T_STREQ(name_at(m, 200, 0x40800), "/usr/bin/other", "pid 200 at its own");
	T_STREQ(name_at(m, 999, 0x10800), "(none)", "a pid with no maps: unplaced");
	rvctr_maps__delete(m);
}

static int add(struct rvctr_maps *m, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
	       const char *name)
{
	struct rvctr_mmap mm;

	mmap_of(&mm, pid, start, len, pgoff, name);
	return rvctr_maps__add(m, &mm);
}

/*
 * A full table (here of 4 maps): a new map that replaces as many as it
 * needs is kept; one that needs more room is not, and what it overlaps
 * goes all the same, so its addresses are in no map rather than in the
 * one it replaced.
 */
static void test_full(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	const struct rvctr_map *r;
	unsigned int i;
	char name[32];

	rvctr_maps__set_limit(m, 4);
	add(m, 5, 0x40000, 0x10000, 0x100000, "/big");
	add(m, 5, 0x10000, 0x1000, 0, "/a");
	add(m, 5, 0x20000, 0x1000, 0, "/b");
	T_EQ(add(m, 5, 0x30000, 0x1000, 0, "/c"), 0, "4 maps: the table is full");
	T_EQ(add(m, 5, 0x60000, 0x1000, 0, "/more"), -1, "a fifth, overlapping none: -1");
	T_STREQ(name_at(m, 5, 0x60800), "(none)", "... and not kept");
	T_EQ(add(m, 5, 0x20000, 0x1000, 0, "/b2"), 0, "full: a map in place of one is kept");
	T_STREQ(name_at(m, 5, 0x20800), "/b2", "... and replaces it");
	T_EQ(add(m, 5, 0x10000, 0x11000, 0, "/ab"), 0, "full: a map over two is kept");
	T_STREQ(name_at(m, 5, 0x10800), "/ab", "... and replaces both");
	T_STREQ(name_at(m, 5, 0x30800), "/c", "... the next one kept");
	/*
	 * 3 of 4: a map inside /big needs two more (the parts of /big each
	 * side): the new map goes in first (samples there are its), then the
	 * part below; the part above has no room
	 */
	T_EQ(add(m, 5, 0x44000, 0x1000, 0, "/inside"), 1, "a map inside another, room for one "
	     "part of it: kept, a part dropped: 1");
	T_STREQ(name_at(m, 5, 0x44800), "/inside", "... the new map kept");
	r = rvctr_maps__find(m, 5, 0x41000);
	T_STREQ(r ? rvctr_maps__dso_name(m, r->dso) : NULL, "/big", "... below it, the older map");
	T_EQ(r ? file_off(r, 0x41000) : 0, 0x101000, "... at its file offset");
	T_STREQ(name_at(m, 5, 0x48000), "(none)", "... its part above, no room: in no map");
	/* full (4): inside the lower part of /big, no room for either part */
	T_EQ(add(m, 5, 0x42000, 0x1000, 0, "/inside2"), 1, "full: a map inside another: kept, "
	     "1");
	T_STREQ(name_at(m, 5, 0x42800), "/inside2", "... the new map kept");
	T_STREQ(name_at(m, 5, 0x41000), "(none)", "... the older map's part below: in no map");
	T_STREQ(name_at(m, 5, 0x43000), "(none)", "... and its part above");
	T_EQ(add(m, 5, 0x60000, 0x1000, 0, "/more"), -1, "full, overlapping none: -1");
	rvctr_maps__delete(m);
	/* the newest map wins over the leftover of the one it partly overlaps */
	m = rvctr_maps__new();
	rvctr_maps__set_limit(m, 2);
	add(m, 5, 0x10000, 0x2000, 0, "/old");
	add(m, 5, 0x40000, 0x1000, 0, "/other");
	T_EQ(add(m, 5, 0x11000, 0x2000, 0, "/new"), 1, "full: a map over the top of another: "
	     "kept, its rest dropped: 1");
	T_STREQ(name_at(m, 5, 0x11800), "/new", "... the new map kept");
	T_STREQ(name_at(m, 5, 0x12800), "/new", "... all of it");
	T_STREQ(name_at(m, 5, 0x10800), "(none)", "... the rest of the old one: in no map");
	/* an exited process's maps, dropped when its pid is reused, make room */
	rvctr_maps__delete(m);
	m = rvctr_maps__new();
	rvctr_maps__set_limit(m, 4);
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "/lib%u.so", i);
		add(m, 7, 0x10000 * (i + 1), 0x1000, 0, name);
	}
	rvctr_maps__exit(m, 7, 7);
	T_EQ(add(m, 7, 0x10000, 0x1000, 0, "/new"), 0, "full of an exited process's maps: its "
	     "pid's next process maps");
	T_STREQ(name_at(m, 7, 0x10800), "/new", "... its map");
	T_STREQ(name_at(m, 7, 0x20800), "(none)", "... none of the old process's");
	rvctr_maps__delete(m);
}

/* Past the most binaries: a new one's map is not kept, nor what it overlaps. */
static void test_full_dsos(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	unsigned int i, bad = 0;
	char name[32];

	for (i = 0; i < 4096; i++) {
		snprintf(name, sizeof(name), "/lib%u.so", i);
		bad += !!add(m, 9, 0x10000 + 0x1000ULL * i, 0x1000, 0, name);
	}
	T_EQ(bad, 0, "4096 binaries");
	T_EQ(add(m, 9, 0x10000, 0x1000, 0, "/lib0.so"), 0, "a known one again: kept");
	T_EQ(add(m, 9, 0x10000, 0x2000, 0, "/one-more.so"), -1, "the 4097th binary: -1");
	T_STREQ(name_at(m, 9, 0x10800), "(none)", "... the maps it overlaps go: in no map");
	T_STREQ(name_at(m, 9, 0x11800), "(none)", "... all of them");
	T_STREQ(name_at(m, 9, 0x12800), "/lib2.so", "... others kept");
	rvctr_maps__delete(m);
}

static unsigned int dso_of(struct rvctr_maps *m, uint32_t pid, uint64_t start, const char *name,
			   uint8_t id);

/*
 * A map not kept (a full table) takes no binary's slot and gives no
 * binary its build id: when room comes back, new binaries are kept.
 */
static void test_dropped_dsos(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	struct rvctr_mmap mm;
	unsigned int i, kept = 0, size;
	char name[32];

	rvctr_maps__set_limit(m, 1);
	T_EQ(add(m, 1, 0x10000, 0x1000, 0, "/keep"), 0, "a table of one map: the first kept");
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "/dropped%u", i);
		kept += !add(m, 1, 0x100000 + 0x1000ULL * i, 0x1000, 0, name);
	}
	T_EQ(kept, 0, "5000 maps of new binaries while full: none kept");
	T_EQ(rvctr_maps__nr_dsos(m), 1, "... and no binary made for them");
	rvctr_maps__comm(m, 1, 1);	/* an exec: room again */
	T_EQ(add(m, 1, 0x10000, 0x1000, 0, "/after-exec"), 0, "then a new binary's map: kept");
	T_STREQ(name_at(m, 1, 0x10010), "/after-exec", "... and found");
	/* full again: a dropped map with a build id for an id-less binary */
	mmap_of(&mm, 1, 0x200000, 0x1000, 0, "/keep");
	mm.build_id_size = 20;
	memset(mm.build_id, 0xab, 20);
	T_EQ(rvctr_maps__add(m, &mm), -1, "full: a map of a known binary, with a build id: -1");
	T_OK(!rvctr_maps__dso_build_id(m, 0, &size) && !size, "... its build id not given to "
	     "the binary");
	/* a dropped second build of a name: its binary goes too */
	mmap_of(&mm, 1, 0x10000, 0x1000, 0, "/after-exec");
	mm.build_id_size = 20;
	memset(mm.build_id, 0xcd, 20);
	T_EQ(rvctr_maps__add(m, &mm), 0, "in place of its map: a build id for /after-exec, kept");
	mm.start = 0x300000;
	memset(mm.build_id, 0xee, 20);
	T_EQ(rvctr_maps__add(m, &mm), -1, "full: another build of it: -1");
	T_EQ(rvctr_maps__nr_dsos(m), 2, "... no binary made");
	mm.start = 0x10000;
	T_EQ(rvctr_maps__add(m, &mm), 0, "that build in place of the first: kept");
	T_EQ(rvctr_maps__nr_dsos(m), 3, "... a binary made for it");
	T_EQ(dso_of(m, 1, 0x10000, "/after-exec", 0xee), 2, "... found by its build id");
	rvctr_maps__delete(m);
}

/*
 * Random maps of 3 pids over 64 pages in tables of 1 to 8 maps, against
 * a model of each page's newest map: every page is in its newest map (at
 * its file offset) or in none; a kept map (0, 1) is found whole; a map
 * that overlaps an older one of its pid is always kept (the overlapped
 * maps make room for it); 0 leaves every other page as it was.
 */
static void test_full_random(void)
{
	unsigned int round, iter, bad_place = 0, bad_kept = 0, bad_room = 0, bad_same = 0;
	char name[16];

	srand(7);
	for (round = 0; round < 100; round++) {
		struct rvctr_maps *m = rvctr_maps__new();
		int want[3][64];
		uint64_t off[3][64];
		const char *before[3][64];

		memset(want, -1, sizeof(want));
		rvctr_maps__set_limit(m, 1 + rand() % 8);
		for (iter = 0; iter < 300; iter++) {
			int pid = rand() % 3, a = rand() % 64, len = 1 + rand() % 12, nm = rand() % 20;
			uint64_t pgoff = (rand() % 16) * 0x1000ULL;
			int i, p, r, overlaps = 0;

			if (a + len > 64)
				len = 64 - a;
			for (p = 0; p < 3; p++)
				for (i = 0; i < 64; i++)
					before[p][i] = name_at(m, p + 1, 0x1000ULL * i + 7);
			for (i = a; i < a + len; i++)
				overlaps |= strcmp(before[pid][i], "(none)") != 0;
			snprintf(name, sizeof(name), "/f%d", nm);
			r = add(m, pid + 1, 0x1000ULL * a, 0x1000ULL * len, pgoff, name);
			for (i = a; i < a + len; i++) {
				want[pid][i] = nm;
				off[pid][i] = pgoff + 0x1000ULL * (i - a);
			}
			bad_room += overlaps && r < 0;
			for (p = 0; p < 3; p++) {
				for (i = 0; i < 64; i++) {
					const struct rvctr_map *x = rvctr_maps__find(m, p + 1,
										    0x1000ULL * i + 7);
					char w[16];
					int inside = p == pid && i >= a && i < a + len;

					snprintf(w, sizeof(w), "/f%d", want[p][i]);
					if (x && (want[p][i] < 0 ||
						  strcmp(rvctr_maps__dso_name(m, x->dso), w) ||
						  file_off(x, 0x1000ULL * i + 7) != off[p][i] + 7))
						bad_place++;
					if (inside && r >= 0 && !x)
						bad_kept++;
					if (!inside && !r && strcmp(before[p][i], name_at(m, p + 1,
							0x1000ULL * i + 7)))
						bad_same++;
				}
			}
			if (rand() % 50 == 0) {
				p = rand() % 3;
				rvctr_maps__comm(m, p + 1, 1);
				memset(want[p], -1, sizeof(want[p]));
			}
		}
		rvctr_maps__delete(m);
	}
	T_EQ(bad_place, 0, "random full tables: every address in its newest map or none");
	T_EQ(bad_kept, 0, "... a map kept (0 or 1) is found whole");
	T_EQ(bad_room, 0, "... a map over an older one is always kept");
	T_EQ(bad_same, 0, "... 0: the other maps as they were");
}

/*
 * report: a kernel module's map kept in a full table (RVCTR_MAPS_MAX
 * maps) with a part of an older map dropped (1) is still a module: its
 * symbols come from kallsyms.
 */
static void test_report_module_full(void)
{
	char kallsyms[] = "/tmp/rvctr-kallsyms-XXXXXX", *text = NULL;
	struct rvctr_symfind find = { .kallsyms = kallsyms };
	struct rvctr_machine *m = rvctr_machine__new(&find, NULL);
	struct rvctr_report *r = m ? rvctr_report__new(m) : NULL;
	struct rvctr_event ev = { .type = PERF_RECORD_MMAP2 };
	struct rvctr_mmap mm = { .pid = -1, .tid = -1, .misc = PERF_RECORD_MISC_KERNEL };
	struct perf_branch_entry br = { .from = 0xffffffff81001010ULL, .to = 0xffffffff81001800ULL };
	struct rvctr_sample smp = { .pid = 5, .tid = 5, .ip = br.to, .nr_branches = 1,
				    .branches = &br, .period = 1, .misc = PERF_RECORD_MISC_KERNEL };
	unsigned int i, bad = 0;
	size_t size = 0;
	FILE *f, *out;
	int fd = mkstemp(kallsyms);

	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || !r) {
		T_OK(0, "report: a temporary kallsyms");
		return;
	}
	fprintf(f, "ffffffff80000000 T _text\nffffffff81001000 t modfunc\t[mymod]\n"
		"ffffffff81001800 t modfunc2\t[mymod]\n");
	fclose(f);
	rvctr_machine__set_arch(m, "riscv64");
	strcpy(mm.filename, "[kernel.kallsyms]_text");
	mm.start = mm.pgoff = 0xffffffff80000000ULL;
	mm.len = 0x1000000;
	ev.mmap = mm;
	bad += !!rvctr_machine__event(m, &ev);
	strcpy(mm.filename, "[other]");		/* the module map covers its top half */
	mm.start = 0xffffffff81000000ULL;
	mm.len = 0x2000;
	mm.pgoff = 0;
	ev.mmap = mm;
	bad += !!rvctr_machine__event(m, &ev);
	for (i = 0; i < RVCTR_MAPS_MAX - 2; i++) {
		mmap_of(&ev.mmap, 5, 0x10000 + 0x1000ULL * i, 0x1000, 0, "/x");
		bad += !!rvctr_machine__event(m, &ev);
	}
	T_EQ(bad, 0, "report: a full table of maps");
	strcpy(mm.filename, "[mymod]");
	mm.start = 0xffffffff81001000ULL;
	ev.mmap = mm;
	T_EQ(rvctr_machine__event(m, &ev), 1, "... a module's map over part of an older one: kept, "
	     "the older one's part dropped: 1");
	rvctr_report__sample(r, &smp);
	out = open_memstream(&text, &size);
	if (out) {
		rvctr_report__print(r, out, 5);
		fclose(out);
	}
	T_OK(text && strstr(text, "modfunc+0x10") && strstr(text, "modfunc2"),
	     "... and a module: its branches named from kallsyms");
	free(text);
	unlink(kallsyms);
	rvctr_report__delete(r);
	rvctr_machine__delete(m);
}

/* The instruction lengths of ctr_ntbr records: an address left in no map says why. */
static void test_full_insn(void)
{
	struct rvctr_machine *m = rvctr_machine__new(NULL, NULL);
	struct rvctr_insn *x = rvctr_insn__new(m);
	struct rvctr_event ev = { .type = PERF_RECORD_MMAP2 };
	const char *why = "";
	unsigned int i, bad = 0;

	for (i = 0; i < 4096; i++) {
		char name[32];

		snprintf(name, sizeof(name), "/lib%u.so", i);
		mmap_of(&ev.mmap, 9, 0x10000 + 0x1000ULL * i, 0x1000, 0, name);
		bad += !!rvctr_machine__event(m, &ev);
	}
	T_EQ(bad, 0, "instruction lengths: 4096 binaries");
	T_EQ(rvctr_insn__length(x, 9, 0x80000000, &why), 0, "... an address in no map: none");
	T_STREQ(why, "no mapped binary holds the address", "... saying so");
	mmap_of(&ev.mmap, 9, 0x10000, 0x1000, 0, "/one-more.so");
	T_EQ(rvctr_machine__event(m, &ev), 1, "... the 4097th: not kept, said once");
	T_EQ(rvctr_insn__length(x, 9, 0x10000, &why), 0, "... its address: no length");
	T_OK(strstr(why, "too many maps") != NULL, "... and why: a map not kept");
	rvctr_insn__delete(x);
	rvctr_machine__delete(m);
}

/* fork copies, threads share, exit ends a pid's maps for its next user */
static void test_lifetime(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	struct rvctr_event ev = { .type = PERF_RECORD_FORK };
	struct rvctr_mmap mm;

	mmap_of(&mm, 10, 0x10000, 0x1000, 0, "/bin/sh");
	rvctr_maps__add(m, &mm);
	T_EQ(rvctr_maps__fork(m, 11, 10), 0, "fork");
	T_STREQ(name_at(m, 11, 0x10800), "/bin/sh", "a forked child has its parent's maps");
	mmap_of(&mm, 10, 0x20000, 0x1000, 0, "/lib/late.so");
	rvctr_maps__add(m, &mm);
	T_STREQ(name_at(m, 11, 0x20800), "(none)", "but not what the parent maps later");
	mmap_of(&mm, 11, 0x10000, 0x1000, 0, "/bin/true");
	rvctr_maps__add(m, &mm);
	T_STREQ(name_at(m, 10, 0x10800), "/bin/sh", "nor the parent the child's");
	/* a thread (pid == ppid): the same maps, by pid */
	ev.task = (struct rvctr_task){ .pid = 10, .ppid = 10, .tid = 12, .ptid = 10 };
	T_EQ(rvctr_maps__event(m, &ev), 0, "FORK of a thread");
	T_STREQ(name_at(m, 10, 0x10800), "/bin/sh", "a new thread keeps its process's maps");
	ev.type = PERF_RECORD_EXIT;
	rvctr_maps__event(m, &ev);
	T_STREQ(name_at(m, 10, 0x10800), "/bin/sh", "a thread's exit keeps them too");
	/* the process exits; its late samples still place; a new one with its pid */
	ev.task = (struct rvctr_task){ .pid = 10, .ppid = 1, .tid = 10, .ptid = 1 };
	rvctr_maps__event(m, &ev);
	T_STREQ(name_at(m, 10, 0x10800), "/bin/sh", "after EXIT: its own late samples");
	ev.type = PERF_RECORD_FORK;
	ev.task = (struct rvctr_task){ .pid = 10, .ppid = 1, .tid = 10, .ptid = 1 };
	rvctr_maps__event(m, &ev);
	T_STREQ(name_at(m, 10, 0x10800), "(none)", "pid reused (FORK): not the old process's");
	/* reuse seen only as an MMAP (no FORK recorded) */
	mmap_of(&mm, 20, 0x10000, 0x1000, 0, "/bin/a");
	rvctr_maps__add(m, &mm);
	rvctr_maps__exit(m, 20, 20);
	mmap_of(&mm, 20, 0x30000, 0x1000, 0, "/bin/b");
	rvctr_maps__add(m, &mm);
	T_STREQ(name_at(m, 20, 0x10800), "(none)", "pid reused (MMAP): not the old process's");
	T_STREQ(name_at(m, 20, 0x30800), "/bin/b", "but its own");
	/* exec: COMM with COMM_EXEC */
	ev = (struct rvctr_event){ .type = PERF_RECORD_COMM, .misc = PERF_RECORD_MISC_COMM_EXEC };
	ev.comm.pid = ev.comm.tid = 20;
	rvctr_maps__event(m, &ev);
	T_STREQ(name_at(m, 20, 0x30800), "(none)", "exec drops the old image's maps");
	/* a new recording: no process carries over, the kernel's neither */
	mmap_of(&mm, -1, 0xffffffff80000000ULL, 0x1000000, 0, "[kernel.kallsyms]_text");
	rvctr_maps__add(m, &mm);
	rvctr_maps__reset(m);
	T_STREQ(name_at(m, 11, 0x10800), "(none)", "reset: no process's maps");
	T_STREQ(name_at(m, 11, 0xffffffff80000800ULL), "(none)", "reset: nor the kernel's");
	mmap_of(&mm, 11, 0x10000, 0x1000, 0, "/bin/sh");
	rvctr_maps__add(m, &mm);
	T_STREQ(name_at(m, 11, 0x10800), "/bin/sh", "maps after a reset");
	T_EQ(rvctr_maps__nr_dsos(m), 6, "binary names (and indexes) survive a reset");
	rvctr_maps__delete(m);
}

static unsigned int dso_of(struct rvctr_maps *m, uint32_t pid, uint64_t start, const char *name,
			   uint8_t id)
{
	const struct rvctr_map *r;
	struct rvctr_mmap mm;

	mmap_of(&mm, pid, start, 0x1000, 0, name);
	mm.build_id_size = id ? 20 : 0;
	memset(mm.build_id, id, mm.build_id_size);
	rvctr_maps__add(m, &mm);
	r = rvctr_maps__find(m, pid, start);
	return r ? r->dso : ~0u;
}

/* two builds of one path are two binaries; an unknown build joins one */
static void test_builds(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	unsigned int a, b, c, y, size;
	const uint8_t *id;

	a = dso_of(m, 1, 0x1000, "/bin/x", 0xaa);
	b = dso_of(m, 2, 0x1000, "/bin/x", 0xbb);
	T_OK(a != b, "/bin/x of two build ids: two binaries");
	T_EQ(dso_of(m, 3, 0x1000, "/bin/x", 0), a, "/bin/x of no build id: the first of its name");
	T_EQ(dso_of(m, 4, 0x1000, "/bin/x", 0xbb), b, "the same build again: its binary");
	id = rvctr_maps__dso_build_id(m, b, &size);
	T_OK(id && size == 20 && id[0] == 0xbb, "a binary's build id");
	y = dso_of(m, 5, 0x1000, "/bin/y", 0);
	T_OK(!rvctr_maps__dso_build_id(m, y, &size) && !size, "no build id known");
	T_EQ(dso_of(m, 6, 0x1000, "/bin/y", 0xcc), y, "a build id for one of unknown build: joins");
	id = rvctr_maps__dso_build_id(m, y, &size);
	T_OK(id && id[0] == 0xcc, "and makes it known");
	c = dso_of(m, 7, 0x1000, "/bin/y", 0xdd);
	T_OK(c != y && c != a && c != b, "then another build id: another binary");
	T_STREQ(rvctr_maps__dso_name(m, c), "/bin/y", "of the same name");
	T_EQ(rvctr_maps__nr_dsos(m), 4, "four binaries");
	rvctr_maps__delete(m);
}

/* The header's build ids: for maps of their name without one of their own. */
static void test_header_ids(void)
{
	struct rvctr_maps *m = rvctr_maps__new();
	struct rvctr_build_id h = { .size = 20 };
	const struct rvctr_build_id *k;
	unsigned int x, size;
	const uint8_t *id;

	memset(h.id, 0xaa, sizeof(h.id));
	snprintf(h.filename, sizeof(h.filename), "/bin/x");
	T_EQ(rvctr_maps__header_build_id(m, &h), 0, "header build id of /bin/x");
	h.id[0] = 0xee;
	T_EQ(rvctr_maps__header_build_id(m, &h), 0, "another of the same name");
	snprintf(h.filename, sizeof(h.filename), "[kernel.kallsyms]");
	h.id[0] = 0xcc;
	rvctr_maps__header_build_id(m, &h);
	x = dso_of(m, 1, 0x1000, "/bin/x", 0);
	id = rvctr_maps__dso_build_id(m, x, &size);
	T_OK(id && size == 20 && id[0] == 0xaa, "a map without one: the header's, the first");
	T_OK(dso_of(m, 2, 0x1000, "/bin/x", 0xbb) != x, "an MMAP2 build id wins: another build");
	k = rvctr_maps__find_header_build_id(m, "[kernel.kallsyms]_text");
	T_OK(k && k->id[0] == 0xcc, "the kernel's, whatever its map's suffix");
	rvctr_maps__reset(m);
	T_OK(!rvctr_maps__find_header_build_id(m, "/bin/x"), "another recording: none");
	x = dso_of(m, 3, 0x1000, "/bin/z", 0);
	T_OK(!rvctr_maps__dso_build_id(m, x, &size), "so a new name's map has none");
	rvctr_maps__delete(m);
}

/* A plain scan: every map, newest first, per lookup (its own, else the kernel's). */
struct ref {
	struct rvctr_mmap *maps;
	unsigned int nr;
};

static const struct rvctr_mmap *ref_find(const struct ref *r, uint32_t pid, uint64_t addr)
{
	const struct rvctr_mmap *kernel = NULL;
	unsigned int i;

	for (i = r->nr; i-- > 0;) {
		const struct rvctr_mmap *m = &r->maps[i];

		if (addr < m->start || addr - m->start >= m->len)
			continue;
		if (m->pid == pid)
			return m;
		if (m->pid == (uint32_t)-1 && !kernel)
			kernel = m;
	}
	return kernel;
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
	struct ref ref = { calloc(PIDS * MAPS_PER_PID + 1, sizeof(struct rvctr_mmap)), 0 };
	struct rvctr_maps *m = rvctr_maps__new();
	uint64_t *addr = calloc(LOOKUPS, sizeof(*addr)), sum_new = 0, sum_ref = 0;
	uint32_t *pid = calloc(LOOKUPS, sizeof(*pid));
	unsigned int i, j, bad = 0, hits = 0, ref_n = LOOKUPS / 50;
	double t0, t_new, t_ref;
	char name[64];

	srand(1);
	/* a kernel map (pid -1) over part of the range: every pid's below its own */
	mmap_of(&ref.maps[ref.nr], -1, 0x3f00000000ULL, 0x2000000, 0, "[kernel.kallsyms]");
	if (rvctr_maps__add(m, &ref.maps[ref.nr++]))
		bad++;
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
	T_EQ(bad, 0, "60001 maps added");
	for (i = 0; i < LOOKUPS; i++) {
		const struct rvctr_mmap *mm = &ref.maps[rand() % ref.nr];

		pid[i] = rand() % 8 ? mm->pid : 5000u + rand() % 2;	/* some with no maps */
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
	test_own_pid_only();
	test_lifetime();
	test_full();
	test_full_dsos();
	test_dropped_dsos();
	test_full_random();
	test_report_module_full();
	test_full_insn();
	test_builds();
	test_header_ids();
	test_many();
	return tests_done();
}
