/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pids of several recordings merged into one perf.data (convert -f perf,
 * spe).  A pid that an earlier input also used is compared with the
 * latest such input's process: it is that process going on, with its
 * output pid, when its history agrees (a later file of the same session:
 * its first record is a sample, or its COMM and first MMAP, by file,
 * start and offset, are that process's); else it is another process
 * (another boot or machine) and is written as an unused pid,
 * PID_MAX_LIMIT (4194304) and up, which no Linux process can have.  So
 * is a pid new to the merge whose value was handed out already (an
 * output merged again).  Its threads' ids and every record (COMM, MMAP,
 * FORK, EXIT, samples) follow.  A process's COMM and FORK records are held back until
 * its first MMAP or sample (at most to the end of the round) decides.
 */
#ifndef RVCTR_PIDMAP_H
#define RVCTR_PIDMAP_H

#include <rvctr/perf_data.h>

struct pidmap;
typedef int (*pidmap_emit_fn)(void *arg, const struct rvctr_event *ev);

struct pidmap *pidmap__new(void);
void pidmap__delete(struct pidmap *pm);
/*
 * An input starts (@path names it in warnings); held back records of the
 * previous one, if it was not flushed, are emitted first.  0, or what
 * emit returned.
 */
int pidmap__input(struct pidmap *pm, const char *path, pidmap_emit_fn emit, void *arg);
/*
 * One event: @emit is called for it and any records it releases, with
 * the output's pids, or not yet (held back).  0, -1 out of memory, or
 * what emit returned.
 */
int pidmap__event(struct pidmap *pm, const struct rvctr_event *ev, pidmap_emit_fn emit, void *arg);
/* The end of an input: emit what is held back. */
int pidmap__flush(struct pidmap *pm, pidmap_emit_fn emit, void *arg);

#endif /* RVCTR_PIDMAP_H */
