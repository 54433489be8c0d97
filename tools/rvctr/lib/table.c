// SPDX-License-Identifier: GPL-2.0-only
/* Address-pair counters in the tool's hash table; see rvctr/table.h. */
#include <stdlib.h>
#include <string.h>

#include <rvctr/hash.h>
#include <rvctr/table.h>

struct rvctr_table {
	struct rvctr_hash h;		/* of struct rvctr_counts, keyed (a, b) */
};

struct rvctr_table *rvctr_table__new(void)
{
	struct rvctr_table *t = calloc(1, sizeof(*t));

	if (t)
		rvctr_hash__init(&t->h, sizeof(struct rvctr_counts));
	return t;
}

void rvctr_table__delete(struct rvctr_table *t)
{
	if (t)
		rvctr_hash__exit(&t->h);
	free(t);
}

struct rvctr_counts *rvctr_table__get(struct rvctr_table *t, uint64_t a, uint64_t b)
{
	return rvctr_hash__get(&t->h, a, b);
}

size_t rvctr_table__size(const struct rvctr_table *t)
{
	return t->h.nr;
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
	struct rvctr_counts *out = malloc((t->h.nr ? t->h.nr : 1) * sizeof(*out)), *c;
	size_t i, n = 0;

	if (!out)
		return NULL;
	for (i = 0; i < t->h.cap; i++)
		if ((c = rvctr_hash__slot(&t->h, i)))
			out[n++] = *c;
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
