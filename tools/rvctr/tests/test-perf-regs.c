// SPDX-License-Identifier: GPL-2.0-only
/*
 * User registers and stacks (perf record --call-graph dwarf): samples
 * laid out here as the kernel writes them (perf_output_sample(): the
 * callchain, the branch stack, then PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER), written to a perf.data as records, read back
 * field by field, and through rvctr convert's perf sink into a perf.data
 * whose attribute keeps the registers and stack and whose samples are
 * the input's byte for byte.
 */
#include <stdlib.h>
#include <unistd.h>

#include <rvctr/perf_data.h>
#include <rvctr/sink.h>

#include "tests.h"

/* RISC-V's 32 registers and vlenb (PERF_REG_RISCV_VLENB, bit 32) */
#define REGS_MASK	0x1ffffffffULL
#define NR_REGS		33
#define STACK_SIZE	512
#define DYN_SIZE	488

static char in_path[] = "/tmp/rvctr-regs-in-XXXXXX";
static char out_path[] = "/tmp/rvctr-regs-out-XXXXXX";

static struct perf_event_attr dwarf_attr(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.sample_period = 100003,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			       PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
		.sample_regs_user = REGS_MASK,
		.sample_stack_user = STACK_SIZE,
		.exclude_kernel = 1,
		.exclude_callchain_user = 1,
		.sample_id_all = 1,
		.mmap = 1, .mmap2 = 1, .comm = 1, .task = 1,
	};
	return a;
}

struct rec {
	uint64_t w[2048];
	unsigned int n;
};

static void put(struct rec *r, uint64_t v)
{
	r->w[r->n++] = v;
}

/*
 * Sample @i: with user registers and a stack copy (@user), or as the
 * kernel writes one without them (ABI_NONE, stack size 0).
 */
static void make_sample(struct rec *r, unsigned int i, int user)
{
	struct perf_event_header *h = (struct perf_event_header *)r->w;
	unsigned int k;

	memset(r, 0, sizeof(*r));
	r->n = 1;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	put(r, 0x10100 + i);			/* IP */
	put(r, 42 | 43ULL << 32);		/* TID */
	put(r, 1000 + i);			/* TIME */
	put(r, 100003);				/* PERIOD */
	put(r, 2);				/* CALLCHAIN: the user context mark, ip */
	put(r, (uint64_t)PERF_CONTEXT_USER);
	put(r, 0x10100 + i);
	put(r, 1);				/* BRANCH_STACK: one entry */
	put(r, 0x10080);
	put(r, 0x10100);
	put(r, 0);
	if (!user) {
		put(r, PERF_SAMPLE_REGS_ABI_NONE);
		put(r, 0);			/* no stack */
	} else {
		put(r, PERF_SAMPLE_REGS_ABI_64);
		for (k = 0; k < NR_REGS; k++)
			put(r, 0x1111ULL * k + i);	/* vlenb last */
		put(r, STACK_SIZE);
		for (k = 0; k < STACK_SIZE / 8; k++)
			put(r, 0x7fff0000ULL + 8 * k + i);
		put(r, DYN_SIZE);
	}
	h->size = r->n * 8;
}

static struct rec recs[3];

static void write_input(void)
{
	struct perf_event_attr a = dwarf_attr();
	const char *name = "instructions:u";
	struct rvctr_writer *w;
	char err[256];
	unsigned int i;

	w = rvctr_writer__open(in_path, &a, &name, 1, err, sizeof(err));
	T_OK(w != NULL, "the writer takes REGS_USER and STACK_USER");
	if (!w) {
		printf("# %s\n", err);
		return;
	}
	rvctr_writer__set_arch(w, "riscv64");
	for (i = 0; i < 3; i++) {
		make_sample(&recs[i], i, i != 1);
		rvctr_writer__raw(w, recs[i].w, recs[i].n * 8);
	}
	T_EQ(rvctr_writer__close(w, err, sizeof(err)), 0, "input written");
}

static void check_read(void)
{
	char err[256];
	struct rvctr_reader *r = rvctr_reader__open(in_path, err, sizeof(err));
	struct rvctr_event ev;
	unsigned int n = 0, good = 0;

	T_OK(r != NULL, "the input opens");
	if (!r)
		return;
	while (rvctr_reader__next(r, &ev) > 0) {
		const struct rvctr_sample *s = &ev.sample;

		if (ev.type != PERF_RECORD_SAMPLE)
			continue;
		if (n == 1) {
			T_OK(s->regs_abi == 0 && !s->regs && !s->stack_size && !s->stack,
			     "a sample without user registers: ABI_NONE, no stack");
			good += s->nr_branches == 1 && s->branches[0].from == 0x10080;
		} else {
			T_OK(s->regs_abi == PERF_SAMPLE_REGS_ABI_64 && s->regs_mask == REGS_MASK &&
			     s->regs && s->regs[0] == n && s->regs[32] == 0x1111ULL * 32 + n,
			     "the user registers in place, vlenb the last");
			T_OK(s->stack_size == STACK_SIZE && s->stack_dyn_size == DYN_SIZE && s->stack &&
			     !memcmp(s->stack, &recs[n].w[11 + 1 + NR_REGS + 1 + 1], STACK_SIZE),
			     "the user stack: its bytes and dyn_size");
			good += s->nr_branches == 1 && s->branches[0].from == 0x10080;
		}
		T_OK(s->nr_callchain == 2 && s->callchain[0] == (uint64_t)PERF_CONTEXT_USER &&
		     s->callchain[1] == s->ip, "the callchain in place");
		n++;
	}
	T_EQ(n, 3, "three samples read");
	T_EQ(good, 3, "their branch stacks before the registers");
	rvctr_reader__close(r);
}

/* rvctr convert -f perf's sink, fed what the reader delivers. */
static void convert(void)
{
	char err[512];
	struct rvctr_reader *r = rvctr_reader__open(in_path, err, sizeof(err));
	struct rvctr_sink_info info = { .path = out_path, .arch = "riscv64" };
	struct rvctr_sink *sink;
	struct rvctr_event ev;

	if (!r)
		return;
	info.attr = rvctr_reader__attr(r, 0);
	info.attr_name = "instructions:u";
	sink = rvctr_sink__open(&rvctr_sink_perf, &info, err, sizeof(err));
	T_OK(sink != NULL, "the perf sink opens");
	if (!sink) {
		rvctr_reader__close(r);
		return;
	}
	while (rvctr_reader__next(r, &ev) > 0)
		rvctr_sink__event(sink, &ev);
	T_EQ(rvctr_sink__close(sink, err, sizeof(err)), 0, "the perf sink closes");
	rvctr_reader__close(r);
}

static void check_converted(void)
{
	char err[256];
	struct rvctr_reader *r = rvctr_reader__open(out_path, err, sizeof(err));
	const struct perf_event_attr *a;
	struct rvctr_event ev;
	unsigned int n = 0, same = 0;

	T_OK(r != NULL, "the output opens");
	if (!r)
		return;
	a = rvctr_reader__attr(r, 0);
	T_EQ(a->sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER),
	     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
	     "the output's attr: CALLCHAIN, REGS_USER, STACK_USER");
	T_EQ(a->sample_regs_user, REGS_MASK, "sample_regs_user kept");
	T_EQ(a->sample_stack_user, STACK_SIZE, "sample_stack_user kept");
	T_EQ(a->exclude_callchain_user, 1, "exclude_callchain_user kept");
	while (rvctr_reader__next(r, &ev) > 0) {
		if (ev.type != PERF_RECORD_SAMPLE)
			continue;
		if (n < 3 && ev.size == recs[n].n * 8 && !memcmp(ev.raw, recs[n].w, ev.size))
			same++;
		else
			printf("# sample %u: %u bytes, the input's %u\n", n, ev.size,
			       n < 3 ? recs[n].n * 8 : 0);
		n++;
	}
	T_EQ(n, 3, "three samples converted");
	T_EQ(same, 3, "each the input's sample byte for byte");
	rvctr_reader__close(r);
}

/* The writer's own checks on what it is given. */
static void test_writer_checks(void)
{
	struct perf_event_attr a = dwarf_attr();
	uint64_t regs[NR_REGS] = { 0 }, stack[4] = { 0 };
	struct rvctr_sample s = {
		.ip = 1, .regs_abi = PERF_SAMPLE_REGS_ABI_64, .regs_mask = 0xffffffff,
		.regs = regs, .stack_size = 32, .stack_dyn_size = 32,
		.stack = (const unsigned char *)stack,
	};
	struct rvctr_reader *r;
	struct rvctr_writer *w;
	struct rvctr_event ev;
	char err[256];
	int got = -1;

	w = rvctr_writer__open(in_path, &a, NULL, 1, err, sizeof(err));
	if (!w)
		return;
	/* registers of another mask: they would be named by this one's bits */
	T_EQ(rvctr_writer__sample(w, &s), 0, "a sample of another register mask");
	T_EQ(rvctr_writer__close(w, err, sizeof(err)), 0, "written");
	r = rvctr_reader__open(in_path, err, sizeof(err));
	while (r && rvctr_reader__next(r, &ev) > 0)
		if (ev.type == PERF_RECORD_SAMPLE)
			got = ev.sample.regs_abi == 0 && ev.sample.stack_size == 32;
	T_EQ(got, 1, "its registers left out (ABI_NONE), its stack kept");
	rvctr_reader__close(r);

	w = rvctr_writer__open(in_path, &a, NULL, 1, err, sizeof(err));
	if (!w)
		return;
	s.regs_mask = REGS_MASK;
	s.stack_size = 28;
	s.stack_dyn_size = 28;
	T_EQ(rvctr_writer__sample(w, &s), -1, "a stack that is not whole u64s: refused");
	rvctr_writer__close(w, err, sizeof(err));
}

/* What the reader refuses in STACK_USER: the kernel copies whole u64s. */
static void test_corrupt_stack(void)
{
	struct perf_event_attr a = dwarf_attr();
	struct rvctr_reader *r;
	struct rvctr_writer *w;
	struct rvctr_event ev;
	char err[256];
	unsigned int k;
	int ret = 0;

	for (k = 0; k < 2; k++) {
		w = rvctr_writer__open(in_path, &a, NULL, 1, err, sizeof(err));
		if (!w)
			return;
		make_sample(&recs[0], 0, 1);
		if (k == 0)
			recs[0].w[recs[0].n - 1] = STACK_SIZE + 8;	/* dyn_size > size */
		else
			recs[0].w[12 + 1 + NR_REGS] = STACK_SIZE - 4;	/* size not u64s */
		rvctr_writer__raw(w, recs[0].w, recs[0].n * 8);
		rvctr_writer__close(w, err, sizeof(err));
		r = rvctr_reader__open(in_path, err, sizeof(err));
		while (r && (ret = rvctr_reader__next(r, &ev)) > 0)
			;
		T_EQ(ret, -1, k ? "a stack size that is not whole u64s: corrupt" :
				  "a dyn_size beyond the stack copy: corrupt");
		rvctr_reader__close(r);
	}
}

int main(void)
{
	int fd = mkstemp(in_path), fd2 = mkstemp(out_path);

	if (fd < 0 || fd2 < 0)
		return 1;
	close(fd);
	close(fd2);
	write_input();
	check_read();
	convert();
	check_converted();
	test_writer_checks();
	test_corrupt_stack();
	unlink(in_path);
	unlink(out_path);
	return tests_done();
}
