/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counters keyed by an address pair: branch edges (from, to), ranges
 * (begin, end) or single addresses (addr, 0).  Memory grows with the number
 * of distinct keys (the program's size), not with the input's.
 */
#ifndef RVCTR_TABLE_H
#define RVCTR_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct rvctr_counts {
	uint64_t a, b;			/* the key (struct rvctr_hash_key) */
	uint64_t count;
	uint64_t mispred;
	uint64_t cycles;		/* sum over records with valid cycles */
	uint64_t cycles_n;
	uint32_t type;			/* PERF_BR_* of the last record */
	uint32_t pid;			/* a pid the key was seen in (for symbols) */
};

struct rvctr_table;

struct rvctr_table *rvctr_table__new(void);
void rvctr_table__delete(struct rvctr_table *t);
/* The counters for (a, b), created at zero; NULL when out of memory. */
struct rvctr_counts *rvctr_table__get(struct rvctr_table *t, uint64_t a, uint64_t b);
size_t rvctr_table__size(const struct rvctr_table *t);
/* A freshly allocated array of the entries sorted by key (a, b); free() it. */
struct rvctr_counts *rvctr_table__sorted(const struct rvctr_table *t, size_t *nr);
/* The same, sorted by count, highest first. */
struct rvctr_counts *rvctr_table__by_count(const struct rvctr_table *t, size_t *nr);

#endif /* RVCTR_TABLE_H */
