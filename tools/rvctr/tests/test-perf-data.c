// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writer -> reader round trips: attributes, names, ids, features
 * (HEADER_NRCPUS checked on disk too), COMM/MMAP2/SAMPLE records; and the
 * reader's errors on damaged files.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <rvctr/perf_data.h>

#include "lib/perf_format.h"
#include "tests.h"

static char path[] = "/tmp/rvctr-test-XXXXXX";

static struct perf_event_attr brstack_attr(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 1000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX,
		.sample_id_all = 1,
	};
	return a;
}

static void fill_branches(struct perf_branch_entry *b, unsigned int n)
{
	unsigned int i;

	memset(b, 0, n * sizeof(*b));
	for (i = 0; i < n; i++) {
		b[i].from = 0x10000 + 16 * i;
		b[i].to = 0x20000 + 8 * i;
		b[i].cycles = i + 1;
		b[i].type = PERF_BR_COND;
		b[i].mispred = i == 3;
		b[i].predicted = i != 3;
	}
}

static void write_file(unsigned int nr_samples)
{
	struct perf_event_attr a = brstack_attr();
	const char *name = "cycles";
	struct perf_branch_entry br[32];
	struct rvctr_comm c = { .pid = 42, .tid = 43, .comm = "loop" };
	struct rvctr_mmap m = { .pid = 42, .tid = 42, .start = 0x10000, .len = 0x5000,
				.pgoff = 0, .prot = 5, .filename = "/bin/loop" };
	const uint8_t id[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	struct rvctr_writer *w;
	char err[256];
	unsigned int i;

	fill_branches(br, 32);
	w = rvctr_writer__open(path, &a, &name, 1, err, sizeof(err));
	T_OK(w != NULL, "writer opens");
	if (!w)
		return;
	rvctr_writer__set_arch(w, "riscv64");
	rvctr_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, "/bin/loop", id, 20);
	rvctr_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, "/bin/loop", id, 20);
	rvctr_writer__comm(w, &c, 5, 0);
	rvctr_writer__mmap2(w, &m, 6, 0);
	for (i = 0; i < nr_samples; i++) {
		struct rvctr_sample s = {
			.ip = 0x10010 + i, .pid = 42, .tid = 43, .time = 100 + i,
			.period = 1000, .nr_branches = 1 + i % 32, .hw_idx = i,
			.branches = br,
		};
		rvctr_writer__sample(w, &s);
	}
	T_EQ(rvctr_writer__nr_samples(w), nr_samples, "writer counts samples");
	T_EQ(rvctr_writer__close(w, err, sizeof(err)), 0, "writer closes");
}

static void test_round_trip(void)
{
	struct rvctr_reader *r;
	struct rvctr_event ev;
	const struct rvctr_build_id *b;
	unsigned int comms = 0, mmaps = 0, samples = 0, good = 0;
	char err[256];
	int ret;

	write_file(100);
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "reader opens what the writer wrote");
	if (!r)
		return;
	T_EQ(rvctr_reader__nr_attrs(r), 1, "one attribute");
	T_EQ(rvctr_reader__attr(r, 0)->sample_type, brstack_attr().sample_type, "sample_type kept");
	T_EQ(rvctr_reader__attr(r, 0)->size, PERF_ATTR_SIZE_VER7, "attr written at 128 bytes");
	T_STREQ(rvctr_reader__attr_name(r, 0), "cycles", "event name from EVENT_DESC");
	T_STREQ(rvctr_reader__arch(r), "riscv64", "HEADER_ARCH");
	T_OK(rvctr_reader__has_feature(r, RVCTR_FEAT_BRANCH_STACK), "HEADER_BRANCH_STACK set");
	T_EQ(rvctr_reader__nr_build_ids(r), 1, "one build id (duplicates dropped)");
	b = rvctr_reader__build_id(r, 0);
	T_STREQ(b ? b->filename : NULL, "/bin/loop", "build id filename == MMAP2 filename");
	T_EQ(b ? b->size : 0, 20, "build id size");
	T_EQ(b ? b->id[19] : 0, 20, "build id bytes");
	while ((ret = rvctr_reader__next(r, &ev)) > 0) {
		if (ev.type == PERF_RECORD_COMM) {
			comms++;
			T_STREQ(ev.comm.comm, "loop", "COMM name");
			T_EQ(ev.comm.tid, 43, "COMM tid");
		} else if (ev.type == PERF_RECORD_MMAP2) {
			mmaps++;
			T_STREQ(ev.mmap.filename, "/bin/loop", "MMAP2 filename");
			T_EQ(ev.mmap.len, 0x5000, "MMAP2 len");
		} else if (ev.type == PERF_RECORD_SAMPLE) {
			const struct rvctr_sample *s = &ev.sample;
			uint64_t n = 1 + samples % 32;

			good += s->ip == 0x10010 + samples && s->time == 100 + samples &&
				s->pid == 42 && s->tid == 43 && s->period == 1000 &&
				s->nr_branches == n && s->hw_idx == samples &&
				s->branches[n - 1].from == 0x10000 + 16 * (n - 1) &&
				s->branches[n - 1].cycles == n &&
				(n < 4 || s->branches[3].mispred);
			samples++;
		}
	}
	T_EQ(ret, 0, "clean end of data");
	T_EQ(comms, 1, "one COMM");
	T_EQ(mmaps, 1, "one MMAP2");
	T_EQ(samples, 100, "100 samples");
	T_EQ(good, 100, "every sample field round-trips");
	rvctr_reader__close(r);
}

static void test_multi_attr(void)
{
	struct perf_event_attr a[2] = { brstack_attr(), brstack_attr() };
	const char *names[2] = { "branch", "branch-miss" };
	struct rvctr_writer *w;
	struct rvctr_reader *r;
	struct rvctr_event ev;
	unsigned int per[2] = { 0, 0 }, i;
	char err[256];

	a[0].sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT;
	a[1].sample_type = a[0].sample_type;
	a[1].config = 1;
	w = rvctr_writer__open(path, a, names, 2, err, sizeof(err));
	T_OK(w != NULL, "writer with two attributes");
	if (!w)
		return;
	for (i = 0; i < 10; i++) {
		struct rvctr_sample s = { .attr = i % 3 == 0, .ip = i, .addr = 0x100 + i,
					  .weight = 7 * i };

		rvctr_writer__sample(w, &s);
	}
	rvctr_writer__close(w, err, sizeof(err));
	r = rvctr_reader__open(path, err, sizeof(err));
	T_OK(r != NULL, "reader opens it");
	if (!r)
		return;
	T_STREQ(rvctr_reader__attr_name(r, 1), "branch-miss", "second name");
	i = 0;
	while (rvctr_reader__next(r, &ev) > 0) {
		if (ev.type != PERF_RECORD_SAMPLE)
			continue;
		per[ev.sample.attr]++;
		i += ev.sample.addr == 0x100 + ev.sample.ip && ev.sample.weight == 7 * ev.sample.ip;
	}
	T_EQ(per[1], 4, "samples find their attribute by IDENTIFIER");
	T_EQ(per[0], 6, "the others");
	T_EQ(i, 10, "addr and weight round-trip");
	rvctr_reader__close(r);
}

/* Rewrite bytes of the file at @off. */
static void poke(long off, const void *p, size_t n)
{
	FILE *f = fopen(path, "r+b");

	fseek(f, off, SEEK_SET);
	fwrite(p, 1, n, f);
	fclose(f);
}

static int read_all(char *err, size_t errlen)
{
	struct rvctr_reader *r = rvctr_reader__open(path, err, errlen);
	struct rvctr_event ev;
	int ret;

	if (!r)
		return -2;
	while ((ret = rvctr_reader__next(r, &ev)) > 0)
		;
	if (ret < 0)
		snprintf(err, errlen, "%s", rvctr_reader__error(r));
	rvctr_reader__close(r);
	return ret;
}

static void test_errors(void)
{
	const uint64_t swapped = 0x50455246494c4532ULL, huge = ~0ULL >> 4;
	const uint16_t bad_size = 12;
	char err[256] = "";
	long data_off;

	write_file(3);
	T_EQ(truncate(path, 100), 0, "truncate");
	T_EQ(read_all(err, sizeof(err)), (uint64_t)-2, "truncated header is an error");
	T_OK(strstr(err, "truncated") || strstr(err, "outside"), "and says so");

	write_file(3);
	poke(0, &swapped, 8);
	T_EQ(read_all(err, sizeof(err)), (uint64_t)-2, "other byte order rejected");
	T_OK(strstr(err, "byte order") != NULL, "with a reason");

	write_file(3);
	poke(48, &huge, 8);	/* data.size */
	T_EQ(read_all(err, sizeof(err)), (uint64_t)-2, "data size past the end rejected");

	write_file(3);
	{
		FILE *f = fopen(path, "rb");
		uint64_t off;

		fseek(f, 40, SEEK_SET);
		T_EQ(fread(&off, 8, 1, f), 1, "read data offset");
		fclose(f);
		data_off = off;
	}
	poke(data_off + 6, &bad_size, 2);	/* first record's size */
	T_EQ(read_all(err, sizeof(err)), (uint64_t)-1, "record of size 12 is an error");
	T_OK(strstr(err, "corrupt record header") != NULL, "naming the record header");
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * @nr_attrs attributes whose ids are all the same @nr_ids ids (a crafted
 * file: perf writes each attribute its own): the reader's work must be
 * bounded by its limits (64 attributes, 1 Mi ids), not by how often the
 * file points at the same bytes.  Returns the warnings, joined.
 */
static int read_shared_ids(unsigned int nr_attrs, unsigned int nr_ids, char *warn, size_t len,
			   double *secs)
{
	const uint64_t asz = sizeof(struct perf_event_attr) + sizeof(struct perf_section);
	uint64_t ids_off = sizeof(struct perf_file_header) + nr_attrs * asz;
	uint64_t size = ids_off + nr_ids * 8ULL;
	unsigned char *buf = calloc(1, size);
	struct perf_file_header h = {
		.magic = PERF_MAGIC2, .size = sizeof(h), .attr_size = asz,
		.attrs = { sizeof(h), nr_attrs * asz }, .data = { size, 0 },
	};
	struct perf_event_attr a = brstack_attr();
	struct perf_section ids = { ids_off, nr_ids * 8ULL };
	struct rvctr_reader *r;
	struct rvctr_event ev;
	unsigned int i;
	double t0;
	char err[256];
	int ret;

	if (!buf)
		return -3;
	a.size = sizeof(a);
	a.sample_type |= PERF_SAMPLE_IDENTIFIER;
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < nr_attrs; i++) {
		memcpy(buf + sizeof(h) + i * asz, &a, sizeof(a));
		memcpy(buf + sizeof(h) + i * asz + sizeof(a), &ids, sizeof(ids));
	}
	for (i = 0; i < nr_ids; i++) {
		uint64_t id = i + 1;

		memcpy(buf + ids_off + 8ULL * i, &id, 8);
	}
	t0 = cpu_seconds();
	r = rvctr_reader__open_memory(buf, size, err, sizeof(err));
	ret = -2;
	if (r) {
		while ((ret = rvctr_reader__next(r, &ev)) > 0)
			;
		*secs = cpu_seconds() - t0;
		warn[0] = 0;
		for (i = 0; i < rvctr_reader__nr_warnings(r); i++)
			snprintf(warn + strlen(warn), len - strlen(warn), "%s; ",
				 rvctr_reader__warning(r, i));
		rvctr_reader__close(r);
	} else {
		*secs = cpu_seconds() - t0;
		snprintf(warn, len, "%s", err);
	}
	free(buf);
	return ret;
}

static void test_shared_ids(void)
{
	char warn[1024];
	double secs;
	int ret;

	/* 4000 attributes x 128 Ki ids: 4 GB of ids for the old reader */
	ret = read_shared_ids(4000, 128 << 10, warn, sizeof(warn), &secs);
	T_EQ(ret, 0, "4000 attributes sharing 128 Ki ids: read");
	T_OK(strstr(warn, "more than 64 attributes (4000)"), "4000 attributes: the limit's warning");
	T_OK(secs < 0.5, "4000 attributes sharing 128 Ki ids: read in < 0.5 s of CPU");
	printf("# %.3f s: %s\n", secs, warn);
	/* 64 attributes x 1 Mi ids: the limit of ids once, not 64 times */
	ret = read_shared_ids(64, 1 << 20, warn, sizeof(warn), &secs);
	T_EQ(ret, 0, "64 attributes sharing 1 Mi ids: read");
	T_OK(secs < 0.5, "64 attributes sharing 1 Mi ids: read in < 0.5 s of CPU");
	printf("# %.3f s: %s\n", secs, warn);
	ret = read_shared_ids(64, 1 << 14, warn, sizeof(warn), &secs);
	T_OK(!ret && !strstr(warn, "sample ids"), "64 attributes x 16 Ki ids: within the limit");
	ret = read_shared_ids(64, (1 << 14) + 1, warn, sizeof(warn), &secs);
	T_OK(!ret && strstr(warn, "sample ids"),
	     "64 attributes x (16 Ki + 1) ids: past the limit of ids read, said");
}

/*
 * A file with one attribute (no sample_id_all) and one MMAP2 record,
 * the last bytes of @buf, whose name of @name_len bytes ends at its
 * last byte.  Returns the file's size.
 */
static size_t mmap_file(unsigned char *buf, size_t cap, size_t name_len)
{
	const uint64_t asz = sizeof(struct perf_event_attr) + sizeof(struct perf_section);
	const size_t data_off = sizeof(struct perf_file_header) + asz;
	const size_t rec = sizeof(struct perf_event_header) + 8 * 8 + name_len;
	struct perf_file_header h = {
		.magic = PERF_MAGIC2, .size = sizeof(h), .attr_size = asz,
		.attrs = { sizeof(h), asz }, .data = { data_off, rec },
	};
	struct perf_event_attr a = brstack_attr();
	struct perf_event_header eh = { .type = PERF_RECORD_MMAP2, .size = rec };
	const uint64_t body[8] = { 42 | 42ULL << 32, 0x10000, 0x1000 };

	if (data_off + rec > cap || rec % 8)
		return 0;
	a.size = sizeof(a);
	a.sample_id_all = 0;
	memset(buf, 0, data_off + rec);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &a, sizeof(a));
	memcpy(buf + data_off, &eh, sizeof(eh));
	memcpy(buf + data_off + sizeof(eh), body, sizeof(body));
	memset(buf + data_off + sizeof(eh) + sizeof(body), 'a', name_len - 1);
	buf[data_off + sizeof(eh) + sizeof(body)] = '/';
	return data_off + rec;
}

/* A name longer than a map's name holds: the kernel's //toolong, never cut short. */
static void test_name_too_long(void)
{
	static unsigned char file[4096];
	size_t len = mmap_file(file, sizeof(file), 2048);
	struct rvctr_reader *r = rvctr_reader__open_memory(file, len, NULL, 0);
	struct rvctr_event ev;

	T_OK(r && rvctr_reader__next(r, &ev) > 0 && ev.type == PERF_RECORD_MMAP2,
	     "MMAP2 of a 2047-byte name: read");
	if (!r)
		return;
	T_STREQ(ev.mmap.filename, "//toolong", "MMAP2 of a 2047-byte name: named //toolong");
	T_OK(rvctr_reader__nr_warnings(r) && strstr(rvctr_reader__warning(r, 0), "//toolong"),
	     "MMAP2 of a 2047-byte name: a warning says so");
	rvctr_reader__close(r);
}

static atomic_int flipping;

/* The name's end in a mapped file that another process writes to. */
static void *flip(void *p)
{
	volatile unsigned char *last = p;

	while (atomic_load_explicit(&flipping, memory_order_relaxed))
		*last = *last ? 0 : 'a';
	return NULL;
}

/*
 * A name is read once, to the length measured: with its last byte
 * changing under the reader (as in a file changed while mapped), the
 * name read never runs past the record (ASan: heap-buffer-overflow), and
 * is one of the two the record held.
 */
static void test_name_changing(size_t name_len)
{
	static unsigned char file[4096];
	size_t len = mmap_file(file, sizeof(file), name_len), bad = 0, runs = 0;
	struct rvctr_event ev;
	unsigned char *buf;
	pthread_t t;
	double t0;
	char err[256];

	T_OK(len, "a file with an MMAP2 record at its end");
	buf = malloc(len);
	if (!len || !buf)
		return;
	memcpy(buf, file, len);
	atomic_store(&flipping, 1);
	if (pthread_create(&t, NULL, flip, buf + len - 1)) {
		free(buf);
		return;
	}
	t0 = cpu_seconds();
	while (cpu_seconds() - t0 < 1.0) {
		struct rvctr_reader *r = rvctr_reader__open_memory(buf, len, err, sizeof(err));

		runs++;
		if (!r)
			continue;
		if (rvctr_reader__next(r, &ev) > 0 && ev.type == PERF_RECORD_MMAP2 &&
		    strlen(ev.mmap.filename) != (name_len - 1 >= sizeof(ev.mmap.filename) ?
						 strlen("//toolong") : name_len - 1))
			bad++;
		rvctr_reader__close(r);
	}
	atomic_store(&flipping, 0);
	pthread_join(t, NULL);
	free(buf);
	snprintf(err, sizeof(err), "a name of %zu bytes changing under the reader: read to the "
		 "length measured", name_len - 1);
	T_EQ(bad, 0, err);
	printf("# %zu runs\n", runs);
}

/*
 * HEADER_NRCPUS of @path as it is on disk, found from the file header's
 * feature bits (sections in bit order after the data): 1 with its two
 * u32, 0 without the feature, -1 if the file cannot be read so.
 */
static int file_nrcpus(uint32_t v[2], uint64_t *size)
{
	struct perf_file_header h;
	struct perf_section s;
	FILE *f = fopen(path, "rb");
	unsigned int bit, before = 0;
	int ret = -1;

	if (!f)
		return -1;
	if (fread(&h, sizeof(h), 1, f) != 1)
		goto out;
	ret = 0;
	if (!(h.features[0] >> RVCTR_FEAT_NRCPUS & 1))
		goto out;
	for (bit = 0; bit < RVCTR_FEAT_NRCPUS; bit++)
		before += h.features[0] >> bit & 1;
	ret = -1;
	if (fseek(f, h.data.offset + h.data.size + before * sizeof(s), SEEK_SET) ||
	    fread(&s, sizeof(s), 1, f) != 1 || fseek(f, s.offset, SEEK_SET) ||
	    fread(v, 4, 2, f) != 2)
		goto out;
	*size = s.size;
	ret = 1;
out:
	fclose(f);
	return ret;
}

/*
 * Write samples on CPUs 0..@max_cpu (PERF_SAMPLE_CPU when @max_cpu >= 0)
 * after HEADER_NRCPUS @avail/@online given @nr_set times (0: never), a
 * COMM first on CPU @comm_cpu; then what is on disk and what the reader
 * says.  Returns the reader's nr_cpus(), -1 on error.
 */
static int nrcpus_file(int max_cpu, unsigned int comm_cpu, const uint32_t (*set)[2],
		       unsigned int nr_set, uint32_t disk[2], uint64_t *size, uint32_t got[2])
{
	struct perf_event_attr a = brstack_attr();
	struct rvctr_comm c = { .pid = 42, .tid = 42, .comm = "loop" };
	struct rvctr_writer *w;
	struct rvctr_reader *r;
	char err[256];
	unsigned int i;
	int ret;

	if (max_cpu >= 0)
		a.sample_type |= PERF_SAMPLE_CPU;
	w = rvctr_writer__open(path, &a, NULL, 1, err, sizeof(err));
	if (!w)
		return -1;
	for (i = 0; i < nr_set; i++)
		rvctr_writer__set_nr_cpus(w, set[i][0], set[i][1]);
	rvctr_writer__comm(w, &c, 1, comm_cpu);
	for (i = 0; (int)i <= max_cpu; i++) {
		struct rvctr_sample s = { .ip = 0x1000, .pid = 42, .tid = 42, .time = 10 + i,
					  .cpu = i };

		rvctr_writer__sample(w, &s);
	}
	if (rvctr_writer__close(w, err, sizeof(err)))
		return -1;
	disk[0] = disk[1] = 0;
	*size = 0;
	if (file_nrcpus(disk, size) < 0)
		return -1;
	r = rvctr_reader__open(path, err, sizeof(err));
	if (!r)
		return -1;
	ret = rvctr_reader__nr_cpus(r, &got[0], &got[1]);
	if (ret != rvctr_reader__has_feature(r, RVCTR_FEAT_NRCPUS))
		ret = -1;
	rvctr_reader__close(r);
	return ret;
}

static void test_nr_cpus(void)
{
	static const uint32_t eight_six[][2] = { { 8, 6 } }, merged[][2] = { { 8, 6 }, { 4, 4 },
									    { 16, 2 } };
	struct perf_event_attr a = brstack_attr();
	struct rvctr_writer *w;
	uint32_t disk[2], got[2], avail, online;
	uint64_t size;
	char err[256];

	T_EQ(nrcpus_file(3, 0, eight_six, 1, disk, &size, got), 1,
	     "HEADER_NRCPUS given: written, read back");
	T_OK(size == 8 && disk[0] == 8 && disk[1] == 6,
	     "on disk: 8 bytes, u32 avail 8 then u32 online 6");
	T_OK(got[0] == 8 && got[1] == 6, "the reader's: 8 available, 6 online");
	T_EQ(nrcpus_file(11, 0, eight_six, 1, disk, &size, got), 1,
	     "samples on CPUs up to 11, 8 given");
	T_OK(disk[0] == 12 && disk[1] == 6, "available raised to 12 (perf zeroes a cpu >= it)");
	T_EQ(nrcpus_file(1, 9, eight_six, 1, disk, &size, got), 1, "a COMM's sample_id on CPU 9");
	T_OK(disk[0] == 10 && disk[1] == 6, "available raised to 10 by the sample_id trailer");
	T_EQ(nrcpus_file(3, 0, merged, 3, disk, &size, got), 1, "given three times");
	T_OK(disk[0] == 16 && disk[1] == 6, "the largest of each kept: 16, 6");
	T_EQ(nrcpus_file(3, 0, NULL, 0, disk, &size, got), 1, "never given, CPUs 0..3 sampled");
	T_OK(disk[0] == 4 && disk[1] == 4 && got[0] == 4 && got[1] == 4,
	     "both from the highest cpu + 1: 4, 4");
	T_EQ(nrcpus_file(-1, 0, NULL, 0, disk, &size, got), 0,
	     "never given, no PERF_SAMPLE_CPU: left out");
	T_EQ(size, 0, "no HEADER_NRCPUS section");

	w = rvctr_writer__open(path, &a, NULL, 1, err, sizeof(err));
	T_OK(w && rvctr_writer__set_nr_cpus(w, 4, 5) == -1, "more online than available refused");
	if (w)
		rvctr_writer__close(w, err, sizeof(err));
	T_OK(strstr(err, "HEADER_NRCPUS") != NULL, err);
	w = rvctr_writer__open(path, &a, NULL, 1, err, sizeof(err));
	T_OK(w && rvctr_writer__set_nr_cpus(w, RVCTR_MAX_NR_CPUS + 1, 1) == -1,
	     "more than perf's 1M CPUs refused");
	if (w)
		rvctr_writer__close(w, err, sizeof(err));

	rvctr_writer__local_nr_cpus(&avail, &online);
	T_EQ(online, sysconf(_SC_NPROCESSORS_ONLN), "this machine's online CPUs: sysconf");
	T_OK(avail >= online && avail <= RVCTR_MAX_NR_CPUS, "available at least online");
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	test_round_trip();
	test_multi_attr();
	test_nr_cpus();
	test_errors();
	test_shared_ids();
	test_name_too_long();
	test_name_changing(512);
	test_name_changing(2048);
	unlink(path);
	return tests_done();
}
