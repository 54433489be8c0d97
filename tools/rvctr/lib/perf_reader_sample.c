// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record contents: a sample's fields in sample_type order (the order of
 * tools/perf/util/evsel.c, evsel__parse_sample), the sample_id trailer of
 * other records, COMM, MMAP/MMAP2, FORK/EXIT.  Every field is read
 * through a cursor bounded by the record's size as checked when it was
 * read; branch entries, callchains, user registers and stacks are
 * pointed at in place.
 */
#include <stddef.h>
#include <string.h>

#include "perf_reader.h"

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

static int corrupt(struct rvctr_reader *r, const char *what)
{
	return reader__fail(r, "%s at data offset %llu", what,
			    (unsigned long long)reader__data_offset(r));
}

/* ---- samples ---- */

/* The id a sample carries, by the first attribute's layout: 0 or -1. */
static int sample_id(struct rvctr_reader *r, struct cursor c, uint64_t *id)
{
	uint64_t st = r->attrs[0].sample_type;

	if (st & PERF_SAMPLE_IDENTIFIER) {
		*id = take64(&c);
	} else if (st & PERF_SAMPLE_ID) {
		/* the id sits after IP, TID, TIME, ADDR in every attribute */
		skip(&c, 8 * (!!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			      !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR)));
		*id = take64(&c);
	} else {
		return reader__fail(r, "%u attributes but samples carry no id", r->nr_attrs);
	}
	return c.bad ? corrupt(r, "truncated sample") : 0;
}

/* The attribute of a sample; -1 error, -2 unknown id (skip it). */
static int attr_of(struct rvctr_reader *r, const struct cursor *body)
{
	uint64_t id;
	int i;

	if (!r->nr_attrs)
		return reader__fail(r, "a sample before any attribute");
	if (r->nr_attrs == 1 && !r->warned[W_ATTRS])
		return 0;
	if (sample_id(r, *body, &id))
		return -1;
	i = reader__idmap_find(r, id);
	if (i >= 0)
		return i;
	r->nr_unknown_id++;
	return -2;
}

static void skip_read(struct cursor *c, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr;

	if (!(rf & PERF_FORMAT_GROUP)) {
		skip(c, 8 * (per + times));
		return;
	}
	nr = take64(c);
	skip(c, 8 * times);
	if (nr > c->left / (8 * per))
		c->bad = 1;
	else
		skip(c, nr * 8 * per);
}

static void take_callchain(struct cursor *c, struct rvctr_sample *s)
{
	uint64_t nr = take64(c);

	if (nr > c->left / 8) {
		c->bad = 1;
		return;
	}
	s->nr_callchain = nr;
	s->callchain = skip(c, nr * 8);
}

static void skip_raw(struct cursor *c)
{
	const unsigned char *p = c->p;
	uint32_t sz = 0;

	if (skip(c, 4))
		memcpy(&sz, p, 4);
	/*
	 * perf pads the raw data so that size and data fill whole u64s;
	 * anything else is corrupt and would leave the fields after it (the
	 * branch entries, read in place) misaligned.
	 */
	if ((4 + (uint64_t)sz) % 8)
		c->bad = 1;
	else
		skip(c, sz);
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

/*
 * The user registers and stack (--call-graph dwarf), after BRANCH_STACK
 * and before WEIGHT, as the kernel writes them (perf_output_sample_regs(),
 * perf_output_sample_ustack()): the ABI, then a register for each bit of
 * the mask unless it is PERF_SAMPLE_REGS_ABI_NONE; the size of the stack
 * copy, then, unless it is 0, that many bytes and how many of them the
 * copy filled (dyn_size).
 */
static void take_regs_stack(struct cursor *c, const struct perf_event_attr *a,
			    struct rvctr_sample *s)
{
	uint64_t st = a->sample_type;

	if (st & PERF_SAMPLE_REGS_USER) {
		s->regs_abi = take64(c);
		s->regs_mask = a->sample_regs_user;
		if (s->regs_abi)
			s->regs = skip(c, 8 * (uint64_t)__builtin_popcountll(a->sample_regs_user));
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t sz = take64(c);

		/*
		 * The kernel copies whole u64s; a size that is not, or a
		 * dyn_size beyond it (perf: "user stack dump failure"), is
		 * corrupt.
		 */
		if (sz % 8) {
			c->bad = 1;
			return;
		}
		if (sz) {
			s->stack = skip(c, sz);
			s->stack_size = sz;
			s->stack_dyn_size = take64(c);
			if (s->stack_dyn_size > sz)
				c->bad = 1;
		}
	}
}

/* IDENTIFIER to PERIOD: the fixed-size fields. */
static void sample_head(struct cursor *c, uint64_t st, struct rvctr_sample *s)
{
	uint64_t v;

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
}

/*
 * READ to WEIGHT: the variable-size fields, the callchain, the branch
 * stack and the user registers and stack among them.
 */
static void sample_tail(struct cursor *c, const struct perf_event_attr *a,
			struct rvctr_sample *s)
{
	uint64_t st = a->sample_type;

	if (st & PERF_SAMPLE_READ)
		skip_read(c, a->read_format);
	if (st & PERF_SAMPLE_CALLCHAIN)
		take_callchain(c, s);
	if (st & PERF_SAMPLE_RAW)
		skip_raw(c);
	if (st & PERF_SAMPLE_BRANCH_STACK)
		take_branches(c, a, s);
	take_regs_stack(c, a, s);
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = take64(c);
}

/* 0, 1 (skip: unknown id) or -1. */
static int parse_sample(struct rvctr_reader *r, struct cursor *c, struct rvctr_sample *s)
{
	int ai = attr_of(r, c);

	if (ai == -2)
		return 1;
	if (ai < 0)
		return -1;
	s->attr = ai;
	sample_head(c, r->attrs[ai].sample_type, s);
	sample_tail(c, &r->attrs[ai], s);
	return c->bad ? corrupt(r, "truncated or corrupt sample") : 0;
}

/* ---- other records ---- */

/* The sample_id fields @st puts in a trailer. */
static uint64_t id_trailer_words(uint64_t st)
{
	return !!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_CPU) +
	       !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_ID) +
	       !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_TID);
}

/*
 * The sample_id trailer of a non-sample record (attr.sample_id_all), read
 * from the end: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER.  The attribute
 * is the one IDENTIFIER names, else the first (perf requires one layout).
 */
static void parse_id_trailer(const struct rvctr_reader *r, const struct cursor *body,
			     struct rvctr_event *ev)
{
	const unsigned char *end = body->p + body->left;
	uint64_t st, v;
	int i;

	if (!r->nr_attrs || !r->attrs[0].sample_id_all)
		return;
	st = r->attrs[0].sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		if (body->left < 8)
			return;
		memcpy(&v, end - 8, 8);
		i = reader__idmap_find(r, v);
		if (i >= 0)
			st = r->attrs[i].sample_type;
	}
	if (id_trailer_words(st) * 8 > body->left)
		return;
	end -= 8 * !!(st & PERF_SAMPLE_IDENTIFIER);
	if (st & PERF_SAMPLE_CPU) {
		end -= 8;
		memcpy(&v, end, 8);
		ev->cpu = (uint32_t)v;
	}
	end -= 8 * (!!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_ID));
	if (st & PERF_SAMPLE_TIME) {
		end -= 8;
		memcpy(&ev->time, end, 8);
	}
}

/* The NUL-terminated string at the cursor: its length, or -1 if none is whole. */
static long string_len(const struct cursor *c)
{
	size_t n = c->bad ? 0 : strnlen((const char *)c->p, c->left);

	return c->bad || n == c->left ? -1 : (long)n;
}

static int parse_comm(struct rvctr_reader *r, struct cursor *c, struct rvctr_comm *m)
{
	uint64_t v = take64(c);
	long n = string_len(c);

	if (n < 0)
		return corrupt(r, "corrupt COMM record");
	m->pid = (uint32_t)v;
	m->tid = (uint32_t)(v >> 32);
	/*
	 * The bytes measured, not read again: a mapped file may change under
	 * the reader.  A comm is 16 bytes (TASK_COMM_LEN); a longer one is
	 * cut, it is only shown.
	 */
	snprintf(m->comm, sizeof(m->comm), "%.*s", (int)n, (const char *)c->p);
	return 0;
}

/* MMAP2's device and inode, or its build id (perf >= 5.12), and prot/flags. */
static void mmap2_fields(struct cursor *c, uint16_t misc, struct rvctr_mmap *m)
{
	const unsigned char *p = skip(c, 24);
	uint64_t v;

	if (p && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		m->build_id_size = p[0] <= 20 ? p[0] : 20;
		memcpy(m->build_id, p + 4, 20);
	}
	v = take64(c);
	m->prot = (uint32_t)v;
	m->flags = (uint32_t)(v >> 32);
}

static int parse_mmap(struct rvctr_reader *r, struct cursor *c, uint32_t type, uint16_t misc,
		      struct rvctr_mmap *m)
{
	uint64_t v = take64(c);
	long n;

	m->pid = (uint32_t)v;
	m->tid = (uint32_t)(v >> 32);
	m->start = take64(c);
	m->len = take64(c);
	m->pgoff = take64(c);
	m->misc = misc;
	if (type == PERF_RECORD_MMAP2)
		mmap2_fields(c, misc, m);
	n = string_len(c);
	if (n < 0)
		return corrupt(r, "corrupt MMAP record");
	if ((size_t)n >= sizeof(m->filename)) {
		/* cut short, it would be another file's: named as the kernel names one too long */
		reader__warn(r, W_NAME_LONG, "a mapped file's name of %ld bytes (more than %zu): "
			     "named //toolong, its samples not symbolized", n,
			     sizeof(m->filename) - 1);
		snprintf(m->filename, sizeof(m->filename), "//toolong");
		return 0;
	}
	/* the bytes measured (a mapped file may change under the reader) */
	memcpy(m->filename, c->p, n);
	m->filename[n] = 0;
	return 0;
}

static int parse_task(struct rvctr_reader *r, struct cursor *c, struct rvctr_task *t)
{
	uint64_t a = take64(c), b = take64(c);

	t->time = take64(c);
	if (c->bad)
		return corrupt(r, "corrupt FORK/EXIT record");
	t->pid = (uint32_t)a;
	t->ppid = (uint32_t)(a >> 32);
	t->tid = (uint32_t)b;
	t->ptid = (uint32_t)(b >> 32);
	return 0;
}

static int parse_other(struct rvctr_reader *r, struct cursor *c, const struct perf_event_header *h,
		       struct rvctr_event *ev)
{
	parse_id_trailer(r, c, ev);
	switch (h->type) {
	case PERF_RECORD_COMM:
		ev->comm.misc = h->misc;
		return parse_comm(r, c, &ev->comm);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return parse_mmap(r, c, h->type, h->misc, &ev->mmap);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return parse_task(r, c, &ev->task);
	default:
		return 0;
	}
}

int reader__parse_event(struct rvctr_reader *r, const void *rec, uint32_t size,
			struct rvctr_event *ev)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memcpy(&h, rec, sizeof(h));
	h.size = size;		/* as checked when read: the bound of what is read */
	/* a sample clears only its own part of the union (a tenth of it) */
	if (h.type == PERF_RECORD_SAMPLE) {
		memset(ev, 0, offsetof(struct rvctr_event, sample));
		memset(&ev->sample, 0, sizeof(ev->sample));
	} else {
		memset(ev, 0, sizeof(*ev));
	}
	ev->type = h.type;
	ev->misc = h.misc;
	ev->size = h.size;
	ev->raw = rec;
	c = (struct cursor){ .p = (const unsigned char *)rec + 8, .left = h.size - 8 };
	if (h.type != PERF_RECORD_SAMPLE)
		return parse_other(r, &c, &h, ev);
	ev->sample.misc = h.misc;
	ret = parse_sample(r, &c, &ev->sample);
	ev->time = ev->sample.time;
	ev->cpu = ev->sample.cpu;
	return ret;
}
