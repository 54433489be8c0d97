// SPDX-License-Identifier: GPL-2.0-only
/* Open-addressing hash table; see rvctr/hash.h. */
#include <stdlib.h>
#include <string.h>

#include <rvctr/hash.h>

#define FIRST_CAP	64

static size_t hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;

	return (size_t)(h ^ (h >> 31));
}

void rvctr_hash__init(struct rvctr_hash *h, size_t size)
{
	memset(h, 0, sizeof(*h));
	h->size = size;
}

void rvctr_hash__exit(struct rvctr_hash *h)
{
	free(h->slots);
	free(h->used);
	rvctr_hash__init(h, h->size);
}

void rvctr_hash__clear(struct rvctr_hash *h)
{
	if (h->cap)
		memset(h->used, 0, h->cap);
	h->nr = 0;
}

static inline struct rvctr_hash_key *key_at(const struct rvctr_hash *h, size_t i)
{
	return (struct rvctr_hash_key *)(h->slots + i * h->size);
}

/* The slot of (@a, @b): its entry, or the free slot it would go to. */
static inline size_t probe(const struct rvctr_hash *h, uint64_t a, uint64_t b)
{
	size_t mask = h->cap - 1, i;

	for (i = hash(a, b) & mask; h->used[i]; i = (i + 1) & mask)
		if (key_at(h, i)->a == a && key_at(h, i)->b == b)
			break;
	return i;
}

void *rvctr_hash__find(const struct rvctr_hash *h, uint64_t a, uint64_t b)
{
	size_t i;

	if (!h->cap)
		return NULL;
	i = probe(h, a, b);
	return h->used[i] ? key_at(h, i) : NULL;
}

static int grow(struct rvctr_hash *h)
{
	struct rvctr_hash g = { .size = h->size, .cap = h->cap ? h->cap * 2 : FIRST_CAP };
	size_t i, j;

	g.slots = malloc(g.cap * g.size);
	g.used = calloc(g.cap, 1);
	if (!g.slots || !g.used) {
		free(g.slots);
		free(g.used);
		return -1;
	}
	for (i = 0; i < h->cap; i++) {
		if (!h->used[i])
			continue;
		j = probe(&g, key_at(h, i)->a, key_at(h, i)->b);
		memcpy(key_at(&g, j), key_at(h, i), h->size);
		g.used[j] = 1;
	}
	g.nr = h->nr;
	free(h->slots);
	free(h->used);
	*h = g;
	return 0;
}

/* A key not in the table yet: out of line, so that finding one saves no registers. */
static __attribute__((noinline)) void *insert(struct rvctr_hash *h, uint64_t a, uint64_t b)
{
	struct rvctr_hash_key *k;
	size_t i;

	/* keep the load under 1/2 so probe sequences stay short */
	if ((h->nr + 1) * 2 > h->cap && grow(h))
		return NULL;
	i = probe(h, a, b);
	k = key_at(h, i);
	memset(k, 0, h->size);
	k->a = a;
	k->b = b;
	h->used[i] = 1;
	h->nr++;
	return k;
}

void *rvctr_hash__get(struct rvctr_hash *h, uint64_t a, uint64_t b)
{
	size_t i;

	if (h->cap) {
		i = probe(h, a, b);
		if (h->used[i])
			return key_at(h, i);
	}
	return insert(h, a, b);
}

void *rvctr_hash__slot(const struct rvctr_hash *h, size_t i)
{
	return h->used[i] ? key_at(h, i) : NULL;
}
