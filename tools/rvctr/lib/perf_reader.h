/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The perf.data reader's parts, as perf splits them (tools/perf/util):
 *
 *   perf_reader.c          the session: open, the event loop, user records
 *   perf_reader_file.c     framing: file and pipe mode, mapped or stdio,
 *                          one record at a time (data.c, session.c)
 *   perf_reader_header.c   file header, attributes and ids, features,
 *                          build ids (header.c)
 *   perf_zstd.c            COMPRESSED records (zstd.c)
 *   ordered_events.c       the ordering queue (ordered-events.c)
 *   perf_reader_sample.c   record contents: samples, sample_id, COMM,
 *                          MMAP, FORK/EXIT (evsel.c, event.c)
 *
 * Private header: the parts share struct rvctr_reader; the tool sees
 * only <rvctr/perf_data.h>.
 */
#ifndef RVCTR_PERF_READER_H
#define RVCTR_PERF_READER_H

#include <rvctr/hash.h>
#include <rvctr/perf_data.h>
#include "ordered_events.h"
#include "perf_format.h"
#include "perf_zstd.h"

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

enum warn_kind {
	W_ATTRS, W_IDS, W_BUILD_IDS, W_BUILD_ID_NAME, W_NAME_LONG, W_UNKNOWN_ID, W_DATA_SIZE,
	W_QUEUE, W_FEATURES, W_NRCPUS,
	W_NR,
};

struct rvctr_reader {
	/* framing (perf_reader_file.c) */
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
	const void *recp;		/* the record read last (rec or mem) */
	uint32_t rec_size;		/* its size, as checked when it was read */
	int pipe;			/* pipe-mode stream */
	uint64_t file_size;		/* file mode */
	uint64_t data_end;		/* file offset where data ends */
	uint64_t off;			/* offset of the next byte of the stream */
	int from_dbuf;			/* the record in rec came from zstd */
	int stashed;			/* pipe mode: rec holds a record not yet handled */
	int eof;
	/* header (perf_reader_header.c) */
	struct perf_file_header hdr;
	unsigned int nr_attrs;
	struct perf_event_attr attrs[RVCTR_MAX_ATTRS];
	/* attr.config3, which the host's perf_event_attr may lack (< 6.3) */
	uint64_t config3[RVCTR_MAX_ATTRS];
	char *names[RVCTR_MAX_ATTRS];
	struct rvctr_hash idmap;		/* sample id -> attribute (struct id_entry) */
	unsigned int nr_ids;
	uint64_t ids_read;		/* file mode: ids read from the attributes */
	char arch[64];
	int has_arch;
	uint32_t nr_cpus_avail, nr_cpus_online;	/* HEADER_NRCPUS */
	int has_nr_cpus;
	struct rvctr_build_id *build_ids;
	unsigned int nr_build_ids;
	/* the parts the session drives */
	struct zstd_buf z;
	struct ordered_events oe;
	struct qrec *cur;		/* the record last delivered from the queue */
	uint64_t nr_unknown_id;
	/* messages */
	char warnings[MAX_WARNINGS][200];
	unsigned int nr_warnings;
	unsigned char warned[W_NR];
	int failed;
	char err[256];
	uint64_t rec[65536 / 8];	/* one record, 8-byte aligned */
};

/* perf_reader.c */
int reader__fail(struct rvctr_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void reader__warn(struct rvctr_reader *r, enum warn_kind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int reader__handle_user(struct rvctr_reader *r);

/* perf_reader_file.c */
int reader__read_header(struct rvctr_reader *r);
int reader__read_at(struct rvctr_reader *r, uint64_t off, void *buf, uint64_t len,
		    const char *what);
int reader__section_ok(struct rvctr_reader *r, const struct perf_section *s, const char *what);
int reader__read_raw(struct rvctr_reader *r);
int reader__stream_skip(struct rvctr_reader *r, uint64_t n);
uint64_t reader__data_offset(const struct rvctr_reader *r);
void reader__unmap(struct rvctr_reader *r);

/* perf_reader_header.c */
int reader__read_file_header(struct rvctr_reader *r);
/* A HEADER_* or EVENT_UPDATE record of @size bytes: 0, -1, or 1 if it is none of them. */
int reader__header_record(struct rvctr_reader *r, const unsigned char *rec, uint32_t size);
/* Map sample id @id to attribute @attr (an id already mapped keeps its first). */
int reader__idmap_add(struct rvctr_reader *r, uint64_t id, int attr);
int reader__idmap_find(const struct rvctr_reader *r, uint64_t id);
void reader__header_exit(struct rvctr_reader *r);

/* perf_reader_sample.c: decode the record at @rec into @ev: 0, 1 (skip it) or -1. */
int reader__parse_event(struct rvctr_reader *r, const void *rec, uint32_t size,
			struct rvctr_event *ev);

#endif /* RVCTR_PERF_READER_H */
