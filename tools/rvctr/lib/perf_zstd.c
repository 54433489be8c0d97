// SPDX-License-Identifier: GPL-2.0-only
/* zstd decompression of COMPRESSED records (perf_zstd.h). */
#include <stdlib.h>
#include <string.h>

#include "perf_zstd.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

#define ZSTD_BUF_FIRST	(1u << 20)
#define ZSTD_BUF_ROOM	65536		/* free space wanted before each step */

/* The pending bytes to the start of the buffer, room after them. */
static int make_room(struct zstd_buf *z)
{
	size_t cap = z->cap ? z->cap * 2 : ZSTD_BUF_FIRST;
	unsigned char *b;

	if (z->cap - z->len >= ZSTD_BUF_ROOM)
		return 0;
	if (cap > ZSTD_BUF_MAX)
		return ZSTD_BUF_TOO_BIG;
	b = realloc(z->buf, cap);
	if (!b)
		return ZSTD_BUF_NOMEM;
	z->buf = b;
	z->cap = cap;
	return 0;
}

static void compact(struct zstd_buf *z)
{
	if (!z->head)
		return;
	memmove(z->buf, z->buf + z->head, z->len - z->head);
	z->len -= z->head;
	z->head = 0;
}

int zstd_buf__feed(struct zstd_buf *z, const void *src, size_t n, const char **why)
{
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out;
	size_t ret;
	int err;

	if (!z->stream) {
		z->stream = ZSTD_createDStream();
		if (!z->stream || ZSTD_isError(ZSTD_initDStream(z->stream)))
			return ZSTD_BUF_NOMEM;
	}
	compact(z);
	do {
		err = make_room(z);
		if (err)
			return err;
		out = (ZSTD_outBuffer){ z->buf, z->cap, z->len };
		ret = ZSTD_decompressStream(z->stream, &out, &in);
		if (ZSTD_isError(ret)) {
			*why = ZSTD_getErrorName(ret);
			return ZSTD_BUF_CORRUPT;
		}
		z->len = out.pos;
	} while (in.pos < in.size || out.pos == out.size);
	return 0;
}

void zstd_buf__exit(struct zstd_buf *z)
{
	ZSTD_freeDStream(z->stream);
	free(z->buf);
}
#else
int zstd_buf__feed(struct zstd_buf *z, const void *src, size_t n, const char **why)
{
	(void)z;
	(void)src;
	(void)n;
	(void)why;
	return ZSTD_BUF_UNSUPPORTED;
}

void zstd_buf__exit(struct zstd_buf *z)
{
	free(z->buf);
}
#endif
