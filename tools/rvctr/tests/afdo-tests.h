/* SPDX-License-Identifier: GPL-2.0-only */
/* What the AutoFDO tests share: the binary's address space and a branch. */
#ifndef RVCTR_TESTS_AFDO_TESTS_H
#define RVCTR_TESTS_AFDO_TESTS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/autofdo.h>

/* The binary is [0x10000, 0x20000), reported as offsets from 0x10000. */
static inline int xlate(void *ctx, uint64_t addr, uint64_t *out)
{
	(void)ctx;
	if (addr < 0x10000 || addr >= 0x20000)
		return -1;
	*out = addr - 0x10000;
	return 0;
}

static inline void br(struct perf_branch_entry *b, uint64_t from, uint64_t to)
{
	memset(b, 0, sizeof(*b));
	b->from = from;
	b->to = to;
}

/* The profile as text (free it). */
static inline char *text_of(const struct rvctr_afdo *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f) {
		rvctr_afdo__write(a, f);
		fclose(f);
	}
	return buf;
}

#endif
