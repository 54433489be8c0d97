// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decompression of COMPRESSED records alone (lib/perf_zstd.c): one
 * zstd stream fed in pieces, as perf record -z writes it (a record may
 * end in the next piece); corrupt data; the bound on what is pending.
 */
#include <stdlib.h>

#include "lib/perf_zstd.h"
#include "tests.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

/* @n bytes of @src as one zstd frame, into a new buffer (its size in @out_n). */
static void *compress(const void *src, size_t n, size_t *out_n)
{
	size_t cap = ZSTD_compressBound(n);
	void *out = malloc(cap);

	*out_n = ZSTD_compress(out, cap, src, n, 1);
	return out;
}

static void test_pieces(void)
{
	static unsigned char plain[200000];
	struct zstd_buf z = { 0 };
	const char *why = NULL;
	unsigned char *c;
	size_t cn, i, done;
	int r1, r2;

	for (i = 0; i < sizeof(plain); i++)
		plain[i] = (unsigned char)(i * 7 / 13);
	c = compress(plain, sizeof(plain), &cn);
	r1 = zstd_buf__feed(&z, c, cn / 2, &why);
	T_EQ(r1, 0, "the first half of the stream");
	T_OK(zstd_buf__pending(&z) < sizeof(plain), "gives part of the bytes");
	done = zstd_buf__pending(&z) / 2;
	z.head = done;		/* half of them read */
	r2 = zstd_buf__feed(&z, c + cn / 2, cn - cn / 2, &why);
	T_EQ(r2, 0, "the second half");
	T_EQ(zstd_buf__pending(&z), sizeof(plain) - done, "all that was not read, no more");
	T_OK(!memcmp(z.buf + z.head, plain + done, sizeof(plain) - done),
	     "the bytes, the read ones gone from the front");
	zstd_buf__exit(&z);
	free(c);
}

static void test_corrupt(void)
{
	struct zstd_buf z = { 0 };
	unsigned char junk[64];
	const char *why = NULL;

	memset(junk, 0x5a, sizeof(junk));
	T_EQ(zstd_buf__feed(&z, junk, sizeof(junk), &why), ZSTD_BUF_CORRUPT, "not zstd");
	T_OK(why && *why, why ? why : "(no reason)");
	zstd_buf__exit(&z);
}

/* A small stream that inflates past the bound is refused, not buffered. */
static void test_bomb(void)
{
	size_t n = ZSTD_BUF_MAX + (1u << 20), cn;
	unsigned char *zeros = calloc(1, n), *c = compress(zeros, n, &cn);
	struct zstd_buf z = { 0 };
	const char *why = NULL;

	T_OK(cn < 65536, "65 MiB of zeros compress to little");
	T_EQ(zstd_buf__feed(&z, c, cn, &why), ZSTD_BUF_TOO_BIG, "over 64 MiB pending: refused");
	T_OK(z.cap <= ZSTD_BUF_MAX, "the buffer stayed within the bound");
	zstd_buf__exit(&z);
	free(c);
	free(zeros);
}

int main(void)
{
	test_pieces();
	test_corrupt();
	test_bomb();
	return tests_done();
}
#else
int main(void)
{
	struct zstd_buf z = { 0 };
	const char *why = NULL;

	T_EQ(zstd_buf__feed(&z, "", 0, &why), ZSTD_BUF_UNSUPPORTED, "built without libzstd: said");
	zstd_buf__exit(&z);
	return tests_done();
}
#endif
