// SPDX-License-Identifier: GPL-2.0-only
/*
 * Streaming perf.data reader.  Trust nothing in the file: every offset and
 * length is checked against the file size before it is used, and every
 * loop is bounded by bytes really read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rvctr/perf_data.h>
#include "perf_format.h"

#define MAX_IDS_PER_ATTR	4096
#define MAX_BUILD_IDS		1024
#define MAX_FEAT_BYTES		(16u << 20)

struct rvctr_reader {
	FILE *f;
	int own;
	uint64_t file_size;
	struct perf_file_header hdr;
	unsigned int nr_attrs;
	struct perf_event_attr attrs[RVCTR_MAX_ATTRS];
	char *names[RVCTR_MAX_ATTRS];
	uint64_t *ids[RVCTR_MAX_ATTRS];
	unsigned int nr_ids[RVCTR_MAX_ATTRS];
	char arch[64];
	int has_arch;
	struct rvctr_build_id *build_ids;
	unsigned int nr_build_ids;
	uint64_t pos;			/* bytes of the data section read */
	int failed;
	char err[256];
	uint64_t rec[65536 / 8];	/* one record, 8-byte aligned */
};

static int fail(struct rvctr_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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

/* Read exactly @len bytes at @off; the range is checked against the file. */
static int read_at(struct rvctr_reader *r, uint64_t off, void *buf, uint64_t len,
		   const char *what)
{
	if (off > r->file_size || len > r->file_size - off)
		return fail(r, "truncated file: %s at offset %#llx (+%llu) is past the end (%llu bytes)",
			    what, (unsigned long long)off, (unsigned long long)len,
			    (unsigned long long)r->file_size);
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

static int read_ids(struct rvctr_reader *r, unsigned int i, const struct perf_section *s)
{
	uint64_t n = s->size / 8;

	if (section_ok(r, s, "attribute ids"))
		return -1;
	if (n > MAX_IDS_PER_ATTR)
		return fail(r, "attribute %u has %llu ids (limit %u)", i,
			    (unsigned long long)n, MAX_IDS_PER_ATTR);
	if (!n)
		return 0;
	r->ids[i] = calloc(n, 8);
	if (!r->ids[i])
		return fail(r, "out of memory");
	r->nr_ids[i] = n;
	return read_at(r, s->offset, r->ids[i], n * 8, "attribute ids");
}

static int read_attrs(struct rvctr_reader *r)
{
	uint64_t asz = r->hdr.attr_size, n, i;
	unsigned char buf[512];

	if (asz < PERF_ATTR_SIZE_VER0 + 16 || asz > sizeof(buf))
		return fail(r, "corrupt header: attr_size %llu", (unsigned long long)asz);
	if (section_ok(r, &r->hdr.attrs, "attrs"))
		return -1;
	n = r->hdr.attrs.size / asz;
	if (!n || r->hdr.attrs.size % asz)
		return fail(r, "corrupt header: attrs section of %llu bytes is not a multiple of %llu",
			    (unsigned long long)r->hdr.attrs.size, (unsigned long long)asz);
	if (n > RVCTR_MAX_ATTRS)
		return fail(r, "%llu attributes (limit %d)", (unsigned long long)n, RVCTR_MAX_ATTRS);
	for (i = 0; i < n; i++) {
		struct perf_section ids;
		size_t copy = asz - 16 < sizeof(r->attrs[i]) ? asz - 16 : sizeof(r->attrs[i]);

		if (read_at(r, r->hdr.attrs.offset + i * asz, buf, asz, "attribute"))
			return -1;
		memcpy(&r->attrs[i], buf, copy);
		memcpy(&ids, buf + asz - 16, sizeof(ids));
		r->nr_attrs = i + 1;
		if (read_ids(r, i, &ids))
			return -1;
	}
	return 0;
}

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

static int parse_build_ids(struct rvctr_reader *r, const unsigned char *p, uint64_t n)
{
	uint64_t off = 0;

	while (n - off >= sizeof(struct perf_build_id_rec)) {
		struct perf_build_id_rec b;
		struct rvctr_build_id *bi;
		uint64_t namelen;

		memcpy(&b, p + off, sizeof(b));
		if (b.header.size < sizeof(b) || b.header.size > n - off)
			return fail(r, "corrupt build-id table: record of %u bytes at +%llu",
				    b.header.size, (unsigned long long)off);
		if (r->nr_build_ids >= MAX_BUILD_IDS)
			return fail(r, "more than %d build ids", MAX_BUILD_IDS);
		if (!r->build_ids) {
			r->build_ids = calloc(MAX_BUILD_IDS, sizeof(*r->build_ids));
			if (!r->build_ids)
				return fail(r, "out of memory");
		}
		bi = &r->build_ids[r->nr_build_ids++];
		bi->pid = b.pid;
		bi->misc = b.header.misc;
		bi->size = (b.header.misc & PERF_MISC_BUILD_ID_SIZE) && b.size <= 20 ? b.size : 20;
		memcpy(bi->id, b.data, 20);
		namelen = b.header.size - sizeof(b);
		snprintf(bi->filename, sizeof(bi->filename), "%.*s", (int)namelen,
			 (const char *)p + off + sizeof(b));
		off += b.header.size;
	}
	return 0;
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
		if (i < r->nr_attrs && !r->names[i]) {
			r->names[i] = strdup(name);
			if (!r->names[i])
				return fail(r, "out of memory");
		}
	}
	return 0;
}

static int parse_feature(struct rvctr_reader *r, unsigned int bit, const struct perf_section *s)
{
	unsigned char *buf;
	int ret = 0;

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
	if (read_at(r, s->offset, buf, s->size, "feature"))
		ret = -1;
	else if (bit == RVCTR_FEAT_ARCH)
		ret = parse_arch(r, buf, s->size);
	else if (bit == RVCTR_FEAT_BUILD_ID)
		ret = parse_build_ids(r, buf, s->size);
	else
		ret = parse_event_desc(r, buf, s->size);
	free(buf);
	return ret;
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

static int read_header(struct rvctr_reader *r)
{
	struct stat st;

	if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode)) {
		r->file_size = st.st_size;
	} else {
		if (fseeko(r->f, 0, SEEK_END))
			return fail(r, "input is not seekable (pipe-mode perf.data is not supported)");
		r->file_size = ftello(r->f);
	}
	if (r->file_size < 8)
		return fail(r, "not a perf.data file: %llu bytes", (unsigned long long)r->file_size);
	if (read_at(r, 0, &r->hdr, 8, "magic"))
		return -1;
	if (r->hdr.magic == PERF_MAGIC2_SWAPPED)
		return fail(r, "perf.data of the other byte order is not supported");
	if (r->hdr.magic != PERF_MAGIC2)
		return fail(r, "not a perf.data file (bad magic %#llx)",
			    (unsigned long long)r->hdr.magic);
	if (read_at(r, 0, &r->hdr, sizeof(r->hdr), "file header"))
		return -1;
	if (r->hdr.size == 16 || r->hdr.size < sizeof(r->hdr))
		return fail(r, "pipe-mode or unknown header size %llu is not supported",
			    (unsigned long long)r->hdr.size);
	if (section_ok(r, &r->hdr.data, "data") || read_attrs(r) || read_features(r))
		return -1;
	return 0;
}

struct rvctr_reader *rvctr_reader__fopen(FILE *f, char *err, size_t errlen)
{
	struct rvctr_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->f = f;
	if (read_header(r) || fseeko(r->f, (off_t)r->hdr.data.offset, SEEK_SET)) {
		snprintf(err, errlen, "%s", r->failed ? r->err : "seek failed");
		rvctr_reader__close(r);
		return NULL;
	}
	return r;
}

struct rvctr_reader *rvctr_reader__open(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct rvctr_reader *r;

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

void rvctr_reader__close(struct rvctr_reader *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < RVCTR_MAX_ATTRS; i++) {
		free(r->ids[i]);
		free(r->names[i]);
	}
	free(r->build_ids);
	if (r->own)
		fclose(r->f);
	free(r);
}

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

/* Find the attribute of a sample; files with one attribute need no id. */
static int attr_of(struct rvctr_reader *r, const struct cursor *body)
{
	const struct perf_event_attr *a0 = &r->attrs[0];
	struct cursor c = *body;
	uint64_t id, st = a0->sample_type;
	unsigned int i, j;

	if (r->nr_attrs == 1)
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
		return fail(r, "truncated sample at data offset %llu", (unsigned long long)r->pos);
	for (i = 0; i < r->nr_attrs; i++)
		for (j = 0; j < r->nr_ids[i]; j++)
			if (r->ids[i][j] == id)
				return i;
	return fail(r, "sample with unknown id %llu at data offset %llu",
		    (unsigned long long)id, (unsigned long long)r->pos);
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

static int parse_sample(struct rvctr_reader *r, struct cursor *c, struct rvctr_sample *s)
{
	int ai = attr_of(r, c);
	const struct perf_event_attr *a;
	uint64_t st, v;

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
			    (unsigned long long)r->pos);
	return 0;
}

static int parse_comm(struct rvctr_reader *r, struct cursor *c, struct rvctr_comm *m)
{
	uint64_t v = take64(c);
	size_t n = strnlen((const char *)c->p, c->left);

	if (c->bad || n == c->left)
		return fail(r, "corrupt COMM record at data offset %llu", (unsigned long long)r->pos);
	m->pid = (uint32_t)v;
	m->tid = (uint32_t)(v >> 32);
	snprintf(m->comm, sizeof(m->comm), "%s", (const char *)c->p);
	return 0;
}

static int parse_mmap(struct rvctr_reader *r, struct cursor *c, uint32_t type,
		      struct rvctr_mmap *m)
{
	uint64_t v = take64(c);
	size_t n;

	m->pid = (uint32_t)v;
	m->tid = (uint32_t)(v >> 32);
	m->start = take64(c);
	m->len = take64(c);
	m->pgoff = take64(c);
	if (type == PERF_RECORD_MMAP2) {
		skip(c, 24);	/* maj, min, ino, ino_generation or build id */
		v = take64(c);
		m->prot = (uint32_t)v;
		m->flags = (uint32_t)(v >> 32);
	}
	n = c->bad ? 0 : strnlen((const char *)c->p, c->left);
	if (c->bad || n == c->left)
		return fail(r, "corrupt MMAP record at data offset %llu", (unsigned long long)r->pos);
	snprintf(m->filename, sizeof(m->filename), "%s", (const char *)c->p);
	return 0;
}

static int parse_event(struct rvctr_reader *r, struct rvctr_event *ev)
{
	struct cursor c = {
		.p = (const unsigned char *)r->rec + 8,
		.left = ev->size - 8,
	};

	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		return parse_sample(r, &c, &ev->sample);
	case PERF_RECORD_COMM:
		return parse_comm(r, &c, &ev->comm);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return parse_mmap(r, &c, ev->type, &ev->mmap);
	default:
		return 0;
	}
}

int rvctr_reader__next(struct rvctr_reader *r, struct rvctr_event *ev)
{
	struct perf_event_header h;
	uint64_t left = r->hdr.data.size - r->pos;

	if (r->failed)
		return -1;
	if (!left)
		return 0;
	if (left < sizeof(h))
		return fail(r, "truncated record header at data offset %llu",
			    (unsigned long long)r->pos);
	if (fread(&h, 1, sizeof(h), r->f) != sizeof(h))
		return fail(r, "read error at data offset %llu", (unsigned long long)r->pos);
	if (h.type == PERF_RECORD_COMPRESSED_V1 || h.type == PERF_RECORD_COMPRESSED_V2)
		return fail(r, "compressed perf.data (perf record -z) is not supported: "
			    "decompress it with perf inject -i IN -o OUT");
	if (h.size < sizeof(h) || h.size > left || h.size % 8)
		return fail(r, "corrupt record header (type %u, size %u) at data offset %llu",
			    h.type, h.size, (unsigned long long)r->pos);
	memcpy(r->rec, &h, sizeof(h));
	if (fread((char *)r->rec + 8, 1, h.size - 8, r->f) != (size_t)h.size - 8)
		return fail(r, "read error at data offset %llu", (unsigned long long)r->pos);
	memset(ev, 0, sizeof(*ev));
	ev->type = h.type;
	ev->misc = h.misc;
	ev->size = h.size;
	ev->raw = r->rec;
	ev->sample.misc = h.misc;
	if (parse_event(r, ev))
		return -1;
	r->pos += h.size;
	return 1;
}

const char *rvctr_reader__error(const struct rvctr_reader *r)
{
	return r->failed ? r->err : "no error";
}

unsigned int rvctr_reader__nr_attrs(const struct rvctr_reader *r)
{
	return r->nr_attrs;
}

const struct perf_event_attr *rvctr_reader__attr(const struct rvctr_reader *r, unsigned int i)
{
	return i < r->nr_attrs ? &r->attrs[i] : NULL;
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
	return r->pos;
}

uint64_t rvctr_reader__data_size(const struct rvctr_reader *r)
{
	return r->hdr.data.size;
}
