// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine (rvctr/machine.h): threads' names through COMM and FORK,
 * an input's processes gone at the next input, the maps' generation, and
 * a binary's file (its reason) still readable after later binaries grew
 * the machine's tables.
 */
#include <stdio.h>
#include <string.h>

#include <rvctr/hash.h>
#include <rvctr/machine.h>
#include "tests.h"

static void feed_mmap(struct rvctr_machine *m, uint32_t pid, uint64_t start, const char *name)
{
	struct rvctr_event ev = { .type = PERF_RECORD_MMAP2 };

	ev.mmap.pid = ev.mmap.tid = pid;
	ev.mmap.start = start;
	ev.mmap.len = 0x1000;
	snprintf(ev.mmap.filename, sizeof(ev.mmap.filename), "%s", name);
	rvctr_machine__event(m, &ev);
}

static void feed_comm(struct rvctr_machine *m, uint32_t tid, const char *comm)
{
	struct rvctr_event ev = { .type = PERF_RECORD_COMM };

	ev.comm.pid = ev.comm.tid = tid;
	snprintf(ev.comm.comm, sizeof(ev.comm.comm), "%s", comm);
	rvctr_machine__event(m, &ev);
}

static void test_threads(void)
{
	struct rvctr_machine *m = rvctr_machine__new(NULL, NULL);
	struct rvctr_event fork = { .type = PERF_RECORD_FORK };
	const char *c;

	feed_comm(m, 10, "parent");
	fork.task = (struct rvctr_task){ .pid = 10, .ppid = 10, .tid = 11, .ptid = 10 };
	rvctr_machine__event(m, &fork);
	c = rvctr_machine__comm(m, 11);
	T_STREQ(c ? c : "(none)", "parent", "machine: a new thread has its parent's name");
	feed_comm(m, 11, "worker");
	c = rvctr_machine__comm(m, 10);
	T_STREQ(c ? c : "(none)", "parent", "... its own COMM changes only its name");
	T_OK(rvctr_machine__comm(m, 12) == NULL, "... an unknown thread has none");
	rvctr_machine__input(m);
	T_OK(rvctr_machine__comm(m, 10) == NULL, "... another input: the names are gone");
	rvctr_machine__delete(m);
}

static void test_input(void)
{
	struct rvctr_machine *m = rvctr_machine__new(NULL, NULL);
	uint64_t gen;

	feed_mmap(m, 5, 0x10000, "/a");
	T_OK(rvctr_maps__find(rvctr_machine__maps(m), 5, 0x10010) != NULL,
	     "machine: a process's map places its address");
	gen = rvctr_machine__generation(m);
	rvctr_machine__input(m);
	T_OK(rvctr_machine__generation(m) != gen, "... another input changes the generation");
	T_OK(rvctr_maps__find(rvctr_machine__maps(m), 5, 0x10010) == NULL,
	     "... and its pid 5 is not the last input's");
	feed_mmap(m, 5, 0x20000, "/a");
	T_EQ(rvctr_maps__nr_dsos(rvctr_machine__maps(m)), 1, "... /a is still one binary");
	rvctr_machine__delete(m);
}

/* A binary's file outlives the growth of the tables behind it. */
static void test_growth(void)
{
	struct rvctr_symfind find = { .symfs = "/nonexistent-rvctr-symfs" };
	struct rvctr_machine *m = rvctr_machine__new(&find, &find);
	const struct rvctr_dso_file *f;
	char why[320] = "", name[32];
	unsigned int i;

	feed_mmap(m, 5, 0x10000, "/first");
	f = rvctr_machine__code(m, 0);
	if (f)
		snprintf(why, sizeof(why), "%s", f->why);
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "/lib%u.so", i);
		feed_mmap(m, 5, 0x100000 + 0x1000ULL * i, name);
		rvctr_machine__syms(m, i + 1);
	}
	f = rvctr_machine__code(m, 0);
	T_OK(f && !f->tab && strstr(why, "/first"), "machine: a binary not found says why");
	T_STREQ(f ? f->why : "", why, "... and still does after 200 more binaries");
	rvctr_machine__delete(m);
}

static void test_hash(void)
{
	struct rvctr_hash h;
	struct { struct rvctr_hash_key k; uint64_t v; } *e;
	unsigned int i, bad = 0;

	rvctr_hash__init(&h, sizeof(*e));
	T_OK(rvctr_hash__find(&h, 1, 2) == NULL, "hash: empty");
	for (i = 0; i < 10000; i++) {
		e = rvctr_hash__get(&h, i, i * 7);
		if (e)
			e->v = i;
	}
	for (i = 0; i < 10000; i++) {
		e = rvctr_hash__find(&h, i, i * 7);
		bad += !e || e->v != i;
	}
	T_EQ(h.nr, 10000, "hash: 10000 keys");
	T_EQ(bad, 0, "... each found with its value after growing");
	T_OK(rvctr_hash__find(&h, 1, 8) == NULL, "... a key's other half tells it apart");
	rvctr_hash__clear(&h);
	T_OK(rvctr_hash__find(&h, 5, 35) == NULL && h.nr == 0, "... cleared");
	rvctr_hash__exit(&h);
}

int main(void)
{
	test_threads();
	test_input();
	test_growth();
	test_hash();
	return tests_done();
}
