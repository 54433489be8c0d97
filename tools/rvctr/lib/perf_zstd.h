/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf record -z: COMPRESSED records are pieces of one zstd stream whose
 * output is more records (tools/perf/util/zstd.c, session.c).  Private
 * header.
 */
#ifndef RVCTR_PERF_ZSTD_H
#define RVCTR_PERF_ZSTD_H

#include <stddef.h>

/* Decompressed bytes not yet read: [head, len) of buf. */
struct zstd_buf {
	void *stream;
	unsigned char *buf;
	size_t cap, head, len;
};

enum {
	ZSTD_BUF_NOMEM = -1,
	ZSTD_BUF_TOO_BIG = -2,		/* over ZSTD_BUF_MAX pending */
	ZSTD_BUF_CORRUPT = -3,
	ZSTD_BUF_UNSUPPORTED = -4,	/* built without libzstd */
};
#define ZSTD_BUF_MAX	(64u << 20)

/* Decompress @n bytes at @src after what is pending: 0 or ZSTD_BUF_* (@why for CORRUPT). */
int zstd_buf__feed(struct zstd_buf *z, const void *src, size_t n, const char **why);
void zstd_buf__exit(struct zstd_buf *z);

static inline size_t zstd_buf__pending(const struct zstd_buf *z)
{
	return z->len - z->head;
}

#endif /* RVCTR_PERF_ZSTD_H */
