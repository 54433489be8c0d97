// SPDX-License-Identifier: GPL-2.0-only
/* Open-addressing hash table of address-pair counters; see rvctr/table.h. */
#include <stdlib.h>
#include <string.h>

#include <rvctr/table.h>

struct rvctr_table {
	struct rvctr_counts *slots;
	size_t cap;			/* power of two */
	size_t nr;
};

static size_t hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;

	return (size_t)(h ^ (h >> 31));
}

struct rvctr_table *rvctr_table__new(void)
{
	struct rvctr_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 1024;
	t->slots = calloc(t->cap, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void rvctr_table__delete(struct rvctr_table *t)
{
	if (t)
		free(t->slots);
	free(t);
}

static struct rvctr_counts *find_slot(struct rvctr_counts *slots, size_t cap,
				      uint64_t a, uint64_t b)
{
	size_t i = hash(a, b) & (cap - 1);

	while (slots[i].used && (slots[i].a != a || slots[i].b != b))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct rvctr_table *t)
{
	size_t cap = t->cap * 2, i;
	struct rvctr_counts *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			*find_slot(slots, cap, t->slots[i].a, t->slots[i].b) = t->slots[i];
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

/* A key not in the table yet: out of line, so that finding one saves no registers. */
static __attribute__((noinline)) struct rvctr_counts *insert(struct rvctr_table *t, uint64_t a,
							       uint64_t b)
{
	struct rvctr_counts *c = find_slot(t->slots, t->cap, a, b);

	/* keep the load under 1/2 so probe sequences stay short */
	if ((t->nr + 1) * 2 > t->cap) {
		if (grow(t))
			return NULL;
		c = find_slot(t->slots, t->cap, a, b);
	}
	c->used = 1;
	c->a = a;
	c->b = b;
	t->nr++;
	return c;
}

struct rvctr_counts *rvctr_table__get(struct rvctr_table *t, uint64_t a, uint64_t b)
{
	struct rvctr_counts *s = t->slots;
	size_t mask = t->cap - 1, i;

	for (i = hash(a, b) & mask; s[i].used; i = (i + 1) & mask)
		if (s[i].a == a && s[i].b == b)
			return &s[i];
	return insert(t, a, b);
}

size_t rvctr_table__size(const struct rvctr_table *t)
{
	return t->nr;
}

static int by_key(const void *x, const void *y)
{
	const struct rvctr_counts *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

static int by_count(const void *x, const void *y)
{
	const struct rvctr_counts *p = x, *q = y;

	if (p->count != q->count)
		return p->count > q->count ? -1 : 1;
	return by_key(x, y);
}

static struct rvctr_counts *collect(const struct rvctr_table *t, size_t *nr,
				    int (*cmp)(const void *, const void *))
{
	struct rvctr_counts *out = malloc((t->nr ? t->nr : 1) * sizeof(*out));
	size_t i, n = 0;

	if (!out)
		return NULL;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			out[n++] = t->slots[i];
	qsort(out, n, sizeof(*out), cmp);
	*nr = n;
	return out;
}

struct rvctr_counts *rvctr_table__sorted(const struct rvctr_table *t, size_t *nr)
{
	return collect(t, nr, by_key);
}

struct rvctr_counts *rvctr_table__by_count(const struct rvctr_table *t, size_t *nr)
{
	return collect(t, nr, by_count);
}
