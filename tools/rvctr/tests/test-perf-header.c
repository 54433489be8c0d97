// SPDX-License-Identifier: GPL-2.0-only
/*
 * The header part alone (lib/perf_reader_header.c), on pipe mode's header
 * records built here: attributes and their ids, names from EVENT_UPDATE
 * and EVENT_DESC, ARCH, NRCPUS, build ids; the limits and what is corrupt.
 */
#include <stdlib.h>

#include "lib/perf_reader.h"
#include "tests.h"

static uint64_t rec[512];

/* A user record of @type with @n body bytes at @body. */
static uint32_t user_rec(uint32_t type, const void *body, uint32_t n)
{
	struct perf_event_header *h = (void *)rec;

	memset(rec, 0, sizeof(rec));
	*h = (struct perf_event_header){ .type = type, .size = sizeof(*h) + n };
	memcpy(h + 1, body, n);
	return h->size;
}

static int attr_rec(struct rvctr_reader *r, uint64_t st, uint64_t id0, unsigned int nr_ids)
{
	unsigned char body[PERF_ATTR_SIZE_VER5 + 64] = { 0 };
	struct perf_event_attr *a = (void *)body;
	uint64_t id;
	unsigned int i;

	a->size = PERF_ATTR_SIZE_VER5;
	a->sample_type = st;
	for (i = 0; i < nr_ids; i++) {
		id = id0 + i;
		memcpy(body + PERF_ATTR_SIZE_VER5 + 8 * i, &id, 8);
	}
	return reader__header_record(r, (void *)rec,
				     user_rec(USER_HEADER_ATTR, body, PERF_ATTR_SIZE_VER5 + 8 * nr_ids));
}

static void test_attrs(void)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));
	unsigned int i;
	int ret = 0;

	T_EQ(attr_rec(r, PERF_SAMPLE_IP, 100, 3), 0, "HEADER_ATTR with 3 ids");
	T_EQ(attr_rec(r, PERF_SAMPLE_TID, 200, 2), 0, "a second one");
	T_OK(r->nr_attrs == 2 && r->attrs[1].sample_type == PERF_SAMPLE_TID, "two attributes");
	T_OK(reader__idmap_find(r, 102) == 0 && reader__idmap_find(r, 201) == 1 &&
	     reader__idmap_find(r, 300) == -1, "ids map to their attribute");
	for (i = 0; i < 70; i++)
		ret |= attr_rec(r, 0, 1000 + i, 1);
	T_OK(!ret && r->nr_attrs == RVCTR_MAX_ATTRS, "past 64 attributes: the others ignored");
	T_OK(r->nr_warnings == 1 && strstr(r->warnings[0], "more than 64") != NULL,
	     "with one warning");
	T_EQ(reader__header_record(r, (void *)rec, user_rec(USER_HEADER_ATTR, "x", 1)), -1,
	     "a HEADER_ATTR of 1 byte");
	T_OK(strstr(r->err, "corrupt HEADER_ATTR") != NULL, r->err);
	reader__header_exit(r);
	free(r);
}

static void test_names(void)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));
	uint64_t upd[4] = { 2, 201 };	/* EVENT_UPDATE_NAME, id */

	attr_rec(r, 0, 100, 1);
	attr_rec(r, 0, 200, 2);
	memcpy(&upd[2], "cycles\0", 8);
	T_EQ(reader__header_record(r, (void *)rec, user_rec(USER_EVENT_UPDATE, upd, 24)), 0,
	     "EVENT_UPDATE with a name");
	T_STREQ(rvctr_reader__attr_name(r, 1), "cycles", "names the attribute of its id");
	T_OK(!rvctr_reader__attr_name(r, 0), "and no other");
	reader__header_exit(r);
	free(r);
}

static void test_features(void)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));
	unsigned char body[128] = { 0 };
	uint64_t feat = RVCTR_FEAT_ARCH;
	uint32_t len = 8;

	memcpy(body, &feat, 8);
	memcpy(body + 8, &len, 4);
	memcpy(body + 12, "riscv64", 8);
	T_EQ(reader__header_record(r, (void *)rec, user_rec(USER_HEADER_FEATURE, body, 20)), 0,
	     "HEADER_FEATURE ARCH");
	T_STREQ(rvctr_reader__arch(r), "riscv64", "the arch");
	len = 100;
	memcpy(body + 8, &len, 4);
	T_EQ(reader__header_record(r, (void *)rec, user_rec(USER_HEADER_FEATURE, body, 20)), -1,
	     "a string longer than its feature");
	T_OK(strstr(r->err, "corrupt feature") != NULL, r->err);
	reader__header_exit(r);
	free(r);
}

/* HEADER_NRCPUS as a HEADER_FEATURE record: u32 available, u32 online. */
static int nrcpus_rec(struct rvctr_reader *r, uint32_t avail, uint32_t online, uint32_t n)
{
	unsigned char body[16];
	uint64_t feat = RVCTR_FEAT_NRCPUS;

	memcpy(body, &feat, 8);
	memcpy(body + 8, &avail, 4);
	memcpy(body + 12, &online, 4);
	return reader__header_record(r, (void *)rec, user_rec(USER_HEADER_FEATURE, body, 8 + n));
}

static void test_nrcpus(void)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));
	uint32_t avail = 0, online = 0;

	T_EQ(rvctr_reader__nr_cpus(r, &avail, &online), 0, "no HEADER_NRCPUS yet");
	T_EQ(nrcpus_rec(r, 8, 6, 8), 0, "HEADER_FEATURE NRCPUS");
	T_EQ(rvctr_reader__nr_cpus(r, &avail, &online), 1, "read");
	T_OK(avail == 8 && online == 6, "8 available, 6 online");
	T_EQ(nrcpus_rec(r, 2, 4, 8), 0, "more online than available (perf refuses it)");
	T_EQ(rvctr_reader__nr_cpus(r, &avail, &online), 1, "is not kept");
	T_OK(avail == 8 && online == 6 && r->nr_warnings == 1 &&
	     strstr(r->warnings[0], "HEADER_NRCPUS") != NULL, "the earlier one stays, a warning");
	T_EQ(nrcpus_rec(r, RVCTR_MAX_NR_CPUS + 1, 1, 8), 0, "more than 1M CPUs: not kept");
	T_OK(avail == 8 && online == 6, "the earlier one stays");
	T_EQ(nrcpus_rec(r, 8, 6, 4), -1, "a HEADER_NRCPUS of 4 bytes");
	T_OK(strstr(r->err, "corrupt feature") != NULL, r->err);
	reader__header_exit(r);
	free(r);
}

static void test_build_id(void)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));
	unsigned char body[64] = { 0 };
	struct perf_build_id_rec *b = (void *)rec;
	uint32_t size;

	b->pid = 7;
	memcpy(body + sizeof(*b) - 8, "/bin/x\0", 8);
	size = user_rec(USER_HEADER_BUILD_ID, body, sizeof(*b) - 8 + 8);
	b->pid = 7;
	b->data[0] = 0xab;
	b->size = 4;
	b->header.misc = PERF_MISC_BUILD_ID_SIZE;
	T_EQ(reader__header_record(r, (void *)rec, size), 0, "HEADER_BUILD_ID");
	T_OK(rvctr_reader__nr_build_ids(r) == 1 && r->build_ids[0].pid == 7 &&
	     r->build_ids[0].size == 4 && r->build_ids[0].id[0] == 0xab, "pid, size, id");
	T_STREQ(r->build_ids[0].filename, "/bin/x", "file name");
	T_EQ(reader__header_record(r, (void *)rec, user_rec(USER_FINISHED_ROUND, "", 0)), 1,
	     "FINISHED_ROUND is not the header's");
	reader__header_exit(r);
	free(r);
}

int main(void)
{
	test_attrs();
	test_names();
	test_features();
	test_nrcpus();
	test_build_id();
	return tests_done();
}
