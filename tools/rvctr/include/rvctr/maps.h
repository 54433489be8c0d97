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
/* Most maps kept (of all processes, forked copies included). */
#define RVCTR_MAPS_MAX		(1u << 20)
/* A smaller limit than RVCTR_MAPS_MAX, for tests of a full table. */
void rvctr_maps__set_limit(struct rvctr_maps *m, unsigned int max);

/*
 * A new map replaces the parts of older maps it overlaps; what is left of
 * them (a part below it, one above) stays.  In a full table (RVCTR_MAPS_MAX
 * maps, 4096 binaries) the overlapped maps go first, then the new map goes
 * in, then the part below, then the one above, as room allows:
 *   0   kept, and what is left of the maps it overlaps
 *   1   kept, but a part of an older map it overlaps was dropped for want
 *       of room: those addresses are in no map
 *  -1   not kept (full, or out of memory): the parts of older maps it
 *       overlaps are removed all the same, so its addresses are in no map
 *       rather than in one it replaced; a map not kept makes no binary
 *       and gives none its build id
 * A map whose MMAP2 carries no build id takes the one
 * the recording's header gave its file name, if any
 * (rvctr_maps__header_build_id()): a binary is known by path and build id
 * either way.
 */
int rvctr_maps__add(struct rvctr_maps *m, const struct rvctr_mmap *mm);
/*
 * A build id of the recording's header (HEADER_BUILD_ID), for the maps of
 * its file name added later without one of their own: the first of a name
 * wins; past RVCTR_MAPS_MAX_BUILD_IDS they are dropped (files are then
 * used unchecked).  The kernel's, "[kernel.kallsyms]", is its map's
 * whatever the map's reference-symbol suffix.  0, or -1 out of memory.
 */
#define RVCTR_MAPS_MAX_BUILD_IDS	1024
int rvctr_maps__header_build_id(struct rvctr_maps *m, const struct rvctr_build_id *b);
/* The header's build id of file @name, or NULL. */
const struct rvctr_build_id *rvctr_maps__find_header_build_id(const struct rvctr_maps *m,
							      const char *name);
/*
 * A process's lifetime, as perf's threads have it (maps belong to the
 * process, pid, and every thread of it shares them):
 *   fork  a new process @pid (pid != ppid) starts with a copy of @ppid's
 *         maps and none of an earlier process with its pid; a new thread
 *         (pid == ppid) changes nothing
 *   exit  the process @pid (its leader, tid == pid) ended: its maps still
 *         place its own late samples, but the next process to reuse the
 *         pid (its FORK, COMM or MMAP) starts without them
 *   comm  an exec (@exec) replaces the address space: the maps go
 * 0, or -1 when full or out of memory (some of @ppid's maps not copied).
 */
int rvctr_maps__fork(struct rvctr_maps *m, uint32_t pid, uint32_t ppid);
void rvctr_maps__exit(struct rvctr_maps *m, uint32_t pid, uint32_t tid);
void rvctr_maps__comm(struct rvctr_maps *m, uint32_t pid, int exec);
/*
 * MMAP, MMAP2, FORK, EXIT and COMM events to the calls above; others
 * ignored.  Their results: 0, 1 (a map kept, a part of another dropped), -1.
 */
int rvctr_maps__event(struct rvctr_maps *m, const struct rvctr_event *ev);
/*
 * Forget every process and the header's build ids (the start of another
 * recording, whose pids and files are not this one's).  Binary names and
 * their indexes stay.
 */
void rvctr_maps__reset(struct rvctr_maps *m);
/*
 * The newest map of @pid holding @addr, else the kernel's (pid -1, which
 * apply to every process), or NULL: never another process's.  O(log n) in
 * the maps of @pid.  A newer map replaces the parts of older ones it
 * overlaps, so the result may be a cut-down part of an older map (start
 * and pgoff moved together).  Valid until the maps next change.
 */
const struct rvctr_map *rvctr_maps__find(struct rvctr_maps *m, uint32_t pid, uint64_t addr);
/*
 * Binaries, by index (struct rvctr_map's dso): a path and a build id are
 * one binary; two build ids of one path two (a map whose MMAP2 has no
 * build id joins one of its path, as perf's dsos do).
 */
unsigned int rvctr_maps__nr_dsos(const struct rvctr_maps *m);
const char *rvctr_maps__dso_name(const struct rvctr_maps *m, unsigned int dso);
/* The build id of binary @dso, or NULL (*@size 0) when none is known. */
const uint8_t *rvctr_maps__dso_build_id(const struct rvctr_maps *m, unsigned int dso,
					unsigned int *size);

#endif /* RVCTR_MAPS_H */
