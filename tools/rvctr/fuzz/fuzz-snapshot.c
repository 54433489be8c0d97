// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the raw CTR snapshot parser and the entry decoder. */
#include <stdio.h>

#include <rvctr/snapshot.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rvctr_snapshot s;
	static struct perf_branch_entry br[RISCV_CTR_DEPTH_MAX];
	FILE *f = fmemopen((void *)data, size, "r");
	struct rvctr_snapshot_reader *r;

	if (!f)
		return 0;
	rvctr_snapshot__probe((const char *)data, size);
	r = rvctr_snapshot_reader__new(f);
	while (r && rvctr_snapshot_reader__next(r, &s) > 0)
		riscv_ctr_stack_to_perf(s.entries, s.nr, data[0] & 1, RVCTR_SNAPSHOT_BST, br);
	rvctr_snapshot_reader__delete(r);
	fclose(f);
	return 0;
}
