// SPDX-License-Identifier: GPL-2.0-only
/*
 * System-wide branch stacks (perf record -a -b): every record in a sample,
 * and in a bpf_get_branch_snapshot() taken as a task is switched out,
 * belongs to the task the sample is of, on one hart and on all harts
 * while harts go offline and online; a group whose members ask for
 * different branch filters is refused at open; independent events with
 * different filters multiplex, each getting only its own branch types.
 *
 * Records are untagged virtual addresses, which perf resolves against the
 * sample's pid.  Two children run the same loop copied to different
 * addresses (each maps only its own copy), both on cpu0, yielding to each
 * other, under a CPU-wide event: every address of every sample of a child
 * must be inside one of that child's executable mappings.  The loop takes
 * one branch per ~960 instructions, so the buffer reaches back ~60000
 * instructions: a record kept across a switch would show in the other
 * child's next sample.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_bpf_lib.h"

#define SW_PERIOD	20011
/*
 * Rounds of the children: few under -icount, where every overflow gives
 * a sample; many more for the hotplug test, which runs without -icount
 * (QEMU then delivers a few overflows in a hundred) and must last for a
 * number of hart offline/online cycles.
 */
#define ROUNDS		30
#define ROUNDS_HOTPLUG	3000
#define ITERS		50	/* loop iterations per round: ~48000 instructions */
#define MAX_CPUS	8
#define MAX_MAPS	64

/* Where each child maps its copy of the loop: nothing else is there. */
static const uintptr_t copy_at[2] = { 0x2000000000UL, 0x2800000000UL };

/*
 * blob(n): n iterations of 960 nops and a backward branch, alone in its
 * section.  Only PC-relative branches: it runs wherever it is copied.
 */
CT_SECTION_BOUNDS(rvctr_blob);

noinline __section("rvctr_blob") void blob(long n)
{
	asm volatile("1:\n"
		     ".rept 960\n"
		     "nop\n"
		     ".endr\n"
		     "addi %0, %0, -1\n"
		     "bnez %0, 1b\n"
		     : "+r" (n) : : "memory");
}

struct maps {
	pid_t pid;
	int n;
	uint64_t lo[MAX_MAPS], hi[MAX_MAPS];
};

/* The executable mappings of @pid. */
static int read_maps(pid_t pid, struct maps *m)
{
	char path[64], line[512], perm[8];
	unsigned long lo, hi;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	m->pid = pid;
	m->n = 0;
	while (fgets(line, sizeof(line), f) && m->n < MAX_MAPS)
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3 &&
		    perm[2] == 'x') {
			m->lo[m->n] = lo;
			m->hi[m->n++] = hi;
		}
	fclose(f);
	return 0;
}

static int in_maps(const struct maps *m, uint64_t a)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (a >= m->lo[i] && a < m->hi[i])
			return 1;
	return 0;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A child: copy the loop to copy_at[@which], wait for a byte on @go (if
 * not -1), run it @rounds times @iters iterations with a yield after
 * each, say so on @done, and wait on @hold (so that its maps can be
 * read) until the parent closes it.
 */
static void child(int which, int rounds, long iters, int go, int done, int hold)
{
	size_t len = __stop_rvctr_blob - __start_rvctr_blob;
	void (*fn)(long n);
	char c = 'd';
	void *p;
	int r;

	pin(0);
	p = mmap((void *)copy_at[which], 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *)copy_at[which])
		_exit(2);
	memcpy(p, __start_rvctr_blob, len);
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		_exit(3);
	__builtin___clear_cache(p, (char *)p + len);
	fn = (void (*)(long))p;
	if (go >= 0 && read(go, &c, 1) != 1)
		_exit(5);
	for (r = 0; r < rounds; r++) {
		fn(iters);
		sched_yield();
	}
	if (write(done, &c, 1) != 1)
		_exit(4);
	while (read(hold, &c, 1) > 0)
		;
	_exit(0);
}

/* A CPU-wide instructions:u sampler with user branch stacks on @cpu. */
static int open_cpu_wide(struct ct_event *ev, int cpu, uint64_t bst)
{
	struct perf_event_attr a;

	ct_attr(&a, bst, 0, SW_PERIOD);
	return ct_open_on(ev, &a, -1, cpu);
}

static int online_cpus(int *cpus)
{
	cpu_set_t set;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (c = 0; c < MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/*
 * Write cpuN/online.  Onlining right after offlining can fail for a
 * moment (SBI HSM has not stopped the hart yet, lib.sh set_online()):
 * retry for up to 2 s.
 */
static int set_online(int cpu, int on)
{
	char path[64];
	int try;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	for (try = 0; try < 20; try++) {
		if (!ct_write_str(path, on ? "1" : "0"))
			return 0;
		if (!on)
			return -1;
		usleep(100000);
	}
	return -1;
}

struct toggler {
	int cpus[MAX_CPUS], n;
	int stop;	/* READ_ONCE(), WRITE_ONCE() */
	int toggles, failed;
};

/* Take every hart but cpu0 offline and online again, until stopped. */
static void *toggle(void *arg)
{
	struct toggler *t = arg;
	int i;

	while (!READ_ONCE(t->stop))
		for (i = 0; i < t->n && !READ_ONCE(t->stop); i++) {
			if (t->cpus[i] == 0)
				continue;
			if (set_online(t->cpus[i], 0) ||
			    set_online(t->cpus[i], 1)) {
				t->failed++;
				continue;
			}
			t->toggles++;
			usleep(20000);
		}
	return NULL;
}

/*
 * Run the two children on cpu0 under CPU-wide branch-stack events on
 * every hart in @cpus (toggling the others with @hotplug), then check
 * every sample of either child against its maps.
 */
static void run_two(struct __test_metadata *_metadata, const int *cpus, int n,
		    bool hotplug)
{
	int done[2], hold[2], i, k, c, st, bad = 0, checked = 0, other = 0;
	int per_child[2] = { 0, 0 };
	struct ct_event ev[MAX_CPUS];
	struct toggler t = { .n = n };
	struct maps m[3];
	pthread_t th;
	pid_t pid[2];
	char ch;

	for (c = 0; c < n; c++)
		ASSERT_EQ(0, open_cpu_wide(&ev[c], cpus[c],
					   PERF_SAMPLE_BRANCH_ANY |
					   PERF_SAMPLE_BRANCH_USER))
			TH_LOG("CPU-wide event on cpu%d: %s", cpus[c],
			       strerror(errno));
	ASSERT_EQ(0, pipe(done));
	ASSERT_EQ(0, pipe(hold));
	for (c = 0; c < n; c++)
		ioctl(ev[c].fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			close(done[0]);
			close(hold[1]);
			child(i, hotplug ? ROUNDS_HOTPLUG : ROUNDS, ITERS, -1,
			      done[1], hold[0]);
		}
	}
	close(done[1]);
	close(hold[0]);
	if (hotplug) {
		memcpy(t.cpus, cpus, sizeof(t.cpus[0]) * n);
		ASSERT_EQ(0, pthread_create(&th, NULL, toggle, &t));
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(1, read(done[0], &ch, 1)) TH_LOG("a child failed");
	for (c = 0; c < n; c++)
		ioctl(ev[c].fd, PERF_EVENT_IOC_DISABLE, 0);
	if (hotplug) {
		WRITE_ONCE(t.stop, 1);
		pthread_join(th, NULL);
		TH_LOG("%d harts offline and online again, %d failed",
		       t.toggles, t.failed);
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, read_maps(pid[i], &m[i]));
	ASSERT_EQ(0, read_maps(getpid(), &m[2]));
	close(hold[1]);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	}

	for (c = 0; c < n; c++) {
		ct_read(&ev[c]);
		for (i = 0; i < ev[c].nsamples; i++) {
			const struct ct_sample *s = &ev[c].s[i];
			const struct maps *mine = NULL;
			int j;

			for (j = 0; j < 3; j++)
				if (s->pid == (uint32_t)m[j].pid)
					mine = &m[j];
			if (!mine) {
				other++;
				continue;
			}
			for (j = 0; j < 2; j++)
				per_child[j] += mine == &m[j];
			for (k = 0; k < (int)s->nr; k++) {
				const struct perf_branch_entry *e = &s->br[k];

				checked++;
				if ((!e->from || in_maps(mine, e->from)) &&
				    (!e->to || in_maps(mine, e->to)))
					continue;
				if (!bad++)
					TH_LOG("cpu%d #%d pid %d [%d]: %#llx -> %#llx foreign",
					       cpus[c], i, s->pid, k,
					       (unsigned long long)e->from,
					       (unsigned long long)e->to);
			}
		}
		TH_LOG("cpu%d: %d samples, %d lost", cpus[c], ev[c].nsamples,
		       ev[c].lost);
		ct_close(&ev[c]);
	}
	TH_LOG("samples of the children: %d and %d, of others: %d",
	       per_child[0], per_child[1], other);
	TH_LOG("%d records checked, %d foreign", checked, bad);
	EXPECT_EQ(0, bad);
	/* Without -icount QEMU may deliver few overflows: only then a count. */
	if (getenv("RVCTR_ICOUNT")) {
		EXPECT_LT(0, per_child[0]);
		EXPECT_LT(0, per_child[1]);
	}
	if (!per_child[0] && !per_child[1])
		SKIP(return, "no samples of the children: nothing was checked");
}

TEST(cpu_wide_samples_hold_only_their_task)
{
	int cpu0 = 0;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for CPU-wide events");
	run_two(_metadata, &cpu0, 1, false);
}

TEST(all_harts_with_hotplug)
{
	int cpus[MAX_CPUS], n;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for CPU-wide events and hotplug");
	n = online_cpus(cpus);
	if (n < 2)
		SKIP(return, "one hart");
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "no CPU hotplug");
	run_two(_metadata, cpus, n, true);
}

/*
 * bpf_get_branch_snapshot() from two tasks: a BPF program on the
 * context-switch software event of cpu0 takes a snapshot as each child
 * is switched out, and counts, per child, the entries that lie in each
 * child's copy of the loop.  A child runs SNAP_ITERS iterations between
 * yields, a dozen user branches (the loop, its call and return, the
 * yield's system call and its return), fewer than the snapshot's NBR
 * entries: a buffer kept across the switch-in would show the other
 * child's loop in the oldest entries.
 */
#define SNAP_ROUNDS	200
#define SNAP_ITERS	2

struct snap_counts {
	uint64_t n[2][2];	/* entries of child i in child j's loop */
	uint64_t calls;
};

/*
 * The program: r7 = the child's slot (by tgid, else exit), snapshot NBR
 * entries to the stack, then for each entry returned, and each of its
 * from and to, n[slot][j]++ when the address is in copy_at[j]'s page.
 */
static int snap_prog_load(int map, const pid_t *pid, char *log, size_t loglen)
{
	struct bpf_insn p[512];
	int n = 0, i, f, j, exits[NBR + 2], ne = 0;

#define EMIT(x)	(p[n++] = (x))
	EMIT(CT_CALL(BPF_FUNC_get_current_pid_tgid));
	EMIT(CT_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	EMIT(CT_MOV64_IMM(BPF_REG_7, 0));
	EMIT(CT_JMP_IMM(BPF_JEQ, BPF_REG_0, pid[0], 3));
	EMIT(CT_MOV64_IMM(BPF_REG_7, 16));
	EMIT(CT_JMP_IMM(BPF_JEQ, BPF_REG_0, pid[1], 1));
	exits[ne++] = n;
	EMIT(CT_JMP_IMM(BPF_JA, 0, 0, 0));
	EMIT(CT_MOV64_REG(BPF_REG_1, BPF_REG_10));
	EMIT(CT_ALU64_IMM(BPF_ADD, BPF_REG_1, BUF));
	EMIT(CT_MOV64_IMM(BPF_REG_2, NBR * 24));
	EMIT(CT_MOV64_IMM(BPF_REG_3, 0));
	EMIT(CT_CALL(BPF_FUNC_get_branch_snapshot));
	EMIT(CT_MOV64_REG(BPF_REG_9, BPF_REG_0));
	EMIT(CT_ST_MEM(BPF_W, BPF_REG_10, KEY, 0));
	EMIT(CT_LD_MAP_FD(BPF_REG_1, map));
	EMIT(CT_IMM64_HI(0));
	EMIT(CT_MOV64_REG(BPF_REG_2, BPF_REG_10));
	EMIT(CT_ALU64_IMM(BPF_ADD, BPF_REG_2, KEY));
	EMIT(CT_CALL(BPF_FUNC_map_lookup_elem));
	exits[ne++] = n;
	EMIT(CT_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	EMIT(CT_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 32));
	EMIT(CT_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	EMIT(CT_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 32));
	/* r6 = &n[slot][0] */
	EMIT(CT_MOV64_REG(BPF_REG_6, BPF_REG_0));
	EMIT(CT_INSN(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_6, BPF_REG_7, 0, 0));
	for (i = 0; i < NBR; i++) {
		/* Fewer than i + 1 entries (or an error): done. */
		exits[ne++] = n;
		EMIT(CT_JMP_IMM(BPF_JSLT, BPF_REG_9, (i + 1) * 24, 0));
		for (f = 0; f < 2; f++) {
			EMIT(CT_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10,
					BUF + i * 24 + f * 8));
			EMIT(CT_ALU64_IMM(BPF_RSH, BPF_REG_1, 12));
			for (j = 0; j < 2; j++) {
				EMIT(CT_JMP_IMM(BPF_JNE, BPF_REG_1,
						(int32_t)(copy_at[j] >> 12), 3));
				EMIT(CT_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_6, j * 8));
				EMIT(CT_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
				EMIT(CT_STX_MEM(BPF_DW, BPF_REG_6, BPF_REG_2, j * 8));
			}
		}
	}
	for (i = 0; i < ne; i++)
		p[exits[i]].off = n - exits[i] - 1;
	EMIT(CT_MOV64_IMM(BPF_REG_0, 0));
	EMIT(CT_EXIT());
#undef EMIT
	assert(n <= (int)ARRAY_SIZE(p));
	return prog_load_insns(p, n, log, loglen);
}

/* Every context switch on cpu0, with the BPF program @prog attached. */
static int open_switches(int prog)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	a.sample_period = 1;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog)) {
		close(fd);
		return -1;
	}
	return fd;
}

TEST(bpf_snapshot_holds_only_its_task)
{
	static char log[65536];
	int go[2], done[2], hold[2], i, map, prog, sw, st;
	struct snap_counts r;
	struct ct_event ev;
	pid_t pid[2];
	char ch;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for CPU-wide events and BPF");
	ASSERT_EQ(0, open_cpu_wide(&ev, 0, PERF_SAMPLE_BRANCH_ANY |
				   PERF_SAMPLE_BRANCH_USER));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	ASSERT_EQ(0, pipe(hold));
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			close(go[1]);
			close(done[0]);
			close(hold[1]);
			child(i, SNAP_ROUNDS, SNAP_ITERS, go[0], done[1], hold[0]);
		}
	}
	close(go[0]);
	close(done[1]);
	close(hold[0]);

	map = map_create_of(sizeof(r));
	ASSERT_LE(0, map) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	prog = snap_prog_load(map, pid, log, sizeof(log));
	ASSERT_LE(0, prog) TH_LOG("BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	sw = open_switches(prog);
	ASSERT_LE(0, sw) TH_LOG("context-switch event: %s", strerror(errno));

	ioctl(ev.fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(sw, PERF_EVENT_IOC_ENABLE, 0);
	ASSERT_EQ(2, write(go[1], "gg", 2));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(1, read(done[0], &ch, 1)) TH_LOG("a child failed");
	ioctl(sw, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(ev.fd, PERF_EVENT_IOC_DISABLE, 0);
	close(hold[1]);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	}

	ASSERT_EQ(0, map_read(map, &r));
	TH_LOG("%llu snapshots", (unsigned long long)r.calls);
	TH_LOG("child 0: %llu own, %llu of child 1; child 1: %llu own, %llu of child 0",
	       (unsigned long long)r.n[0][0], (unsigned long long)r.n[0][1],
	       (unsigned long long)r.n[1][1], (unsigned long long)r.n[1][0]);
	EXPECT_EQ(0, r.n[0][1]);
	EXPECT_EQ(0, r.n[1][0]);
	/* Each child was switched out after running its loop. */
	EXPECT_LT(0, r.n[0][0]);
	EXPECT_LT(0, r.n[1][1]);
	close(sw);
	close(prog);
	close(map);
	ct_close(&ev);
}

/* Open @bst on the calling task in group @group (-1: a new leader). */
static int open_in_group(uint64_t bst, int group)
{
	struct perf_event_attr a;

	ct_attr(&a, bst, 0, SW_PERIOD);
	return syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

/*
 * One sctrctl per hart: a group whose members ask for different branch
 * filters could never be scheduled, so it is refused at open; members
 * with the same filter are fine.
 */
TEST(group_with_two_filters_refused)
{
	int leader, same, other;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	leader = open_in_group(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, -1);
	ASSERT_LE(0, leader);
	same = open_in_group(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
			     leader);
	EXPECT_LE(0, same) TH_LOG("same filter: %s", strerror(errno));
	other = open_in_group(PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_USER,
			      leader);
	EXPECT_EQ(-1, other) TH_LOG("a member with another filter opened");
	if (other < 0)
		EXPECT_EQ(EINVAL, errno);
	if (other >= 0)
		close(other);
	if (same >= 0)
		close(same);
	close(leader);
}

/*
 * Two independent events with different filters on one hart multiplex:
 * each gets samples, with only the branch types of its own filter.
 */
TEST(independent_filters_multiplex)
{
	struct ct_event calls, conds;
	int i, k, wrong_calls = 0, wrong_conds = 0;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	pin(0);
	ASSERT_EQ(0, ct_open(&calls, PERF_SAMPLE_BRANCH_ANY_CALL |
			     PERF_SAMPLE_BRANCH_USER, 0, SW_PERIOD));
	ASSERT_EQ(0, ct_open(&conds, PERF_SAMPLE_BRANCH_COND |
			     PERF_SAMPLE_BRANCH_USER, 0, SW_PERIOD));
	ct_enable(&calls);
	ct_enable(&conds);
	ct_loop(400000);
	ct_disable(&calls);
	ct_disable(&conds);
	ct_read(&calls);
	ct_read(&conds);
	for (i = 0; i < calls.nsamples; i++)
		for (k = 0; k < (int)calls.s[i].nr; k++)
			wrong_calls += calls.s[i].br[k].type != PERF_BR_CALL &&
				       calls.s[i].br[k].type != PERF_BR_IND_CALL;
	for (i = 0; i < conds.nsamples; i++)
		for (k = 0; k < (int)conds.s[i].nr; k++)
			wrong_conds += conds.s[i].br[k].type != PERF_BR_COND;
	TH_LOG("any_call: %d samples, %d entries of another type",
	       calls.nsamples, wrong_calls);
	TH_LOG("cond: %d samples, %d entries of another type",
	       conds.nsamples, wrong_conds);
	EXPECT_EQ(0, wrong_calls);
	EXPECT_EQ(0, wrong_conds);
	if (getenv("RVCTR_ICOUNT")) {
		EXPECT_LT(0, calls.nsamples);
		EXPECT_LT(0, conds.nsamples);
	}
	ct_close(&calls);
	ct_close(&conds);
}

TEST_HARNESS_MAIN
