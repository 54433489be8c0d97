// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call-stack mode (PERF_SAMPLE_BRANCH_CALL_STACK, CTR RAS emulation): a
 * sample taken in cs_c() called as main -> cs_a -> cs_b -> cs_c has the
 * real call chain as its newest entries, even when another task runs on
 * the same CPU in between (the stack is saved and restored per task).
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

static uint64_t ra_a, ra_b, ra_c;
static volatile long spin_sink;

__attribute__((noinline)) static long cs_c(long n)
{
	long i;

	ra_c = (uint64_t)__builtin_return_address(0);
	for (i = 0; i < n; i++)
		spin_sink += i;
	return spin_sink;
}

__attribute__((noinline)) static long cs_b(long n)
{
	long r;

	ra_b = (uint64_t)__builtin_return_address(0);
	r = cs_c(n);
	asm volatile("" ::: "memory");
	return r + 1;
}

__attribute__((noinline)) static long cs_a(long n)
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

/* Is @ip inside cs_c's loop (between its entry and the next function)? */
static int in_cs_c(uint64_t ip)
{
	return ip >= (uint64_t)cs_c && ip < (uint64_t)cs_c + 64;
}

static void run_callstack(struct __test_metadata *_metadata, int with_rival)
{
	struct ct_event ev;
	pid_t rival = -1;
	int i, good = 0, in_c = 0, ret;

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

		if (!in_cs_c(s->ip))
			continue;
		in_c++;
		/*
		 * Known issue (Documentation/ctr.rst): the first samples after
		 * enable can come early, before the stack is rebuilt.  Only
		 * the first two may be short.
		 */
		if (i < 2 && s->nr < 3) {
			TH_LOG("early sample %d: %llu entries (known issue)", i,
			       (unsigned long long)s->nr);
			continue;
		}
		ASSERT_GE(s->nr, 3) TH_LOG("sample %d: %llu entries", i,
					   (unsigned long long)s->nr);
		/* Newest first: c called from b, b from a, a from here. */
		ASSERT_EQ((uint64_t)cs_c, s->br[0].to);
		ASSERT_EQ(ct_call_site(ra_c), s->br[0].from);
		ASSERT_EQ((uint64_t)cs_b, s->br[1].to);
		ASSERT_EQ(ct_call_site(ra_b), s->br[1].from);
		ASSERT_EQ((uint64_t)cs_a, s->br[2].to);
		ASSERT_EQ(ct_call_site(ra_a), s->br[2].from);
		good++;
	}
	TH_LOG("%d samples, %d in cs_c, all with the call chain c <- b <- a <- caller",
	       ev.nsamples, in_c);
	ASSERT_GT(good, 5);
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
