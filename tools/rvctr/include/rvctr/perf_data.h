/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf.data (file mode, "PERFILE2") reader and writer.
 *
 * The reader streams: it keeps the attributes, the small header features
 * and one record at a time, so memory does not grow with the input.  Every
 * length it reads is checked against the bytes that are really there; a
 * corrupt or truncated file ends with an error message, never a crash.
 *
 * The writer emits what stock perf (6.1+), AutoFDO and llvm-profgen read:
 * attributes with ids, COMM/MMAP2/SAMPLE records, and the BUILD_ID, ARCH,
 * EVENT_DESC and BRANCH_STACK features.
 */
#ifndef RVCTR_PERF_DATA_H
#define RVCTR_PERF_DATA_H

#include <stdio.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* Linux 6.8 UAPI; older installed headers lack it (its layout is read here). */
#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1U << 19)
#endif

#define RVCTR_MAX_ATTRS		64
#define RVCTR_MAX_BRANCHES	256
#define RVCTR_NAME_MAX		256

/* A decoded PERF_RECORD_SAMPLE; fields absent from sample_type are 0. */
struct rvctr_sample {
	unsigned int attr;		/* index of the attribute it belongs to */
	uint16_t misc;
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint32_t cpu;
	uint64_t period;
	uint64_t weight;
	uint64_t nr_branches;
	uint64_t hw_idx;
	/* points into the reader's record buffer (valid until the next call) */
	const struct perf_branch_entry *branches;
};

struct rvctr_comm {
	uint32_t pid, tid;
	char comm[RVCTR_NAME_MAX];
};

struct rvctr_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t prot, flags;
	char filename[RVCTR_NAME_MAX * 4];
};

struct rvctr_event {
	uint32_t type;			/* PERF_RECORD_* */
	uint16_t misc;
	uint16_t size;
	const void *raw;		/* the record as read (size bytes) */
	union {
		struct rvctr_sample sample;
		struct rvctr_comm comm;
		struct rvctr_mmap mmap;
	};
};

struct rvctr_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t size;
	uint8_t id[20];
	char filename[RVCTR_NAME_MAX * 4];
};

/* ---- reader ---- */
struct rvctr_reader;

/* Both return NULL and fill @err (one line, no newline) on failure. */
struct rvctr_reader *rvctr_reader__open(const char *path, char *err, size_t errlen);
struct rvctr_reader *rvctr_reader__fopen(FILE *f, char *err, size_t errlen);
void rvctr_reader__close(struct rvctr_reader *r);

/* 1: an event was read; 0: end of data; -1: error (see __error). */
int rvctr_reader__next(struct rvctr_reader *r, struct rvctr_event *ev);
const char *rvctr_reader__error(const struct rvctr_reader *r);

unsigned int rvctr_reader__nr_attrs(const struct rvctr_reader *r);
const struct perf_event_attr *rvctr_reader__attr(const struct rvctr_reader *r, unsigned int i);
/* The event name from HEADER_EVENT_DESC, or NULL. */
const char *rvctr_reader__attr_name(const struct rvctr_reader *r, unsigned int i);
/* HEADER_ARCH, or NULL. */
const char *rvctr_reader__arch(const struct rvctr_reader *r);
unsigned int rvctr_reader__nr_build_ids(const struct rvctr_reader *r);
const struct rvctr_build_id *rvctr_reader__build_id(const struct rvctr_reader *r, unsigned int i);
int rvctr_reader__has_feature(const struct rvctr_reader *r, unsigned int feat);
/* Bytes of the data section consumed so far, and its size (for progress). */
uint64_t rvctr_reader__data_pos(const struct rvctr_reader *r);
uint64_t rvctr_reader__data_size(const struct rvctr_reader *r);

/* ---- writer ---- */
struct rvctr_writer;

/*
 * Open @path for writing with @nr attributes (names may be NULL).  Sample
 * types the writer can encode: IDENTIFIER, IP, TID, TIME, ADDR, ID, CPU,
 * PERIOD, CALLCHAIN (empty, unless written by rvctr_writer__raw),
 * BRANCH_STACK, WEIGHT.  Attribute i gets sample id i + 1.
 */
struct rvctr_writer *rvctr_writer__open(const char *path,
					const struct perf_event_attr *attrs,
					const char *const *names, unsigned int nr,
					char *err, size_t errlen);
int rvctr_writer__set_arch(struct rvctr_writer *w, const char *arch);
int rvctr_writer__add_build_id(struct rvctr_writer *w, int32_t pid, uint16_t misc,
			       const char *filename, const uint8_t *id, uint8_t size);
int rvctr_writer__comm(struct rvctr_writer *w, const struct rvctr_comm *c, uint64_t time);
int rvctr_writer__mmap2(struct rvctr_writer *w, const struct rvctr_mmap *m, uint64_t time);
int rvctr_writer__sample(struct rvctr_writer *w, const struct rvctr_sample *s);
/* Copy a record that is already in the file's format (e.g. from a ring buffer). */
int rvctr_writer__raw(struct rvctr_writer *w, const void *rec, size_t size);
/* Write features and the final header; frees @w.  0 or -1 with @err. */
int rvctr_writer__close(struct rvctr_writer *w, char *err, size_t errlen);
uint64_t rvctr_writer__nr_samples(const struct rvctr_writer *w);

/* perf header feature numbers this code reads or writes */
enum {
	RVCTR_FEAT_BUILD_ID = 2,
	RVCTR_FEAT_ARCH = 6,
	RVCTR_FEAT_EVENT_DESC = 12,
	RVCTR_FEAT_BRANCH_STACK = 15,
};

#endif /* RVCTR_PERF_DATA_H */
