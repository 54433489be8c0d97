// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordering queue alone (lib/ordered_events.c), without a perf.data
 * file: the order records leave in, what a round, the no-rounds window
 * and the byte limit release, and the chunk allocator (reuse, records
 * near 64 KiB, in-place records, everything freed at exit under ASan).
 */
#include <stdlib.h>

#include "lib/ordered_events.h"
#include "tests.h"

/* A record of @size bytes (copied), its first word its time. */
static int push(struct ordered_events *oe, uint64_t time, uint32_t size)
{
	static uint64_t buf[65536 / 8];

	buf[0] = time;
	return oe__push(oe, buf, size, time, 0);
}

/* Take what is due; the times in @out (up to @max). */
static unsigned int drain(struct ordered_events *oe, uint64_t *out, unsigned int max)
{
	struct qrec *q;
	unsigned int n = 0;

	while ((q = oe__next(oe))) {
		if (n < max)
			out[n] = ((const uint64_t *)q->rec)[0];
		n++;
		oe__release(oe, q);
	}
	return n;
}

static void test_order(void)
{
	static const uint64_t in[] = { 30, 10, 20, 20, 5, 40, 35 };
	struct ordered_events oe;
	uint64_t out[8];
	unsigned int i, n, sorted = 1;

	oe__init(&oe, 1 << 20);
	for (i = 0; i < 7; i++)
		push(&oe, in[i], 16);
	T_EQ(drain(&oe, out, 8), 0, "nothing leaves before a round or the end");
	oe__flush_all(&oe);
	n = drain(&oe, out, 8);
	for (i = 1; i < n; i++)
		sorted &= out[i - 1] <= out[i];
	T_EQ(n, 7, "at the end, every record leaves");
	T_OK(sorted, "in time order");
	T_EQ(oe.qbytes, 0, "the queue counts no bytes when empty");
	oe__exit(&oe);
}

/* Equal times leave in the order they came (the heap orders by arrival too). */
static void test_equal_times(void)
{
	struct ordered_events oe;
	struct qrec *q;
	uint64_t seq[4];
	unsigned int n = 0;

	oe__init(&oe, 1 << 20);
	push(&oe, 50, 16);
	push(&oe, 20, 16);	/* heap */
	push(&oe, 20, 16);	/* heap, after the first 20 */
	push(&oe, 20, 16);
	oe__flush_all(&oe);
	while ((q = oe__next(&oe)) && n < 4) {
		seq[n++] = q->seq;
		oe__release(&oe, q);
	}
	T_OK(n == 4 && seq[0] == 1 && seq[1] == 2 && seq[2] == 3 && seq[3] == 0,
	     "equal times: arrival order, then the later time");
	oe__exit(&oe);
}

/*
 * ordered-events.c's OE_FLUSH__ROUND: a round releases what the round
 * before it saw, so a record of the next round older than this round's
 * newest still goes before it.
 */
static void test_rounds(void)
{
	struct ordered_events oe;
	uint64_t out[8];

	oe__init(&oe, 1 << 20);
	push(&oe, 100, 16);
	push(&oe, 120, 16);
	oe__round(&oe);
	T_EQ(drain(&oe, out, 8), 0, "the first round releases nothing");
	T_EQ(oe__flush_done(&oe), 1, "and its FINISHED_ROUND is delivered");
	T_EQ(oe__flush_done(&oe), 0, "once");
	push(&oe, 110, 16);
	push(&oe, 200, 16);
	oe__round(&oe);
	T_EQ(drain(&oe, out, 8), 3, "the second releases what the first saw");
	T_OK(out[0] == 100 && out[1] == 110 && out[2] == 120, "110 before 120");
	T_EQ(oe.nr_unordered, 0, "nothing unordered");
	push(&oe, 115, 16);
	T_EQ(oe.nr_unordered, 1, "older than what was delivered: unordered");
	oe__exit(&oe);
}

/* Without rounds, a window of 16 MiB; over the limit, half early, with a warning. */
static void test_windows(void)
{
	struct ordered_events oe;
	uint64_t t, out[1];
	int ret = 0;

	oe__init(&oe, 1ULL << 40);
	for (t = 1; oe.qbytes <= (16ULL << 20); t++)
		ret |= push(&oe, t, 4096);
	T_EQ(ret, 0, "no warning for the window");
	T_OK(oe.flushing && oe.limit > 1 && oe.limit < t, "past 16 MiB without rounds: half");
	T_OK(drain(&oe, out, 1) > 0 && oe.qbytes <= (9ULL << 20), "about half is released");
	oe__exit(&oe);

	oe__init(&oe, 1 << 16);
	oe__round(&oe);
	oe__flush_done(&oe);
	for (t = 1, ret = 0; !ret; t++)
		ret = push(&oe, t, 4096);
	T_EQ(ret, 1, "with rounds, over the limit: 1 (the caller warns)");
	T_OK(oe.qbytes > (1 << 16) && oe.flushing, "and half is released early");
	oe__exit(&oe);
}

/* Records in place are not copied, and their bytes are counted apart. */
static void test_in_place(void)
{
	static uint64_t input[4][2];
	struct ordered_events oe;
	struct qrec *q;
	unsigned int i;

	oe__init(&oe, 1 << 20);
	for (i = 0; i < 4; i++) {
		input[i][0] = 10 - i;
		oe__push(&oe, input[i], 16, 10 - i, 1);
	}
	T_EQ(oe.queued_in_place, 64, "in-place bytes counted");
	oe__flush_all(&oe);
	q = oe__next(&oe);
	T_OK(q && q->rec == input[3], "the record is where it was");
	oe__release(&oe, q);
	T_EQ(oe.queued_in_place, 48, "and uncounted when it leaves");
	oe__exit(&oe);
}

/* A chunk whose records have all left is reused, not a fresh malloc. */
static void test_chunk_reuse(void)
{
	struct ordered_events oe;
	struct oe_chunk *spare;
	uint64_t out[1];
	unsigned int i;

	oe__init(&oe, 1ULL << 40);
	for (i = 0; i < 2000; i++)	/* several 64 KiB chunks */
		push(&oe, i + 1, 256);
	oe__flush_all(&oe);
	drain(&oe, out, 0);
	spare = oe.spare;
	T_OK(spare != NULL, "emptied chunks are kept");
	for (i = 0; i < 2000; i++)
		push(&oe, 5000 + i, 256);
	T_OK(spare && spare->live > 0, "and filled again");
	drain(&oe, out, 0);
	oe__exit(&oe);
}

/*
 * A record of nearly 64 KiB queued by copy once the current chunk has
 * delivered all it held: the chunk is started over only if the record
 * fits it (the heap overflow of 5c05892).  Under ASan an overflow here
 * is a heap-buffer-overflow report.
 */
static void test_large_after_empty(void)
{
	struct ordered_events oe;
	uint64_t out[4];
	struct qrec *q;

	oe__init(&oe, 1ULL << 40);
	push(&oe, 1, 48);
	oe__flush_all(&oe);
	q = oe__next(&oe);
	oe__release(&oe, q);
	T_OK(oe.chunk && oe.chunk->live == 0, "the current chunk is empty");
	T_EQ(push(&oe, 2, 65528), 0, "a 65528-byte record queued after it");
	T_EQ(push(&oe, 3, 65528), 0, "and another");
	T_EQ(drain(&oe, out, 4), 2, "both delivered");
	oe__exit(&oe);
}

/* Exit with records still queued, in chunks and in place: ASan sees no leak. */
static void test_exit_queued(void)
{
	struct ordered_events oe;
	unsigned int i;

	oe__init(&oe, 1ULL << 40);
	for (i = 0; i < 300; i++)
		push(&oe, 1000 - i, i % 3 ? 64 : 65000);
	oe__exit(&oe);
	T_OK(1, "exit with 300 records queued (leaks: see LeakSanitizer)");
}

int main(void)
{
	test_order();
	test_equal_times();
	test_rounds();
	test_windows();
	test_in_place();
	test_chunk_reuse();
	test_large_after_empty();
	test_exit_queued();
	return tests_done();
}
