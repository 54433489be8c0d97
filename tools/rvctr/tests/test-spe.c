// SPDX-License-Identifier: GPL-2.0-only
/* SPE-like per-branch samples, read back through the perf.data reader. */
#include <stdlib.h>
#include <unistd.h>

#include <rvctr/spe.h>

#include "tests.h"

int main(void)
{
	char path[] = "/tmp/rvctr-spe-XXXXXX", err[256];
	struct perf_event_attr attrs[RVCTR_SPE_NR_ATTRS];
	const char *names[RVCTR_SPE_NR_ATTRS];
	struct perf_branch_entry br[4];
	struct rvctr_sample s = { .pid = 7, .tid = 7, .time = 99, .nr_branches = 4, .branches = br };
	struct rvctr_writer *w;
	struct rvctr_reader *r;
	struct rvctr_event ev;
	unsigned int i, nr[2] = { 0, 0 }, order_ok = 1, pair_ok = 1;
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
	}
	rvctr_spe__attrs(attrs, names);
	T_STREQ(names[RVCTR_SPE_BRANCH_MISS], "branch-miss", "event names");
	T_OK(attrs[0].type != PERF_TYPE_HARDWARE || attrs[0].config != PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	     "not the attr perf takes for Intel BTS");
	w = rvctr_writer__open(path, attrs, names, RVCTR_SPE_NR_ATTRS, err, sizeof(err));
	T_OK(w && !rvctr_spe__emit(w, &s), "emit");
	T_EQ(rvctr_writer__close(w, err, sizeof(err)), 0, "close");
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "read back");
	i = 4;
	while (r && rvctr_reader__next(r, &ev) > 0) {
		const struct rvctr_sample *o = &ev.sample;

		if (ev.type != PERF_RECORD_SAMPLE)
			continue;
		nr[o->attr]++;
		if (o->attr == RVCTR_SPE_BRANCH_MISS) {
			T_EQ(o->ip, 0x1001, "branch-miss for the mispredicted record");
			continue;
		}
		i--;	/* oldest first */
		order_ok &= o->ip == 0x1000 + i && o->addr == 0x2000 + i && o->weight == 10 * (i + 1);
		pair_ok &= o->branches[0].from == 0x1000 + i &&
			   (i == 3 ? o->nr_branches == 1 :
			    o->nr_branches == 2 && o->branches[1].from == 0x1000 + i + 1);
	}
	T_EQ(nr[RVCTR_SPE_BRANCH], 4, "one branch sample per record");
	T_EQ(nr[RVCTR_SPE_BRANCH_MISS], 1, "one branch-miss sample");
	T_OK(order_ok, "ip = source, addr = target, weight = cycles, oldest first");
	T_OK(pair_ok, "branch stack = [this, previous]");
	rvctr_reader__close(r);
	unlink(path);
	return tests_done();
}
