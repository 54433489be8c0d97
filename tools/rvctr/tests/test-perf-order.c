// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader on files as perf record writes them: records of several CPU
 * buffers out of time order within a round (delivered in time order, the
 * rounds kept), no rounds at all (memory bound), zstd COMPRESSED records
 * (a record split across two), pipe mode; and what a perf.data sink keeps
 * (times, FORK/EXIT, COMM_EXEC, kernel maps, MMAP2 build ids).
 *
 * Every file is read four ways that must deliver the same events: the
 * file mapped (records read and queued in place), through stdio (a
 * stream without a file: fmemopen), and from memory, aligned and not
 * (misaligned records are copied).  A large file shows that the mapped
 * reader gives back the pages it has read.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/perf_data.h>
#include <rvctr/sink.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "tests.h"

static char path[] = "/tmp/rvctr-order-XXXXXX";

#define PERF_MAGIC2_LE	0x32454c4946524550ULL	/* "PERFILE2" */

static struct perf_event_attr attr(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.sample_period = 1000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY,
		.sample_id_all = 1,
	};
	return a;
}

/* A record as the kernel would put it in a ring buffer, into @buf. */
static size_t sample_rec(uint64_t *buf, uint64_t time, uint64_t ip)
{
	struct perf_event_header *h = (void *)buf;

	*h = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER,
					 .size = 48 };
	buf[1] = ip;
	buf[2] = 7 | 7ULL << 32;
	buf[3] = time;
	buf[4] = 1000;
	buf[5] = 0;	/* no branches */
	return 48;
}

static size_t comm_rec(uint64_t *buf, uint64_t time)
{
	struct perf_event_header *h = (void *)buf;

	*h = (struct perf_event_header){ .type = PERF_RECORD_COMM, .size = 48 };
	buf[1] = 7 | 7ULL << 32;
	memcpy(&buf[2], "worker\0\0", 8);
	buf[3] = 0;
	buf[4] = 7 | 7ULL << 32;	/* sample_id: TID, TIME */
	buf[5] = time;
	return 48;
}

static size_t round_rec(uint64_t *buf)
{
	*(struct perf_event_header *)buf = (struct perf_event_header){ .type = 68, .size = 8 };
	return 8;
}

/* What a reader delivered: every event's bytes, folded (FNV-1a). */
struct digest {
	uint64_t hash, events;
	int ret;
	char err[256];
};

static void fold(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		*h = (*h ^ *b++) * 0x100000001b3ULL;
}

static void digest_of(struct rvctr_reader *r, uint64_t qlimit, struct digest *d)
{
	struct rvctr_event ev;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	d->hash = 0xcbf29ce484222325ULL;
	if (qlimit)
		rvctr_reader__set_queue_limit(r, qlimit);
	while ((d->ret = rvctr_reader__next(r, &ev)) > 0) {
		fold(&d->hash, &ev.type, sizeof(ev.type));
		fold(&d->hash, &ev.time, sizeof(ev.time));
		fold(&d->hash, &ev.size, sizeof(ev.size));
		if (ev.raw)
			fold(&d->hash, ev.raw, ev.size);
		if (ev.type == PERF_RECORD_SAMPLE)
			fold(&d->hash, ev.sample.branches,
			     ev.sample.nr_branches * sizeof(*ev.sample.branches));
		d->events++;
	}
	snprintf(d->err, sizeof(d->err), "%s", rvctr_reader__error(r));
	for (i = 0; i < rvctr_reader__nr_warnings(r); i++)
		fold(&d->hash, rvctr_reader__warning(r, i), strlen(rvctr_reader__warning(r, i)));
	rvctr_reader__close(r);
}

/* Read @path mapped, through stdio and from memory (aligned or not): the same events. */
static void same_four_ways(const char *what, uint64_t qlimit)
{
	struct digest d[4];
	unsigned char *buf = NULL;
	struct stat st;
	char err[256];
	int fd = open(path, O_RDONLY), ok = 1, i;
	FILE *f = NULL;

	if (fd < 0 || fstat(fd, &st) || !(buf = malloc(st.st_size + 8)) ||
	    read(fd, buf, st.st_size) != st.st_size) {
		T_OK(0, "read the file back");
		goto out;
	}
	for (i = 0; i < 4; i++) {
		struct rvctr_reader *r = NULL;

		switch (i) {
		case 0:
			r = rvctr_reader__open(path, err, sizeof(err));
			break;
		case 1:
			f = fmemopen(buf, st.st_size, "rb");
			r = f ? rvctr_reader__fopen(f, err, sizeof(err)) : NULL;
			if (!r && f)
				fclose(f);
			break;
		case 2:
			r = rvctr_reader__open_memory(buf, st.st_size, err, sizeof(err));
			break;
		case 3:
			memmove(buf + 1, buf, st.st_size);
			r = rvctr_reader__open_memory(buf + 1, st.st_size, err, sizeof(err));
			break;
		}
		if (!r) {
			memset(&d[i], 0, sizeof(d[i]));
			d[i].ret = -2;
			snprintf(d[i].err, sizeof(d[i].err), "%s", err);
		} else {
			digest_of(r, qlimit, &d[i]);
			if (i == 1)
				fclose(f);
		}
		ok &= d[i].ret == d[0].ret && d[i].events == d[0].events &&
		      d[i].hash == d[0].hash && !strcmp(d[i].err, d[0].err);
		if (d[i].ret != d[0].ret || strcmp(d[i].err, d[0].err))
			printf("# way %d: %d \"%s\", mapped: %d \"%s\"\n", i, d[i].ret, d[i].err,
			       d[0].ret, d[0].err);
	}
	T_OK(ok && d[0].events, what);
out:
	free(buf);
	if (fd >= 0)
		close(fd);
}

static struct rvctr_writer *open_file(void)
{
	struct perf_event_attr a = attr();
	char err[256];

	return rvctr_writer__open(path, &a, NULL, 1, err, sizeof(err));
}

static void test_rounds(void)
{
	struct rvctr_writer *w = open_file();
	struct rvctr_reader *r;
	struct rvctr_event ev;
	uint64_t rec[8], times[16];
	unsigned int n = 0, rounds = 0, i, sorted = 1;
	char seq[32] = "", err[256];

	if (!w)
		return;
	/* round 1: CPU 0's buffer, then CPU 1's with an older COMM */
	rvctr_writer__raw(w, rec, sample_rec(rec, 100, 0x1000));
	rvctr_writer__raw(w, rec, sample_rec(rec, 120, 0x1004));
	rvctr_writer__raw(w, rec, comm_rec(rec, 50));
	rvctr_writer__raw(w, rec, round_rec(rec));
	/* round 2: older than round 1's newest, newer than anything flushed */
	rvctr_writer__raw(w, rec, sample_rec(rec, 200, 0x1008));
	rvctr_writer__raw(w, rec, sample_rec(rec, 110, 0x100c));
	rvctr_writer__raw(w, rec, round_rec(rec));
	/* after round 2 released everything up to 120: 115 comes too late */
	rvctr_writer__raw(w, rec, sample_rec(rec, 115, 0x1010));
	rvctr_writer__raw(w, rec, sample_rec(rec, 300, 0x1014));
	rvctr_writer__close(w, err, sizeof(err));

	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "rounds: reader opens");
	if (!r)
		return;
	while (rvctr_reader__next(r, &ev) > 0 && n < 16) {
		if (ev.type == PERF_RECORD_FINISHED_ROUND) {
			rounds++;
			strcat(seq, "R");
			continue;
		}
		strcat(seq, ev.type == PERF_RECORD_COMM ? "C" : "S");
		times[n++] = ev.time;
	}
	for (i = 1; i < n; i++)
		sorted &= times[i - 1] <= times[i] || (times[i] == 115);
	/* round 1 releases nothing (perf's next_flush starts at 0), round 2 up to 120 */
	T_STREQ(seq, "RCSSSRSSS", "records in time order, each round after what it released");
	T_EQ(rounds, 2, "both FINISHED_ROUNDs delivered");
	T_EQ(n > 0 ? times[0] : 0, 50, "the COMM of CPU 1 comes before CPU 0's samples");
	T_OK(sorted, "times ascend (but for the late record)");
	T_EQ(rvctr_reader__nr_unordered(r), 1, "one record came after its round: counted");
	rvctr_reader__close(r);
	same_four_ways("rounds: mapped, stdio and memory read the same", 0);

	/* perf record killed: data.size 0, the last record cut */
	{
		uint64_t zero = 0;
		struct stat st;
		int fd = open(path, O_RDWR);

		T_OK(fd >= 0 && pwrite(fd, &zero, 8, 48) == 8 && !fstat(fd, &st) &&
		     !ftruncate(fd, st.st_size - 20), "cut the file");
		if (fd >= 0)
			close(fd);
		same_four_ways("unfinished file cut mid-record: the same four ways", 0);
	}
}

/*
 * data.size 0: a finished file with no records (its feature table at
 * data.offset) is empty and says nothing; an unfinished one (perf record
 * killed) is read to its end, with a warning.
 */
static void test_empty_data(void)
{
	struct rvctr_writer *w = open_file();
	struct rvctr_reader *r;
	struct rvctr_event ev;
	uint64_t rec[8], sec[2], zero = 0;
	unsigned int n = 0;
	char err[256];
	int fd;

	if (!w)
		return;
	rvctr_writer__close(w, err, sizeof(err));
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "finished, no records: opens");
	if (!r) {
		printf("# %s\n", err);
		return;
	}
	while (rvctr_reader__next(r, &ev) > 0)
		n++;
	T_EQ(n, 0, "finished, no records: no events");
	if (rvctr_reader__nr_warnings(r))
		printf("# %s\n", rvctr_reader__warning(r, 0));
	T_EQ(rvctr_reader__nr_warnings(r), 0, "finished, no records: no warning");
	T_OK(rvctr_reader__has_feature(r, RVCTR_FEAT_BRANCH_STACK),
	     "finished, no records: its features are read");
	rvctr_reader__close(r);

	/* The same file as perf record leaves it when killed after 2 samples. */
	w = open_file();
	if (!w)
		return;
	rvctr_writer__raw(w, rec, sample_rec(rec, 10, 0x1000));
	rvctr_writer__raw(w, rec, sample_rec(rec, 20, 0x1004));
	rvctr_writer__close(w, err, sizeof(err));
	/* no feature table after the records, data.size 0 */
	fd = open(path, O_RDWR);
	T_OK(fd >= 0 && pread(fd, sec, sizeof(sec), 40) == sizeof(sec) &&
	     !ftruncate(fd, (off_t)(sec[0] + sec[1])) && pwrite(fd, &zero, 8, 48) == 8,
	     "unfinished: cut after the records, data.size set to 0");
	if (fd >= 0)
		close(fd);
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "unfinished: opens");
	if (!r)
		return;
	n = 0;
	while (rvctr_reader__next(r, &ev) > 0)
		n += ev.type == PERF_RECORD_SAMPLE;
	T_EQ(n, 2, "unfinished: both samples read");
	T_OK(rvctr_reader__nr_warnings(r) > 0 &&
	     strstr(rvctr_reader__warning(r, 0), "data size is 0"), "unfinished: warned");
	rvctr_reader__close(r);
}

/* No FINISHED_ROUND at all: the queue releases its older half at the bound. */
static void test_queue_bound(void)
{
	struct rvctr_writer *w = open_file();
	struct rvctr_reader *r;
	struct rvctr_event ev;
	uint64_t rec[8], last = 0;
	unsigned int i, n = 0, in_order = 1;
	char err[256];

	if (!w)
		return;
	for (i = 0; i < 2000; i++)
		rvctr_writer__raw(w, rec, sample_rec(rec, 1000 + i, 0x1000 + i));
	rvctr_writer__close(w, err, sizeof(err));
	r = rvctr_reader__open(path, err, sizeof(err));
	if (!r)
		return;
	rvctr_reader__set_queue_limit(r, 8192);
	while (rvctr_reader__next(r, &ev) > 0) {
		in_order &= ev.time > last;
		last = ev.time;
		n++;
		if (n == 10)
			/* at most the bound is held while reading */
			T_OK(rvctr_reader__data_pos(r) < 2 * 8192, "bounded read-ahead");
	}
	T_EQ(n, 2000, "no rounds: every sample delivered");
	T_OK(in_order, "in order");
	T_OK(rvctr_reader__nr_warnings(r) == 1 &&
	     strstr(rvctr_reader__warning(r, 0), "releasing the older half"),
	     "the early release is a warning");
	rvctr_reader__close(r);
	same_four_ways("no rounds, bounded queue: the same four ways", 8192);
}

#ifdef HAVE_ZSTD
static void test_compressed(void)
{
	struct rvctr_writer *w;
	struct rvctr_reader *r;
	struct rvctr_event ev;
	ZSTD_CCtx *z = ZSTD_createCCtx();
	uint64_t recs[6 * 8];
	size_t n = 0;
	unsigned int i, samples = 0, good = 0;
	char err[256];
	FILE *f;

	for (i = 0; i < 6; i++)
		n += sample_rec(recs + n / 8, 10 + i, 0x2000 + i);
	w = open_file();
	if (!w || !z)
		return;
	rvctr_writer__close(w, err, sizeof(err));
	/*
	 * The data section by hand (the writer pads records to 8 bytes, perf
	 * does not pad COMPRESSED): two records, the third sample split
	 * across them, as perf's decompression allows.
	 */
	f = fopen(path, "r+b");
	{
		uint64_t hdr[13], off;
		uint64_t buf[2048];
		ZSTD_inBuffer in;
		ZSTD_outBuffer o;
		struct perf_event_header h;
		size_t split = 2 * 48 + 20, total = 0, k;

		T_EQ(fread(hdr, 8, 13, f), 13, "compressed: header read");
		off = hdr[5];	/* data.offset */
		fseek(f, off, SEEK_SET);
		for (k = 0; k < 2; k++) {
			in = (ZSTD_inBuffer){ (char *)recs + (k ? split : 0), k ? n - split : split, 0 };
			o = (ZSTD_outBuffer){ buf, sizeof(buf), 0 };
			ZSTD_compressStream2(z, &o, &in, ZSTD_e_flush);
			h = (struct perf_event_header){ .type = 81, .size = 8 + o.pos };
			fwrite(&h, 8, 1, f);
			fwrite(buf, 1, o.pos, f);
			total += 8 + o.pos;
		}
		hdr[6] = total;	/* data.size; no features follow */
		memset(hdr + 9, 0, 32);
		fflush(f);
		T_EQ(ftruncate(fileno(f), off + total), 0, "compressed: file written");
		fseek(f, 0, SEEK_SET);
		fwrite(hdr, 8, 13, f);
	}
	fclose(f);
	ZSTD_freeCCtx(z);
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "compressed: reader opens");
	if (!r)
		return;
	while (rvctr_reader__next(r, &ev) > 0)
		if (ev.type == PERF_RECORD_SAMPLE) {
			good += ev.sample.ip == 0x2000 + samples && ev.time == 10 + samples;
			samples++;
		}
	T_STREQ(rvctr_reader__error(r), "no error", "compressed: no error");
	T_EQ(samples, 6, "compressed: every sample, the split one too");
	T_EQ(good, 6, "compressed: samples intact and in order");
	rvctr_reader__close(r);
	same_four_ways("compressed (unpadded records): the same four ways", 0);
}
#endif

/*
 * AUXTRACE (71): its payload follows the record, outside header.size, and
 * must be skipped by its size; the payload here looks like records.
 */
static void test_auxtrace(void)
{
	struct rvctr_writer *w = open_file();
	struct rvctr_reader *r;
	struct rvctr_event ev;
	uint64_t rec[8], aux[6] = { 0 }, payload[12];
	unsigned int samples = 0, i;
	char err[256];
	FILE *f;

	if (!w)
		return;
	rvctr_writer__close(w, err, sizeof(err));
	for (i = 0; i < 12; i += 6)
		sample_rec(payload + i, 999, 0xbad);	/* would be two samples */
	*(struct perf_event_header *)aux = (struct perf_event_header){ .type = 71, .size = 48 };
	aux[1] = sizeof(payload);	/* size */
	f = fopen(path, "r+b");
	{
		uint64_t hdr[13];

		T_EQ(fread(hdr, 8, 13, f), 13, "auxtrace: header read");
		fseek(f, hdr[5], SEEK_SET);
		fwrite(rec, 1, sample_rec(rec, 10, 0x4000), f);
		fwrite(aux, 1, sizeof(aux), f);
		fwrite(payload, 1, sizeof(payload), f);
		fwrite(rec, 1, sample_rec(rec, 11, 0x4004), f);
		hdr[6] = 48 + sizeof(aux) + sizeof(payload) + 48;
		memset(hdr + 9, 0, 32);
		fflush(f);
		T_EQ(ftruncate(fileno(f), hdr[5] + hdr[6]), 0, "auxtrace: file written");
		fseek(f, 0, SEEK_SET);
		fwrite(hdr, 8, 13, f);
	}
	fclose(f);
	r = rvctr_reader__open(path, err, sizeof(err));
	if (!r)
		return;
	while (rvctr_reader__next(r, &ev) > 0)
		if (ev.type == PERF_RECORD_SAMPLE)
			samples++;
	T_STREQ(rvctr_reader__error(r), "no error", "auxtrace: payload skipped, no error");
	T_EQ(samples, 2, "auxtrace: the samples around it, none from its payload");
	rvctr_reader__close(r);
	same_four_ways("auxtrace: the same four ways", 0);
}

/* The perf sink keeps what perf report needs to resolve the samples. */
static void test_sink_keeps(void)
{
	struct perf_event_attr in = attr();
	struct rvctr_sink_info info = { .path = path, .attr = &in, .attr_name = "cycles",
					.arch = "riscv64" };
	struct rvctr_sink *s;
	struct rvctr_reader *r;
	struct rvctr_event ev = { 0 };
	char err[256];
	unsigned int seen = 0;

	s = rvctr_sink__open(&rvctr_sink_perf, &info, err, sizeof(err));
	T_OK(s != NULL, "perf sink opens");
	if (!s)
		return;
	ev.type = PERF_RECORD_COMM;
	ev.time = 5;
	ev.comm = (struct rvctr_comm){ .pid = 7, .tid = 7, .misc = PERF_RECORD_MISC_COMM_EXEC,
				       .comm = "loop" };
	rvctr_sink__event(s, &ev);
	ev.type = PERF_RECORD_MMAP2;
	ev.time = 6;
	ev.mmap = (struct rvctr_mmap){ .pid = -1, .tid = 0, .start = 0xffffffff80000000ULL,
				       .len = 0x100000, .misc = PERF_RECORD_MISC_KERNEL,
				       .filename = "[kernel.kallsyms]_text" };
	rvctr_sink__event(s, &ev);
	ev.mmap = (struct rvctr_mmap){ .pid = 7, .tid = 7, .start = 0x10000, .len = 0x1000,
				       .misc = PERF_RECORD_MISC_USER, .build_id_size = 20,
				       .build_id = { 0xab, [19] = 0xcd }, .filename = "/bin/loop" };
	rvctr_sink__event(s, &ev);
	ev.type = PERF_RECORD_FORK;
	ev.time = 7;
	ev.task = (struct rvctr_task){ .pid = 7, .ppid = 7, .tid = 8, .ptid = 7, .time = 7 };
	rvctr_sink__event(s, &ev);
	ev.type = PERF_RECORD_EXIT;
	ev.time = 9;
	ev.task.time = 9;
	rvctr_sink__event(s, &ev);
	ev.type = PERF_RECORD_FINISHED_ROUND;
	rvctr_sink__event(s, &ev);
	T_EQ(rvctr_sink__close(s, err, sizeof(err)), 0, "perf sink closes");

	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "its output reads back");
	if (!r)
		return;
	T_EQ(rvctr_reader__nr_build_ids(r), 1, "the MMAP2 build id is in HEADER_BUILD_ID");
	while (rvctr_reader__next(r, &ev) > 0) {
		switch (ev.type) {
		case PERF_RECORD_COMM:
			T_EQ(ev.comm.misc & PERF_RECORD_MISC_COMM_EXEC, PERF_RECORD_MISC_COMM_EXEC,
			     "COMM_EXEC kept");
			T_EQ(ev.time, 5, "COMM time kept");
			seen |= 1;
			break;
		case PERF_RECORD_MMAP2:
			if (ev.mmap.pid == (uint32_t)-1) {
				T_EQ(ev.misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_KERNEL,
				     "kernel map stays a kernel map");
				seen |= 2;
			} else {
				T_EQ(ev.mmap.build_id_size, 20, "MMAP2 build id kept");
				T_EQ(ev.mmap.build_id[19], 0xcd, "its bytes");
				T_EQ(ev.time, 6, "MMAP2 time kept");
				seen |= 4;
			}
			break;
		case PERF_RECORD_FORK:
			T_EQ(ev.task.tid, 8, "FORK kept");
			seen |= 8;
			break;
		case PERF_RECORD_EXIT:
			T_EQ(ev.task.time, 9, "EXIT kept");
			seen |= 16;
			break;
		case PERF_RECORD_FINISHED_ROUND:
			seen |= 32;
			break;
		}
	}
	T_EQ(seen, 63, "every record type came through");
	rvctr_reader__close(r);
	same_four_ways("perf sink output: the same four ways", 0);
}

/* Pipe-mode writer to reader: attributes, names, arch and build ids as records. */
static void test_pipe_round_trip(void)
{
	struct perf_event_attr a = attr();
	const char *name = "cycles";
	const uint8_t id[20] = { 1, [19] = 20 };
	struct rvctr_writer *w;
	struct rvctr_reader *r;
	struct rvctr_event ev;
	int out = dup(STDOUT_FILENO), fd = open(path, O_WRONLY | O_TRUNC);
	unsigned int i, samples = 0;
	uint64_t rec[8];
	char err[256];

	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	w = rvctr_writer__open("-", &a, &name, 1, err, sizeof(err));
	if (w) {
		rvctr_writer__set_arch(w, "riscv64");
		rvctr_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, "/bin/loop", id, 20);
		for (i = 0; i < 5; i++)
			rvctr_writer__raw(w, rec, sample_rec(rec, 10 + i, 0x3000 + i));
		rvctr_writer__close(w, err, sizeof(err));
	}
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	close(out);
	T_OK(w != NULL, "pipe-mode writer opens on stdout");
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "reader opens pipe-mode data");
	if (!r) {
		printf("# %s\n", err);
		return;
	}
	T_OK(rvctr_reader__is_pipe(r), "and knows it");
	T_EQ(rvctr_reader__nr_attrs(r), 1, "attribute from HEADER_ATTR");
	T_STREQ(rvctr_reader__attr_name(r, 0), "cycles", "name from EVENT_UPDATE");
	while (rvctr_reader__next(r, &ev) > 0)
		samples += ev.type == PERF_RECORD_SAMPLE && ev.sample.ip == 0x3000 + samples;
	T_EQ(samples, 5, "samples");
	T_STREQ(rvctr_reader__arch(r), "riscv64", "HEADER_ARCH from HEADER_FEATURE");
	T_EQ(rvctr_reader__nr_build_ids(r), 1, "build id from HEADER_BUILD_ID");
	rvctr_reader__close(r);
	same_four_ways("pipe mode in a file: the same four ways", 0);
}

/* Resident memory of this process, bytes. */
static uint64_t rss(void)
{
	unsigned long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return (uint64_t)res * sysconf(_SC_PAGESIZE);
}

/*
 * A 24 MB file in rounds of 1000 samples: the mapped reader keeps only
 * about what its queue holds resident, not the file.
 */
static void test_large_mapped(void)
{
	struct rvctr_writer *w = open_file();
	struct rvctr_reader *r;
	struct rvctr_event ev;
	uint64_t rec[8], base, peak = 0, n = 0, i;
	char err[256];

	if (!w)
		return;
	for (i = 0; i < 500000; i++) {
		rvctr_writer__raw(w, rec, sample_rec(rec, 1000 + i, 0x1000 + (i & 0xffff)));
		if (i % 1000 == 999)
			rvctr_writer__raw(w, rec, round_rec(rec));
	}
	rvctr_writer__close(w, err, sizeof(err));
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "large file: reader opens");
	if (!r)
		return;
	base = rss();
	while (rvctr_reader__next(r, &ev) > 0)
		if (ev.type == PERF_RECORD_SAMPLE && !(++n % 4096) && rss() > peak)
			peak = rss();
	T_EQ(n, 500000, "large file: every sample");
	T_OK(peak < base + (12ULL << 20),
	     "large file: resident memory grows by less than half the file");
	printf("# resident: %llu MiB before, at most %llu MiB while reading 24 MB\n",
	       (unsigned long long)(base >> 20), (unsigned long long)(peak >> 20));
	rvctr_reader__close(r);
	same_four_ways("large file: the same four ways", 0);
}

/*
 * A timed record of nearly 64 KiB (the u16 size allows 65535) queued
 * after the queue's chunk has delivered everything: the chunk is started
 * over only if the record fits it, else a new one is allocated.  Records
 * this large are real: --call-graph dwarf,65528, long RAW samples.
 */
static void test_large_record(void)
{
	static uint64_t big[65528 / 8];
	struct rvctr_writer *w = open_file();
	struct perf_event_header *h = (void *)big;
	uint64_t rec[8];
	char err[256];

	if (!w)
		return;
	rvctr_writer__raw(w, rec, sample_rec(rec, 100, 0x1000));
	rvctr_writer__raw(w, rec, round_rec(rec));
	rvctr_writer__raw(w, rec, round_rec(rec));
	/* a COMM of 65528 bytes: pid/tid, a long NUL-padded name, sample_id */
	memset(big, 0, sizeof(big));
	*h = (struct perf_event_header){ .type = PERF_RECORD_COMM, .size = sizeof(big) };
	big[1] = 7 | 7ULL << 32;
	memcpy(&big[2], "worker\0\0", 8);
	big[65528 / 8 - 2] = 7 | 7ULL << 32;
	big[65528 / 8 - 1] = 200;
	rvctr_writer__raw(w, big, sizeof(big));
	rvctr_writer__raw(w, rec, round_rec(rec));
	rvctr_writer__raw(w, rec, sample_rec(rec, 300, 0x1004));
	rvctr_writer__raw(w, rec, round_rec(rec));
	rvctr_writer__close(w, err, sizeof(err));
	same_four_ways("a 65528-byte record queued after its chunk emptied: the same four ways", 0);
}

/*
 * Records queued under one attribute and skipped when they leave the
 * queue: pipe mode, one attribute (samples need no id then), two timed
 * samples queued, then a second attribute: at the end their id names
 * neither, and they are skipped.  Their places in the queue are given
 * back (LeakSanitizer reports the chunk they held otherwise).
 */
static void test_skipped_at_delivery(void)
{
	static uint64_t s[64];
	struct rvctr_reader *r;
	struct rvctr_event ev;
	unsigned int n = 0, i, a;
	char err[256];
	int ret;

	s[n++] = PERF_MAGIC2_LE;
	s[n++] = 16;
	for (a = 0; a < 2; a++) {
		/* HEADER_ATTR: a VER0 attribute (IDENTIFIER, TIME) and one id */
		s[n++] = 64 | (uint64_t)(8 + PERF_ATTR_SIZE_VER0 + 8) << 48;
		for (i = 0; i < PERF_ATTR_SIZE_VER0 / 8; i++)
			s[n + i] = 0;
		s[n + 3] = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME;
		n += PERF_ATTR_SIZE_VER0 / 8;
		s[n++] = 100 + a;		/* its id */
		if (a)
			break;
		/* two samples of id 99 at times 50 and 60: queued */
		for (i = 0; i < 2; i++) {
			s[n++] = PERF_RECORD_SAMPLE | (uint64_t)24 << 48;
			s[n++] = 99;
			s[n++] = 50 + 10 * i;
		}
	}
	r = rvctr_reader__open_memory(s, n * 8, err, sizeof(err));
	if (!r) {
		T_OK(0, err);
		return;
	}
	while ((ret = rvctr_reader__next(r, &ev)) > 0)
		;
	T_EQ(ret, 0, "samples whose id no attribute has by the time they leave: skipped");
	T_OK(rvctr_reader__nr_warnings(r) == 1, "with a warning");
	rvctr_reader__close(r);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	test_rounds();
	test_queue_bound();
	test_empty_data();
#ifdef HAVE_ZSTD
	test_compressed();
#else
	printf("ok - compressed records # SKIP built without libzstd\n");
#endif
	test_auxtrace();
	test_sink_keeps();
	test_pipe_round_trip();
	test_large_mapped();
	test_large_record();
	test_skipped_at_delivery();
	unlink(path);
	return tests_done();
}
