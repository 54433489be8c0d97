// SPDX-License-Identifier: GPL-2.0-only
/*
 * Streaming perf.data reader.  Trust nothing in the file: every offset and
 * length is checked against the file size before it is used, and every
 * loop is bounded by bytes really read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <rvctr/perf_data.h>
#include "perf_format.h"

/*
 * Ids read, all attributes together (the same ids read twice count twice:
 * the work is bounded, not only the table)
 */
#define MAX_IDS			(1u << 20)
#define MAX_BUILD_IDS		4096
#define MAX_FEAT_BYTES		(16u << 20)
#define MAX_DECOMP_BYTES	(64u << 20)	/* decompressed, not yet read */
#define QUEUE_LIMIT_DEFAULT	(256ULL << 20)
/*
 * Until a FINISHED_ROUND shows that the writer uses rounds (perf record
 * always does), records are reordered within this window only: a file
 * without rounds (perf inject, older rvctr) was written in time order,
 * and memory must not grow with it.
 */
#define WINDOW_NO_ROUNDS	(16ULL << 20)
#define CHUNK_BYTES		(64u << 10)
/* A mapped file's pages are released behind the reader this many at a time. */
#define MAP_WINDOW		(1u << 20)
#define MAX_WARNINGS		16

/* perf's user record types (tools/lib/perf/include/perf/event.h) */
enum {
	USER_HEADER_ATTR = 64,
	USER_HEADER_EVENT_TYPE = 65,
	USER_HEADER_TRACING_DATA = 66,
	USER_HEADER_BUILD_ID = 67,
	USER_FINISHED_ROUND = 68,
	USER_AUXTRACE = 71,
	USER_EVENT_UPDATE = 78,
	USER_HEADER_FEATURE = 80,
};
#define PERF_PIPE_HEADER_SIZE	16
#define EVENT_UPDATE_NAME	2

/*
 * Queued records live in 64 KiB chunks, freed when their last record has
 * been delivered: records leave the queue roughly in the order they came,
 * and a malloc per record cost more than the rest of the reading.  Small
 * chunks come back for reuse soon: fresh memory is slow (a page fault
 * each page), and most queued records are only a header (in place).
 */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	unsigned int live;
	uint64_t data[];
};

/*
 * One record waiting for its round, ordered by (time, seq): a copy in
 * data, or where it is in the input in memory (rec != data).
 */
struct qrec {
	uint64_t time, seq;
	struct chunk *chunk;
	const void *rec;
	uint32_t size;
	uint64_t data[];
};

/* id -> attribute index, open addressing */
struct id_slot {
	uint64_t id;
	int attr;			/* -1: empty */
};

enum warn_kind {
	W_ATTRS, W_IDS, W_BUILD_IDS, W_BUILD_ID_NAME, W_NAME_LONG, W_UNKNOWN_ID, W_DATA_SIZE,
	W_QUEUE, W_FEATURES,
	W_NR,
};

struct rvctr_reader {
	FILE *f;
	int own;
	/*
	 * The input in memory: a regular file mapped (rvctr_reader__fopen),
	 * or the caller's buffer (rvctr_reader__open_memory).  Records are
	 * read in place, without stdio's copy nor the kernel's.
	 */
	const unsigned char *mem;
	uint64_t mem_len;
	int mapped;			/* mem is our mapping of the file */
	uint64_t released;		/* mapped: pages below are given back */
	uint64_t queued_in_place;	/* bytes of queued records left in mem */
	const void *recp;		/* the record read last (rec or mem) */
	uint32_t rec_size;		/* its size, as checked when it was read */
	int pipe;			/* pipe-mode stream */
	uint64_t file_size;		/* file mode */
	struct perf_file_header hdr;
	uint64_t data_end;		/* file offset where data ends */
	uint64_t off;			/* offset of the next byte of the stream */
	unsigned int nr_attrs;
	struct perf_event_attr attrs[RVCTR_MAX_ATTRS];
	/* attr.config3, which the host's perf_event_attr may lack (< 6.3) */
	uint64_t config3[RVCTR_MAX_ATTRS];
	char *names[RVCTR_MAX_ATTRS];
	struct id_slot *idmap;
	unsigned int idmap_cap, nr_ids;
	uint64_t ids_read;		/* file mode: ids read from the attributes */
	char arch[64];
	int has_arch;
	struct rvctr_build_id *build_ids;
	unsigned int nr_build_ids;
	/* compressed records: a zstd stream over all of them */
	void *zstd;
	unsigned char *dbuf;
	size_t dcap, dhead, dlen;
	int from_dbuf;			/* the record in rec came from dbuf */
	/* ordering */
	struct qrec **heap;
	size_t nheap, heap_cap;
	/*
	 * Records no older than the newest queued go to a FIFO instead (the
	 * common case: each buffer is in time order), so that ordered input
	 * costs O(1) a record, as with perf's list that inserts from its last
	 * position; the heap takes the others.
	 */
	struct qrec **fifo;
	size_t fcap, fhead, fcount;
	uint64_t qbytes, qlimit, seq;
	uint64_t max_ts, next_flush, limit, last_flush;
	int flushing, round_pending, eof;
	uint64_t nr_unordered, nr_unknown_id;
	struct qrec *cur;		/* the record last delivered from the queue */
	struct chunk *chunk;		/* where records are queued now */
	struct chunk *spare;		/* empty ones, kept for reuse (no page faults) */
	int seen_round;
	int stashed;			/* pipe mode: rec holds a record not yet handled */
	char warnings[MAX_WARNINGS][200];
	unsigned int nr_warnings;
	unsigned char warned[W_NR];
	int failed;
	char err[256];
	uint64_t rec[65536 / 8];	/* one record, 8-byte aligned */
};

static int fail(struct rvctr_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn(struct rvctr_reader *r, enum warn_kind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct rvctr_reader *r, enum warn_kind k, const char *fmt, ...)
{
	va_list ap;

	if (r->warned[k] || r->nr_warnings >= MAX_WARNINGS)
		return;
	r->warned[k] = 1;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->nr_warnings++], sizeof(r->warnings[0]), fmt, ap);
	va_end(ap);
}

static int fail(struct rvctr_reader *r, const char *fmt, ...)
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

/* File mode: read exactly @len bytes at @off, checked against the file. */
static int read_at(struct rvctr_reader *r, uint64_t off, void *buf, uint64_t len,
		   const char *what)
{
	if (off > r->file_size || len > r->file_size - off)
		return fail(r, "truncated file: %s at offset %#llx (+%llu) is past the end (%llu bytes)",
			    what, (unsigned long long)off, (unsigned long long)len,
			    (unsigned long long)r->file_size);
	if (r->mem) {
		memcpy(buf, r->mem + off, len);
		return 0;
	}
	if (fseeko(r->f, (off_t)off, SEEK_SET) || fread(buf, 1, len, r->f) != len)
		return fail(r, "read error: %s at offset %#llx", what, (unsigned long long)off);
	return 0;
}

static int section_ok(struct rvctr_reader *r, const struct perf_section *s, const char *what)
{
	if (s->offset > r->file_size || s->size > r->file_size - s->offset)
		return fail(r, "corrupt header: %s section [%#llx, +%llu) outside the file (%llu bytes)",
			    what, (unsigned long long)s->offset, (unsigned long long)s->size,
			    (unsigned long long)r->file_size);
	return 0;
}

/* ---- sample ids ---- */

static uint64_t id_hash(uint64_t id)
{
	return id * 0x9e3779b97f4a7c15ULL;
}

static int idmap_find(const struct rvctr_reader *r, uint64_t id)
{
	unsigned int mask = r->idmap_cap - 1, i;

	if (!r->idmap_cap)
		return -1;
	for (i = id_hash(id) >> 40 & mask; r->idmap[i].attr >= 0; i = (i + 1) & mask)
		if (r->idmap[i].id == id)
			return r->idmap[i].attr;
	return -1;
}

static int idmap_put(struct id_slot *map, unsigned int cap, uint64_t id, int attr)
{
	unsigned int mask = cap - 1, i;

	for (i = id_hash(id) >> 40 & mask; map[i].attr >= 0; i = (i + 1) & mask)
		if (map[i].id == id)
			return 0;
	map[i].id = id;
	map[i].attr = attr;
	return 1;
}

static int idmap_add(struct rvctr_reader *r, uint64_t id, int attr)
{
	if (r->nr_ids >= MAX_IDS) {
		warn(r, W_IDS, "more than %u sample ids: samples of the others are skipped", MAX_IDS);
		return 0;
	}
	if ((r->nr_ids + 1) * 2 > r->idmap_cap) {
		unsigned int cap = r->idmap_cap ? r->idmap_cap * 2 : 64, i;
		struct id_slot *n = malloc(cap * sizeof(*n));

		if (!n)
			return fail(r, "out of memory");
		for (i = 0; i < cap; i++)
			n[i].attr = -1;
		for (i = 0; i < r->idmap_cap; i++)
			if (r->idmap[i].attr >= 0)
				idmap_put(n, cap, r->idmap[i].id, r->idmap[i].attr);
		free(r->idmap);
		r->idmap = n;
		r->idmap_cap = cap;
	}
	r->nr_ids += idmap_put(r->idmap, r->idmap_cap, id, attr);
	return 0;
}

/* One attribute (@asz bytes as stored) with its ids; beyond the limit, a warning. */
static int add_attr(struct rvctr_reader *r, const void *attr, uint64_t asz,
		    const uint64_t *ids, uint64_t nr_ids)
{
	unsigned int i = r->nr_attrs;
	uint64_t j, id;

	if (i >= RVCTR_MAX_ATTRS) {
		warn(r, W_ATTRS, "more than %d attributes: samples of the others are skipped",
		     RVCTR_MAX_ATTRS);
		return 0;
	}
	memset(&r->attrs[i], 0, sizeof(r->attrs[i]));
	memcpy(&r->attrs[i], attr, asz < sizeof(r->attrs[i]) ? asz : sizeof(r->attrs[i]));
	r->config3[i] = 0;
	if (asz >= RVCTR_ATTR_CONFIG3_OFFSET + 8)
		memcpy(&r->config3[i], (const unsigned char *)attr + RVCTR_ATTR_CONFIG3_OFFSET, 8);
	r->nr_attrs++;
	for (j = 0; j < nr_ids; j++) {
		memcpy(&id, ids + j, 8);
		if (idmap_add(r, id, i))
			return -1;
	}
	return 0;
}

static int read_attrs(struct rvctr_reader *r)
{
	uint64_t asz = r->hdr.attr_size, n, i, nids;
	unsigned char buf[512];
	uint64_t *ids;

	if (asz < PERF_ATTR_SIZE_VER0 + 16 || asz > sizeof(buf))
		return fail(r, "corrupt header: attr_size %llu", (unsigned long long)asz);
	if (section_ok(r, &r->hdr.attrs, "attrs"))
		return -1;
	n = r->hdr.attrs.size / asz;
	if (!n || r->hdr.attrs.size % asz)
		return fail(r, "corrupt header: attrs section of %llu bytes is not a multiple of %llu",
			    (unsigned long long)r->hdr.attrs.size, (unsigned long long)asz);
	for (i = 0; i < n; i++) {
		struct perf_section s;
		int ret;

		/*
		 * Past the limits nothing more is read (perf keeps every
		 * attribute and id, and reads them all): their samples are
		 * skipped, with a warning.  Attributes may all point at the
		 * same ids; what is read stays bounded all the same.
		 */
		if (i >= RVCTR_MAX_ATTRS) {
			warn(r, W_ATTRS, "more than %d attributes (%llu): samples of the others "
			     "are skipped", RVCTR_MAX_ATTRS, (unsigned long long)n);
			break;
		}
		if (read_at(r, r->hdr.attrs.offset + i * asz, buf, asz, "attribute"))
			return -1;
		memcpy(&s, buf + asz - 16, sizeof(s));
		if (section_ok(r, &s, "attribute ids"))
			return -1;
		nids = s.size / 8;
		if (nids > MAX_IDS - r->ids_read) {
			warn(r, W_IDS, "more than %u sample ids: samples of the others are skipped",
			     MAX_IDS);
			nids = MAX_IDS - r->ids_read;
		}
		r->ids_read += nids;
		ids = malloc(nids ? nids * 8 : 1);
		if (!ids)
			return fail(r, "out of memory");
		ret = read_at(r, s.offset, ids, nids * 8, "attribute ids") ||
		      add_attr(r, buf, asz - 16, ids, nids);
		free(ids);
		if (ret)
			return -1;
	}
	return 0;
}

/* ---- header features (file sections, or HEADER_FEATURE records) ---- */

/* A perf header string: u32 length, then that many bytes, NUL-padded. */
static int get_string(struct rvctr_reader *r, const unsigned char *p, uint64_t avail,
		      uint64_t *used, char *out, size_t outlen)
{
	uint32_t len;

	if (avail < 4)
		return fail(r, "corrupt feature: string length truncated");
	memcpy(&len, p, 4);
	if (len > avail - 4)
		return fail(r, "corrupt feature: string of %u bytes, %llu left", len,
			    (unsigned long long)(avail - 4));
	snprintf(out, outlen, "%.*s", (int)len, (const char *)p + 4);
	*used = 4 + (uint64_t)len;
	return 0;
}

static int parse_arch(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint64_t used;

	if (get_string(r, p, n, &used, r->arch, sizeof(r->arch)))
		return -1;
	r->has_arch = 1;
	return 0;
}

static int add_build_id(struct rvctr_reader *r, int32_t pid, uint16_t misc, const uint8_t *id,
			uint8_t size, const char *name, size_t namelen)
{
	struct rvctr_build_id *bi;

	namelen = strnlen(name, namelen);
	if (namelen >= sizeof(bi->filename)) {
		/* cut short, it would be another file's: not kept */
		warn(r, W_BUILD_ID_NAME, "a build id's file name of %zu bytes (more than %zu): "
		     "that build id is ignored", namelen, sizeof(bi->filename) - 1);
		return 0;
	}
	if (r->nr_build_ids >= MAX_BUILD_IDS) {
		warn(r, W_BUILD_IDS, "more than %d build ids: the others are ignored", MAX_BUILD_IDS);
		return 0;
	}
	if (!r->build_ids) {
		r->build_ids = calloc(MAX_BUILD_IDS, sizeof(*r->build_ids));
		if (!r->build_ids)
			return fail(r, "out of memory");
	}
	bi = &r->build_ids[r->nr_build_ids++];
	bi->pid = pid;
	bi->misc = misc;
	bi->size = size;
	memcpy(bi->id, id, 20);
	snprintf(bi->filename, sizeof(bi->filename), "%.*s", (int)namelen, name);
	return 0;
}

/* HEADER_BUILD_ID: a sequence of build-id records (also pipe mode's records). */
static int parse_build_ids(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint64_t off = 0;

	while (n - off >= sizeof(struct perf_build_id_rec)) {
		struct perf_build_id_rec b;
		uint8_t size;

		memcpy(&b, p + off, sizeof(b));
		if (b.header.size < sizeof(b) || b.header.size > n - off)
			return fail(r, "corrupt build-id table: record of %u bytes at +%llu",
				    b.header.size, (unsigned long long)off);
		size = (b.header.misc & PERF_MISC_BUILD_ID_SIZE) && b.size <= 20 ? b.size : 20;
		if (add_build_id(r, b.pid, b.header.misc, b.data, size,
				 (const char *)p + off + sizeof(b), b.header.size - sizeof(b)))
			return -1;
		off += b.header.size;
	}
	return 0;
}

static int set_name(struct rvctr_reader *r, unsigned int i, const char *name)
{
	if (i >= r->nr_attrs || r->names[i])
		return 0;
	r->names[i] = strdup(name);
	return r->names[i] ? 0 : fail(r, "out of memory");
}

static int parse_event_desc(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint32_t nre, sz, i, nri;
	uint64_t off = 8, used;
	char name[RVCTR_NAME_MAX];

	if (n < 8)
		return fail(r, "corrupt event description: %llu bytes", (unsigned long long)n);
	memcpy(&nre, p, 4);
	memcpy(&sz, p + 4, 4);
	for (i = 0; i < nre; i++) {
		if (sz > n - off || n - off - sz < 4)
			return fail(r, "corrupt event description: event %u truncated", i);
		off += sz;
		memcpy(&nri, p + off, 4);
		off += 4;
		if (get_string(r, p + off, n - off, &used, name, sizeof(name)))
			return -1;
		off += used;
		if (nri > (n - off) / 8)
			return fail(r, "corrupt event description: %u ids, %llu bytes left", nri,
				    (unsigned long long)(n - off));
		off += (uint64_t)nri * 8;
		/* Event i of the description is attribute i of the file. */
		if (set_name(r, i, name))
			return -1;
	}
	return 0;
}

static int parse_feature_buf(struct rvctr_reader *r, unsigned int bit, const unsigned char *buf,
			     uint64_t n)
{
	if (bit == RVCTR_FEAT_ARCH)
		return parse_arch(r, buf, n);
	if (bit == RVCTR_FEAT_BUILD_ID)
		return parse_build_ids(r, buf, n);
	if (bit == RVCTR_FEAT_EVENT_DESC)
		return parse_event_desc(r, buf, n);
	return 0;
}

static int parse_feature(struct rvctr_reader *r, unsigned int bit, const struct perf_section *s)
{
	unsigned char *buf;
	int ret;

	if (bit != RVCTR_FEAT_ARCH && bit != RVCTR_FEAT_BUILD_ID && bit != RVCTR_FEAT_EVENT_DESC)
		return 0;
	if (section_ok(r, s, "feature"))
		return -1;
	if (s->size > MAX_FEAT_BYTES)
		return fail(r, "feature %u is %llu bytes (limit %u)", bit,
			    (unsigned long long)s->size, MAX_FEAT_BYTES);
	buf = malloc(s->size ? s->size : 1);
	if (!buf)
		return fail(r, "out of memory");
	ret = read_at(r, s->offset, buf, s->size, "feature") ||
	      parse_feature_buf(r, bit, buf, s->size);
	free(buf);
	return ret ? -1 : 0;
}

static int read_features(struct rvctr_reader *r)
{
	uint64_t off = r->hdr.data.offset + r->hdr.data.size;
	unsigned int bit;

	for (bit = 0; bit < PERF_FEAT_BITS; bit++) {
		struct perf_section s;

		if (!rvctr_reader__has_feature(r, bit))
			continue;
		if (read_at(r, off, &s, sizeof(s), "feature table"))
			return -1;
		off += sizeof(s);
		if (parse_feature(r, bit, &s))
			return -1;
	}
	return 0;
}

/* ---- the stream of records ---- */

/*
 * Read @len bytes of the data stream.  0: done; 1: clean end (nothing left
 * at a record boundary, @len bytes wanted); -1: error.
 */
static int stream_read(struct rvctr_reader *r, void *buf, size_t len, int at_boundary)
{
	size_t got;

	if (!r->pipe) {
		if (r->off >= r->data_end && at_boundary)
			return 1;
		if (len > r->data_end - r->off) {
			if (!r->hdr.data.size) {
				warn(r, W_DATA_SIZE, "the last record is cut short (perf record killed?)");
				return 1;
			}
			return fail(r, "truncated record at data offset %llu",
				    (unsigned long long)(r->off - r->hdr.data.offset));
		}
	}
	if (r->mem) {
		uint64_t left = r->off < r->mem_len ? r->mem_len - r->off : 0;

		got = len < left ? len : left;
		memcpy(buf, r->mem + r->off, got);
	} else {
		got = fread(buf, 1, len, r->f);
	}
	r->off += got;
	if (got == len)
		return 0;
	if (!r->mem && ferror(r->f))
		return fail(r, "read error: %s", strerror(errno));
	if (!got && at_boundary)
		return 1;
	if (!r->pipe && !r->hdr.data.size) {
		warn(r, W_DATA_SIZE, "the last record is cut short (perf record killed?)");
		return 1;
	}
	return fail(r, "truncated record at data offset %llu",
		    (unsigned long long)(r->off - r->hdr.data.offset));
}

/* Skip @n payload bytes after the record just read (AUXTRACE, tracing data). */
static int stream_skip(struct rvctr_reader *r, uint64_t n)
{
	char buf[4096];

	if (r->from_dbuf) {
		if (n > r->dlen - r->dhead)
			return fail(r, "corrupt compressed data: payload of %llu bytes",
				    (unsigned long long)n);
		r->dhead += n;
		return 0;
	}
	if (!r->pipe) {
		if (n > r->data_end - r->off)
			return fail(r, "truncated payload of %llu bytes at data offset %llu",
				    (unsigned long long)n,
				    (unsigned long long)(r->off - r->hdr.data.offset));
		if (!r->mem && fseeko(r->f, (off_t)(r->off + n), SEEK_SET))
			return fail(r, "seek error: %s", strerror(errno));
		r->off += n;
		return 0;
	}
	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);
		int ret = stream_read(r, buf, k, 0);

		if (ret)
			return ret < 0 ? -1 : fail(r, "truncated payload");
		n -= k;
	}
	return 0;
}

/* Kernel records fill whole u64s; perf's own (features, COMPRESSED) need not. */
static int check_header(struct rvctr_reader *r, const struct perf_event_header *h)
{
	if (h->size < sizeof(*h) || (h->type < 64 && h->size % 8))
		return fail(r, "corrupt record header (type %u, size %u) at data offset %llu",
			    h->type, h->size,
			    (unsigned long long)(r->off - (r->pipe ? 0 : r->hdr.data.offset)));
	return 0;
}

/*
 * A mapped file's pages behind the reader are given back (they stay in the
 * page cache), so that memory does not grow with the file.  Queued records
 * stay where they are in the file, so the pages kept are those of the span
 * the queue holds (records come roughly in file order), and a window more.
 * A record on a page given back all the same (one held long in the queue)
 * is mapped again from the page cache when it is read: a read-only private
 * file mapping only ever reads the file, so this costs time, never data.
 */
static void release_behind(struct rvctr_reader *r)
{
	uint64_t keep = r->queued_in_place + MAP_WINDOW, upto;

	if (r->off < keep)
		return;
	upto = (r->off - keep) & ~(uint64_t)(MAP_WINDOW - 1);
	if (upto <= r->released)
		return;
	madvise((void *)(r->mem + r->released), upto - r->released, MADV_DONTNEED);
	r->released = upto;
}

/*
 * The next record, in memory: in place when it is whole and aligned (and
 * its header sound), else NULL, for the general path to copy or reject.
 */
static inline const void *mem_record(struct rvctr_reader *r)
{
	uint64_t end = r->pipe ? r->mem_len : r->data_end;
	const unsigned char *p = r->mem + r->off;
	struct perf_event_header h;

	if (r->off >= end || end - r->off < sizeof(h) || ((uintptr_t)p & 7))
		return NULL;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h) || h.size > end - r->off || (h.type < 64 && h.size % 8))
		return NULL;
	r->off += h.size;
	r->rec_size = h.size;
	if (r->mapped)
		release_behind(r);
	return p;
}

/* The next record (at r->recp): 1, 0 at the end, -1 on error. */
static int read_raw(struct rvctr_reader *r)
{
	struct perf_event_header h;
	int ret;

	if (r->stashed) {
		r->stashed = 0;
		return 1;
	}
	r->recp = r->rec;
	if (r->dlen - r->dhead >= sizeof(h)) {
		memcpy(&h, r->dbuf + r->dhead, sizeof(h));
		if (check_header(r, &h))
			return -1;
		if (r->dlen - r->dhead >= h.size) {
			memcpy(r->rec, r->dbuf + r->dhead, h.size);
			r->dhead += h.size;
			r->from_dbuf = 1;
			r->rec_size = h.size;
			return 1;
		}
	}
	r->from_dbuf = 0;
	if (r->mem && (r->recp = mem_record(r)))
		return 1;
	r->recp = r->rec;
	ret = stream_read(r, &h, sizeof(h), 1);
	if (ret)
		goto end;
	if (check_header(r, &h))
		return -1;
	memcpy(r->rec, &h, sizeof(h));
	ret = stream_read(r, (char *)r->rec + sizeof(h), h.size - sizeof(h), 0);
	r->rec_size = h.size;
	if (!ret)
		return 1;
end:
	if (ret < 0)
		return -1;
	if (r->dlen != r->dhead)
		return fail(r, "truncated compressed data: %zu bytes of a record left",
			    r->dlen - r->dhead);
	return 0;
}

#ifdef HAVE_ZSTD
#include <zstd.h>

static int decompress(struct rvctr_reader *r, const unsigned char *src, size_t n)
{
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out;

	if (!r->zstd) {
		r->zstd = ZSTD_createDStream();
		if (!r->zstd || ZSTD_isError(ZSTD_initDStream(r->zstd)))
			return fail(r, "out of memory");
	}
	if (r->dhead) {
		memmove(r->dbuf, r->dbuf + r->dhead, r->dlen - r->dhead);
		r->dlen -= r->dhead;
		r->dhead = 0;
	}
	do {
		size_t ret;

		if (r->dcap - r->dlen < 65536) {
			size_t cap = r->dcap ? r->dcap * 2 : 1 << 20;
			unsigned char *b;

			if (cap > MAX_DECOMP_BYTES)
				return fail(r, "corrupt compressed data: over %u bytes pending",
					    MAX_DECOMP_BYTES);
			b = realloc(r->dbuf, cap);
			if (!b)
				return fail(r, "out of memory");
			r->dbuf = b;
			r->dcap = cap;
		}
		out = (ZSTD_outBuffer){ r->dbuf, r->dcap, r->dlen };
		ret = ZSTD_decompressStream(r->zstd, &out, &in);
		if (ZSTD_isError(ret))
			return fail(r, "corrupt compressed record at data offset %llu: %s",
				    (unsigned long long)(r->off - r->hdr.data.offset),
				    ZSTD_getErrorName(ret));
		r->dlen = out.pos;
	} while (in.pos < in.size || out.pos == out.size);
	return 0;
}

static void free_zstd(struct rvctr_reader *r)
{
	ZSTD_freeDStream(r->zstd);
}
#else
static int decompress(struct rvctr_reader *r, const unsigned char *src, size_t n)
{
	(void)src;
	(void)n;
	return fail(r, "compressed perf.data (perf record -z), and this rvctr was built without "
		    "libzstd: decompress it with perf inject -i IN -o OUT");
}

static void free_zstd(struct rvctr_reader *r)
{
	(void)r;
}
#endif

/* ---- opening ---- */

/*
 * data.size 0 is how perf record leaves a file it did not finish (it
 * writes the sizes and the feature table at exit), and how a finished
 * file with no records looks.  The finished one has its feature table
 * right at data.offset, each section after the table and inside the
 * file; the records of an unfinished file do not pass for such a table (a
 * record header read as an offset is far beyond any file).
 */
static int empty_but_finished(struct rvctr_reader *r)
{
	uint64_t table = r->hdr.data.offset, n = 0, i, end;
	unsigned int bit;

	for (bit = 0; bit < PERF_FEAT_BITS; bit++)
		n += rvctr_reader__has_feature(r, bit);
	end = table + n * sizeof(struct perf_section);
	if (!n || end < table || end > r->file_size)
		return 0;
	for (i = 0; i < n; i++) {
		struct perf_section s;

		if (read_at(r, table + i * sizeof(s), &s, sizeof(s), "feature table"))
			return 0;
		if (s.offset < end || s.offset > r->file_size || s.size > r->file_size - s.offset)
			return 0;
	}
	return 1;
}

static int read_file_header(struct rvctr_reader *r)
{
	if (read_at(r, 0, &r->hdr, sizeof(r->hdr), "file header"))
		return -1;
	if (r->hdr.size < sizeof(r->hdr))
		return fail(r, "unknown perf.data header size %llu",
			    (unsigned long long)r->hdr.size);
	if (section_ok(r, &r->hdr.data, "data") || read_attrs(r))
		return -1;
	r->data_end = r->hdr.data.offset + r->hdr.data.size;
	if (!r->hdr.data.size && !empty_but_finished(r)) {
		/* perf record writes the sizes and features at exit */
		warn(r, W_DATA_SIZE, "data size is 0: perf record was not properly terminated; "
		     "reading to the end of the file");
		r->data_end = r->file_size;
		memset(r->hdr.features, 0, sizeof(r->hdr.features));
	} else if (read_features(r)) {
		return -1;
	}
	r->off = r->hdr.data.offset;
	if (!r->mem && fseeko(r->f, (off_t)r->off, SEEK_SET))
		return fail(r, "seek error: %s", strerror(errno));
	return 0;
}

static int handle_user(struct rvctr_reader *r);

/* Pipe mode: the header records (attributes, features) come first. */
static int read_pipe_header(struct rvctr_reader *r)
{
	const struct perf_event_header *h;
	int ret;

	for (;;) {
		ret = read_raw(r);
		if (ret <= 0) {
			r->eof = !ret;
			return ret;
		}
		h = r->recp;
		if (h->type < 64 || h->type == USER_FINISHED_ROUND || h->type == USER_AUXTRACE ||
		    h->type == PERF_RECORD_COMPRESSED_V1 || h->type == PERF_RECORD_COMPRESSED_V2) {
			r->stashed = 1;
			return 0;
		}
		if (handle_user(r))
			return -1;
	}
}

/*
 * A regular file read from its start is mapped (as perf maps perf.data):
 * records are then read in place.  Where mapping fails, stdio reads it.
 * A file cut short while it is mapped would fault (SIGBUS), as it would
 * for perf; one being written is read up to the size it had here.
 */
static void map_file(struct rvctr_reader *r)
{
	void *m;

	if (r->file_size < 16 || r->file_size > SIZE_MAX || ftello(r->f) != 0)
		return;
	m = mmap(NULL, r->file_size, PROT_READ, MAP_PRIVATE, fileno(r->f), 0);
	if (m == MAP_FAILED)
		return;
	madvise(m, r->file_size, MADV_SEQUENTIAL);
	r->mem = m;
	r->mem_len = r->file_size;
	r->mapped = 1;
}

static int read_header(struct rvctr_reader *r)
{
	struct stat st;
	uint64_t magic, size;

	if (r->mem) {
		r->file_size = r->mem_len;	/* rvctr_reader__open_memory */
	} else if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode)) {
		r->file_size = st.st_size;
		map_file(r);
	} else if (fileno(r->f) < 0 && !fseeko(r->f, 0, SEEK_END)) {
		/* a stream in memory (fmemopen): seekable, so a file */
		r->file_size = ftello(r->f);
		rewind(r->f);
	} else {
		r->pipe = 1;
	}
	if (r->mem ? r->mem_len < 16 : fread(&magic, 1, 8, r->f) != 8 || fread(&size, 1, 8, r->f) != 8)
		return fail(r, "not a perf.data file: shorter than its header");
	if (r->mem) {
		memcpy(&magic, r->mem, 8);
		memcpy(&size, r->mem + 8, 8);
	}
	if (magic == PERF_MAGIC2_SWAPPED)
		return fail(r, "perf.data of the other byte order is not supported");
	if (magic != PERF_MAGIC2)
		return fail(r, "not a perf.data file (bad magic %#llx)", (unsigned long long)magic);
	r->off = 16;
	if (size == PERF_PIPE_HEADER_SIZE) {
		r->pipe = 1;
		return read_pipe_header(r);
	}
	if (r->pipe)
		return fail(r, "file-mode perf.data on a pipe: give the file name, or record with "
			    "perf record -o - for pipe mode");
	return read_file_header(r);
}

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
	r->qlimit = QUEUE_LIMIT_DEFAULT;
	if (read_header(r)) {
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

static struct qrec *queue_pop(struct rvctr_reader *r);

static void qrec_free(struct rvctr_reader *r, struct qrec *q)
{
	struct chunk *c;

	if (!q)
		return;
	c = q->chunk;
	if (--c->live || c == r->chunk)
		return;
	if (c->cap != CHUNK_BYTES) {
		free(c);
		return;
	}
	c->next = r->spare;
	r->spare = c;
}

static struct qrec *qrec_alloc(struct rvctr_reader *r, size_t size)
{
	size_t need = PERF_ALIGN(sizeof(struct qrec) + size, 8);
	struct chunk *c = r->chunk;
	struct qrec *q;

	if (!c || c->cap - c->used < need) {
		if (c && !c->live && need <= c->cap)
			c->used = 0;	/* all delivered: start it over */
		else
			c = NULL;
	}
	if (!c) {
		if (r->chunk && !r->chunk->live) {
			r->chunk->next = r->spare;
			r->spare = r->chunk;
		}
		r->chunk = NULL;	/* on the spare list, or freed by its last qrec_free() */
		if (r->spare && need <= CHUNK_BYTES) {
			c = r->spare;
			r->spare = c->next;
		} else {
			size_t cap = need > CHUNK_BYTES ? need : CHUNK_BYTES;

			c = malloc(sizeof(*c) + cap);
			if (!c)
				return NULL;
			c->cap = cap;
		}
		c->used = 0;
		c->live = 0;
		r->chunk = c;
	}
	q = (struct qrec *)((char *)c->data + c->used);
	c->used += need;
	c->live++;
	q->chunk = c;
	return q;
}

void rvctr_reader__close(struct rvctr_reader *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < RVCTR_MAX_ATTRS; i++)
		free(r->names[i]);
	while (r->nheap || r->fcount)
		qrec_free(r, queue_pop(r));
	free(r->fifo);
	qrec_free(r, r->cur);
	if (r->chunk && !r->chunk->live)
		free(r->chunk);
	while (r->spare) {
		struct chunk *c = r->spare;

		r->spare = c->next;
		free(c);
	}
	free(r->heap);
	free(r->idmap);
	free(r->build_ids);
	free(r->dbuf);
	free_zstd(r);
	if (r->mapped)
		munmap((void *)r->mem, r->mem_len);
	if (r->own)
		fclose(r->f);
	free(r);
}

/* ---- record contents ---- */

/* A bounded cursor over one record's body. */
struct cursor {
	const unsigned char *p;
	uint64_t left;
	int bad;
};

static uint64_t take64(struct cursor *c)
{
	uint64_t v = 0;

	if (c->left < 8) {
		c->bad = 1;
		c->left = 0;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	c->left -= 8;
	return v;
}

static const void *skip(struct cursor *c, uint64_t n)
{
	const void *at = c->p;

	if (c->left < n) {
		c->bad = 1;
		c->left = 0;
		return NULL;
	}
	c->p += n;
	c->left -= n;
	return at;
}

static uint64_t data_offset(const struct rvctr_reader *r)
{
	return r->pipe ? r->off : r->off - r->hdr.data.offset;
}

/* The attribute of a sample; -1 error, -2 unknown id (skip it). */
static int attr_of(struct rvctr_reader *r, const struct cursor *body)
{
	const struct perf_event_attr *a0 = &r->attrs[0];
	struct cursor c = *body;
	uint64_t id, st = a0->sample_type;
	int i;

	if (!r->nr_attrs)
		return fail(r, "a sample before any attribute");
	if (r->nr_attrs == 1 && !r->warned[W_ATTRS])
		return 0;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		id = take64(&c);
	} else if (st & PERF_SAMPLE_ID) {
		/* the id sits after IP, TID, TIME, ADDR in every attribute */
		skip(&c, 8 * (!!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			      !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR)));
		id = take64(&c);
	} else {
		return fail(r, "%u attributes but samples carry no id", r->nr_attrs);
	}
	if (c.bad)
		return fail(r, "truncated sample at data offset %llu",
			    (unsigned long long)data_offset(r));
	i = idmap_find(r, id);
	if (i >= 0)
		return i;
	r->nr_unknown_id++;
	return -2;
}

static void skip_read(struct cursor *c, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = take64(c);

		skip(c, 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
		if (nr > c->left / (8 * per))
			c->bad = 1;
		else
			skip(c, nr * 8 * per);
	} else {
		skip(c, 8 * (per + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
	}
}

static void take_branches(struct cursor *c, const struct perf_event_attr *a,
			  struct rvctr_sample *s)
{
	uint64_t nr = take64(c);

	if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		s->hw_idx = take64(c);
	if (nr > RVCTR_MAX_BRANCHES || nr > c->left / sizeof(struct perf_branch_entry)) {
		c->bad = 1;
		return;
	}
	s->nr_branches = nr;
	s->branches = skip(c, nr * sizeof(struct perf_branch_entry));
	if (a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
		skip(c, nr * 8);
}

/* Fields after BRANCH_STACK that come before WEIGHT. */
static void skip_regs_stack(struct cursor *c, const struct perf_event_attr *a)
{
	uint64_t st = a->sample_type;

	if ((st & PERF_SAMPLE_REGS_USER) && take64(c))
		skip(c, 8 * (uint64_t)__builtin_popcountll(a->sample_regs_user));
	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t sz = take64(c);

		if (sz) {
			skip(c, sz);
			take64(c);	/* dyn_size */
		}
	}
}

/* 0, 1 (skip: unknown id) or -1. */
static int parse_sample(struct rvctr_reader *r, struct cursor *c, struct rvctr_sample *s)
{
	int ai = attr_of(r, c);
	const struct perf_event_attr *a;
	uint64_t st, v;

	if (ai == -2)
		return 1;
	if (ai < 0)
		return -1;
	a = &r->attrs[ai];
	st = a->sample_type;
	s->attr = ai;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take64(c);
	if (st & PERF_SAMPLE_IP)
		s->ip = take64(c);
	if (st & PERF_SAMPLE_TID) {
		v = take64(c);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = take64(c);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = take64(c);
	if (st & PERF_SAMPLE_ID)
		s->id = take64(c);
	if (st & PERF_SAMPLE_STREAM_ID)
		take64(c);
	if (st & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)take64(c);
	s->period = 1;
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take64(c);
	if (st & PERF_SAMPLE_READ)
		skip_read(c, a->read_format);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		v = take64(c);
		if (v > c->left / 8)
			c->bad = 1;
		else
			skip(c, v * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		const unsigned char *p = c->p;
		uint32_t sz = 0;

		if (skip(c, 4))
			memcpy(&sz, p, 4);
		/*
		 * perf pads the raw data so that size and data fill whole
		 * u64s; anything else is corrupt and would leave the fields
		 * after it (the branch entries, read in place) misaligned.
		 */
		if ((4 + (uint64_t)sz) % 8)
			c->bad = 1;
		else
			skip(c, sz);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK)
		take_branches(c, a, s);
	skip_regs_stack(c, a);
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = take64(c);
	if (c->bad)
		return fail(r, "truncated or corrupt sample at data offset %llu",
			    (unsigned long long)data_offset(r));
	return 0;
}

/*
 * The sample_id trailer of a non-sample record (attr.sample_id_all), read
 * from the end: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER.  The attribute
 * is the one IDENTIFIER names, else the first (perf requires one layout).
 */
static void parse_id_trailer(const struct rvctr_reader *r, const struct cursor *body,
			     struct rvctr_event *ev)
{
	const struct perf_event_attr *a = &r->attrs[0];
	const unsigned char *end = body->p + body->left;
	uint64_t st, v, need;
	int i;

	if (!r->nr_attrs || !a->sample_id_all)
		return;
	st = a->sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		if (body->left < 8)
			return;
		memcpy(&v, end - 8, 8);
		i = idmap_find(r, v);
		if (i >= 0)
			st = r->attrs[i].sample_type;
	}
	need = !!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_CPU) +
	       !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_ID) +
	       !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_TID);
	if (need * 8 > body->left)
		return;
	end -= 8 * !!(st & PERF_SAMPLE_IDENTIFIER);
	if (st & PERF_SAMPLE_CPU) {
		end -= 8;
		memcpy(&v, end, 8);
		ev->cpu = (uint32_t)v;
	}
	end -= 8 * (!!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_ID));
	if (st & PERF_SAMPLE_TIME) {
		end -= 8;
		memcpy(&ev->time, end, 8);
	}
}

static int parse_comm(struct rvctr_reader *r, struct cursor *c, struct rvctr_comm *m)
{
	uint64_t v = take64(c);
	size_t n = c->bad ? 0 : strnlen((const char *)c->p, c->left);

	if (c->bad || n == c->left)
		return fail(r, "corrupt COMM record at data offset %llu",
			    (unsigned long long)data_offset(r));
	m->pid = (uint32_t)v;
	m->tid = (uint32_t)(v >> 32);
	/*
	 * The bytes measured, not read again: a mapped file may change under
	 * the reader.  A comm is 16 bytes (TASK_COMM_LEN); a longer one is
	 * cut, it is only shown.
	 */
	snprintf(m->comm, sizeof(m->comm), "%.*s", (int)n, (const char *)c->p);
	return 0;
}

static int parse_mmap(struct rvctr_reader *r, struct cursor *c, uint32_t type, uint16_t misc,
		      struct rvctr_mmap *m)
{
	uint64_t v = take64(c);
	const unsigned char *p;
	size_t n;

	m->pid = (uint32_t)v;
	m->tid = (uint32_t)(v >> 32);
	m->start = take64(c);
	m->len = take64(c);
	m->pgoff = take64(c);
	m->misc = misc;
	if (type == PERF_RECORD_MMAP2) {
		/* maj, min, ino, ino_generation, or the build id (perf >= 5.12) */
		p = skip(c, 24);
		if (p && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			m->build_id_size = p[0] <= 20 ? p[0] : 20;
			memcpy(m->build_id, p + 4, 20);
		}
		v = take64(c);
		m->prot = (uint32_t)v;
		m->flags = (uint32_t)(v >> 32);
	}
	n = c->bad ? 0 : strnlen((const char *)c->p, c->left);
	if (c->bad || n == c->left)
		return fail(r, "corrupt MMAP record at data offset %llu",
			    (unsigned long long)data_offset(r));
	if (n >= sizeof(m->filename)) {
		/* cut short, it would be another file's: named as the kernel names one too long */
		warn(r, W_NAME_LONG, "a mapped file's name of %zu bytes (more than %zu): named "
		     "//toolong, its samples not symbolized", n, sizeof(m->filename) - 1);
		snprintf(m->filename, sizeof(m->filename), "//toolong");
		return 0;
	}
	/* the bytes measured (a mapped file may change under the reader) */
	memcpy(m->filename, c->p, n);
	m->filename[n] = 0;
	return 0;
}

static int parse_task(struct rvctr_reader *r, struct cursor *c, struct rvctr_task *t)
{
	uint64_t a = take64(c), b = take64(c);

	t->time = take64(c);
	if (c->bad)
		return fail(r, "corrupt FORK/EXIT record at data offset %llu",
			    (unsigned long long)data_offset(r));
	t->pid = (uint32_t)a;
	t->ppid = (uint32_t)(a >> 32);
	t->tid = (uint32_t)b;
	t->ptid = (uint32_t)(b >> 32);
	return 0;
}

/* Decode the record at @rec into @ev: 0, 1 (skip it) or -1. */
static int parse_event(struct rvctr_reader *r, const void *rec, uint32_t size,
		       struct rvctr_event *ev)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memcpy(&h, rec, sizeof(h));
	h.size = size;		/* as checked when read: the bound of what is read */
	/* a sample clears only its own part of the union (a tenth of it) */
	if (h.type == PERF_RECORD_SAMPLE) {
		memset(ev, 0, offsetof(struct rvctr_event, sample));
		memset(&ev->sample, 0, sizeof(ev->sample));
	} else {
		memset(ev, 0, sizeof(*ev));
	}
	ev->type = h.type;
	ev->misc = h.misc;
	ev->size = h.size;
	ev->raw = rec;
	c = (struct cursor){ .p = (const unsigned char *)rec + 8, .left = h.size - 8 };
	if (h.type == PERF_RECORD_SAMPLE) {
		ev->sample.misc = h.misc;
		ret = parse_sample(r, &c, &ev->sample);
		ev->time = ev->sample.time;
		ev->cpu = ev->sample.cpu;
		return ret;
	}
	parse_id_trailer(r, &c, ev);
	switch (h.type) {
	case PERF_RECORD_COMM:
		ev->comm.misc = h.misc;
		return parse_comm(r, &c, &ev->comm);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return parse_mmap(r, &c, h.type, h.misc, &ev->mmap);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return parse_task(r, &c, &ev->task);
	default:
		return 0;
	}
}

/* ---- user records ---- */

static int header_attr(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint32_t asz;

	if (n < PERF_ATTR_SIZE_VER0)
		return fail(r, "corrupt HEADER_ATTR record of %llu bytes", (unsigned long long)n);
	memcpy(&asz, p + offsetof(struct perf_event_attr, size), 4);
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz > n || asz < PERF_ATTR_SIZE_VER0)
		return fail(r, "corrupt HEADER_ATTR record: attr size %u of %llu bytes", asz,
			    (unsigned long long)n);
	return add_attr(r, p, asz, (const uint64_t *)(p + asz), (n - asz) / 8);
}

static int event_update(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint64_t type, id;
	char name[RVCTR_NAME_MAX];
	int i;

	if (n < 16)
		return 0;
	memcpy(&type, p, 8);
	memcpy(&id, p + 8, 8);
	if (type != EVENT_UPDATE_NAME)
		return 0;
	i = idmap_find(r, id);
	snprintf(name, sizeof(name), "%.*s", (int)(n - 16), (const char *)p + 16);
	return i >= 0 ? set_name(r, i, name) : 0;
}

static void round_flush(struct rvctr_reader *r)
{
	r->seen_round = 1;
	/* ordered-events.c, OE_FLUSH__ROUND: what the previous round saw */
	r->limit = r->next_flush;
	r->next_flush = r->max_ts;
	r->flushing = 1;
	r->round_pending = 1;
}

static int handle_user(struct rvctr_reader *r)
{
	const unsigned char *p = r->recp;
	struct perf_event_header h;
	uint64_t n, v;
	uint32_t u;

	memcpy(&h, p, sizeof(h));
	h.size = r->rec_size;
	n = h.size - sizeof(h);
	p += sizeof(h);
	switch (h.type) {
	case USER_HEADER_ATTR:
		return header_attr(r, p, n);
	case USER_HEADER_FEATURE:
		if (n < 8)
			return fail(r, "corrupt HEADER_FEATURE record");
		memcpy(&v, p, 8);
		return v < PERF_FEAT_BITS ? parse_feature_buf(r, v, p + 8, n - 8) : 0;
	case USER_HEADER_BUILD_ID:
		return parse_build_ids(r, r->recp, h.size);
	case USER_EVENT_UPDATE:
		return event_update(r, p, n);
	case USER_HEADER_TRACING_DATA:
		if (n < 8)
			return fail(r, "corrupt HEADER_TRACING_DATA record");
		memcpy(&u, p, 4);
		return stream_skip(r, PERF_ALIGN((uint64_t)u, 8));
	case USER_AUXTRACE:
		if (n < 8)
			return fail(r, "corrupt AUXTRACE record");
		memcpy(&v, p, 8);
		return stream_skip(r, v);
	case USER_FINISHED_ROUND:
		round_flush(r);
		return 0;
	case PERF_RECORD_COMPRESSED_V1:
		return decompress(r, p, n);
	case PERF_RECORD_COMPRESSED_V2:
		if (n < 8)
			return fail(r, "corrupt COMPRESSED record");
		memcpy(&v, p, 8);
		if (v > n - 8)
			return fail(r, "corrupt COMPRESSED record: %llu bytes of data in %llu",
				    (unsigned long long)v, (unsigned long long)(n - 8));
		return decompress(r, p + 8, v);
	default:
		return 0;
	}
}

/* ---- ordering: a min-heap on (time, arrival) ---- */

static int qless(const struct qrec *a, const struct qrec *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* The oldest queued record, or NULL. */
static struct qrec *queue_min(const struct rvctr_reader *r)
{
	struct qrec *f = r->fcount ? r->fifo[r->fhead] : NULL;

	if (!r->nheap)
		return f;
	return !f || qless(r->heap[0], f) ? r->heap[0] : f;
}

static int queue_push(struct rvctr_reader *r, uint64_t time)
{
	struct qrec *q;
	int in_place;
	size_t i;

	if (r->nheap == r->heap_cap) {
		size_t cap = r->heap_cap ? r->heap_cap * 2 : 1024;
		struct qrec **n = realloc(r->heap, cap * sizeof(*n));

		if (!n)
			return fail(r, "out of memory");
		r->heap = n;
		r->heap_cap = cap;
	}
	if (r->fcount == r->fcap) {
		size_t cap = r->fcap ? r->fcap * 2 : 1024, k;
		struct qrec **n = malloc(cap * sizeof(*n));

		if (!n)
			return fail(r, "out of memory");
		for (k = 0; k < r->fcount; k++)
			n[k] = r->fifo[(r->fhead + k) % r->fcap];
		free(r->fifo);
		r->fifo = n;
		r->fcap = cap;
		r->fhead = 0;
	}
	/*
	 * A record in the input in memory stays there (as perf's queue keeps
	 * pointers into its mapping): copying it cost more than the rest of
	 * reading, all of it in page faults on fresh memory for the copies.
	 */
	in_place = r->mem && !r->from_dbuf && r->recp != (const void *)r->rec;
	q = qrec_alloc(r, in_place ? 0 : r->rec_size);
	if (!q)
		return fail(r, "out of memory");
	q->time = time;
	q->seq = r->seq++;
	q->size = r->rec_size;
	if (in_place) {
		q->rec = r->recp;
		r->queued_in_place += q->size;
	} else {
		q->rec = q->data;
		memcpy(q->data, r->recp, q->size);
	}
	if (time < r->last_flush)
		r->nr_unordered++;
	if (time > r->max_ts)
		r->max_ts = time;
	r->qbytes += sizeof(*q) + q->size;
	if (!r->fcount || r->fifo[(r->fhead + r->fcount - 1) % r->fcap]->time <= time) {
		r->fifo[(r->fhead + r->fcount++) % r->fcap] = q;
	} else {
		for (i = r->nheap++; i && qless(q, r->heap[(i - 1) / 2]); i = (i - 1) / 2)
			r->heap[i] = r->heap[(i - 1) / 2];
		r->heap[i] = q;
	}
	if (r->flushing)
		return 0;
	if (r->qbytes > r->qlimit) {
		/* ordered-events.c, OE_FLUSH__HALF */
		warn(r, W_QUEUE, "over %llu bytes of records wait for their round: "
		     "releasing the older half early", (unsigned long long)r->qlimit);
	} else if (r->seen_round || r->qbytes <= WINDOW_NO_ROUNDS) {
		return 0;
	}
	r->limit = queue_min(r)->time + (r->max_ts - queue_min(r)->time) / 2;
	r->flushing = 1;
	return 0;
}

static struct qrec *queue_pop(struct rvctr_reader *r)
{
	struct qrec *top = queue_min(r), *last;
	size_t i = 0, c;

	if (r->fcount && top == r->fifo[r->fhead]) {
		r->fhead = (r->fhead + 1) % r->fcap;
		r->fcount--;
		r->qbytes -= sizeof(*top) + top->size;
		if (top->rec != top->data)
			r->queued_in_place -= top->size;
		return top;
	}
	last = r->heap[--r->nheap];

	while ((c = 2 * i + 1) < r->nheap) {
		if (c + 1 < r->nheap && qless(r->heap[c + 1], r->heap[c]))
			c++;
		if (!qless(r->heap[c], last))
			break;
		r->heap[i] = r->heap[c];
		i = c;
	}
	if (r->nheap)
		r->heap[i] = last;
	r->qbytes -= sizeof(*top) + top->size;
	if (top->rec != top->data)
		r->queued_in_place -= top->size;
	return top;
}

int rvctr_reader__next(struct rvctr_reader *r, struct rvctr_event *ev)
{
	const struct perf_event_header *h;
	int ret;

	qrec_free(r, r->cur);
	r->cur = NULL;
	for (;;) {
		if (r->failed)
			return -1;
		if ((r->flushing || r->eof) && queue_min(r) && queue_min(r)->time <= r->limit) {
			r->cur = queue_pop(r);
			r->last_flush = r->cur->time;
			ret = parse_event(r, r->cur->rec, r->cur->size, ev);
			if (ret)
				goto skip;
			return 1;
		}
		if (r->flushing) {
			r->flushing = 0;
			if (r->round_pending) {
				r->round_pending = 0;
				memset(ev, 0, sizeof(*ev));
				ev->type = PERF_RECORD_FINISHED_ROUND;
				ev->size = sizeof(struct perf_event_header);
				return 1;
			}
		}
		if (r->eof)
			return 0;
		ret = read_raw(r);
		if (ret < 0)
			return -1;
		if (!ret) {
			r->eof = 1;
			r->limit = UINT64_MAX;
			continue;
		}
		h = r->recp;
		if (h->type >= 64) {
			if (handle_user(r))
				return -1;
			continue;
		}
		ret = parse_event(r, r->recp, r->rec_size, ev);
		if (ret)
			goto skip;
		/* perf delivers records without a time at once (session.c) */
		if (!ev->time || ev->time == UINT64_MAX)
			return 1;
		if (queue_push(r, ev->time))
			return -1;
		continue;
skip:
		if (ret < 0)
			return -1;
		warn(r, W_UNKNOWN_ID, "samples with ids of no attribute are skipped");
	}
}

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
	r->qlimit = bytes;
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
	return r->nr_unordered;
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
	return data_offset(r);
}

uint64_t rvctr_reader__data_size(const struct rvctr_reader *r)
{
	return r->pipe ? 0 : r->data_end - r->hdr.data.offset;
}
