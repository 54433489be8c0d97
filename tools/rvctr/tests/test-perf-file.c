// SPDX-License-Identifier: GPL-2.0-only
/*
 * Framing alone (lib/perf_reader_file.c): a pipe-mode stream cut into
 * records from memory in place, from memory misaligned (copied) and
 * through stdio; an AUXTRACE payload skipped on each; a stream cut in a
 * record and a record header that cannot be.
 */
#include <stdlib.h>

#include "lib/perf_reader.h"
#include "tests.h"

static uint64_t stream[64];
static unsigned int nw;

static void put(uint64_t v)
{
	stream[nw++] = v;
}

static void header(uint32_t type, uint32_t size)
{
	put(type | (uint64_t)size << 48);	/* type, misc, size */
}

/* PERFILE2 in pipe mode: an attribute, a sample, AUXTRACE and its payload, a sample. */
static size_t pipe_stream(void)
{
	unsigned int i;

	nw = 0;
	put(PERF_MAGIC2);
	put(16);
	header(USER_HEADER_ATTR, 8 + PERF_ATTR_SIZE_VER0);
	put(0);				/* type, size 0: VER0 */
	put(PERF_SAMPLE_IP);		/* config, sample_period */
	for (i = 2; i < PERF_ATTR_SIZE_VER0 / 8; i++)
		put(i == 2 ? PERF_SAMPLE_IP : 0);
	header(PERF_RECORD_SAMPLE, 16);
	put(0x1000);
	header(USER_AUXTRACE, 8 + 40);
	put(24);			/* payload size */
	put(0); put(0); put(0); put(0);
	put(0xa); put(0xb); put(0xc);	/* the payload */
	header(PERF_RECORD_SAMPLE, 16);
	put(0x2000);
	return nw * 8;
}

/* The records' types and ip words, one string; "" and @err on an error. */
static void frame(struct rvctr_reader *r, char *out, size_t n)
{
	const struct perf_event_header *h;
	size_t len = 0;
	int ret;

	out[0] = 0;
	if (reader__read_header(r))
		return;
	while ((ret = reader__read_raw(r)) > 0) {
		h = r->recp;
		len += snprintf(out + len, n - len, "%u ", h->type);
		if (h->type >= 64 && reader__handle_user(r))
			return;
		if (h->type == PERF_RECORD_SAMPLE)
			len += snprintf(out + len, n - len, "%#llx ",
					(unsigned long long)((const uint64_t *)h)[1]);
	}
	if (ret < 0)
		out[0] = 0;
}

static void test_three_ways(void)
{
	static unsigned char mis[sizeof(stream) + 1];
	size_t n = pipe_stream();
	struct rvctr_reader *r;
	char got[3][128];
	FILE *f;
	int i;

	for (i = 0; i < 3; i++) {
		r = calloc(1, sizeof(*r));
		oe__init(&r->oe, 1 << 20);
		f = NULL;
		if (i == 0) {
			r->mem = (void *)stream;
		} else if (i == 1) {
			memcpy(mis + 1, stream, n);
			r->mem = mis + 1;
		} else {
			r->f = f = fmemopen(stream, n, "rb");
		}
		r->mem_len = r->mem ? n : 0;
		frame(r, got[i], sizeof(got[i]));
		T_OK(r->pipe && !r->failed, i == 0 ? "pipe mode in place" :
		     i == 1 ? "pipe mode misaligned (copied)" : "pipe mode through stdio");
		reader__header_exit(r);
		if (f)
			fclose(f);
		free(r);
	}
	T_STREQ(got[0], "9 0x1000 71 9 0x2000 ", "records and the payload skipped");
	T_STREQ(got[1], got[0], "the same copied");
	T_STREQ(got[2], got[0], "the same through stdio");
}

static void test_errors(void)
{
	size_t n = pipe_stream();
	struct rvctr_reader *r = calloc(1, sizeof(*r));
	char got[128];

	r->mem = (void *)stream;
	r->mem_len = n - 8;	/* the last sample cut */
	frame(r, got, sizeof(got));
	T_OK(r->failed && strstr(r->err, "truncated record at data offset"), r->err);
	reader__header_exit(r);
	memset(r, 0, sizeof(*r));
	stream[nw - 2] = PERF_RECORD_SAMPLE | 4ULL << 48;	/* a size of 4 */
	r->mem = (void *)stream;
	r->mem_len = n;
	frame(r, got, sizeof(got));
	T_OK(r->failed && strstr(r->err, "corrupt record header (type 9, size 4)"), r->err);
	reader__header_exit(r);
	free(r);
}

int main(void)
{
	test_three_ways();
	test_errors();
	return tests_done();
}
