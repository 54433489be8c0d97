// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordering queue (ordered_events.h).  Records come mostly in time
 * order per CPU buffer: those no older than the newest queued go to a
 * FIFO, as perf's list inserts from its last position, and only the
 * others to a heap.
 */
#include <stdlib.h>
#include <string.h>

#include "ordered_events.h"
#define ALIGN8(x)		(((x) + 7) & ~(size_t)7)

/*
 * Until a FINISHED_ROUND shows that the writer uses rounds (perf record
 * always does), records are reordered within this window only: a file
 * without rounds (perf inject, older rvctr) was written in time order,
 * and memory must not grow with it.
 */
#define WINDOW_NO_ROUNDS	(16ULL << 20)
#define CHUNK_BYTES		(64u << 10)
#define FIRST_SLOTS		1024

void oe__init(struct ordered_events *oe, uint64_t qlimit)
{
	memset(oe, 0, sizeof(*oe));
	oe->qlimit = qlimit;
}

/* ---- the chunk allocator ---- */

static void chunk_retire(struct ordered_events *oe, struct oe_chunk *c)
{
	c->next = oe->spare;
	oe->spare = c;
}

void oe__release(struct ordered_events *oe, struct qrec *q)
{
	struct oe_chunk *c;

	if (!q)
		return;
	c = q->chunk;
	if (--c->live || c == oe->chunk)
		return;
	if (c->cap != CHUNK_BYTES)
		free(c);
	else
		chunk_retire(oe, c);
}

/* A chunk for a record of @need bytes: a spare one, or a new one. */
static struct oe_chunk *chunk_new(struct ordered_events *oe, size_t need)
{
	struct oe_chunk *c;
	size_t cap;

	if (oe->chunk && !oe->chunk->live)
		chunk_retire(oe, oe->chunk);
	oe->chunk = NULL;	/* on the spare list, or freed by its last oe__release() */
	if (oe->spare && need <= CHUNK_BYTES) {
		c = oe->spare;
		oe->spare = c->next;
	} else {
		cap = need > CHUNK_BYTES ? need : CHUNK_BYTES;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
	}
	c->used = 0;
	c->live = 0;
	oe->chunk = c;
	return c;
}

static struct qrec *qrec_alloc(struct ordered_events *oe, size_t size)
{
	size_t need = ALIGN8(sizeof(struct qrec) + size);
	struct oe_chunk *c = oe->chunk;
	struct qrec *q;

	if (c && c->cap - c->used < need) {
		if (!c->live && need <= c->cap)
			c->used = 0;	/* all delivered: start it over (if it fits) */
		else
			c = NULL;
	}
	if (!c && !(c = chunk_new(oe, need)))
		return NULL;
	q = (struct qrec *)((char *)c->data + c->used);
	c->used += need;
	c->live++;
	q->chunk = c;
	return q;
}

/* ---- the heap and the FIFO ---- */

static int qless(const struct qrec *a, const struct qrec *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* The oldest queued record, or NULL. */
static struct qrec *queue_min(const struct ordered_events *oe)
{
	struct qrec *f = oe->fcount ? oe->fifo[oe->fhead] : NULL;

	if (!oe->nheap)
		return f;
	return !f || qless(oe->heap[0], f) ? oe->heap[0] : f;
}

static int grow_heap(struct ordered_events *oe)
{
	size_t cap = oe->heap_cap ? oe->heap_cap * 2 : FIRST_SLOTS;
	struct qrec **n;

	if (oe->nheap < oe->heap_cap)
		return 0;
	n = realloc(oe->heap, cap * sizeof(*n));
	if (!n)
		return -1;
	oe->heap = n;
	oe->heap_cap = cap;
	return 0;
}

static int grow_fifo(struct ordered_events *oe)
{
	size_t cap = oe->fcap ? oe->fcap * 2 : FIRST_SLOTS, k;
	struct qrec **n;

	if (oe->fcount < oe->fcap)
		return 0;
	n = malloc(cap * sizeof(*n));
	if (!n)
		return -1;
	for (k = 0; k < oe->fcount; k++)
		n[k] = oe->fifo[(oe->fhead + k) % oe->fcap];
	free(oe->fifo);
	oe->fifo = n;
	oe->fcap = cap;
	oe->fhead = 0;
	return 0;
}

static void insert(struct ordered_events *oe, struct qrec *q)
{
	size_t i;

	if (!oe->fcount || oe->fifo[(oe->fhead + oe->fcount - 1) % oe->fcap]->time <= q->time) {
		oe->fifo[(oe->fhead + oe->fcount++) % oe->fcap] = q;
		return;
	}
	for (i = oe->nheap++; i && qless(q, oe->heap[(i - 1) / 2]); i = (i - 1) / 2)
		oe->heap[i] = oe->heap[(i - 1) / 2];
	oe->heap[i] = q;
}

static struct qrec *heap_pop(struct ordered_events *oe)
{
	struct qrec *top = oe->heap[0], *last = oe->heap[--oe->nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < oe->nheap) {
		if (c + 1 < oe->nheap && qless(oe->heap[c + 1], oe->heap[c]))
			c++;
		if (!qless(oe->heap[c], last))
			break;
		oe->heap[i] = oe->heap[c];
		i = c;
	}
	if (oe->nheap)
		oe->heap[i] = last;
	return top;
}

static struct qrec *queue_pop(struct ordered_events *oe)
{
	struct qrec *top = queue_min(oe);

	if (oe->fcount && top == oe->fifo[oe->fhead]) {
		oe->fhead = (oe->fhead + 1) % oe->fcap;
		oe->fcount--;
	} else {
		top = heap_pop(oe);
	}
	oe->qbytes -= sizeof(*top) + top->size;
	if (top->rec != top->data)
		oe->queued_in_place -= top->size;
	return top;
}

/* ---- flushing ---- */

/* A flush to start now?  1: over the byte limit. */
static int flush_early(struct ordered_events *oe)
{
	struct qrec *min;
	int over = oe->qbytes > oe->qlimit;

	if (oe->flushing)
		return 0;
	/* ordered-events.c, OE_FLUSH__HALF (a window when there are no rounds) */
	if (!over && (oe->seen_round || oe->qbytes <= WINDOW_NO_ROUNDS))
		return 0;
	min = queue_min(oe);
	oe->limit = min->time + (oe->max_ts - min->time) / 2;
	oe->flushing = 1;
	return over;
}

int oe__push(struct ordered_events *oe, const void *rec, uint32_t size, uint64_t time,
	     int in_place)
{
	struct qrec *q;

	if (grow_heap(oe) || grow_fifo(oe))
		return -1;
	q = qrec_alloc(oe, in_place ? 0 : size);
	if (!q)
		return -1;
	q->time = time;
	q->seq = oe->seq++;
	q->size = size;
	if (in_place) {
		q->rec = rec;
		oe->queued_in_place += size;
	} else {
		q->rec = q->data;
		memcpy(q->data, rec, size);
	}
	if (time < oe->last_flush)
		oe->nr_unordered++;
	if (time > oe->max_ts)
		oe->max_ts = time;
	oe->qbytes += sizeof(*q) + size;
	insert(oe, q);
	return flush_early(oe);
}

void oe__round(struct ordered_events *oe)
{
	oe->seen_round = 1;
	/* ordered-events.c, OE_FLUSH__ROUND: what the previous round saw */
	oe->limit = oe->next_flush;
	oe->next_flush = oe->max_ts;
	oe->flushing = 1;
	oe->round_pending = 1;
}

void oe__flush_all(struct ordered_events *oe)
{
	oe->all = 1;
	oe->limit = UINT64_MAX;
}

struct qrec *oe__next(struct ordered_events *oe)
{
	struct qrec *q = queue_min(oe);

	if (!(oe->flushing || oe->all) || !q || q->time > oe->limit)
		return NULL;
	q = queue_pop(oe);
	oe->last_flush = q->time;
	return q;
}

int oe__flush_done(struct ordered_events *oe)
{
	if (!oe->flushing)
		return 0;
	oe->flushing = 0;
	if (!oe->round_pending)
		return 0;
	oe->round_pending = 0;
	return 1;
}

void oe__exit(struct ordered_events *oe)
{
	struct oe_chunk *c;

	while (oe->nheap || oe->fcount)
		oe__release(oe, queue_pop(oe));
	free(oe->fifo);
	free(oe->heap);
	if (oe->chunk && !oe->chunk->live)
		free(oe->chunk);
	while ((c = oe->spare)) {
		oe->spare = c->next;
		free(c);
	}
}
