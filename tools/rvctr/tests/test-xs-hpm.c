// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for include/rvctr/xs_hpm.h, the XiangShan Kunminghu combining
 * selector (the HPM chapter of the XiangShan design document, V2R2).  QEMU has no such core, so the encoding is only
 * tested here: field positions, range checks, the round trip, and the
 * counter groups.
 */
#include <rvctr/xs_hpm.h>

#include "tests.h"

static void test_positions(void)
{
	struct rvctr_xs_sel s = { .event = { 1, 2, 3, 4 },
				  .op = { RVCTR_XS_OP_AND, RVCTR_XS_OP_XOR,
					  RVCTR_XS_OP_ADD },
				  .group = RVCTR_XS_CACHE };
	__u64 config = 0;

	T_EQ(rvctr_xs_encode(&s, &config), 0, "encode a full selector");
	T_EQ(config & 0x3ff, 1, "EVENT0 in 9:0");
	T_EQ((config >> 10) & 0x3ff, 2, "EVENT1 in 19:10");
	T_EQ((config >> 20) & 0x3ff, 3, "EVENT2 in 29:20");
	T_EQ((config >> 30) & 0x3ff, 4, "EVENT3 in 39:30");
	T_EQ((config >> 40) & 0x1f, RVCTR_XS_OP_AND, "OP_TYPE0 in 44:40");
	T_EQ((config >> 45) & 0x1f, RVCTR_XS_OP_XOR, "OP_TYPE1 in 49:45");
	T_EQ((config >> 50) & 0x1f, RVCTR_XS_OP_ADD, "OP_TYPE2 in 54:50");
	T_EQ(config >> 56, RVCTR_XS_CACHE, "group in 57:56");
	/* 3 << 56 | 4 << 50 | 2 << 45 | 1 << 40 | 4 << 30 | 3 << 20 | 2 << 10 | 1 */
	T_EQ(config, 0x0310410100300801ULL, "whole config word");
	T_EQ(RVCTR_XS_EVENT(3), 0x3ffULL << 30, "EVENT3 mask");
	T_EQ(RVCTR_XS_OP(2), 0x1fULL << 50, "OP_TYPE2 mask");
	T_EQ(RVCTR_XS_SELECTOR & (RVCTR_HPMEVENT_OF | RVCTR_HPMEVENT_INH_ALL), 0,
	     "selector leaves OF and the inhibits alone");
}

static void test_ranges(void)
{
	struct rvctr_xs_sel s = { .event = { RVCTR_XS_EVENT_MAX } };
	__u64 config = 0;

	T_EQ(rvctr_xs_encode(&s, &config), 0, "event index 1023 fits");
	T_EQ(config, 0x3ff, "event index 1023 encodes");
	s.event[2] = 1024;
	T_EQ(rvctr_xs_encode(&s, &config), (uint64_t)-1, "event index 1024 is refused");
	s.event[2] = 0;
	s.op[1] = 3;
	T_EQ(rvctr_xs_encode(&s, &config), (uint64_t)-1, "OP_TYPE 3 is refused");
	s.op[1] = 8;
	T_EQ(rvctr_xs_encode(&s, &config), (uint64_t)-1, "OP_TYPE 8 is refused");
	s.op[1] = 0;
	s.group = 4;
	T_EQ(rvctr_xs_encode(&s, &config), (uint64_t)-1, "group 4 is refused");
}

static void test_round_trip(void)
{
	static const unsigned int ops[] = { 0, 1, 2, 4 };
	struct rvctr_xs_sel s, d;
	__u64 config;
	int i, bad = 0;

	for (i = 0; i < 4 * 4 * 4 * 4; i++) {
		memset(&s, 0, sizeof(s));
		s.event[0] = (i * 37) & 0x3ff;
		s.event[1] = (i * 101) & 0x3ff;
		s.event[2] = 1023 - i;
		s.event[3] = i;
		s.op[0] = ops[i & 3];
		s.op[1] = ops[(i >> 2) & 3];
		s.op[2] = ops[(i >> 4) & 3];
		s.group = i >> 6;
		if (rvctr_xs_encode(&s, &config) || rvctr_xs_decode(config, &d) ||
		    memcmp(&s, &d, sizeof(s)))
			bad++;
	}
	T_EQ(bad, 0, "decode(encode(x)) == x for 256 selectors");
	T_EQ(rvctr_xs_decode(1ULL << 55, &d), (uint64_t)-1, "reserved bit 55 is refused");
	T_EQ(rvctr_xs_decode(1ULL << 63, &d), (uint64_t)-1, "bit 63 is refused");
	T_EQ(rvctr_xs_decode(3ULL << 40, &d), (uint64_t)-1, "decoding OP_TYPE 3 is refused");
}

static void test_groups(void)
{
	__u64 sel = 0, ctrs = 0;

	T_EQ(rvctr_xs_group_counters(RVCTR_XS_FRONTEND), 0x7f8, "frontend: mhpmevent3-10");
	T_EQ(rvctr_xs_group_counters(RVCTR_XS_BACKEND), 0x7f800, "backend: mhpmevent11-18");
	T_EQ(rvctr_xs_group_counters(RVCTR_XS_MEMORY), 0x7f80000, "memory: mhpmevent19-26");
	T_EQ(rvctr_xs_group_counters(RVCTR_XS_CACHE), 0xf8000000ULL, "cache: mhpmevent27-31");
	T_EQ(rvctr_xs_group_counters(4), 0, "no group 4");
	/* The sysfs alias "event0=0x41,group=1" (BR_MIS_PRED) */
	T_EQ(rvctr_xs_config_to_selector(0x41 | 1ULL << 56, &sel, &ctrs), 0,
	     "BR_MIS_PRED config is valid");
	T_EQ(sel, 0x41, "BR_MIS_PRED selector");
	T_EQ(ctrs, 0x7f800, "BR_MIS_PRED on backend counters");
	T_EQ(rvctr_xs_config_to_selector(1ULL << 56, &sel, &ctrs), (uint64_t)-1,
	     "a selector with no event is refused");
	T_EQ(rvctr_xs_config_to_selector(0x41 | 1ULL << 58, &sel, &ctrs), (uint64_t)-1,
	     "bits above the group are refused");
}

int main(void)
{
	test_positions();
	test_ranges();
	test_round_trip();
	test_groups();
	return tests_done();
}
