// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call-stack mode (PERF_SAMPLE_BRANCH_CALL_STACK, CTR RAS emulation): a
 * sample taken in cs_c(), cs_b() or cs_a(), called as main -> cs_a ->
 * cs_b -> cs_c, has exactly that function's call chain as its newest
 * entries, even when another task runs on the same CPU in between (the
 * stack is saved and restored per task).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_test_lib.h"

#define PERIOD	20011

/*
 * Each function of the chain in a section of its own, so the linker's
 * __start_/__stop_ symbols bound it exactly: a sample is checked against
 * the chain of the function its IP is in.
 */
#define CS_FN(name) __attribute__((noinline, section("rvctr_" #name))) static
extern const char __start_rvctr_cs_a[], __stop_rvctr_cs_a[];
extern const char __start_rvctr_cs_b[], __stop_rvctr_cs_b[];
extern const char __start_rvctr_cs_c[], __stop_rvctr_cs_c[];

static uint64_t ra_a, ra_b, ra_c;
static volatile long spin_sink;

CS_FN(cs_c) long cs_c(long n)
{
	long i;

	ra_c = (uint64_t)__builtin_return_address(0);
	for (i = 0; i < n; i++)
		spin_sink += i;
	return spin_sink;
}

CS_FN(cs_b) long cs_b(long n)
{
	long r;

	ra_b = (uint64_t)__builtin_return_address(0);
	r = cs_c(n);
	asm volatile("" ::: "memory");
	return r + 1;
}

CS_FN(cs_a) long cs_a(long n)
{
	long r;

	ra_a = (uint64_t)__builtin_return_address(0);
	r = cs_b(n);
	asm volatile("" ::: "memory");
	return r + 1;
}

/* The rival task's own chain, at other addresses. */
__attribute__((noinline)) static long rival_spin(long n)
{
	long i;

	for (i = 0; i < n; i++)
		spin_sink -= i;
	return spin_sink;
}

__attribute__((noinline)) static long rival_outer(long n)
{
	long r = rival_spin(n);

	asm volatile("" ::: "memory");
	return r + 1;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * How deep the call chain is where @ip is: 3 in cs_c (c <- b <- a), 2 in
 * cs_b, 1 in cs_a, 0 elsewhere.
 */
static int chain_depth(uint64_t ip)
{
	if (ip >= (uintptr_t)__start_rvctr_cs_c && ip < (uintptr_t)__stop_rvctr_cs_c)
		return 3;
	if (ip >= (uintptr_t)__start_rvctr_cs_b && ip < (uintptr_t)__stop_rvctr_cs_b)
		return 2;
	if (ip >= (uintptr_t)__start_rvctr_cs_a && ip < (uintptr_t)__stop_rvctr_cs_a)
		return 1;
	return 0;
}

/* What a failing sample held, against the expected chain. */
static void dump_sample(const struct ct_sample *s, int i)
{
	uint64_t k;

	fprintf(stderr, "# sample %d ip %#llx pid %u: %llu entries; cs_a %#llx cs_b %#llx cs_c %#llx\n",
		i, (unsigned long long)s->ip, s->pid, (unsigned long long)s->nr,
		(unsigned long long)(uintptr_t)cs_a,
		(unsigned long long)(uintptr_t)cs_b,
		(unsigned long long)(uintptr_t)cs_c);
	for (k = 0; k < s->nr; k++)
		fprintf(stderr, "#   [%llu] %#llx -> %#llx\n", (unsigned long long)k,
			(unsigned long long)s->br[k].from,
			(unsigned long long)s->br[k].to);
}

static void run_callstack(struct __test_metadata *_metadata, int with_rival)
{
	struct ct_event ev;
	pid_t rival = -1;
	int i, in_chain = 0, in_c = 0, ret;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	pin_cpu0();
	cs_a(1);	/* learn the return addresses */
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK,
		      0, PERIOD);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	if (with_rival) {
		rival = fork();
		ASSERT_GE(rival, 0);
		if (!rival) {
			/* Calls and returns of its own, forever. */
			for (;;)
				rival_outer(1000);
		}
	}
	ct_enable(&ev);
	cs_a(3000000);
	ct_disable(&ev);
	if (rival > 0) {
		kill(rival, SIGKILL);
		waitpid(rival, NULL, 0);
	}
	ct_read(&ev);
	ASSERT_GT(ev.nsamples, 5);
	for (i = 0; i < ev.nsamples; i++) {
		const struct ct_sample *s = &ev.s[i];
		int d = chain_depth(s->ip);

		if (!d)
			continue;
		in_chain++;
		in_c += d == 3;
		if (s->nr < (uint64_t)d)
			dump_sample(s, i);
		ASSERT_GE(s->nr, d) TH_LOG("sample %d: %llu entries, depth %d",
					   i, (unsigned long long)s->nr, d);
		/* Newest first: c called from b, b from a, a from here. */
		if (d == 3) {
			ASSERT_EQ((uint64_t)cs_c, s->br[0].to);
			ASSERT_EQ(ct_call_site(ra_c), s->br[0].from);
		}
		if (d >= 2) {
			ASSERT_EQ((uint64_t)cs_b, s->br[d - 2].to);
			ASSERT_EQ(ct_call_site(ra_b), s->br[d - 2].from);
		}
		ASSERT_EQ((uint64_t)cs_a, s->br[d - 1].to);
		ASSERT_EQ(ct_call_site(ra_a), s->br[d - 1].from);
	}
	TH_LOG("%d samples, %d in the chain (%d in cs_c), each with its call chain",
	       ev.nsamples, in_chain, in_c);
	ASSERT_GT(in_c, 5);
	ct_close(&ev);
}

TEST(call_stack_alone)
{
	run_callstack(_metadata, 0);
}

TEST(call_stack_with_rival_task)
{
	run_callstack(_metadata, 1);
}

TEST_HARNESS_MAIN
