// SPDX-License-Identifier: GPL-2.0-only
/*
 * The streaming perf.data reader: the session that drives the parts
 * (perf_reader.h) as tools/perf/util/session.c does.  Records come from
 * the framing, user records are handled here and in the header part,
 * timed ones wait in the ordering queue, and each is decoded when it is
 * delivered.  Trust nothing in the file: every offset and length is
 * checked against the bytes that are really there.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perf_reader.h"

#define QUEUE_LIMIT_DEFAULT	(256ULL << 20)

void reader__warn(struct rvctr_reader *r, enum warn_kind k, const char *fmt, ...)
{
	va_list ap;

	if (r->warned[k] || r->nr_warnings >= MAX_WARNINGS)
		return;
	r->warned[k] = 1;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nr_warnings++], sizeof(r->warnings[0]), fmt, ap);
	va_end(ap);
}

int reader__fail(struct rvctr_reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->failed = 1;
	return -1;
}

/* ---- user records ---- */

static int decompress(struct rvctr_reader *r, const unsigned char *src, size_t n)
{
	const char *why = "";

	switch (zstd_buf__feed(&r->z, src, n, &why)) {
	case 0:
		return 0;
	case ZSTD_BUF_NOMEM:
		return reader__fail(r, "out of memory");
	case ZSTD_BUF_TOO_BIG:
		return reader__fail(r, "corrupt compressed data: over %u bytes pending",
				    ZSTD_BUF_MAX);
	case ZSTD_BUF_UNSUPPORTED:
		return reader__fail(r, "compressed perf.data (perf record -z), and this rvctr was "
				    "built without libzstd: decompress it with perf inject -i IN "
				    "-o OUT");
	default:
		return reader__fail(r, "corrupt compressed record at data offset %llu: %s",
				    (unsigned long long)(r->off - r->hdr.data.offset), why);
	}
}

static int compressed_v2(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint64_t v;

	if (n < 8)
		return reader__fail(r, "corrupt COMPRESSED record");
	memcpy(&v, p, 8);
	if (v > n - 8)
		return reader__fail(r, "corrupt COMPRESSED record: %llu bytes of data in %llu",
				    (unsigned long long)v, (unsigned long long)(n - 8));
	return decompress(r, p + 8, v);
}

/* HEADER_TRACING_DATA: a u32 size, the data after the record (padded to 8 bytes). */
static int tracing_data(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint32_t u;

	if (n < 8)
		return reader__fail(r, "corrupt HEADER_TRACING_DATA record");
	memcpy(&u, p, 4);
	return reader__stream_skip(r, PERF_ALIGN((uint64_t)u, 8));
}

/* AUXTRACE: a u64 size, the trace data after the record. */
static int auxtrace(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint64_t v;

	if (n < 8)
		return reader__fail(r, "corrupt AUXTRACE record");
	memcpy(&v, p, 8);
	return reader__stream_skip(r, v);
}

/* A record of perf's own (type 64 and up) at r->recp: 0 or -1. */
int reader__handle_user(struct rvctr_reader *r)
{
	const unsigned char *p = r->recp;
	struct perf_event_header h;
	uint64_t n = r->rec_size - sizeof(h);
	int ret = reader__header_record(r, p, r->rec_size);

	if (ret <= 0)
		return ret;
	memcpy(&h, p, sizeof(h));
	p += sizeof(h);
	switch (h.type) {
	case USER_HEADER_TRACING_DATA:
		return tracing_data(r, p, n);
	case USER_AUXTRACE:
		return auxtrace(r, p, n);
	case USER_FINISHED_ROUND:
		oe__round(&r->oe);
		return 0;
	case PERF_RECORD_COMPRESSED_V1:
		return decompress(r, p, n);
	case PERF_RECORD_COMPRESSED_V2:
		return compressed_v2(r, p, n);
	default:
		return 0;
	}
}

/* ---- the event loop ---- */

static void finished_round(struct rvctr_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = PERF_RECORD_FINISHED_ROUND;
	ev->size = sizeof(struct perf_event_header);
}

/* Queue the record just read, decoded into @ev (with its time): 0 or -1. */
static int queue_record(struct rvctr_reader *r, const struct rvctr_event *ev)
{
	int ret, in_place;

	/*
	 * A record in the input in memory stays there (as perf's queue keeps
	 * pointers into its mapping): copying it cost more than the rest of
	 * reading, all of it in page faults on fresh memory for the copies.
	 */
	in_place = r->mem && !r->from_dbuf && r->recp != (const void *)r->rec;
	ret = oe__push(&r->oe, r->recp, r->rec_size, ev->time, in_place);
	if (ret < 0)
		return reader__fail(r, "out of memory");
	if (ret)
		reader__warn(r, W_QUEUE, "over %llu bytes of records wait for their round: "
			     "releasing the older half early", (unsigned long long)r->oe.qlimit);
	return 0;
}

/*
 * Read the next record and handle it: 1 (@ev is an event to deliver now),
 * 0 (go on: queued, a user record, the end), 2 (skip it) or -1.
 */
static int read_record(struct rvctr_reader *r, struct rvctr_event *ev)
{
	int ret = reader__read_raw(r);

	if (ret < 0)
		return -1;
	if (!ret) {
		r->eof = 1;
		oe__flush_all(&r->oe);
		return 0;
	}
	if (((const struct perf_event_header *)r->recp)->type >= 64)
		return reader__handle_user(r);
	ret = reader__parse_event(r, r->recp, r->rec_size, ev);
	if (ret)
		return ret < 0 ? -1 : 2;
	/* perf delivers records without a time at once (session.c) */
	if (!ev->time || ev->time == UINT64_MAX)
		return 1;
	return queue_record(r, ev);
}

/*
 * The next record the queue releases, decoded: 1, 0 (none due), 2 (skipped,
 * its place given back) or -1.
 */
static int deliver(struct rvctr_reader *r, struct rvctr_event *ev)
{
	struct qrec *q = oe__next(&r->oe);
	int ret;

	if (!q)
		return 0;
	r->cur = q;
	ret = reader__parse_event(r, q->rec, q->size, ev);
	if (ret <= 0)
		return ret < 0 ? -1 : 1;
	oe__release(&r->oe, q);
	r->cur = NULL;
	return 2;
}

int rvctr_reader__next(struct rvctr_reader *r, struct rvctr_event *ev)
{
	int ret;

	oe__release(&r->oe, r->cur);
	r->cur = NULL;
	for (;;) {
		if (r->failed)
			return -1;
		ret = deliver(r, ev);
		if (!ret && oe__flush_done(&r->oe)) {
			finished_round(ev);
			return 1;
		}
		if (!ret && r->eof)
			return 0;
		if (!ret)
			ret = read_record(r, ev);
		if (ret == 2)
			reader__warn(r, W_UNKNOWN_ID, "samples with ids of no attribute are skipped");
		else if (ret)
			return ret;
	}
}

/* ---- opening and closing ---- */

/* Input from a stream (f) or from memory (buf, len), header read. */
static struct rvctr_reader *reader_new(FILE *f, const void *buf, size_t len, char *err,
				       size_t errlen)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->f = f;
	r->mem = buf;
	r->mem_len = len;
	oe__init(&r->oe, QUEUE_LIMIT_DEFAULT);
	if (reader__read_header(r)) {
		snprintf(err, errlen, "%s", r->err);
		rvctr_reader__close(r);
		return NULL;
	}
	return r;
}

struct rvctr_reader *rvctr_reader__fopen(FILE *f, char *err, size_t errlen)
{
	return reader_new(f, NULL, 0, err, errlen);
}

struct rvctr_reader *rvctr_reader__open_memory(const void *buf, size_t len, char *err,
					       size_t errlen)
{
	return reader_new(NULL, buf, len, err, errlen);
}

struct rvctr_reader *rvctr_reader__open(const char *path, char *err, size_t errlen)
{
	struct rvctr_reader *r;
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-"))
		return rvctr_reader__fopen(stdin, err, errlen);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is a directory: perf record --threads writes one, and rvctr "
			 "reads only single-file perf.data (record without --threads)", path);
		return NULL;
	}
	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	r = rvctr_reader__fopen(f, err, errlen);
	if (!r) {
		fclose(f);
		return NULL;
	}
	r->own = 1;
	return r;
}

void rvctr_reader__close(struct rvctr_reader *r)
{
	if (!r)
		return;
	oe__release(&r->oe, r->cur);
	oe__exit(&r->oe);
	reader__header_exit(r);
	zstd_buf__exit(&r->z);
	reader__unmap(r);
	if (r->own)
		fclose(r->f);
	free(r);
}

/* ---- what was read ---- */

const char *rvctr_reader__error(const struct rvctr_reader *r)
{
	return r->failed ? r->err : "no error";
}

int rvctr_reader__is_pipe(const struct rvctr_reader *r)
{
	return r->pipe;
}

void rvctr_reader__set_queue_limit(struct rvctr_reader *r, uint64_t bytes)
{
	r->oe.qlimit = bytes;
}

unsigned int rvctr_reader__nr_warnings(const struct rvctr_reader *r)
{
	return r->nr_warnings;
}

const char *rvctr_reader__warning(const struct rvctr_reader *r, unsigned int i)
{
	return i < r->nr_warnings ? r->warnings[i] : NULL;
}

uint64_t rvctr_reader__nr_unordered(const struct rvctr_reader *r)
{
	return r->oe.nr_unordered;
}

unsigned int rvctr_reader__nr_attrs(const struct rvctr_reader *r)
{
	return r->nr_attrs;
}

const struct perf_event_attr *rvctr_reader__attr(const struct rvctr_reader *r, unsigned int i)
{
	return i < r->nr_attrs ? &r->attrs[i] : NULL;
}

uint64_t rvctr_reader__attr_config3(const struct rvctr_reader *r, unsigned int i)
{
	return i < r->nr_attrs ? r->config3[i] : 0;
}

const char *rvctr_reader__attr_name(const struct rvctr_reader *r, unsigned int i)
{
	return i < r->nr_attrs ? r->names[i] : NULL;
}

const char *rvctr_reader__arch(const struct rvctr_reader *r)
{
	return r->has_arch ? r->arch : NULL;
}

int rvctr_reader__nr_cpus(const struct rvctr_reader *r, uint32_t *avail, uint32_t *online)
{
	*avail = r->nr_cpus_avail;
	*online = r->nr_cpus_online;
	return r->has_nr_cpus;
}

unsigned int rvctr_reader__nr_build_ids(const struct rvctr_reader *r)
{
	return r->nr_build_ids;
}

const struct rvctr_build_id *rvctr_reader__build_id(const struct rvctr_reader *r, unsigned int i)
{
	return i < r->nr_build_ids ? &r->build_ids[i] : NULL;
}

int rvctr_reader__has_feature(const struct rvctr_reader *r, unsigned int feat)
{
	return feat < PERF_FEAT_BITS && (r->hdr.features[feat / 64] >> (feat % 64)) & 1;
}

uint64_t rvctr_reader__data_pos(const struct rvctr_reader *r)
{
	return reader__data_offset(r);
}

uint64_t rvctr_reader__data_size(const struct rvctr_reader *r)
{
	return r->pipe ? 0 : r->data_end - r->hdr.data.offset;
}
