/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf.data ("PERFILE2", file and pipe mode) reader and writer.
 *
 * The reader streams.  It reads file-mode and pipe-mode data, zstd
 * compressed records (perf record -z), skips AUXTRACE payloads, reads a
 * file whose header was never finished (perf record killed: data.size 0)
 * to its end, and delivers events in time order the way perf does
 * (tools/perf/util/ordered-events.c): records are queued by timestamp and,
 * at each FINISHED_ROUND, those no newer than the previous round's newest
 * are delivered.  Memory is bounded by about two rounds of records.
 * Every length it reads is checked against the bytes that are really
 * there; a corrupt or truncated file ends with an error message, never a
 * crash.  Limits (attributes, ids, build ids) degrade with a warning.
 *
 * The writer emits what stock perf (6.1+), AutoFDO and llvm-profgen read:
 * attributes with ids, COMM/MMAP2/SAMPLE records, and the BUILD_ID, ARCH,
 * NRCPUS, EVENT_DESC and BRANCH_STACK features.
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
	/*
	 * When records were taken out of branches (not-taken ones, see
	 * tools/rvctr/source.h): the stack as recorded, valid as long as
	 * branches; else NULL and 0.
	 */
	const struct perf_branch_entry *recorded;
	uint64_t nr_recorded;
	/*
	 * PERF_SAMPLE_CALLCHAIN, REGS_USER and STACK_USER (perf record
	 * --call-graph dwarf), in the record as branches are: the callchain's
	 * nr entries; the user registers, one per bit of regs_mask (the
	 * sample's attr.sample_regs_user) when regs_abi is not 0
	 * (PERF_SAMPLE_REGS_ABI_NONE: no user registers, e.g. a kernel
	 * thread); stack_size bytes of user stack from the sampled sp (0: no
	 * copy), of which the first stack_dyn_size are valid.
	 */
	uint64_t nr_callchain;
	const uint64_t *callchain;
	uint64_t regs_abi, regs_mask;
	const uint64_t *regs;
	uint64_t stack_size, stack_dyn_size;
	const unsigned char *stack;
};

struct rvctr_comm {
	uint32_t pid, tid;
	uint16_t misc;			/* PERF_RECORD_MISC_COMM_EXEC */
	char comm[RVCTR_NAME_MAX];
};

struct rvctr_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t prot, flags;
	uint16_t misc;			/* cpumode (0 is written as USER) */
	uint8_t build_id_size;		/* > 0: MMAP2 carried a build id */
	uint8_t build_id[20];
	char filename[RVCTR_NAME_MAX * 4];
};

/* PERF_RECORD_FORK / PERF_RECORD_EXIT */
struct rvctr_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/*
 * One event.  PERF_RECORD_FINISHED_ROUND is delivered after the events
 * that the round released, so a writer can keep the rounds.
 */
struct rvctr_event {
	uint32_t type;			/* PERF_RECORD_* */
	uint16_t misc;
	uint16_t size;
	const void *raw;		/* the record as read (size bytes) */
	uint64_t time;			/* sample time or sample_id time; 0 if none */
	uint32_t cpu;			/* likewise */
	union {
		struct rvctr_sample sample;
		struct rvctr_comm comm;
		struct rvctr_mmap mmap;
		struct rvctr_task task;
	};
};

#ifndef PERF_RECORD_FINISHED_ROUND
#define PERF_RECORD_FINISHED_ROUND	68
#endif

struct rvctr_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t size;
	uint8_t id[20];
	char filename[RVCTR_NAME_MAX * 4];
};

/* ---- reader ---- */
struct rvctr_reader;

/*
 * Both return NULL and fill @err (one line, no newline) on failure.
 * @path "-" is standard input.  A directory (perf record --threads) is
 * refused with a message that says so.
 */
struct rvctr_reader *rvctr_reader__open(const char *path, char *err, size_t errlen);
struct rvctr_reader *rvctr_reader__fopen(FILE *f, char *err, size_t errlen);
/*
 * The same on @len bytes at @buf (file or pipe mode), which must stay
 * unchanged until the reader is closed.  A regular file given to the two
 * above is read this way too, mapped; other streams through stdio.
 */
struct rvctr_reader *rvctr_reader__open_memory(const void *buf, size_t len, char *err,
					       size_t errlen);
/* Is the input pipe-mode perf.data? */
int rvctr_reader__is_pipe(const struct rvctr_reader *r);
/* Bytes queued for ordering before half is released early (default 256 MiB). */
void rvctr_reader__set_queue_limit(struct rvctr_reader *r, uint64_t bytes);
/*
 * Warnings so far (limits hit, records skipped, unfinished file), one line
 * each; the caller prints them.  Each kind is reported once.
 */
unsigned int rvctr_reader__nr_warnings(const struct rvctr_reader *r);
const char *rvctr_reader__warning(const struct rvctr_reader *r, unsigned int i);
/* Events delivered after their round had been flushed (perf's "unordered"). */
uint64_t rvctr_reader__nr_unordered(const struct rvctr_reader *r);
void rvctr_reader__close(struct rvctr_reader *r);

/* 1: an event was read; 0: end of data; -1: error (see __error). */
int rvctr_reader__next(struct rvctr_reader *r, struct rvctr_event *ev);
const char *rvctr_reader__error(const struct rvctr_reader *r);

unsigned int rvctr_reader__nr_attrs(const struct rvctr_reader *r);
const struct perf_event_attr *rvctr_reader__attr(const struct rvctr_reader *r, unsigned int i);
/*
 * attr.config3 of attribute @i (0 if the attr is shorter): read from the
 * file's bytes, since the build host's <linux/perf_event.h> may predate
 * it (Linux 6.3, PERF_ATTR_SIZE_VER8: the 8 bytes at offset 128).
 */
#define RVCTR_ATTR_CONFIG3_OFFSET	128
uint64_t rvctr_reader__attr_config3(const struct rvctr_reader *r, unsigned int i);
/* The event name from HEADER_EVENT_DESC, or NULL. */
const char *rvctr_reader__attr_name(const struct rvctr_reader *r, unsigned int i);
/* HEADER_ARCH, or NULL. */
const char *rvctr_reader__arch(const struct rvctr_reader *r);
/*
 * HEADER_NRCPUS: 1 with the CPUs available (the highest present + 1) and
 * online, or 0 when the input has none, or none perf would accept (more
 * than RVCTR_MAX_NR_CPUS, or more online than available: a warning).
 */
int rvctr_reader__nr_cpus(const struct rvctr_reader *r, uint32_t *avail, uint32_t *online);
unsigned int rvctr_reader__nr_build_ids(const struct rvctr_reader *r);
const struct rvctr_build_id *rvctr_reader__build_id(const struct rvctr_reader *r, unsigned int i);
int rvctr_reader__has_feature(const struct rvctr_reader *r, unsigned int feat);
/* Bytes of the data section consumed so far, and its size (for progress;
 * 0 when unknown: pipe input). */
uint64_t rvctr_reader__data_pos(const struct rvctr_reader *r);
uint64_t rvctr_reader__data_size(const struct rvctr_reader *r);

/* ---- writer ---- */
struct rvctr_writer;

/*
 * Open @path for writing with @nr attributes (names may be NULL); "-" is
 * standard output in perf's pipe mode (attributes, features and build
 * ids as header events).  Otherwise the file header is valid from the
 * start with data.size 0, so perf reads a file whose writer was killed
 * to its end; the file must be seekable, at offset 0 and not open to
 * append (a pipe, say, is refused here, naming "-" for pipe mode).  Sample
 * types the writer can encode: IDENTIFIER, IP, TID, TIME, ADDR, ID, CPU,
 * PERIOD, CALLCHAIN, BRANCH_STACK, REGS_USER, STACK_USER, WEIGHT.
 * Attribute i gets sample id i + 1.
 */
struct rvctr_writer *rvctr_writer__open(const char *path,
					const struct perf_event_attr *attrs,
					const char *const *names, unsigned int nr,
					char *err, size_t errlen);
/*
 * The same in file mode through a duplicate of @fd (the caller's stays
 * open): a file already created, written without opening it again by its
 * name.  @name is the output's in messages (the name the user gave, not
 * a temporary file's).
 */
struct rvctr_writer *rvctr_writer__fdopen(int fd, const char *name,
					  const struct perf_event_attr *attrs,
					  const char *const *names, unsigned int nr,
					  char *err, size_t errlen);
int rvctr_writer__set_arch(struct rvctr_writer *w, const char *arch);
/*
 * HEADER_NRCPUS (perf 7.3 warns of a file without it, and then bounds
 * a sample's cpu by 4096 CPUs).  Given several times (inputs merged), the
 * largest of each is kept.  At close, CPUs available are raised above the
 * highest cpu of the samples and sample_id trailers written (perf sets a
 * sample's cpu at or above them to 0); never given, both are that highest
 * cpu + 1, and without any cpu the feature is left out.  -1 when @online
 * > @avail or @avail > RVCTR_MAX_NR_CPUS (perf refuses the file).
 */
#define RVCTR_MAX_NR_CPUS	(1u << 20)
int rvctr_writer__set_nr_cpus(struct rvctr_writer *w, uint32_t avail, uint32_t online);
/*
 * This machine's, as perf record writes them: the highest present CPU + 1
 * (/sys/devices/system/cpu/present; else sysconf(_SC_NPROCESSORS_CONF)),
 * and sysconf(_SC_NPROCESSORS_ONLN); avail at least online, both at least 1.
 */
void rvctr_writer__local_nr_cpus(uint32_t *avail, uint32_t *online);
int rvctr_writer__add_build_id(struct rvctr_writer *w, int32_t pid, uint16_t misc,
			       const char *filename, const uint8_t *id, uint8_t size);
/*
 * COMM and MMAP2 keep c->misc / m->misc (COMM_EXEC, cpumode) and m's build
 * id.  @time and @cpu go in the sample_id trailer (attr.sample_id_all), when
 * the first attribute's sample_type has them.
 */
int rvctr_writer__comm(struct rvctr_writer *w, const struct rvctr_comm *c, uint64_t time,
		       uint32_t cpu);
int rvctr_writer__mmap2(struct rvctr_writer *w, const struct rvctr_mmap *m, uint64_t time,
			uint32_t cpu);
/* PERF_RECORD_FORK or PERF_RECORD_EXIT (@type). */
int rvctr_writer__task(struct rvctr_writer *w, uint32_t type, const struct rvctr_task *t,
		       uint32_t cpu);
int rvctr_writer__finished_round(struct rvctr_writer *w);
/*
 * Flush, and (file mode) rewrite the header with the data written so far:
 * a writer killed after this leaves a file perf reads up to here.
 */
int rvctr_writer__checkpoint(struct rvctr_writer *w);
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
	RVCTR_FEAT_NRCPUS = 7,
	RVCTR_FEAT_EVENT_DESC = 12,
	RVCTR_FEAT_BRANCH_STACK = 15,
	RVCTR_FEAT_COMPRESSED = 27,
};

#endif /* RVCTR_PERF_DATA_H */
