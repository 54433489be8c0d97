/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF side of the CTR selftests: an array map and a perf_event
 * program that calls a branch-record helper and keeps what it returned,
 * assembled from struct bpf_insn of the UAPI (<linux/bpf.h>), so the
 * tests need neither clang nor libbpf.
 */
#ifndef CTR_BPF_LIB_H
#define CTR_BPF_LIB_H

#include <assert.h>
#include <linux/bpf.h>

#include "ctr_test_lib.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* One instruction (Documentation/bpf/standardization/instruction-set.rst). */
#define CT_INSN(c, d, s, o, i)						\
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),	\
			    .off = (o), .imm = (i) })
#define CT_MOV64_REG(d, s)	CT_INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define CT_MOV64_IMM(d, i)	CT_INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define CT_ALU64_IMM(op, d, i)	CT_INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define CT_LDX_MEM(sz, d, s, o)	CT_INSN(BPF_LDX | BPF_SIZE(sz) | BPF_MEM, d, s, o, 0)
#define CT_STX_MEM(sz, d, s, o)	CT_INSN(BPF_STX | BPF_SIZE(sz) | BPF_MEM, d, s, o, 0)
#define CT_ST_MEM(sz, d, o, i)	CT_INSN(BPF_ST | BPF_SIZE(sz) | BPF_MEM, d, 0, o, i)
#define CT_JMP_IMM(op, d, i, o)	CT_INSN(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define CT_CALL(fn)		CT_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define CT_EXIT()		CT_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/*
 * A map's fd, as the ld_imm64 the verifier resolves: two instructions,
 * the second carrying the upper 32 bits of the immediate.
 */
#define CT_LD_MAP_FD(d, fd)	CT_INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd)
#define CT_IMM64_HI(i)		CT_INSN(0, 0, 0, 0, i)

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

static inline int sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

/* An array map of one @size-byte value. */
static inline int map_create_of(uint32_t size)
{
	union bpf_attr a = {
		.map_type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4,
		.value_size = size,
		.max_entries = 1,
	};

	return sys_bpf(BPF_MAP_CREATE, &a);
}

static inline int map_create(void)
{
	return map_create_of(sizeof(struct result));
}

/* Load @n instructions as a perf_event program, the verifier's log in @log. */
static inline int prog_load_insns(const struct bpf_insn *p, size_t n,
				  char *log, size_t loglen)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_PERF_EVENT;
	a.insns = (uint64_t)(uintptr_t)p;
	a.insn_cnt = n;
	a.license = (uint64_t)(uintptr_t)"GPL";
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = loglen;
	a.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &a);
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
static inline int prog_load(int map, int helper, const struct ct_workload *w,
			    char *log, size_t loglen)
{
	struct bpf_insn with_ctx[] = {
		CT_MOV64_REG(BPF_REG_6, BPF_REG_1),
		CT_LDX_MEM(BPF_DW, BPF_REG_8, BPF_REG_6, 0),
		CT_MOV64_REG(BPF_REG_1, BPF_REG_6),
		CT_MOV64_REG(BPF_REG_2, BPF_REG_10),
		CT_ALU64_IMM(BPF_ADD, BPF_REG_2, BUF),
		CT_MOV64_IMM(BPF_REG_3, NBR * 24),
		CT_MOV64_IMM(BPF_REG_4, 0),
	};
	struct bpf_insn no_ctx[] = {
		CT_MOV64_REG(BPF_REG_6, BPF_REG_1),
		CT_LDX_MEM(BPF_DW, BPF_REG_8, BPF_REG_6, 0),
		CT_MOV64_REG(BPF_REG_1, BPF_REG_10),
		CT_ALU64_IMM(BPF_ADD, BPF_REG_1, BUF),
		CT_MOV64_IMM(BPF_REG_2, NBR * 24),
		CT_MOV64_IMM(BPF_REG_3, 0),
		CT_MOV64_IMM(BPF_REG_4, 0),
	};
	struct bpf_insn tail[] = {
		CT_CALL(helper),
		CT_MOV64_REG(BPF_REG_7, BPF_REG_0),
		CT_ST_MEM(BPF_W, BPF_REG_10, KEY, 0),
		CT_LD_MAP_FD(BPF_REG_1, map),
		CT_IMM64_HI(0),
		CT_MOV64_REG(BPF_REG_2, BPF_REG_10),
		CT_ALU64_IMM(BPF_ADD, BPF_REG_2, KEY),
		CT_CALL(BPF_FUNC_map_lookup_elem),
		CT_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 13),
		CT_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 24),
		CT_ALU64_IMM(BPF_ADD, BPF_REG_1, 1),
		CT_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 24),
		CT_JMP_IMM(BPF_JLT, BPF_REG_8, (int32_t)w->lo, 9),
		CT_JMP_IMM(BPF_JGE, BPF_REG_8, (int32_t)w->hi, 8),
		CT_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_7, 0),
		CT_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, BUF),
		CT_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 8),
		CT_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, BUF + 8),
		CT_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 16),
		CT_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 32),
		CT_ALU64_IMM(BPF_ADD, BPF_REG_1, 1),
		CT_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 32),
		CT_MOV64_IMM(BPF_REG_0, 0),		/* the jump target */
		CT_EXIT(),
	};
	struct bpf_insn prog[64];
	size_t n;

	static_assert(sizeof(with_ctx) == sizeof(no_ctx), "same prologue length");
	n = ARRAY_SIZE(with_ctx);
	memcpy(prog, helper == BPF_FUNC_read_branch_records ? with_ctx : no_ctx,
	       sizeof(with_ctx));
	memcpy(prog + n, tail, sizeof(tail));
	n += ARRAY_SIZE(tail);
	return prog_load_insns(prog, n, log, loglen);
}

/* The map's value, @r of the size the map was made with. */
static inline int map_read(int map, void *r)
{
	union bpf_attr a;
	uint32_t key = 0;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)r;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
}

#endif /* CTR_BPF_LIB_H */
