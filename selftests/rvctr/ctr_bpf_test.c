// SPDX-License-Identifier: GPL-2.0-only
/*
 * Branch records reach BPF: a perf_event program attached to the
 * workload's sampling event reads them with bpf_read_branch_records()
 * (the sample's stack) and with bpf_get_branch_snapshot() (the
 * perf_snapshot_branch_stack static call the driver installs).  Each
 * program stores its return value and its newest entry in an array map;
 * the newest entry must be one of the workload's known transfers.
 *
 * The programs are a dozen instructions, assembled here with the
 * instruction macros of linux/filter.h rather than compiled, so the test needs
 * neither clang nor libbpf.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/filter.h>

#include "kselftest_harness.h"
#include "ctr_test_lib.h"

#define PERIOD	50021
#define NBR	16	/* entries read per call: 384 bytes of stack */

#define BUF	(-NBR * 24)	/* r10 offset of the entry buffer */
#define KEY	(BUF - 8)	/* r10 offset of the map key */

/*
 * Map value: the return value and newest entry of the last run whose
 * sample IP was inside the workload, how often the program ran, and how
 * often with the IP inside.
 */
struct result {
	int64_t ret;
	uint64_t from, to, calls, in_loop;
};

static int sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static int map_create(void)
{
	union bpf_attr a = {
		.map_type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4,
		.value_size = sizeof(struct result),
		.max_entries = 1,
	};

	return sys_bpf(BPF_MAP_CREATE, &a);
}

/*
 * r8 = the sample IP (ctx->regs.pc), @helper(ctx?, buf, size, 0), then
 * map[0].calls++, and if lo <= r8 < hi: map[0] = { ret, buf[0].from,
 * buf[0].to, .., in_loop + 1 }.  An overflow may be taken after the
 * workload returned, in the user code that disables the event: that
 * sample's newest entry is legitimately not a workload transfer, so it is
 * counted but not recorded.  bpf_read_branch_records takes the context
 * first, bpf_get_branch_snapshot does not.  Addresses fit the 32-bit
 * immediates: the test is a static, non-PIE binary.
 */
static int prog_load(int map, int helper, const struct ct_workload *w,
		     char *log, size_t loglen)
{
	struct bpf_insn with_ctx[] = {
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_1),
		BPF_LDX_MEM(BPF_DW, BPF_REG_8, BPF_REG_6, 0),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_6),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, BUF),
		BPF_MOV64_IMM(BPF_REG_3, NBR * 24),
		BPF_MOV64_IMM(BPF_REG_4, 0),
	};
	struct bpf_insn no_ctx[] = {
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_1),
		BPF_LDX_MEM(BPF_DW, BPF_REG_8, BPF_REG_6, 0),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, BUF),
		BPF_MOV64_IMM(BPF_REG_2, NBR * 24),
		BPF_MOV64_IMM(BPF_REG_3, 0),
		BPF_MOV64_IMM(BPF_REG_4, 0),
	};
	struct bpf_insn tail[] = {
		BPF_EMIT_CALL(helper),
		BPF_MOV64_REG(BPF_REG_7, BPF_REG_0),
		BPF_ST_MEM(BPF_W, BPF_REG_10, KEY, 0),
		BPF_LD_MAP_FD(BPF_REG_1, map),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, KEY),
		BPF_EMIT_CALL(BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 13),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 24),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 1),
		BPF_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 24),
		BPF_JMP_IMM(BPF_JLT, BPF_REG_8, (int32_t)w->lo, 9),
		BPF_JMP_IMM(BPF_JGE, BPF_REG_8, (int32_t)w->hi, 8),
		BPF_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_7, 0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, BUF),
		BPF_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 8),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, BUF + 8),
		BPF_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 16),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 32),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 1),
		BPF_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 32),
		BPF_MOV64_IMM(BPF_REG_0, 0),		/* the jump target */
		BPF_EXIT_INSN(),
	};
	struct bpf_insn prog[64];
	union bpf_attr a;
	size_t n;

	static_assert(sizeof(with_ctx) == sizeof(no_ctx), "same prologue length");
	n = ARRAY_SIZE(with_ctx);
	memcpy(prog, helper == BPF_FUNC_read_branch_records ? with_ctx : no_ctx,
	       sizeof(with_ctx));
	memcpy(prog + n, tail, sizeof(tail));
	n += ARRAY_SIZE(tail);

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_PERF_EVENT;
	a.insns = (uint64_t)(uintptr_t)prog;
	a.insn_cnt = n;
	a.license = (uint64_t)(uintptr_t)"GPL";
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = loglen;
	a.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &a);
}

static int map_read(int map, struct result *r)
{
	union bpf_attr a;
	uint32_t key = 0;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)r;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
}

static void run_bpf(struct __test_metadata *_metadata, int helper)
{
	static char log[65536];
	struct ct_workload w;
	struct ct_event ev;
	struct result r;
	int map, prog, ret, i, known = 0;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "loading perf_event BPF programs needs root");
	ct_workload_init(&w);
	map = map_create();
	ASSERT_GE(map, 0) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	ASSERT_LT(w.hi, 1ULL << 31) TH_LOG("the workload is not below 2 GiB");
	prog = prog_load(map, helper, &w, log, sizeof(log));
	ASSERT_GE(prog, 0) TH_LOG("BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0, PERIOD);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ioctl(ev.fd, PERF_EVENT_IOC_SET_BPF, prog))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", strerror(errno));
	ct_enable(&ev);
	ct_loop(100000);
	ct_disable(&ev);
	ASSERT_EQ(0, map_read(map, &r));
	TH_LOG("program ran %llu times, %llu in the workload",
	       (unsigned long long)r.calls, (unsigned long long)r.in_loop);
	TH_LOG("last returned %lld, newest %#llx -> %#llx", (long long)r.ret,
	       (unsigned long long)r.from, (unsigned long long)r.to);
	ASSERT_GT(r.calls, 5UL);
	ASSERT_GT(r.in_loop, 5UL);
	/* Whole entries; a context switch just before may leave fewer. */
	ASSERT_GT(r.ret, 0);
	ASSERT_LE(r.ret, NBR * 24);
	ASSERT_EQ(0, r.ret % 24);
	for (i = 0; i < X_NR; i++)
		known += r.from == w.x[i].from && r.to == w.x[i].to;
	ASSERT_EQ(1, known) TH_LOG("newest entry is not a workload transfer");
	ct_close(&ev);
	close(prog);
	close(map);
}

TEST(bpf_read_branch_records)
{
	run_bpf(_metadata, BPF_FUNC_read_branch_records);
}

TEST(bpf_get_branch_snapshot)
{
	run_bpf(_metadata, BPF_FUNC_get_branch_snapshot);
}

/*
 * bpf_get_branch_snapshot() once the driver is gone.  Two ways a program
 * loaded while rvctr is present can reach module text after rmmod:
 *  - with the JIT, the verifier inlines the helper as a direct call to
 *    whatever the perf_snapshot_branch_stack static call held at load
 *    (do_misc_fixups(): static_call_query());
 *  - without HAVE_STATIC_CALL (RISC-V), __static_call_return0 is a static
 *    inline, so a module that resets the static call to it points it at
 *    the module's own copy (the interpreter's out-of-line helper then
 *    calls freed text: "Unable to handle kernel paging request").
 * Either way the program must get no entries (-ENOENT) after rmmod.  It
 * runs on a task-clock event, which does not hold the module.
 */
#define JIT_SYSCTL	"/proc/sys/net/core/bpf_jit_enable"
#define RVCTR_KO	"/opt/rvctr/rvctr.ko"

static int prog_jited(int prog)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = prog;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a))
		return -1;
	return info.jited_prog_len != 0;
}

/*
 * Everything the board had is put back (JIT setting, the module) before
 * the first assertion, so a failure here does not fail the next tests.
 */
static void run_after_rmmod(struct __test_metadata *_metadata, int jit)
{
	static char log[65536];
	struct perf_event_attr a;
	struct ct_workload w;
	struct result r = { 0 };
	char old_jit[8] = "0";
	int map, prog, fd = -1, kfd, jited, unloaded, reloaded, got;
	FILE *f;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "loading BPF programs and modules needs root");
	if (access("/sys/module/rvctr", F_OK) || access(RVCTR_KO, R_OK))
		SKIP(return, "the driver is not the rvctr module (%s)", RVCTR_KO);
	f = fopen(JIT_SYSCTL, "r");
	if (f) {
		if (!fgets(old_jit, sizeof(old_jit), f))
			snprintf(old_jit, sizeof(old_jit), "0");
		fclose(f);
	}
	if (ct_write_str(JIT_SYSCTL, jit ? "1" : "0") && jit)
		SKIP(return, "cannot turn the BPF JIT on (%s)", JIT_SYSCTL);
	ct_workload_init(&w);
	map = map_create();
	prog = map < 0 ? -1 : prog_load(map, BPF_FUNC_get_branch_snapshot, &w,
					log, sizeof(log));
	jited = prog < 0 ? -1 : prog_jited(prog);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 200000;	/* ns */
	a.disabled = 1;
	if (prog >= 0)
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog)) {
		close(fd);
		fd = -1;
	}
	unloaded = fd >= 0 && !syscall(SYS_delete_module, "rvctr", O_NONBLOCK);
	if (unloaded) {
		/* ~60 ms: task-clock fires on the tick without high-res timers. */
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		ct_loop(2000000);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	got = map < 0 ? -1 : map_read(map, &r);
	if (fd >= 0)
		close(fd);
	if (prog >= 0)
		close(prog);
	if (map >= 0)
		close(map);
	reloaded = 1;
	if (unloaded) {
		kfd = open(RVCTR_KO, O_RDONLY | O_CLOEXEC);
		reloaded = kfd >= 0 && !syscall(SYS_finit_module, kfd, "", 0);
		if (kfd >= 0)
			close(kfd);
	}
	ct_write_str(JIT_SYSCTL, old_jit);

	ASSERT_GE(map, 0) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	ASSERT_GE(prog, 0) TH_LOG("BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	ASSERT_EQ(jit, jited) TH_LOG("the program was%s JIT-compiled", jited ? "" : " not");
	ASSERT_GE(fd, 0) TH_LOG("task-clock with the program: %s", strerror(errno));
	ASSERT_TRUE(unloaded) TH_LOG("rmmod rvctr: %s", strerror(errno));
	ASSERT_TRUE(reloaded) TH_LOG("insmod %s: %s", RVCTR_KO, strerror(errno));
	ASSERT_EQ(0, got);
	TH_LOG("%s program ran %llu times without the driver, %llu in the workload",
	       jit ? "JIT-compiled" : "interpreted",
	       (unsigned long long)r.calls, (unsigned long long)r.in_loop);
	TH_LOG("last returned %lld", (long long)r.ret);
	ASSERT_GT(r.calls, 5UL);
	ASSERT_GT(r.in_loop, 0UL);
	/* No entries: the helper says -ENOENT (bpf_get_branch_snapshot()). */
	ASSERT_EQ(-ENOENT, r.ret);
}

TEST(bpf_get_branch_snapshot_after_rmmod_jit)
{
	run_after_rmmod(_metadata, 1);
}

TEST(bpf_get_branch_snapshot_after_rmmod_interpreter)
{
	run_after_rmmod(_metadata, 0);
}

TEST_HARNESS_MAIN
