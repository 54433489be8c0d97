/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reader's ordering queue, as perf's (tools/perf/util/ordered-events.c):
 * records wait for their round and leave in (time, arrival) order.  At
 * each FINISHED_ROUND those no newer than the previous round's newest are
 * delivered (OE_FLUSH__ROUND); past a byte limit, the older half early
 * (OE_FLUSH__HALF); at the end, all.  Private header.
 */
#ifndef RVCTR_ORDERED_EVENTS_H
#define RVCTR_ORDERED_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Queued records live in 64 KiB chunks, freed when their last record
 * has been delivered: records leave the queue roughly in the order they came,
 * and a malloc per record cost more than the rest of the reading.  Small
 * chunks come back for reuse soon: fresh memory is slow (a page fault
 * each page), and most queued records are only a header (in place).
 */
struct oe_chunk {
	struct oe_chunk *next;
	size_t used, cap;
	unsigned int live;
	uint64_t data[];
};

/*
 * One record waiting for its round: a copy in data, or where it is in the
 * caller's memory (rec != data).
 */
struct qrec {
	uint64_t time, seq;
	struct oe_chunk *chunk;
	const void *rec;
	uint32_t size;
	uint64_t data[];
};

struct ordered_events {
	/* out-of-order records: a min-heap on (time, seq) */
	struct qrec **heap;
	size_t nheap, heap_cap;
	/* records no older than the newest queued: a FIFO, O(1) each */
	struct qrec **fifo;
	size_t fcap, fhead, fcount;
	uint64_t qbytes, qlimit, seq;
	uint64_t queued_in_place;	/* bytes of the queued records not copied */
	uint64_t max_ts, next_flush, limit, last_flush;
	int flushing, round_pending, all, seen_round;
	uint64_t nr_unordered;		/* queued older than what was delivered */
	struct oe_chunk *chunk;		/* where records are queued now */
	struct oe_chunk *spare;		/* empty ones, kept for reuse */
};

void oe__init(struct ordered_events *oe, uint64_t qlimit);
void oe__exit(struct ordered_events *oe);
/*
 * Queue @size bytes at @rec (kept where they are if @in_place, else
 * copied).  -1: out of memory; 1: over the byte limit, the older half is
 * now released early (the caller warns); else 0.
 */
int oe__push(struct ordered_events *oe, const void *rec, uint32_t size, uint64_t time,
	     int in_place);
/* FINISHED_ROUND: release what the previous round saw. */
void oe__round(struct ordered_events *oe);
/* End of input: release everything. */
void oe__flush_all(struct ordered_events *oe);
/* The next record due, taken off the queue, or NULL; give it back with oe__release. */
struct qrec *oe__next(struct ordered_events *oe);
/*
 * Nothing more due: ends the flush.  1 when it was a round's, whose
 * FINISHED_ROUND is now delivered.
 */
int oe__flush_done(struct ordered_events *oe);
void oe__release(struct ordered_events *oe, struct qrec *q);

#endif /* RVCTR_ORDERED_EVENTS_H */
