/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rvctr module's side of the CTR selftests: what only the module
 * has, its debugfs raw snapshot of this CPU's CTR buffer
 * (/sys/kernel/debug/rvctr/ctr: a header line, then one line per entry,
 * "INDEX CTRSOURCE CTRTARGET CTRDATA" in hex, newest first) decoded with
 * the driver's own helpers (drivers/perf/riscv_ctr_rec.h), and its .ko,
 * which tests unload and load again.  The upstream series carries
 * ctr_test_lib.h, never this.
 */
#ifndef CTR_MODULE_LIB_H
#define CTR_MODULE_LIB_H

#include <riscv_ctr_rec.h>

#include "ctr_test_lib.h"

#define CT_RAW_CTR	"/sys/kernel/debug/rvctr/ctr"
#define CT_RVCTR_KO	"/opt/rvctr/rvctr.ko"

/* Is the driver the rvctr module, with its .ko where the tests reload it? */
static inline bool ct_is_module(void)
{
	return !access("/sys/module/rvctr", F_OK) && !access(CT_RVCTR_KO, R_OK);
}

/* This CPU's CTR now (the raw snapshot) into @buf; its length or -1. */
static inline int ct_raw_snapshot(char *buf, size_t size)
{
	int fd = open(CT_RAW_CTR, O_RDONLY);
	size_t len = 0;
	ssize_t got;

	if (fd < 0)
		return -1;
	while (len < size - 1 && (got = read(fd, buf + len, size - 1 - len)) > 0)
		len += got;
	close(fd);
	buf[len] = 0;
	return len;
}

/* Valid entries of a raw snapshot from or to [@lo, @hi). */
static inline int ct_raw_records_in(const char *buf, uint64_t lo, uint64_t hi)
{
	unsigned long long src, tgt, data;
	const char *line;
	int n = 0, idx;

	for (line = strchr(buf, '\n'); line; line = strchr(line + 1, '\n')) {
		uint64_t from, to;

		if (sscanf(line + 1, "%d %llx %llx %llx", &idx, &src, &tgt, &data) != 4 ||
		    !riscv_ctr_valid(src))
			continue;
		from = riscv_ctr_from(src);
		to = riscv_ctr_to(tgt);
		n += (from >= lo && from < hi) || (to >= lo && to < hi);
	}
	return n;
}

#endif /* CTR_MODULE_LIB_H */
