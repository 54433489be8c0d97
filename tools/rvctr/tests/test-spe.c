// SPDX-License-Identifier: GPL-2.0-only
/*
 * SPE-like per-branch samples, read back through the perf.data reader, in
 * the layout of perf's Arm SPE synthesis (see rvctr/spe.h).
 */
#include <stdlib.h>
#include <unistd.h>

#include <rvctr/spe.h>

#include "tests.h"

#define KERNEL_BASE	0xffffffff80000000ULL

int main(void)
{
	char path[] = "/tmp/rvctr-spe-XXXXXX", err[256];
	struct perf_event_attr attrs[RVCTR_SPE_NR_ATTRS], in = { .exclude_user = 1 };
	const char *names[RVCTR_SPE_NR_ATTRS];
	struct perf_branch_entry br[4];
	struct rvctr_sample s = { .pid = 7, .tid = 7, .time = 99, .nr_branches = 4, .branches = br };
	struct rvctr_writer *w;
	struct rvctr_reader *r;
	struct rvctr_event ev;
	unsigned int i, nr[2] = { 0, 0 }, order_ok = 1, head_ok = 1, pbt_ok = 1, mode_ok = 1;
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	memset(br, 0, sizeof(br));
	for (i = 0; i < 4; i++) {
		br[i].from = 0x1000 + i;	/* entry 0 newest */
		br[i].to = 0x2000 + i;
		br[i].cycles = 10 * (i + 1);
		br[i].type = PERF_BR_COND;
		br[i].mispred = i == 1;
		br[i].predicted = i != 1;
	}
	/* entry 2 is a trap into the kernel's upper half, entry 1 the return */
	br[2].to = KERNEL_BASE + 0x100;
	br[1].from = KERNEL_BASE + 0x180;
	br[1].type = PERF_BR_ERET;
	rvctr_spe__attrs(attrs, names, NULL);
	T_STREQ(names[RVCTR_SPE_BRANCH_MISS], "branch-miss", "event names");
	T_OK(attrs[0].type != PERF_TYPE_HARDWARE || attrs[0].config != PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	     "not the attr perf takes for Intel BTS");
	T_OK(attrs[0].exclude_kernel && !attrs[0].exclude_user, "no input event: user only");
	rvctr_spe__attrs(attrs, names, &in);
	T_OK(!attrs[0].exclude_kernel && attrs[1].exclude_user, "exclusions follow the input event");
	T_OK(attrs[0].branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX,
	     "branch stacks with hw_idx, as perf's SPE synthesis writes them");
	w = rvctr_writer__open(path, attrs, names, RVCTR_SPE_NR_ATTRS, err, sizeof(err));
	T_OK(w && !rvctr_spe__emit(w, &s), "emit");
	T_EQ(rvctr_writer__close(w, err, sizeof(err)), 0, "close");
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "read back");
	i = 4;
	while (r && rvctr_reader__next(r, &ev) > 0) {
		const struct rvctr_sample *o = &ev.sample;
		const struct perf_branch_entry *b = o->branches;

		if (ev.type != PERF_RECORD_SAMPLE)
			continue;
		nr[o->attr]++;
		if (o->attr == RVCTR_SPE_BRANCH_MISS) {
			T_EQ(o->ip, KERNEL_BASE + 0x180, "branch-miss for the mispredicted record");
			continue;
		}
		i--;	/* oldest first */
		order_ok &= o->ip == br[i].from && o->addr == br[i].to && o->weight == 10 * (i + 1) &&
			    o->hw_idx == -1ULL;
		mode_ok &= (o->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
			   (i == 1 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
		head_ok &= o->nr_branches >= 1 && b[0].from == br[i].from && b[0].to == br[i].to &&
			   b[0].type == br[i].type && b[0].mispred == br[i].mispred &&
			   b[0].predicted == br[i].predicted && b[0].cycles == br[i].cycles;
		/* [1] = {0, previous target}, as arm_spe__prep_branch_stack */
		if (i == 3)
			pbt_ok &= o->nr_branches == 1;
		else
			pbt_ok &= o->nr_branches == 2 && b[1].from == 0 && b[1].to == br[i + 1].to &&
				  b[1].type == PERF_BR_UNKNOWN && !b[1].mispred && !b[1].predicted &&
				  !b[1].cycles;
	}
	T_EQ(nr[RVCTR_SPE_BRANCH], 4, "one branch sample per record");
	T_EQ(nr[RVCTR_SPE_BRANCH_MISS], 1, "one branch-miss sample");
	T_OK(order_ok, "ip = source, addr = target, weight = cycles, hw_idx -1, oldest first");
	T_OK(mode_ok, "cpumode from ip: kernel for the upper half, user otherwise");
	T_OK(head_ok, "branch stack [0] = this branch with its flags");
	T_OK(pbt_ok, "branch stack [1] = {0, previous target, UNKNOWN}, none for the oldest");
	rvctr_reader__close(r);
	unlink(path);
	return tests_done();
}
