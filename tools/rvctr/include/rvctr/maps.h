/* SPDX-License-Identifier: GPL-2.0-only */
/* Process address maps built from MMAP/MMAP2 records: address -> binary. */
#ifndef RVCTR_MAPS_H
#define RVCTR_MAPS_H

#include <stdint.h>
#include <rvctr/perf_data.h>

struct rvctr_map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	unsigned int dso;		/* index into the maps' binary names */
};

struct rvctr_maps;

struct rvctr_maps *rvctr_maps__new(void);
void rvctr_maps__delete(struct rvctr_maps *m);
/* 0, or -1 when full or out of memory. */
int rvctr_maps__add(struct rvctr_maps *m, const struct rvctr_mmap *mm);
/*
 * The newest map of @pid holding @addr, else the newest map of any pid
 * holding it (kernel maps are pid -1; a forked child has its parent's), or
 * NULL.  O(log n) in the maps of @pid.  A newer map replaces the parts of
 * older ones it overlaps, so the result may be a cut-down part of an
 * older map (start and pgoff moved together).  Valid until the next add.
 */
const struct rvctr_map *rvctr_maps__find(struct rvctr_maps *m, uint32_t pid, uint64_t addr);
unsigned int rvctr_maps__nr_dsos(const struct rvctr_maps *m);
const char *rvctr_maps__dso_name(const struct rvctr_maps *m, unsigned int dso);

#endif /* RVCTR_MAPS_H */
