/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * XiangShan Kunminghu hardware performance monitor (the HPM chapter of the
 * XiangShan design document, V2R2): the four-event combining selector of
 * mhpmevent3..31 and the counter groups the events belong to.  Pure
 * helpers, shared by the driver and the host unit test
 * (tools/rvctr/tests/test-xs-hpm.c).
 *
 * mhpmevent: EVENT0 9:0, EVENT1 19:10, EVENT2 29:20, EVENT3 39:30,
 * OP_TYPE0 44:40 (EVENT0 op EVENT1), OP_TYPE1 49:45 (EVENT2 op EVENT3),
 * OP_TYPE2 54:50 (RESULT0 op RESULT1); OP_TYPE is 0 OR, 1 AND, 2 XOR,
 * 4 ADD.  An event index of 0 counts nothing.
 *
 * perf's attr.config carries the selector in the same bit positions plus
 * the counter group in bits 57:56 (an event index means different events
 * in different groups: frontend events exist only on mhpmevent3-10,
 * backend on 11-18, memory access on 19-26, cache on 27-31).
 */
#ifndef RVCTR_XS_HPM_H
#define RVCTR_XS_HPM_H

#include <rvctr/hpm.h>

/* marchid of XiangShan in the RISC-V architecture id registry */
#define RVCTR_XS_MARCHID	25
#define RVCTR_XS_MVENDORID	0

/* Field positions, as numbers so that sysfs format strings quote them. */
#define RVCTR_XS_EVENT0_LO	0
#define RVCTR_XS_EVENT0_HI	9
#define RVCTR_XS_EVENT1_LO	10
#define RVCTR_XS_EVENT1_HI	19
#define RVCTR_XS_EVENT2_LO	20
#define RVCTR_XS_EVENT2_HI	29
#define RVCTR_XS_EVENT3_LO	30
#define RVCTR_XS_EVENT3_HI	39
#define RVCTR_XS_OP0_LO		40
#define RVCTR_XS_OP0_HI		44
#define RVCTR_XS_OP1_LO		45
#define RVCTR_XS_OP1_HI		49
#define RVCTR_XS_OP2_LO		50
#define RVCTR_XS_OP2_HI		54
#define RVCTR_XS_GROUP_LO	56
#define RVCTR_XS_GROUP_HI	57

#define RVCTR_XS_NR_EVENTS	4
#define RVCTR_XS_NR_OPS		3
#define RVCTR_XS_EVENT_MAX	1023
#define RVCTR_XS_EVENT(n)	(RVCTR_MASK(9, 0) << (10 * (n)))
#define RVCTR_XS_OP(n)		(RVCTR_MASK(4, 0) << (40 + 5 * (n)))
#define RVCTR_XS_GROUP		RVCTR_MASK(RVCTR_XS_GROUP_HI, RVCTR_XS_GROUP_LO)
#define RVCTR_XS_SELECTOR	RVCTR_MASK(RVCTR_XS_OP2_HI, 0)
#define RVCTR_XS_CONFIG_VALID	(RVCTR_XS_SELECTOR | RVCTR_XS_GROUP)

enum rvctr_xs_op {
	RVCTR_XS_OP_OR	= 0,
	RVCTR_XS_OP_AND	= 1,
	RVCTR_XS_OP_XOR	= 2,
	RVCTR_XS_OP_ADD	= 4,
};

enum rvctr_xs_group {
	RVCTR_XS_FRONTEND	= 0,
	RVCTR_XS_BACKEND	= 1,
	RVCTR_XS_MEMORY		= 2,
	RVCTR_XS_CACHE		= 3,
};

/* One combined selector, as a user states it. */
struct rvctr_xs_sel {
	__u16 event[RVCTR_XS_NR_EVENTS];
	__u8 op[RVCTR_XS_NR_OPS];
	__u8 group;
};

static inline int rvctr_xs_op_valid(unsigned int op)
{
	return op == RVCTR_XS_OP_OR || op == RVCTR_XS_OP_AND ||
	       op == RVCTR_XS_OP_XOR || op == RVCTR_XS_OP_ADD;
}

/* Counters (bit i = mhpmcounter i) that can count events of @group. */
static inline __u64 rvctr_xs_group_counters(unsigned int group)
{
	static const __u64 counters[] = {
		[RVCTR_XS_FRONTEND]	= RVCTR_MASK(10, 3),
		[RVCTR_XS_BACKEND]	= RVCTR_MASK(18, 11),
		[RVCTR_XS_MEMORY]	= RVCTR_MASK(26, 19),
		[RVCTR_XS_CACHE]	= RVCTR_MASK(31, 27),
	};

	return group < 4 ? counters[group] : 0;
}

/* attr.config for @s; returns -1 if a field is out of range. */
static inline int rvctr_xs_encode(const struct rvctr_xs_sel *s, __u64 *config)
{
	__u64 v = RVCTR_PREP(RVCTR_XS_GROUP, s->group);
	int i;

	if (s->group > RVCTR_XS_CACHE)
		return -1;
	for (i = 0; i < RVCTR_XS_NR_EVENTS; i++) {
		if (s->event[i] > RVCTR_XS_EVENT_MAX)
			return -1;
		v |= RVCTR_PREP(RVCTR_XS_EVENT(i), s->event[i]);
	}
	for (i = 0; i < RVCTR_XS_NR_OPS; i++) {
		if (!rvctr_xs_op_valid(s->op[i]))
			return -1;
		v |= RVCTR_PREP(RVCTR_XS_OP(i), s->op[i]);
	}
	*config = v;
	return 0;
}

/* The inverse of rvctr_xs_encode; -1 on reserved bits or invalid ops. */
static inline int rvctr_xs_decode(__u64 config, struct rvctr_xs_sel *s)
{
	int i;

	if (config & ~RVCTR_XS_CONFIG_VALID)
		return -1;
	for (i = 0; i < RVCTR_XS_NR_EVENTS; i++)
		s->event[i] = RVCTR_GET(RVCTR_XS_EVENT(i), config);
	for (i = 0; i < RVCTR_XS_NR_OPS; i++) {
		s->op[i] = RVCTR_GET(RVCTR_XS_OP(i), config);
		if (!rvctr_xs_op_valid(s->op[i]))
			return -1;
	}
	s->group = RVCTR_GET(RVCTR_XS_GROUP, config);
	return 0;
}

/*
 * attr.config to the mhpmevent selector and the counters that may hold
 * it; -1 if @config is invalid or selects no event at all.
 */
static inline int rvctr_xs_config_to_selector(__u64 config, __u64 *selector,
					      __u64 *counters)
{
	struct rvctr_xs_sel s;

	if (rvctr_xs_decode(config, &s) ||
	    !(config & RVCTR_MASK(RVCTR_XS_EVENT3_HI, 0)))
		return -1;
	*selector = config & RVCTR_XS_SELECTOR;
	*counters = rvctr_xs_group_counters(s.group);
	return 0;
}

#endif /* RVCTR_XS_HPM_H */
