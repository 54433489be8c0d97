// SPDX-License-Identifier: GPL-2.0-only
/* AutoFDO text profile aggregation; see rvctr/autofdo.h. */
#include <inttypes.h>
#include <stdlib.h>

#include <rvctr/autofdo.h>
#include <rvctr/symtab.h>
#include <rvctr/table.h>

/* AutoFDO drops ranges longer than this as bogus, and a duplicated head
 * entry whose loop body is longer than the stride limit. */
#define MAX_RANGE		(1u << 20)
#define DUP_STRIDE_LIMIT	0x1000

/*
 * The key counted last in a table, and its counter: a stack repeats its
 * records (a loop's back edge, again and again), so most counts go to the
 * key counted just before.  Valid until the table grows, which only a new
 * key of the same table does, through bump(), which then replaces it.
 */
struct last {
	uint64_t x, y;
	struct rvctr_counts *c;
};

struct rvctr_afdo {
	struct rvctr_table *ranges, *addrs, *branches;
	struct last last_range, last_branch;
	const struct rvctr_symtab *elf;	/* the binary, when it could be read */
	struct rvctr_symtab *own;	/* elf, when loaded here (set_binary) */
	int pie;			/* elf is ET_DYN: offsets become vaddrs */
	unsigned int window;		/* count only the last N instructions (0: all) */
	uint64_t *ring;			/* window's: instruction starts of a range */
	uint64_t samples, short_stacks;	/* window's: stacks that reach back less */
};

struct rvctr_afdo *rvctr_afdo__new(void)
{
	struct rvctr_afdo *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->ranges = rvctr_table__new();
	a->addrs = rvctr_table__new();
	a->branches = rvctr_table__new();
	if (!a->ranges || !a->addrs || !a->branches) {
		rvctr_afdo__delete(a);
		return NULL;
	}
	return a;
}

void rvctr_afdo__delete(struct rvctr_afdo *a)
{
	if (!a)
		return;
	rvctr_table__delete(a->ranges);
	rvctr_table__delete(a->addrs);
	rvctr_table__delete(a->branches);
	rvctr_symtab__delete(a->own);
	free(a->ring);
	free(a);
}

int rvctr_afdo__set_binary(struct rvctr_afdo *a, const char *path, char *err, size_t errlen)
{
	rvctr_symtab__delete(a->own);
	a->own = rvctr_symtab__load(path, NULL, err, errlen);
	a->elf = a->own;
	a->pie = a->elf && rvctr_symtab__is_pie(a->elf);
	return a->elf ? 0 : -1;
}

void rvctr_afdo__set_symtab(struct rvctr_afdo *a, const struct rvctr_symtab *t)
{
	rvctr_symtab__delete(a->own);
	a->own = NULL;
	a->elf = t;
	a->pie = t && rvctr_symtab__is_pie(t);
}

/*
 * The address AutoFDO wants for file offset @off (see rvctr/autofdo.h): the
 * offset itself for ET_EXEC, the ELF virtual address for ET_DYN.
 */
static int to_binary(const struct rvctr_afdo *a, uint64_t off, uint64_t *out)
{
	if (a->pie)
		return rvctr_symtab__offset_to_vaddr(a->elf, off, out);
	*out = off;
	return 0;
}

static int bump(struct rvctr_table *t, uint64_t x, uint64_t y)
{
	struct rvctr_counts *c = rvctr_table__get(t, x, y);

	if (!c)
		return -1;
	c->count++;
	return 0;
}

/* bump() through the table's last key (every count of ranges and branches goes here) */
static inline int bump_last(struct rvctr_table *t, struct last *l, uint64_t x, uint64_t y)
{
	if (!l->c || l->x != x || l->y != y) {
		struct rvctr_counts *c = rvctr_table__get(t, x, y);

		if (!c)
			return -1;
		*l = (struct last){ x, y, c };
	}
	l->c->count++;
	return 0;
}

/* An entry's ends in the binary's addresses; one that does not translate is 0. */
static void xlate_entry(const struct rvctr_afdo *a, const struct rvctr_afdo_entry *in,
			struct rvctr_afdo_entry *x)
{
	x->from_ok = in->from_ok && !to_binary(a, in->from, &x->from);
	x->to_ok = in->to_ok && !to_binary(a, in->to, &x->to);
	if (!x->from_ok)
		x->from = 0;
	if (!x->to_ok)
		x->to = 0;
}

/*
 * A head entry repeated at index 1 with a long loop body is an LBR artefact.
 * It is a property of the recorded entries, so the raw addresses are
 * compared: an end that does not translate has no binary address to compare.
 */
static int dup_head(const struct perf_branch_entry *e0, const struct perf_branch_entry *e1)
{
	return e0->from == e1->from && e0->to == e1->to &&
	       e0->from - e0->to > DUP_STRIDE_LIMIT;
}

int rvctr_afdo__set_window(struct rvctr_afdo *a, unsigned int n)
{
	uint64_t *ring = NULL;

	if (n > RVCTR_AFDO_MAX_WINDOW)
		return -1;
	if (n && !(ring = calloc(n, sizeof(*ring))))
		return -1;
	free(a->ring);
	a->ring = ring;
	a->window = n;
	return 0;
}

void rvctr_afdo__window_stats(const struct rvctr_afdo *a, uint64_t *samples, uint64_t *short_stacks)
{
	*samples = a->samples;
	*short_stacks = a->short_stacks;
}

/* The ELF virtual address of binary address @addr, for its code. */
static int code_vaddr(const struct rvctr_afdo *a, uint64_t addr, uint64_t *va)
{
	if (!a->elf)
		return -1;
	if (a->pie) {
		*va = addr;
		return 0;
	}
	return rvctr_symtab__offset_to_vaddr(a->elf, addr, va);
}

/*
 * The instructions of straight-line code [@b, @e] of the binary (@e the
 * last one's start, or any address inside it): how many (*@n), the last
 * one's start (*@last), and the start of the @left-th last (*@first; @b
 * when there are no more).  RISC-V: an instruction whose two low bits are
 * 11 is 32 bits long, any other 16 (the unprivileged ISA, "Base
 * Instruction-Length Encoding"; no longer ones are ratified).  -1 when the
 * binary's code cannot be read there.
 */
static int walk_range(struct rvctr_afdo *a, uint64_t b, uint64_t e, unsigned int left,
		      uint64_t *n, uint64_t *first, uint64_t *last)
{
	uint8_t buf[256];
	uint64_t va, pos = b, base = 0, got = 0, k = 0;

	if (code_vaddr(a, b, &va))
		return -1;
	while (pos <= e) {
		if (pos >= base + got) {
			/* the chunk from here, or what the file holds of it */
			size_t len = sizeof(buf);

			if (e - pos < len - 4)
				len = e - pos + 4;
			while (len >= 2 && rvctr_symtab__read(a->elf, va + (pos - b), buf, len))
				len = len > 4 ? len / 2 : len - 2;
			if (len < 2)
				return -1;
			base = pos;
			got = len;
		}
		a->ring[k++ % left] = pos;
		pos += (buf[pos - base] & 3) == 3 ? 4 : 2;
	}
	*n = k;
	*last = a->ring[(k - 1) % left];
	*first = k > left ? a->ring[(k - left) % left] : b;
	return 0;
}

/*
 * rvctr_afdo__add_entries() counting only the last @a->window instructions
 * before the sample point: from the ip back, [to_0, ip), [to_1, from_0],
 * ..., the oldest range cut to the window's length; a branch counts when
 * the window reaches back over it.  Stacks sampled on instructions or
 * cycles reach back over many instructions in straight code and few in
 * branchy code, so whole stacks over-count straight code; in a fixed
 * window every instruction that ran has the same chance to be counted.
 * Code in other binaries takes up the window too, at 3 bytes an
 * instruction (its code is not read).
 */
static int add_window(struct rvctr_afdo *a, int ip_ok, uint64_t ip,
		      const struct perf_branch_entry *br, const struct rvctr_afdo_entry *x,
		      uint64_t nr)
{
	uint64_t left = a->window, end_raw = 0, i, n = 0, first, last, end;
	int end_ok = ip_ok, ret = 0;

	a->samples++;
	if (!nr)
		return 0;
	end = ip - 1;			/* the ip is the next to run */
	end_raw = 0;
	for (i = 0; i < nr; i++) {
		const struct perf_branch_entry *e = &br[i];

		if (end_ok && x[i].to_ok && x[i].to <= end &&
		    !walk_range(a, x[i].to, end, left, &n, &first, &last)) {
			if (!n)
				break;
			ret |= bump_last(a->ranges, &a->last_range, first, last);
		} else if (!i) {
			n = 0;		/* the ip elsewhere: its range unknown */
		} else {
			/* elsewhere: the raw addresses' length */
			if (e->to > end_raw)
				break;	/* not straight-line code (a trap between) */
			n = (end_raw - e->to) / 3 + 1;
		}
		if (n >= left) {
			left = 0;
			break;
		}
		left -= n;
		if (x[i].from_ok && x[i].to_ok)
			ret |= bump_last(a->branches, &a->last_branch, x[i].from, x[i].to);
		end = x[i].from;
		end_ok = x[i].from_ok;
		end_raw = e->from;
	}
	if (left)
		a->short_stacks++;
	return ret;
}

int rvctr_afdo__add_entries(struct rvctr_afdo *a, int ip_ok, uint64_t ip_off,
			    const struct perf_branch_entry *br,
			    const struct rvctr_afdo_entry *offs, uint64_t nr)
{
	struct rvctr_afdo_entry prev, cur, head;
	uint64_t addr = 0, i;
	int ret = 0;

	ip_ok = ip_ok && !to_binary(a, ip_off, &addr);
	if (ip_ok)
		ret |= bump(a->addrs, addr, 0);
	if (a->window) {
		struct rvctr_afdo_entry x[RVCTR_MAX_BRANCHES];

		if (nr > RVCTR_MAX_BRANCHES)
			nr = RVCTR_MAX_BRANCHES;
		for (i = 0; i < nr; i++)
			xlate_entry(a, &offs[i], &x[i]);
		return ret | add_window(a, ip_ok, addr, br, x, nr);
	}
	if (!nr)
		return ret;
	xlate_entry(a, &offs[0], &head);
	if (head.from_ok && head.to_ok)
		ret |= bump_last(a->branches, &a->last_branch, head.from, head.to);
	prev = head;
	for (i = 1; i < nr; i++, prev = cur) {
		xlate_entry(a, &offs[i], &cur);
		if (!cur.to_ok || !prev.from_ok || (i == 1 && dup_head(&br[0], &br[1])))
			continue;
		if (prev.from < cur.to || prev.from - cur.to > MAX_RANGE)
			continue;
		ret |= bump_last(a->ranges, &a->last_range, cur.to, prev.from);
		if (cur.from_ok)
			ret |= bump_last(a->branches, &a->last_branch, cur.from, cur.to);
	}
	return ret;
}

/*
 * rvctr_afdo__add_entries() for a stack wholly in one map, ET_EXEC: every
 * end translates, to itself, so the offsets are made here as they are
 * used.  Same counts, in a third of the instructions.
 */
static int add_exec(struct rvctr_afdo *a, const struct perf_branch_entry *br, uint64_t nr,
		    uint64_t bias)
{
	uint64_t prev_from = br[0].from + bias, i;
	int ret = bump_last(a->branches, &a->last_branch, prev_from, br[0].to + bias);

	for (i = 1; i < nr; i++) {
		uint64_t from = br[i].from + bias, to = br[i].to + bias, pf = prev_from;

		prev_from = from;
		if (i == 1 && dup_head(&br[0], &br[1]))
			continue;
		if (pf < to || pf - to > MAX_RANGE)
			continue;
		ret |= bump_last(a->ranges, &a->last_range, to, pf);
		ret |= bump_last(a->branches, &a->last_branch, from, to);
	}
	return ret;
}

int rvctr_afdo__add_biased(struct rvctr_afdo *a, int ip_ok, uint64_t ip_off,
			   const struct perf_branch_entry *br, uint64_t nr, uint64_t bias)
{
	struct rvctr_afdo_entry offs[RVCTR_MAX_BRANCHES];
	uint64_t addr, i;
	int ret = 0;

	if (nr > RVCTR_MAX_BRANCHES)
		nr = RVCTR_MAX_BRANCHES;
	if (a->pie || !nr || a->window) {
		for (i = 0; i < nr; i++)
			offs[i] = (struct rvctr_afdo_entry){ br[i].from + bias, br[i].to + bias, 1, 1 };
		return rvctr_afdo__add_entries(a, ip_ok, ip_off, br, offs, nr);
	}
	if (ip_ok && !to_binary(a, ip_off, &addr))
		ret |= bump(a->addrs, addr, 0);
	return ret | add_exec(a, br, nr, bias);
}

int rvctr_afdo__add(struct rvctr_afdo *a, uint64_t ip, const struct perf_branch_entry *br,
		    uint64_t nr, rvctr_afdo_xlate_t xlate, void *ctx)
{
	struct rvctr_afdo_entry offs[RVCTR_MAX_BRANCHES];
	uint64_t ip_off, i;
	int ip_ok = !xlate(ctx, ip, &ip_off);

	if (nr > RVCTR_MAX_BRANCHES)
		nr = RVCTR_MAX_BRANCHES;
	for (i = 0; i < nr; i++) {
		offs[i].from_ok = !xlate(ctx, br[i].from, &offs[i].from);
		offs[i].to_ok = !xlate(ctx, br[i].to, &offs[i].to);
	}
	return rvctr_afdo__add_entries(a, ip_ok, ip_off, br, offs, nr);
}

static int write_table(const struct rvctr_table *t, FILE *out, const char *sep, int pair)
{
	struct rvctr_counts *c;
	size_t n, i;

	c = rvctr_table__sorted(t, &n);
	if (!c)
		return -1;
	fprintf(out, "%zu\n", n);
	for (i = 0; i < n; i++) {
		if (pair)
			fprintf(out, "%" PRIx64 "%s%" PRIx64 ":%" PRIu64 "\n", c[i].a, sep, c[i].b,
				c[i].count);
		else
			fprintf(out, "%" PRIx64 ":%" PRIu64 "\n", c[i].a, c[i].count);
	}
	free(c);
	return 0;
}

int rvctr_afdo__write(const struct rvctr_afdo *a, FILE *out)
{
	if (write_table(a->ranges, out, "-", 1) || write_table(a->addrs, out, "", 0) ||
	    write_table(a->branches, out, "->", 1))
		return -1;
	return ferror(out) ? -1 : 0;
}

int rvctr_afdo__write_unsymbolized(const struct rvctr_afdo *a, FILE *out)
{
	if (write_table(a->ranges, out, "-", 1) || write_table(a->branches, out, "->", 1))
		return -1;
	return ferror(out) ? -1 : 0;
}

uint64_t rvctr_afdo__nr_ranges(const struct rvctr_afdo *a)
{
	return rvctr_table__size(a->ranges);
}

uint64_t rvctr_afdo__nr_branches(const struct rvctr_afdo *a)
{
	return rvctr_table__size(a->branches);
}
