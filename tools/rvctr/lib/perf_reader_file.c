// SPDX-License-Identifier: GPL-2.0-only
/*
 * Framing: the perf.data stream cut into records.  File mode (the data
 * section of a seekable file) or pipe mode (a stream of records, header
 * records first); a regular file is mapped and read in place, anything
 * else through stdio; records decompressed from COMPRESSED ones come
 * first.  Every length is checked against the bytes that are really
 * there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "perf_reader.h"

#define PERF_PIPE_HEADER_SIZE	16
/* A mapped file's pages are released behind the reader this many at a time. */
#define MAP_WINDOW		(1u << 20)

uint64_t reader__data_offset(const struct rvctr_reader *r)
{
	return r->pipe ? r->off : r->off - r->hdr.data.offset;
}

/* File mode: read exactly @len bytes at @off, checked against the file. */
int reader__read_at(struct rvctr_reader *r, uint64_t off, void *buf, uint64_t len,
		    const char *what)
{
	if (off > r->file_size || len > r->file_size - off)
		return reader__fail(r, "truncated file: %s at offset %#llx (+%llu) is past the end "
				    "(%llu bytes)", what, (unsigned long long)off,
				    (unsigned long long)len, (unsigned long long)r->file_size);
	if (r->mem) {
		memcpy(buf, r->mem + off, len);
		return 0;
	}
	if (fseeko(r->f, (off_t)off, SEEK_SET) || fread(buf, 1, len, r->f) != len)
		return reader__fail(r, "read error: %s at offset %#llx", what,
				    (unsigned long long)off);
	return 0;
}

int reader__section_ok(struct rvctr_reader *r, const struct perf_section *s, const char *what)
{
	if (s->offset > r->file_size || s->size > r->file_size - s->offset)
		return reader__fail(r, "corrupt header: %s section [%#llx, +%llu) outside the file "
				    "(%llu bytes)", what, (unsigned long long)s->offset,
				    (unsigned long long)s->size, (unsigned long long)r->file_size);
	return 0;
}

/* ---- the stream of records ---- */

static int truncated(struct rvctr_reader *r)
{
	return reader__fail(r, "truncated record at data offset %llu",
			    (unsigned long long)(r->off - r->hdr.data.offset));
}

/* A record cut short where the file was never finished ends it with a warning. */
static int cut_short(struct rvctr_reader *r)
{
	reader__warn(r, W_DATA_SIZE, "the last record is cut short (perf record killed?)");
	return 1;
}

/* File mode: may @len bytes be read here?  0 yes, 1 clean end, -1 error. */
static int data_left(struct rvctr_reader *r, size_t len, int at_boundary)
{
	if (r->pipe)
		return 0;
	if (r->off >= r->data_end && at_boundary)
		return 1;
	if (len <= r->data_end - r->off)
		return 0;
	return r->hdr.data.size ? truncated(r) : cut_short(r);
}

static size_t copy_in(struct rvctr_reader *r, void *buf, size_t len)
{
	uint64_t left = r->off < r->mem_len ? r->mem_len - r->off : 0;
	size_t got = len < left ? len : left;

	memcpy(buf, r->mem + r->off, got);
	return got;
}

/*
 * Read @len bytes of the data stream.  0: done; 1: clean end (nothing left
 * at a record boundary, @len bytes wanted); -1: error.
 */
static int stream_read(struct rvctr_reader *r, void *buf, size_t len, int at_boundary)
{
	int ret = data_left(r, len, at_boundary);
	size_t got;

	if (ret)
		return ret;
	got = r->mem ? copy_in(r, buf, len) : fread(buf, 1, len, r->f);
	r->off += got;
	if (got == len)
		return 0;
	if (!r->mem && ferror(r->f))
		return reader__fail(r, "read error: %s", strerror(errno));
	if (!got && at_boundary)
		return 1;
	if (!r->pipe && !r->hdr.data.size)
		return cut_short(r);
	return truncated(r);
}

static int pipe_skip(struct rvctr_reader *r, uint64_t n)
{
	char buf[4096];

	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);
		int ret = stream_read(r, buf, k, 0);

		if (ret)
			return ret < 0 ? -1 : reader__fail(r, "truncated payload");
		n -= k;
	}
	return 0;
}

/* Skip @n payload bytes after the record just read (AUXTRACE, tracing data). */
int reader__stream_skip(struct rvctr_reader *r, uint64_t n)
{
	if (r->from_dbuf) {
		if (n > zstd_buf__pending(&r->z))
			return reader__fail(r, "corrupt compressed data: payload of %llu bytes",
					    (unsigned long long)n);
		r->z.head += n;
		return 0;
	}
	if (r->pipe)
		return pipe_skip(r, n);
	if (n > r->data_end - r->off)
		return reader__fail(r, "truncated payload of %llu bytes at data offset %llu",
				    (unsigned long long)n,
				    (unsigned long long)(r->off - r->hdr.data.offset));
	if (!r->mem && fseeko(r->f, (off_t)(r->off + n), SEEK_SET))
		return reader__fail(r, "seek error: %s", strerror(errno));
	r->off += n;
	return 0;
}

/* Kernel records fill whole u64s; perf's own (features, COMPRESSED) need not. */
static int check_header(struct rvctr_reader *r, const struct perf_event_header *h)
{
	if (h->size < sizeof(*h) || (h->type < 64 && h->size % 8))
		return reader__fail(r, "corrupt record header (type %u, size %u) at data offset %llu",
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
	uint64_t keep = r->oe.queued_in_place + MAP_WINDOW, upto;

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

/* The next decompressed record, copied to rec: 1, 0 if none is whole, -1. */
static int zstd_record(struct rvctr_reader *r)
{
	struct perf_event_header h;
	const unsigned char *p;

	if (zstd_buf__pending(&r->z) < sizeof(h))
		return 0;
	p = r->z.buf + r->z.head;
	memcpy(&h, p, sizeof(h));
	if (check_header(r, &h))
		return -1;
	if (zstd_buf__pending(&r->z) < h.size)
		return 0;
	memcpy(r->rec, p, h.size);
	r->z.head += h.size;
	r->from_dbuf = 1;
	r->rec_size = h.size;
	return 1;
}

/* The next record from the stream, copied to rec: 1, 0 at the end, -1. */
static int stream_record(struct rvctr_reader *r)
{
	struct perf_event_header h;
	int ret = stream_read(r, &h, sizeof(h), 1);

	if (ret)
		return ret < 0 ? -1 : 0;
	if (check_header(r, &h))
		return -1;
	memcpy(r->rec, &h, sizeof(h));
	ret = stream_read(r, (char *)r->rec + sizeof(h), h.size - sizeof(h), 0);
	r->rec_size = h.size;
	return ret ? (ret < 0 ? -1 : 0) : 1;
}

/* The next record (at r->recp): 1, 0 at the end, -1 on error. */
int reader__read_raw(struct rvctr_reader *r)
{
	int ret;

	if (r->stashed) {
		r->stashed = 0;
		return 1;
	}
	r->recp = r->rec;
	ret = zstd_record(r);
	if (ret)
		return ret;
	r->from_dbuf = 0;
	if (r->mem && (r->recp = mem_record(r)))
		return 1;
	r->recp = r->rec;
	ret = stream_record(r);
	if (ret)
		return ret;
	if (zstd_buf__pending(&r->z))
		return reader__fail(r, "truncated compressed data: %zu bytes of a record left",
				    zstd_buf__pending(&r->z));
	return 0;
}

/* ---- opening ---- */

/* Pipe mode: the header records (attributes, features) come first. */
static int read_pipe_header(struct rvctr_reader *r)
{
	const struct perf_event_header *h;
	int ret;

	for (;;) {
		ret = reader__read_raw(r);
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
		if (reader__handle_user(r))
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

void reader__unmap(struct rvctr_reader *r)
{
	if (r->mapped)
		munmap((void *)r->mem, r->mem_len);
}

/* What the input is: memory, a regular file (mapped), a stream in memory, a pipe. */
static void input_kind(struct rvctr_reader *r)
{
	struct stat st;

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
}

/* The magic and the header size: 0 or -1. */
static int read_magic(struct rvctr_reader *r, uint64_t *magic, uint64_t *size)
{
	if (r->mem ? r->mem_len < 16 : fread(magic, 1, 8, r->f) != 8 || fread(size, 1, 8, r->f) != 8)
		return reader__fail(r, "not a perf.data file: shorter than its header");
	if (r->mem) {
		memcpy(magic, r->mem, 8);
		memcpy(size, r->mem + 8, 8);
	}
	return 0;
}

int reader__read_header(struct rvctr_reader *r)
{
	uint64_t magic, size;

	input_kind(r);
	if (read_magic(r, &magic, &size))
		return -1;
	if (magic == PERF_MAGIC2_SWAPPED)
		return reader__fail(r, "perf.data of the other byte order is not supported");
	if (magic != PERF_MAGIC2)
		return reader__fail(r, "not a perf.data file (bad magic %#llx)",
				    (unsigned long long)magic);
	r->off = 16;
	if (size == PERF_PIPE_HEADER_SIZE) {
		r->pipe = 1;
		return read_pipe_header(r);
	}
	if (r->pipe)
		return reader__fail(r, "file-mode perf.data on a pipe: give the file name, or "
				    "record with perf record -o - for pipe mode");
	return reader__read_file_header(r);
}
