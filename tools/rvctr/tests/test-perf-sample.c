// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record contents alone (lib/perf_reader_sample.c): a sample with every
 * field the reader knows, in sample_type order; what makes one corrupt;
 * ids of no attribute; the sample_id trailer; COMM, MMAP2 and FORK.
 * The records are built here and decoded without a file around them.
 */
#include <stdlib.h>

#include "lib/perf_reader.h"
#include "tests.h"

static uint64_t rec[1024];
static unsigned int nw;

static void put(uint64_t v)
{
	rec[nw++] = v;
}

static void start(uint32_t type)
{
	memset(rec, 0, sizeof(rec));
	nw = 1;
	((struct perf_event_header *)rec)->type = type;
}

static uint32_t finish(void)
{
	((struct perf_event_header *)rec)->size = nw * 8;
	return nw * 8;
}

static struct rvctr_reader *reader(uint64_t st)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));

	r->nr_attrs = 1;
	r->attrs[0].sample_type = st;
	r->attrs[0].sample_id_all = 1;
	return r;
}

#define ALL (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	     PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
	     PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
	     PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
	     PERF_SAMPLE_WEIGHT)

/* Every field, as evsel__parse_sample reads them; @raw_size 4 is sound. */
static uint32_t full_sample(uint32_t raw_size)
{
	start(PERF_RECORD_SAMPLE);
	put(77);			/* IDENTIFIER */
	put(0x1000);			/* IP */
	put(5 | 6ULL << 32);		/* TID */
	put(999);			/* TIME */
	put(0xadd);			/* ADDR */
	put(77);			/* ID */
	put(1);				/* STREAM_ID */
	put(3);				/* CPU */
	put(4000);			/* PERIOD */
	put(2); put(10); put(1); put(100); put(2); put(200);	/* READ: group of 2 */
	put(2); put(0xa); put(0xb);	/* CALLCHAIN */
	put(raw_size | (uint64_t)0xabcd << 32);	/* RAW: size, then its bytes */
	if (raw_size > 4)
		put(0);
	put(2); put(9);			/* BRANCH_STACK: nr, hw_idx */
	put(0x2000); put(0x3000); put(0);
	put(0x4000); put(0x5000); put(0);
	put(1); put(2);			/* the branch counters */
	put(1); put(1); put(2); put(3);	/* REGS_USER: abi, 3 registers */
	put(16); put(0); put(0); put(16);	/* STACK_USER: size, data, dyn_size */
	put(55);			/* WEIGHT */
	return finish();
}

static void test_full_sample(void)
{
	struct rvctr_reader *r = reader(ALL);
	struct rvctr_event ev;
	uint32_t size = full_sample(4);
	int ret;

	r->attrs[0].read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				  PERF_FORMAT_TOTAL_TIME_ENABLED;
	r->attrs[0].branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX |
					 PERF_SAMPLE_BRANCH_COUNTERS;
	r->attrs[0].sample_regs_user = 7;
	ret = reader__parse_event(r, rec, size, &ev);
	T_EQ(ret, 0, "a sample with every field");
	T_OK(ev.sample.ip == 0x1000 && ev.sample.pid == 5 && ev.sample.tid == 6 &&
	     ev.sample.addr == 0xadd && ev.sample.id == 77, "ip, pid/tid, addr, id");
	T_OK(ev.time == 999 && ev.cpu == 3 && ev.sample.period == 4000, "time, cpu, period");
	T_OK(ev.sample.nr_branches == 2 && ev.sample.hw_idx == 9 &&
	     ev.sample.branches[1].from == 0x4000 && ev.sample.branches[1].to == 0x5000,
	     "branches in place, after READ, CALLCHAIN and RAW");
	T_EQ(ev.sample.weight, 55, "weight after the counters, registers and stack");

	size = full_sample(5);
	T_EQ(reader__parse_event(r, rec, size, &ev), -1, "RAW that leaves the rest misaligned");
	T_OK(strstr(r->err, "corrupt sample at data offset") != NULL, r->err);
	r->failed = 0;
	size = full_sample(4);
	T_EQ(reader__parse_event(r, rec, size - 8, &ev), -1, "a sample cut by 8 bytes");
	free(r);
}

/* Two attributes: a sample's id chooses; an id of neither is skipped. */
static void test_ids(void)
{
	struct rvctr_reader *r = reader(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP);
	struct rvctr_event ev;
	uint32_t size;

	r->nr_attrs = 2;
	r->attrs[1].sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	T_EQ(reader__idmap_add(r, 42, 1), 0, "id 42 of the second attribute");
	T_EQ(reader__idmap_add(r, 43, 0), 0, "id 43 of the first");
	T_EQ(reader__idmap_add(r, 42, 0), 0, "id 42 again");
	T_EQ(reader__idmap_find(r, 42), 1, "keeps its first attribute");
	start(PERF_RECORD_SAMPLE);
	put(42);
	put(0x1000);
	put(300);
	size = finish();
	T_EQ(reader__parse_event(r, rec, size, &ev), 0, "id 42: the second attribute");
	T_OK(ev.sample.attr == 1 && ev.sample.period == 300, "its layout, with PERIOD");
	rec[1] = 44;
	T_EQ(reader__parse_event(r, rec, size, &ev), 1, "an id of no attribute: skipped");
	T_EQ(r->nr_unknown_id, 1, "and counted");
	rvctr_hash__exit(&r->idmap);
	free(r);
}

static void test_comm_trailer(void)
{
	struct rvctr_reader *r = reader(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	struct rvctr_event ev;
	uint32_t size;

	start(PERF_RECORD_COMM);
	put(8 | 9ULL << 32);
	memcpy(&rec[nw++], "worker\0", 8);
	put(8 | 9ULL << 32);		/* sample_id: TID, TIME, CPU */
	put(1234);
	put(2);
	size = finish();
	T_EQ(reader__parse_event(r, rec, size, &ev), 0, "COMM with a sample_id trailer");
	T_OK(ev.time == 1234 && ev.cpu == 2, "time and cpu from the trailer");
	T_STREQ(ev.comm.comm, "worker", "the name");
	T_OK(ev.comm.pid == 8 && ev.comm.tid == 9, "pid and tid");
	memset(&rec[2], 'x', 8 * 4);
	T_EQ(reader__parse_event(r, rec, size, &ev), -1, "a name without its NUL");
	T_OK(strstr(r->err, "corrupt COMM record") != NULL, r->err);
	free(r);
}

static void test_mmap2(void)
{
	struct rvctr_reader *r = reader(0);
	struct rvctr_event ev;
	uint32_t size, i;

	start(PERF_RECORD_MMAP2);
	((struct perf_event_header *)rec)->misc = PERF_RECORD_MISC_MMAP_BUILD_ID;
	put(8 | 8ULL << 32);
	put(0x10000);
	put(0x2000);
	put(0);
	put(3 | 0xab00ULL);		/* build id size 3, then its bytes */
	put(0);
	put(0);
	put(5 | 2ULL << 32);		/* prot, flags */
	memcpy(&rec[nw++], "/bin/a\0", 8);
	size = finish();
	T_EQ(reader__parse_event(r, rec, size, &ev), 0, "MMAP2 with a build id");
	T_OK(ev.mmap.start == 0x10000 && ev.mmap.len == 0x2000 && ev.mmap.prot == 5 &&
	     ev.mmap.flags == 2, "start, len, prot, flags");
	T_EQ(ev.mmap.build_id_size, 3, "build id size");
	T_STREQ(ev.mmap.filename, "/bin/a", "file name");
	nw--;
	for (i = 0; i < 130; i++)
		memset(&rec[nw++], 'a', 8);
	put(0);
	size = finish();
	T_EQ(reader__parse_event(r, rec, size, &ev), 0, "a name of 1040 bytes");
	T_STREQ(ev.mmap.filename, "//toolong", "named as the kernel names one too long");
	T_EQ(r->nr_warnings, 1, "with a warning");
	free(r);
}

static void test_fork(void)
{
	struct rvctr_reader *r = reader(0);
	struct rvctr_event ev;
	uint32_t size;

	start(PERF_RECORD_FORK);
	put(10 | 1ULL << 32);
	put(11 | 2ULL << 32);
	put(777);
	size = finish();
	T_EQ(reader__parse_event(r, rec, size, &ev), 0, "FORK");
	T_OK(ev.task.pid == 10 && ev.task.ppid == 1 && ev.task.tid == 11 && ev.task.ptid == 2 &&
	     ev.task.time == 777, "pid, ppid, tid, ptid, time");
	T_EQ(reader__parse_event(r, rec, 16, &ev), -1, "FORK cut short");
	free(r);
}

int main(void)
{
	test_full_sample();
	test_ids();
	test_comm_trailer();
	test_mmap2();
	test_fork();
	return tests_done();
}
