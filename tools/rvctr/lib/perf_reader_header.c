// SPDX-License-Identifier: GPL-2.0-only
/*
 * The header: attributes and their sample ids, and the features this
 * code reads (ARCH, NRCPUS, BUILD_ID, EVENT_DESC), from a file's header and
 * sections or from pipe mode's header records (tools/perf/util/header.c).
 * Limits (attributes, ids, build ids) degrade with a warning.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perf_reader.h"

/*
 * Ids read, all attributes together (the same ids read twice count twice:
 * the work is bounded, not only the table)
 */
#define MAX_IDS			(1u << 20)
#define MAX_BUILD_IDS		4096
#define MAX_FEAT_BYTES		(16u << 20)
#define EVENT_UPDATE_NAME	2
#define MAX_ATTR_BYTES		512	/* as stored, the ids section included */

/* ---- sample ids ---- */

/* An id's entry in r->idmap: the key (id, 0), and its attribute + 1 (0: new). */
struct id_entry {
	struct rvctr_hash_key key;
	int attr1;
};

int reader__idmap_find(const struct rvctr_reader *r, uint64_t id)
{
	const struct id_entry *e = rvctr_hash__find(&r->idmap, id, 0);

	return e ? e->attr1 - 1 : -1;
}

int reader__idmap_add(struct rvctr_reader *r, uint64_t id, int attr)
{
	struct id_entry *e;

	if (r->nr_ids >= MAX_IDS) {
		reader__warn(r, W_IDS, "more than %u sample ids: samples of the others are skipped",
			     MAX_IDS);
		return 0;
	}
	if (!r->idmap.size)	/* the reader is zeroed: the table starts here */
		rvctr_hash__init(&r->idmap, sizeof(*e));
	e = rvctr_hash__get(&r->idmap, id, 0);
	if (!e)
		return reader__fail(r, "out of memory");
	/* an id given twice keeps its first attribute */
	if (!e->attr1) {
		e->attr1 = attr + 1;
		r->nr_ids++;
	}
	return 0;
}

/* ---- attributes ---- */

/* One attribute (@asz bytes as stored) with its ids; beyond the limit, a warning. */
static int add_attr(struct rvctr_reader *r, const void *attr, uint64_t asz,
		    const uint64_t *ids, uint64_t nr_ids)
{
	unsigned int i = r->nr_attrs;
	uint64_t j, id;

	if (i >= RVCTR_MAX_ATTRS) {
		reader__warn(r, W_ATTRS, "more than %d attributes: samples of the others are "
			     "skipped", RVCTR_MAX_ATTRS);
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
		if (reader__idmap_add(r, id, i))
			return -1;
	}
	return 0;
}

/* File mode: attribute @i of @n (@asz bytes, ids section last) with its ids. */
static int read_attr(struct rvctr_reader *r, uint64_t i, uint64_t asz)
{
	unsigned char buf[MAX_ATTR_BYTES];
	struct perf_section s;
	uint64_t nids, *ids;
	int ret;

	if (reader__read_at(r, r->hdr.attrs.offset + i * asz, buf, asz, "attribute"))
		return -1;
	memcpy(&s, buf + asz - 16, sizeof(s));
	if (reader__section_ok(r, &s, "attribute ids"))
		return -1;
	nids = s.size / 8;
	if (nids > MAX_IDS - r->ids_read) {
		reader__warn(r, W_IDS, "more than %u sample ids: samples of the others are skipped",
			     MAX_IDS);
		nids = MAX_IDS - r->ids_read;
	}
	r->ids_read += nids;
	ids = malloc(nids ? nids * 8 : 1);
	if (!ids)
		return reader__fail(r, "out of memory");
	ret = reader__read_at(r, s.offset, ids, nids * 8, "attribute ids") ||
	      add_attr(r, buf, asz - 16, ids, nids);
	free(ids);
	return ret ? -1 : 0;
}

static int read_attrs(struct rvctr_reader *r)
{
	uint64_t asz = r->hdr.attr_size, n, i;

	if (asz < PERF_ATTR_SIZE_VER0 + 16 || asz > MAX_ATTR_BYTES)
		return reader__fail(r, "corrupt header: attr_size %llu", (unsigned long long)asz);
	if (reader__section_ok(r, &r->hdr.attrs, "attrs"))
		return -1;
	n = r->hdr.attrs.size / asz;
	if (!n || r->hdr.attrs.size % asz)
		return reader__fail(r, "corrupt header: attrs section of %llu bytes is not a "
				    "multiple of %llu", (unsigned long long)r->hdr.attrs.size,
				    (unsigned long long)asz);
	for (i = 0; i < n; i++) {
		/*
		 * Past the limits nothing more is read (perf keeps every
		 * attribute and id, and reads them all): their samples are
		 * skipped, with a warning.  Attributes may all point at the
		 * same ids; what is read stays bounded all the same.
		 */
		if (i >= RVCTR_MAX_ATTRS) {
			reader__warn(r, W_ATTRS, "more than %d attributes (%llu): samples of the "
				     "others are skipped", RVCTR_MAX_ATTRS, (unsigned long long)n);
			break;
		}
		if (read_attr(r, i, asz))
			return -1;
	}
	return 0;
}

/* ---- features (file sections, or HEADER_FEATURE records) ---- */

/* A perf header string: u32 length, then that many bytes, NUL-padded. */
static int get_string(struct rvctr_reader *r, const unsigned char *p, uint64_t avail,
		      uint64_t *used, char *out, size_t outlen)
{
	uint32_t len;

	if (avail < 4)
		return reader__fail(r, "corrupt feature: string length truncated");
	memcpy(&len, p, 4);
	if (len > avail - 4)
		return reader__fail(r, "corrupt feature: string of %u bytes, %llu left", len,
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

/*
 * HEADER_NRCPUS: u32 CPUs available, u32 online (perf's process_nrcpus()).
 * Values perf refuses (it then fails to read the file) are not kept.
 */
static int parse_nrcpus(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint32_t avail, online;

	if (n < 8)
		return reader__fail(r, "corrupt feature: HEADER_NRCPUS of %llu bytes",
				    (unsigned long long)n);
	memcpy(&avail, p, 4);
	memcpy(&online, p + 4, 4);
	if (online > avail || avail > RVCTR_MAX_NR_CPUS) {
		reader__warn(r, W_NRCPUS, "HEADER_NRCPUS of %u CPUs online, %u available is "
			     "invalid: ignored", online, avail);
		return 0;
	}
	r->nr_cpus_avail = avail;
	r->nr_cpus_online = online;
	r->has_nr_cpus = 1;
	return 0;
}

static int add_build_id(struct rvctr_reader *r, int32_t pid, uint16_t misc, const uint8_t *id,
			uint8_t size, const char *name, size_t namelen)
{
	struct rvctr_build_id *bi;

	namelen = strnlen(name, namelen);
	if (namelen >= sizeof(bi->filename)) {
		/* cut short, it would be another file's: not kept */
		reader__warn(r, W_BUILD_ID_NAME, "a build id's file name of %zu bytes (more than "
			     "%zu): that build id is ignored", namelen, sizeof(bi->filename) - 1);
		return 0;
	}
	if (r->nr_build_ids >= MAX_BUILD_IDS) {
		reader__warn(r, W_BUILD_IDS, "more than %d build ids: the others are ignored",
			     MAX_BUILD_IDS);
		return 0;
	}
	if (!r->build_ids) {
		r->build_ids = calloc(MAX_BUILD_IDS, sizeof(*r->build_ids));
		if (!r->build_ids)
			return reader__fail(r, "out of memory");
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
			return reader__fail(r, "corrupt build-id table: record of %u bytes at +%llu",
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
	return r->names[i] ? 0 : reader__fail(r, "out of memory");
}

/* One event of HEADER_EVENT_DESC at +*off (attr of @sz bytes, ids, name). */
static int event_desc_one(struct rvctr_reader *r, const unsigned char *p, uint64_t n,
			  uint64_t *off, uint32_t sz, uint32_t i)
{
	char name[RVCTR_NAME_MAX];
	uint64_t used;
	uint32_t nri;

	if (sz > n - *off || n - *off - sz < 4)
		return reader__fail(r, "corrupt event description: event %u truncated", i);
	*off += sz;
	memcpy(&nri, p + *off, 4);
	*off += 4;
	if (get_string(r, p + *off, n - *off, &used, name, sizeof(name)))
		return -1;
	*off += used;
	if (nri > (n - *off) / 8)
		return reader__fail(r, "corrupt event description: %u ids, %llu bytes left", nri,
				    (unsigned long long)(n - *off));
	*off += (uint64_t)nri * 8;
	/* Event i of the description is attribute i of the file. */
	return set_name(r, i, name);
}

static int parse_event_desc(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint32_t nre, sz, i;
	uint64_t off = 8;

	if (n < 8)
		return reader__fail(r, "corrupt event description: %llu bytes",
				    (unsigned long long)n);
	memcpy(&nre, p, 4);
	memcpy(&sz, p + 4, 4);
	for (i = 0; i < nre; i++)
		if (event_desc_one(r, p, n, &off, sz, i))
			return -1;
	return 0;
}

static int parse_feature_buf(struct rvctr_reader *r, unsigned int bit, const unsigned char *buf,
			     uint64_t n)
{
	if (bit == RVCTR_FEAT_ARCH)
		return parse_arch(r, buf, n);
	if (bit == RVCTR_FEAT_NRCPUS)
		return parse_nrcpus(r, buf, n);
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

	if (bit != RVCTR_FEAT_ARCH && bit != RVCTR_FEAT_NRCPUS && bit != RVCTR_FEAT_BUILD_ID &&
	    bit != RVCTR_FEAT_EVENT_DESC)
		return 0;
	if (reader__section_ok(r, s, "feature"))
		return -1;
	if (s->size > MAX_FEAT_BYTES)
		return reader__fail(r, "feature %u is %llu bytes (limit %u)", bit,
				    (unsigned long long)s->size, MAX_FEAT_BYTES);
	buf = malloc(s->size ? s->size : 1);
	if (!buf)
		return reader__fail(r, "out of memory");
	ret = reader__read_at(r, s->offset, buf, s->size, "feature") ||
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
		if (reader__read_at(r, off, &s, sizeof(s), "feature table"))
			return -1;
		off += sizeof(s);
		if (parse_feature(r, bit, &s))
			return -1;
	}
	return 0;
}

/* ---- the file header ---- */

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

		if (reader__read_at(r, table + i * sizeof(s), &s, sizeof(s), "feature table"))
			return 0;
		if (s.offset < end || s.offset > r->file_size || s.size > r->file_size - s.offset)
			return 0;
	}
	return 1;
}

int reader__read_file_header(struct rvctr_reader *r)
{
	if (reader__read_at(r, 0, &r->hdr, sizeof(r->hdr), "file header"))
		return -1;
	if (r->hdr.size < sizeof(r->hdr))
		return reader__fail(r, "unknown perf.data header size %llu",
				    (unsigned long long)r->hdr.size);
	if (reader__section_ok(r, &r->hdr.data, "data") || read_attrs(r))
		return -1;
	r->data_end = r->hdr.data.offset + r->hdr.data.size;
	if (!r->hdr.data.size && !empty_but_finished(r)) {
		/* perf record writes the sizes and features at exit */
		reader__warn(r, W_DATA_SIZE, "data size is 0: perf record was not properly "
			     "terminated; reading to the end of the file");
		r->data_end = r->file_size;
		memset(r->hdr.features, 0, sizeof(r->hdr.features));
	} else if (read_features(r)) {
		return -1;
	}
	r->off = r->hdr.data.offset;
	if (!r->mem && fseeko(r->f, (off_t)r->off, SEEK_SET))
		return reader__fail(r, "seek error: %s", strerror(errno));
	return 0;
}

/* ---- pipe mode's header records ---- */

static int header_attr(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint32_t asz;

	if (n < PERF_ATTR_SIZE_VER0)
		return reader__fail(r, "corrupt HEADER_ATTR record of %llu bytes",
				    (unsigned long long)n);
	memcpy(&asz, p + offsetof(struct perf_event_attr, size), 4);
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz > n || asz < PERF_ATTR_SIZE_VER0)
		return reader__fail(r, "corrupt HEADER_ATTR record: attr size %u of %llu bytes",
				    asz, (unsigned long long)n);
	return add_attr(r, p, asz, (const uint64_t *)(p + asz), (n - asz) / 8);
}

static int header_feature(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint64_t v;

	if (n < 8)
		return reader__fail(r, "corrupt HEADER_FEATURE record");
	memcpy(&v, p, 8);
	return v < PERF_FEAT_BITS ? parse_feature_buf(r, v, p + 8, n - 8) : 0;
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
	i = reader__idmap_find(r, id);
	snprintf(name, sizeof(name), "%.*s", (int)(n - 16), (const char *)p + 16);
	return i >= 0 ? set_name(r, i, name) : 0;
}

int reader__header_record(struct rvctr_reader *r, const unsigned char *rec, uint32_t size)
{
	struct perf_event_header h;
	uint64_t n = size - sizeof(h);

	memcpy(&h, rec, sizeof(h));
	switch (h.type) {
	case USER_HEADER_ATTR:
		return header_attr(r, rec + sizeof(h), n);
	case USER_HEADER_FEATURE:
		return header_feature(r, rec + sizeof(h), n);
	case USER_HEADER_BUILD_ID:
		return parse_build_ids(r, rec, size);
	case USER_EVENT_UPDATE:
		return event_update(r, rec + sizeof(h), n);
	default:
		return 1;
	}
}

void reader__header_exit(struct rvctr_reader *r)
{
	unsigned int i;

	for (i = 0; i < RVCTR_MAX_ATTRS; i++)
		free(r->names[i]);
	rvctr_hash__exit(&r->idmap);
	free(r->build_ids);
}
