// SPDX-License-Identifier: GPL-2.0-only
/* XiangShan Kunminghu's top-down formulas on hand-computed counts. */
#include <math.h>
#include <stdlib.h>

#include <rvctr/topdown.h>

#include "tests.h"

static double metric(const struct rvctr_topdown *td, const char *want, unsigned int *missing)
{
	unsigned int i, level;
	const char *name;
	double v;

	for (i = 0; (v = rvctr_topdown__metric(td, i, &name, &level, missing)) != -2; i++)
		if (!strcmp(name, want))
			return v;
	return -3;
}

#define T_NEAR(got, want, name) T_OK(fabs((got) - (want)) < 1e-9, name)

static void test_formulas(void)
{
	struct rvctr_topdown td;
	unsigned int missing;
	const char *lines[] = {
		"# perf stat -x, output",
		"1000,,cycles:u,1000,100.00,,",
		"3000,,instructions:u,1000,100.00,,",
		"INST_SPEC 3600",
		"IF_FETCH_BUBBLE=600",
		"IF_FETCH_BUBBLE_EQ_MAX 50",
		"RECOVERY_BUBBLE 300",
		"BR_MIS_PRED 30",
		"TOTAL_FLUSH 40",
		"<not counted>,,MEMSTALL_STORE,0,0.00,,",
	};
	unsigned int i;

	rvctr_topdown__init(&td, 6);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		T_OK(rvctr_topdown__parse_line(&td, lines[i]) >= 0, lines[i]);
	/* slots = 6000 */
	T_NEAR(metric(&td, "Retiring", &missing), 0.5, "Retiring = INST_RETIRED / slots");
	T_NEAR(metric(&td, "Frontend Bound", &missing), 0.1, "Frontend = bubbles / slots");
	T_NEAR(metric(&td, "Fetch Latency Bound", &missing), 0.05, "Fetch latency / cycles");
	T_NEAR(metric(&td, "Fetch Bandwidth Bound", &missing), 0.05, "Fetch bandwidth = FE - latency");
	T_NEAR(metric(&td, "Bad Speculation", &missing), 0.15, "(spec - retired + recovery) / slots");
	T_NEAR(metric(&td, "Branch Mispredict", &missing), 0.1125, "BS * mispred / flushes");
	T_NEAR(metric(&td, "Machine Clears", &missing), 0.0375, "BS - branch mispredict");
	T_NEAR(metric(&td, "Backend Bound", &missing), 0.25, "1 - the other three");
	T_EQ(metric(&td, "Memory Bound", &missing), -1, "memory bound needs MEMSTALL events");
	T_EQ(missing, 1u << TD_MEMSTALL_ANYLOAD | 1u << TD_MEMSTALL_STORE,
	     "and names exactly the missing ones");
	T_EQ(rvctr_topdown__parse_line(&td, "12abc,,cycles"), (uint64_t)-1, "bad number rejected");
	T_EQ(rvctr_topdown__parse_line(&td, "5 x"), (uint64_t)-1, "bad pair rejected");
	T_EQ(rvctr_topdown__parse_line(&td, "42,,l2_miss,"), 1, "other events ignored");
}

static void test_level3(void)
{
	struct rvctr_topdown td;
	unsigned int missing;

	rvctr_topdown__init(&td, 0);
	T_EQ(td.issue_width, 6, "IssueBW defaults to 6");
	rvctr_topdown__set(&td, "CPU_CYCLES", 1000);
	rvctr_topdown__set(&td, "EXEC_STALL_CYCLE", 500);
	rvctr_topdown__set(&td, "MEMSTALL_ANY_LOAD", 300);
	rvctr_topdown__set(&td, "MEMSTALL_STORE", 50);
	rvctr_topdown__set(&td, "MEMSTALL_L1MISS", 200);
	rvctr_topdown__set(&td, "MEMSTALL_L2MISS", 120);
	rvctr_topdown__set(&td, "MEMSTALL_L3MISS", 70);
	T_NEAR(metric(&td, "Core Bound", &missing), 0.15, "core bound");
	T_NEAR(metric(&td, "Memory Bound", &missing), 0.35, "memory bound");
	T_NEAR(metric(&td, "L1 Bound", &missing), 0.1, "L1 bound");
	T_NEAR(metric(&td, "L2 Bound", &missing), 0.08, "L2 bound");
	T_NEAR(metric(&td, "L3 Bound", &missing), 0.05, "L3 bound");
	T_NEAR(metric(&td, "Mem Bound", &missing), 0.07, "external memory bound");
	T_NEAR(metric(&td, "Store Bound", &missing), 0.05, "store bound");
	rvctr_topdown__set(&td, "CPU_CYCLES", 0);
	T_EQ(metric(&td, "Store Bound", &missing), -1, "zero cycles: not computed");
}

int main(void)
{
	test_formulas();
	test_level3();
	return tests_done();
}
