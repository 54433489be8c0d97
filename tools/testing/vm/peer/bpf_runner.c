// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small stand-in for the BPF selftests' test_progs runner, so that single
 * prog_tests/ files build and run unchanged on the board without the whole
 * BPF selftest tree (bpf_testmod, vmlinux BTF, the network helpers).  It
 * provides the part of test_progs.h's API those tests call (env,
 * test__start_subtest, test__skip, test__fail) and prints results the way
 * test_progs does: "#N/M test/subtest:OK|SKIP|FAIL", then "#N test:...".
 *
 *   bpf_runner            run every test built in (RUNNER_TESTS)
 *
 * Exit status: 0 if nothing failed, 1 otherwise.
 */
#define _GNU_SOURCE
#include <test_progs.h>

struct test_env env;
int env_verbosity;

/* X(name): void test_<name>(void), from the prog_tests/ files linked in. */
#define X(name) void test_##name(void);
RUNNER_TESTS
#undef X

static struct {
	const char *test;
	int num;
	int sub;		/* subtests started so far */
	const char *subname;	/* running subtest, NULL outside one */
	int sub_fail, sub_skip;
	int fail, skip, sub_ok;
} cur;

static int total_fail;

static void end_subtest(void)
{
	const char *res = cur.sub_fail ? "FAIL" : cur.sub_skip ? "SKIP" : "OK";

	if (!cur.subname)
		return;
	printf("#%d/%d %s/%s:%s\n", cur.num, cur.sub, cur.test, cur.subname, res);
	if (cur.sub_fail)
		cur.fail++;
	else if (cur.sub_skip)
		cur.skip++;
	else
		cur.sub_ok++;
	cur.subname = NULL;
	fflush(stdout);
}

bool test__start_subtest(const char *name)
{
	end_subtest();
	cur.sub++;
	cur.subname = name;
	cur.sub_fail = 0;
	cur.sub_skip = 0;
	return true;
}

void test__end_subtest(void)
{
	end_subtest();
}

void test__skip(void)
{
	if (cur.subname)
		cur.sub_skip = 1;
	else
		cur.skip++;
}

void test__fail(void)
{
	if (cur.subname)
		cur.sub_fail = 1;
	else
		cur.fail++;
}

void test__force_log(void)
{
}

int test__join_cgroup(const char *path)
{
	(void)path;
	fprintf(stderr, "bpf_runner: test__join_cgroup is not provided\n");
	test__fail();
	return -1;
}

static void run(const char *name, void (*fn)(void), int num)
{
	const char *res;

	memset(&cur, 0, sizeof(cur));
	cur.test = name;
	cur.num = num;
	fn();
	end_subtest();
	/* test_progs: a test whose subtests all skipped is a skip */
	if (cur.fail)
		res = "FAIL";
	else if (cur.skip && !cur.sub_ok)
		res = "SKIP";
	else
		res = "OK";
	printf("#%d %s:%s\n", num, name, res);
	fflush(stdout);
	if (cur.fail)
		total_fail++;
}

int main(void)
{
	int num = 0;

	env.nr_cpus = libbpf_num_possible_cpus();
	setvbuf(stdout, NULL, _IOLBF, 0);
#define X(name) run(#name, test_##name, ++num);
	RUNNER_TESTS
#undef X
	return total_fail ? 1 : 0;
}
