/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tool's one hash table: open addressing, linear probing, the load
 * kept under 1/2.  Entries are of a fixed size and start with their key,
 * a pair of 64-bit words (struct rvctr_hash_key): an address pair, an
 * address and 0, an (input, pid) pair.  Entries move when the table
 * grows: a pointer to one is valid until the next rvctr_hash__get().
 */
#ifndef RVCTR_HASH_H
#define RVCTR_HASH_H

#include <stddef.h>
#include <stdint.h>

struct rvctr_hash_key {
	uint64_t a, b;
};

struct rvctr_hash {
	char *slots;
	uint8_t *used;
	size_t cap;			/* power of two, or 0 before the first entry */
	size_t nr;
	size_t size;			/* of an entry, key included */
};

/* An empty table of entries of @size bytes (no allocation yet). */
void rvctr_hash__init(struct rvctr_hash *h, size_t size);
void rvctr_hash__exit(struct rvctr_hash *h);
/* Every entry gone; the room stays. */
void rvctr_hash__clear(struct rvctr_hash *h);
/* The entry of key (@a, @b), or NULL. */
void *rvctr_hash__find(const struct rvctr_hash *h, uint64_t a, uint64_t b);
/* The same, added zeroed (but for its key) when new; NULL out of memory. */
void *rvctr_hash__get(struct rvctr_hash *h, uint64_t a, uint64_t b);
/* Entry @i of the slots (0 <= @i < h->cap), or NULL when it is free. */
void *rvctr_hash__slot(const struct rvctr_hash *h, size_t i);

#endif /* RVCTR_HASH_H */
