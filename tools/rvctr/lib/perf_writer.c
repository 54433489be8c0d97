// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writer.  Layout: file header, attribute ids, attributes, the
 * data section (records as they come), then the feature section table and
 * the features.  The header is written first with data.size 0 (perf then
 * reads a file whose writer died to its end) and again at close, when the
 * sizes are known.  "-" writes pipe mode instead: a 16-byte header, then
 * HEADER_ATTR and EVENT_UPDATE (name) records, the data, and the build ids,
 * HEADER_ARCH and HEADER_NRCPUS as HEADER_BUILD_ID / HEADER_FEATURE records
 * at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rvctr/perf_data.h>
#include "perf_format.h"

#define MAX_WRITER_BUILD_IDS	1024

/* sample_type bits the writer knows how to lay out */
#define WRITABLE_SAMPLE_TYPE						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |	\
	 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |		\
	 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT)

struct rvctr_writer {
	FILE *f;
	int pipe;
	unsigned int nr_attrs;
	uint32_t attr_size;		/* as written: see attr_size() */
	struct perf_event_attr attrs[RVCTR_MAX_ATTRS];
	char *names[RVCTR_MAX_ATTRS];
	uint64_t attrs_off, data_off, data_size;
	uint64_t nr_samples;
	char arch[64];
	/* HEADER_NRCPUS as given (0: never), and the highest cpu written + 1 */
	uint32_t nr_cpus_avail, nr_cpus_online, cpus_seen;
	struct rvctr_build_id *build_ids;
	unsigned int nr_build_ids;
	int failed;
	char err[256];
	uint64_t rec[65536 / 8];
};

static int wfail(struct rvctr_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int wfail(struct rvctr_writer *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	w->failed = 1;
	return -1;
}

static int put(struct rvctr_writer *w, const void *p, size_t n)
{
	if (w->failed)
		return -1;
	if (fwrite(p, 1, n, w->f) != n)
		return wfail(w, "write error: %s", strerror(errno));
	return 0;
}

static int put_zero(struct rvctr_writer *w, size_t n)
{
	static const char zero[64];

	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		if (put(w, zero, k))
			return -1;
		n -= k;
	}
	return 0;
}

static void free_writer(struct rvctr_writer *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_attrs; i++)
		free(w->names[i]);
	free(w->build_ids);
	if (w->f && !w->pipe)
		fclose(w->f);
	free(w);
}

static int check_attrs(const struct perf_event_attr *attrs, unsigned int nr,
		       char *err, size_t errlen)
{
	unsigned int i;

	if (!nr || nr > RVCTR_MAX_ATTRS) {
		snprintf(err, errlen, "%u attributes (1..%d)", nr, RVCTR_MAX_ATTRS);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		if (attrs[i].sample_type & ~(uint64_t)WRITABLE_SAMPLE_TYPE) {
			snprintf(err, errlen, "attribute %u: sample_type %#llx not supported", i,
				 (unsigned long long)attrs[i].sample_type);
			return -1;
		}
		if (nr > 1 && !(attrs[i].sample_type & PERF_SAMPLE_IDENTIFIER)) {
			snprintf(err, errlen, "several attributes need PERF_SAMPLE_IDENTIFIER");
			return -1;
		}
	}
	return 0;
}

/*
 * Write attributes no longer than they need to be: perf before 6.3 rejects
 * an attr larger than its own (128 bytes, PERF_ATTR_SIZE_VER7) even when
 * the extra bytes are zero.
 */
static uint32_t attr_size(const struct perf_event_attr *attrs, unsigned int nr)
{
	uint32_t size = PERF_ATTR_SIZE_VER7;
	unsigned int i, b;

	for (i = 0; i < nr; i++)
		for (b = PERF_ATTR_SIZE_VER7; b < sizeof(attrs[i]); b++)
			if (((const unsigned char *)&attrs[i])[b])
				size = sizeof(attrs[i]);
	return size;
}

static void file_header(const struct rvctr_writer *w, struct perf_file_header *h)
{
	memset(h, 0, sizeof(*h));
	h->magic = PERF_MAGIC2;
	h->size = sizeof(*h);
	h->attr_size = w->attr_size + 16;
	h->attrs.offset = w->attrs_off;
	h->attrs.size = w->nr_attrs * h->attr_size;
	h->data.offset = w->data_off;
	h->data.size = w->data_size;
}

/* File mode: a header perf can read already (data.size 0), ids, attributes. */
static void put_file_start(struct rvctr_writer *w)
{
	struct perf_file_header h;
	unsigned int i;
	uint64_t id;

	w->attrs_off = sizeof(struct perf_file_header) + 8ULL * w->nr_attrs;
	w->data_off = w->attrs_off + w->nr_attrs * (w->attr_size + 16);
	file_header(w, &h);
	put(w, &h, sizeof(h));
	for (i = 0; i < w->nr_attrs; i++) {
		id = i + 1;
		put(w, &id, sizeof(id));
	}
	for (i = 0; i < w->nr_attrs; i++) {
		struct perf_section ids = { sizeof(struct perf_file_header) + 8ULL * i, 8 };

		put(w, &w->attrs[i], w->attr_size);
		put(w, &ids, sizeof(ids));
	}
}

/* Pipe mode: the 16-byte header, then attributes and names as records. */
static void put_pipe_header(struct rvctr_writer *w)
{
	struct perf_event_header h;
	uint64_t magic[2] = { PERF_MAGIC2, 16 }, id, type = 2;	/* PERF_EVENT_UPDATE__NAME */
	unsigned int i;

	put(w, magic, sizeof(magic));
	for (i = 0; i < w->nr_attrs; i++) {
		id = i + 1;
		h = (struct perf_event_header){ .type = 64, .size = 8 + w->attr_size + 8 };
		put(w, &h, sizeof(h));
		put(w, &w->attrs[i], w->attr_size);
		put(w, &id, 8);
	}
	for (i = 0; i < w->nr_attrs; i++) {
		size_t n;

		if (!w->names[i])
			continue;
		n = strlen(w->names[i]);
		id = i + 1;
		h = (struct perf_event_header){ .type = 78, .size = PERF_ALIGN(24 + n + 1, 8) };
		put(w, &h, sizeof(h));
		put(w, &type, 8);
		put(w, &id, 8);
		put(w, w->names[i], n);
		put_zero(w, h.size - 24 - n);
	}
}

/*
 * A perf.data file is written from offset 0 and its header rewritten at
 * the end: @f must be seekable, at its start, and not opened to append
 * (where every write goes to the end).  Said now, not when all is written.
 */
static int file_not_writable(FILE *f, const char *path, char *err, size_t errlen)
{
	int fd = fileno(f), fl = fcntl(fd, F_GETFL);
	off_t pos = lseek(fd, 0, SEEK_CUR);

	if (pos < 0 && errno == ESPIPE)
		snprintf(err, errlen, "%s: not seekable (a pipe, socket or terminal): a perf.data "
			 "file needs seeking; use -o - for pipe mode", path);
	else if (pos < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	else if (fl >= 0 && (fl & O_APPEND))
		snprintf(err, errlen, "%s: open for appending (>>): a perf.data file is written "
			 "from its start; use > or -o - for pipe mode", path);
	else if (pos)
		snprintf(err, errlen, "%s: at offset %lld, not the file's start: a perf.data file "
			 "is written from its start; use -o - for pipe mode", path, (long long)pos);
	else
		return 0;
	return -1;
}

/* The writer of @f (NULL: it could not be opened, errno says why); stdout in pipe mode. */
static struct rvctr_writer *writer_new(FILE *f, const char *path,
				       const struct perf_event_attr *attrs,
				       const char *const *names, unsigned int nr,
				       char *err, size_t errlen)
{
	struct rvctr_writer *w;
	unsigned int i;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (f != stdout && file_not_writable(f, path, err, errlen)) {
		fclose(f);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "out of memory");
		if (f != stdout)
			fclose(f);
		return NULL;
	}
	w->pipe = f == stdout;
	w->f = f;
	w->nr_attrs = nr;
	w->attr_size = attr_size(attrs, nr);
	for (i = 0; i < nr; i++) {
		w->attrs[i] = attrs[i];
		w->attrs[i].size = w->attr_size;
		w->names[i] = names && names[i] ? strdup(names[i]) : NULL;
	}
	if (w->pipe)
		put_pipe_header(w);
	else
		put_file_start(w);
	if (w->failed) {
		snprintf(err, errlen, "%s", w->err);
		free_writer(w);
		return NULL;
	}
	return w;
}

struct rvctr_writer *rvctr_writer__open(const char *path,
					const struct perf_event_attr *attrs,
					const char *const *names, unsigned int nr,
					char *err, size_t errlen)
{
	if (check_attrs(attrs, nr, err, errlen))
		return NULL;
	return writer_new(!strcmp(path, "-") ? stdout : fopen(path, "wb"), path, attrs, names, nr,
			  err, errlen);
}

struct rvctr_writer *rvctr_writer__fdopen(int fd, const char *name,
					  const struct perf_event_attr *attrs,
					  const char *const *names, unsigned int nr,
					  char *err, size_t errlen)
{
	FILE *f = NULL;
	int own;

	if (check_attrs(attrs, nr, err, errlen))
		return NULL;
	own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (own >= 0 && !(f = fdopen(own, "wb"))) {
		int e = errno;

		close(own);
		errno = e;
	}
	return writer_new(f, name, attrs, names, nr, err, errlen);
}

int rvctr_writer__set_arch(struct rvctr_writer *w, const char *arch)
{
	snprintf(w->arch, sizeof(w->arch), "%s", arch);
	return 0;
}

int rvctr_writer__set_nr_cpus(struct rvctr_writer *w, uint32_t avail, uint32_t online)
{
	if (online > avail || avail > RVCTR_MAX_NR_CPUS)
		return wfail(w, "HEADER_NRCPUS of %u CPUs online, %u available", online, avail);
	if (avail > w->nr_cpus_avail)
		w->nr_cpus_avail = avail;
	if (online > w->nr_cpus_online)
		w->nr_cpus_online = online;
	return 0;
}

/* The last number of a CPU list ("0-3,8-11"), the highest; -1 if none. */
static long last_cpu(const char *list)
{
	const char *p = list + strlen(list);

	while (p > list && (p[-1] < '0' || p[-1] > '9'))
		p--;
	while (p > list && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return *p >= '0' && *p <= '9' ? strtol(p, NULL, 10) : -1;
}

void rvctr_writer__local_nr_cpus(uint32_t *avail, uint32_t *online)
{
	FILE *f = fopen("/sys/devices/system/cpu/present", "r");
	char list[4096] = "";
	long a = -1, o;

	if (f) {
		if (fgets(list, sizeof(list), f))
			a = last_cpu(list);
		fclose(f);
		if (a >= 0)
			a++;
	}
	if (a <= 0)
		a = sysconf(_SC_NPROCESSORS_CONF);
	o = sysconf(_SC_NPROCESSORS_ONLN);
	if (o < 1)
		o = 1;
	if (a < o)
		a = o;
	if (a > (long)RVCTR_MAX_NR_CPUS)
		a = RVCTR_MAX_NR_CPUS;
	if (o > a)
		o = a;
	*avail = a;
	*online = o;
}

int rvctr_writer__add_build_id(struct rvctr_writer *w, int32_t pid, uint16_t misc,
			       const char *filename, const uint8_t *id, uint8_t size)
{
	struct rvctr_build_id *b;
	unsigned int i;

	if (size > 20)
		return wfail(w, "build id of %u bytes (max 20)", size);
	for (i = 0; i < w->nr_build_ids; i++)
		if (!strcmp(w->build_ids[i].filename, filename))
			return 0;
	if (w->nr_build_ids >= MAX_WRITER_BUILD_IDS)
		return wfail(w, "more than %d build ids", MAX_WRITER_BUILD_IDS);
	if (strlen(filename) >= sizeof(w->build_ids->filename))
		return wfail(w, "build id of %.64s...: a name longer than %zu bytes", filename,
			     sizeof(w->build_ids->filename) - 1);
	if (!w->build_ids) {
		w->build_ids = calloc(MAX_WRITER_BUILD_IDS, sizeof(*w->build_ids));
		if (!w->build_ids)
			return wfail(w, "out of memory");
	}
	b = &w->build_ids[w->nr_build_ids++];
	b->pid = pid;
	b->misc = misc;
	b->size = size;
	memcpy(b->id, id, size);
	snprintf(b->filename, sizeof(b->filename), "%s", filename);
	return 0;
}

static int put_record(struct rvctr_writer *w, size_t size)
{
	struct perf_event_header *h = (struct perf_event_header *)w->rec;

	if (size > 65535 - 7)
		return wfail(w, "record of %zu bytes is too large", size);
	size = PERF_ALIGN(size, 8);
	h->size = size;
	if (put(w, w->rec, size))
		return -1;
	w->data_size += size;
	return 0;
}

/*
 * A cpu written in a sample or sample_id trailer: HEADER_NRCPUS says more
 * CPUs are available (perf 7.3 sets a cpu at or above them to 0).  Beyond
 * what perf accepts in HEADER_NRCPUS it is not counted: perf sets that
 * cpu to 0 whatever the header says.
 */
static void saw_cpu(struct rvctr_writer *w, uint32_t cpu)
{
	if (cpu < RVCTR_MAX_NR_CPUS && cpu >= w->cpus_seen)
		w->cpus_seen = cpu + 1;
}

/* The sample_id trailer of non-sample records (attr.sample_id_all). */
static size_t put_sample_id(struct rvctr_writer *w, size_t off, uint32_t pid, uint32_t tid,
			    uint64_t time, uint32_t cpu)
{
	const struct perf_event_attr *a = &w->attrs[0];
	uint64_t *p = (uint64_t *)((char *)w->rec + off);
	uint64_t st = a->sample_type;

	if (!a->sample_id_all)
		return off;
	if (st & PERF_SAMPLE_CPU)
		saw_cpu(w, cpu);
	if (st & PERF_SAMPLE_TID)
		*p++ = pid | (uint64_t)tid << 32;
	if (st & PERF_SAMPLE_TIME)
		*p++ = time;
	if (st & PERF_SAMPLE_ID)
		*p++ = 1;
	if (st & PERF_SAMPLE_CPU)
		*p++ = cpu;	/* and res, 0 */
	if (st & PERF_SAMPLE_IDENTIFIER)
		*p++ = 1;
	return (char *)p - (char *)w->rec;
}

int rvctr_writer__comm(struct rvctr_writer *w, const struct rvctr_comm *c, uint64_t time,
		       uint32_t cpu)
{
	struct perf_event_header *h = (struct perf_event_header *)w->rec;
	size_t n = strnlen(c->comm, sizeof(c->comm) - 1), off;
	uint32_t *ids = (uint32_t *)(h + 1);

	memset(w->rec, 0, 64 + sizeof(c->comm));
	h->type = PERF_RECORD_COMM;
	h->misc = c->misc & PERF_RECORD_MISC_COMM_EXEC;
	ids[0] = c->pid;
	ids[1] = c->tid;
	memcpy(ids + 2, c->comm, n);
	off = PERF_ALIGN(16 + n + 1, 8);
	return put_record(w, put_sample_id(w, off, c->pid, c->tid, time, cpu));
}

int rvctr_writer__mmap2(struct rvctr_writer *w, const struct rvctr_mmap *m, uint64_t time,
			uint32_t cpu)
{
	struct perf_event_header *h = (struct perf_event_header *)w->rec;
	size_t n = strnlen(m->filename, sizeof(m->filename) - 1), off;
	uint64_t *p = (uint64_t *)(h + 1);

	memset(w->rec, 0, 128 + sizeof(m->filename));
	h->type = PERF_RECORD_MMAP2;
	h->misc = m->misc & PERF_RECORD_MISC_CPUMODE_MASK ? m->misc & PERF_RECORD_MISC_CPUMODE_MASK :
							    PERF_RECORD_MISC_USER;
	*p++ = m->pid | (uint64_t)m->tid << 32;
	*p++ = m->start;
	*p++ = m->len;
	*p++ = m->pgoff;
	if (m->build_id_size) {
		/* perf >= 5.12: build_id_size, 3 reserved bytes, 20 id bytes */
		unsigned char *b = (unsigned char *)p;

		h->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		b[0] = m->build_id_size <= 20 ? m->build_id_size : 20;
		memcpy(b + 4, m->build_id, 20);
	}
	p += 3;		/* or maj, min, ino, ino_generation: unknown */
	*p++ = m->prot | (uint64_t)m->flags << 32;
	memcpy(p, m->filename, n);
	off = PERF_ALIGN((char *)p - (char *)w->rec + n + 1, 8);
	return put_record(w, put_sample_id(w, off, m->pid, m->tid, time, cpu));
}

int rvctr_writer__task(struct rvctr_writer *w, uint32_t type, const struct rvctr_task *t,
		       uint32_t cpu)
{
	struct perf_event_header *h = (struct perf_event_header *)w->rec;
	uint64_t *p = (uint64_t *)(h + 1);

	if (type != PERF_RECORD_FORK && type != PERF_RECORD_EXIT)
		return wfail(w, "record type %u is not FORK or EXIT", type);
	memset(w->rec, 0, 128);
	h->type = type;
	*p++ = t->pid | (uint64_t)t->ppid << 32;
	*p++ = t->tid | (uint64_t)t->ptid << 32;
	*p++ = t->time;
	return put_record(w, put_sample_id(w, (char *)p - (char *)w->rec, t->pid, t->tid,
					   t->time, cpu));
}

int rvctr_writer__finished_round(struct rvctr_writer *w)
{
	struct perf_event_header *h = (struct perf_event_header *)w->rec;

	h->type = PERF_RECORD_FINISHED_ROUND;
	h->misc = 0;
	return put_record(w, sizeof(*h));
}

/*
 * A sample's registers are written only under the mask they were sampled
 * with: another attribute's (a second input's, say) would give them other
 * names.  Without them the sample says PERF_SAMPLE_REGS_ABI_NONE, as the
 * kernel's does when it has no user registers.
 */
static int regs_fit(const struct perf_event_attr *a, const struct rvctr_sample *s)
{
	return s->regs_abi && s->regs && s->regs_mask == a->sample_regs_user;
}

/* The bytes of @s's sample under @a, header included. */
static uint64_t sample_size(const struct perf_event_attr *a, const struct rvctr_sample *s)
{
	uint64_t st = a->sample_type, n;

	n = 8 * (1 + !!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
		 !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		 !!(st & PERF_SAMPLE_ADDR) + !!(st & PERF_SAMPLE_ID) +
		 !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_PERIOD) +
		 !!(st & PERF_SAMPLE_WEIGHT));
	if (st & PERF_SAMPLE_CALLCHAIN)
		n += 8 + 8 * s->nr_callchain;
	if (st & PERF_SAMPLE_BRANCH_STACK)
		n += 8 + 8 * !!(a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) +
		     s->nr_branches * sizeof(*s->branches);
	if (st & PERF_SAMPLE_REGS_USER)
		n += 8 + (regs_fit(a, s) ? 8 * (uint64_t)__builtin_popcountll(s->regs_mask) : 0);
	if (st & PERF_SAMPLE_STACK_USER)
		n += 8 + (s->stack_size ? s->stack_size + 8 : 0);
	return n;
}

/* REGS_USER and STACK_USER, laid out as the kernel writes them, at @p. */
static uint64_t *put_regs_stack(const struct perf_event_attr *a, const struct rvctr_sample *s,
				uint64_t *p)
{
	uint64_t n;

	if (a->sample_type & PERF_SAMPLE_REGS_USER) {
		if (regs_fit(a, s)) {
			n = __builtin_popcountll(s->regs_mask);
			*p++ = s->regs_abi;
			memcpy(p, s->regs, 8 * n);
			p += n;
		} else {
			*p++ = PERF_SAMPLE_REGS_ABI_NONE;
		}
	}
	if (a->sample_type & PERF_SAMPLE_STACK_USER) {
		*p++ = s->stack_size;
		if (s->stack_size) {
			memcpy(p, s->stack, s->stack_size);
			p += s->stack_size / 8;
			*p++ = s->stack_dyn_size;
		}
	}
	return p;
}

int rvctr_writer__sample(struct rvctr_writer *w, const struct rvctr_sample *s)
{
	struct perf_event_header *h = (struct perf_event_header *)w->rec;
	uint64_t *p = (uint64_t *)(h + 1), st;
	const struct perf_event_attr *a;

	if (s->attr >= w->nr_attrs)
		return wfail(w, "sample for attribute %u of %u", s->attr, w->nr_attrs);
	a = &w->attrs[s->attr];
	st = a->sample_type;
	if (s->nr_branches > RVCTR_MAX_BRANCHES)
		return wfail(w, "%llu branches (max %d)", (unsigned long long)s->nr_branches,
			     RVCTR_MAX_BRANCHES);
	/* a stack copy is whole u64s (perf_output_sample_ustack()) */
	if ((st & PERF_SAMPLE_STACK_USER) && (s->stack_size % 8 || s->stack_dyn_size > s->stack_size))
		return wfail(w, "a user stack of %llu bytes, %llu of them valid",
			     (unsigned long long)s->stack_size,
			     (unsigned long long)s->stack_dyn_size);
	/*
	 * Said before anything is laid out in rec, which holds the largest
	 * record (the first two keep sample_size() from overflowing).
	 */
	if (((st & PERF_SAMPLE_CALLCHAIN) && s->nr_callchain > 65536 / 8) ||
	    ((st & PERF_SAMPLE_STACK_USER) && s->stack_size > 65536) ||
	    sample_size(a, s) > 65535 - 7)
		return wfail(w, "a sample too large for a record (%llu callchain entries, "
			     "a stack of %llu bytes)", (unsigned long long)s->nr_callchain,
			     (unsigned long long)s->stack_size);
	h->type = PERF_RECORD_SAMPLE;
	h->misc = s->misc ? s->misc : PERF_RECORD_MISC_USER;
	if (st & PERF_SAMPLE_IDENTIFIER)
		*p++ = s->attr + 1;
	if (st & PERF_SAMPLE_IP)
		*p++ = s->ip;
	if (st & PERF_SAMPLE_TID)
		*p++ = s->pid | (uint64_t)s->tid << 32;
	if (st & PERF_SAMPLE_TIME)
		*p++ = s->time;
	if (st & PERF_SAMPLE_ADDR)
		*p++ = s->addr;
	if (st & PERF_SAMPLE_ID)
		*p++ = s->attr + 1;
	if (st & PERF_SAMPLE_CPU) {
		saw_cpu(w, s->cpu);
		*p++ = s->cpu;
	}
	if (st & PERF_SAMPLE_PERIOD)
		*p++ = s->period;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		*p++ = s->nr_callchain;
		if (s->nr_callchain)
			memcpy(p, s->callchain, 8 * s->nr_callchain);
		p += s->nr_callchain;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		*p++ = s->nr_branches;
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			*p++ = s->hw_idx;
		if (s->nr_branches)
			memcpy(p, s->branches, s->nr_branches * sizeof(*s->branches));
		p += s->nr_branches * 3;
	}
	p = put_regs_stack(a, s, p);
	if (st & PERF_SAMPLE_WEIGHT)
		*p++ = s->weight;
	w->nr_samples++;
	return put_record(w, (char *)p - (char *)w->rec);
}

int rvctr_writer__raw(struct rvctr_writer *w, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;

	if (size < sizeof(*h) || h->size != size || size % 8)
		return wfail(w, "malformed raw record (size %zu)", size);
	if (h->type == PERF_RECORD_SAMPLE)
		w->nr_samples++;
	if (put(w, rec, size))
		return -1;
	w->data_size += size;
	return 0;
}

static uint64_t string_size(const char *s)
{
	return 4 + PERF_ALIGN(strlen(s) + 1, PERF_NAME_ALIGN);
}

static int put_string(struct rvctr_writer *w, const char *s)
{
	uint32_t len = PERF_ALIGN(strlen(s) + 1, PERF_NAME_ALIGN);

	put(w, &len, 4);
	put(w, s, strlen(s));
	return put_zero(w, len - strlen(s));
}

/*
 * A build id's record: the 36 bytes of perf_build_id_rec and the name,
 * padded to whole u64s as perf_event__synthesize_build_id() pads them;
 * perf 7.3 aborts at a pipe-mode record that is not (it reads the
 * HEADER_BUILD_ID feature's entries by their size, whatever it is).
 */
static uint64_t build_id_size(const struct rvctr_build_id *b)
{
	return PERF_ALIGN(sizeof(struct perf_build_id_rec) + strlen(b->filename) + 1, 8);
}

/*
 * One build id as perf lays it out: an entry of the HEADER_BUILD_ID
 * feature (@type 0) or, in pipe mode, a PERF_RECORD_HEADER_BUILD_ID (67).
 */
static void put_build_id(struct rvctr_writer *w, const struct rvctr_build_id *b,
			 uint16_t type)
{
	struct perf_build_id_rec r = { 0 };
	size_t n = strlen(b->filename);

	r.header.type = type;
	r.header.misc = b->misc | PERF_MISC_BUILD_ID_SIZE;
	r.header.size = build_id_size(b);
	r.pid = b->pid;
	r.size = b->size;
	memcpy(r.data, b->id, b->size);
	put(w, &r, sizeof(r));
	put(w, b->filename, n);
	put_zero(w, r.header.size - sizeof(r) - n);
}

static int put_build_ids(struct rvctr_writer *w, uint16_t type)
{
	unsigned int i;

	for (i = 0; i < w->nr_build_ids; i++)
		put_build_id(w, &w->build_ids[i], type);
	return w->failed ? -1 : 0;
}

static uint64_t event_desc_size(const struct rvctr_writer *w)
{
	uint64_t n = 8;
	unsigned int i;

	for (i = 0; i < w->nr_attrs; i++)
		n += w->attr_size + 4 +
		     string_size(w->names[i] ? w->names[i] : "") + 8;
	return n;
}

static int put_event_desc(struct rvctr_writer *w)
{
	uint32_t nr = w->nr_attrs, sz = w->attr_size, one = 1;
	unsigned int i;

	put(w, &nr, 4);
	put(w, &sz, 4);
	for (i = 0; i < w->nr_attrs; i++) {
		uint64_t id = i + 1;

		put(w, &w->attrs[i], sz);
		put(w, &one, 4);
		put_string(w, w->names[i] ? w->names[i] : "");
		put(w, &id, 8);
	}
	return w->failed ? -1 : 0;
}

static int has_names(const struct rvctr_writer *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_attrs; i++)
		if (w->names[i])
			return 1;
	return 0;
}

static uint64_t build_ids_size(const struct rvctr_writer *w)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < w->nr_build_ids; i++)
		n += build_id_size(&w->build_ids[i]);
	return n;
}

static int any_branch_stack(const struct rvctr_writer *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_attrs; i++)
		if (w->attrs[i].sample_type & PERF_SAMPLE_BRANCH_STACK)
			return 1;
	return 0;
}

/*
 * HEADER_NRCPUS as perf's write_nrcpus() lays it out: u32 CPUs available,
 * u32 online.  What was given, available raised above every cpu written;
 * never given, both from the cpus written; 0 when there is neither.
 */
static int nr_cpus(const struct rvctr_writer *w, uint32_t v[2])
{
	v[0] = w->nr_cpus_avail > w->cpus_seen ? w->nr_cpus_avail : w->cpus_seen;
	v[1] = w->nr_cpus_avail ? w->nr_cpus_online : w->cpus_seen;
	return v[0] != 0;
}

/* Features in bit order: section table first, then their contents. */
static int put_features(struct rvctr_writer *w, struct perf_file_header *h)
{
	uint32_t cpus[2];
	uint64_t sizes[PERF_FEAT_BITS] = { 0 };
	uint64_t off = w->data_off + w->data_size;
	struct perf_section s;
	unsigned int bit, nr = 0;

	if (w->nr_build_ids)
		sizes[RVCTR_FEAT_BUILD_ID] = build_ids_size(w);
	if (w->arch[0])
		sizes[RVCTR_FEAT_ARCH] = string_size(w->arch);
	if (nr_cpus(w, cpus))
		sizes[RVCTR_FEAT_NRCPUS] = sizeof(cpus);
	if (has_names(w))
		sizes[RVCTR_FEAT_EVENT_DESC] = event_desc_size(w);
	for (bit = 0; bit < PERF_FEAT_BITS; bit++)
		if (sizes[bit] || (bit == RVCTR_FEAT_BRANCH_STACK && any_branch_stack(w))) {
			h->features[bit / 64] |= 1ULL << (bit % 64);
			nr++;
		}
	s.offset = off + nr * sizeof(s);
	for (bit = 0; bit < PERF_FEAT_BITS; bit++) {
		if (!(h->features[bit / 64] >> (bit % 64) & 1))
			continue;
		s.size = sizes[bit];
		put(w, &s, sizeof(s));
		s.offset += s.size;
	}
	if (w->nr_build_ids)
		put_build_ids(w, 0);
	if (w->arch[0])
		put_string(w, w->arch);
	if (sizes[RVCTR_FEAT_NRCPUS])
		put(w, cpus, sizeof(cpus));
	if (has_names(w))
		put_event_desc(w);
	return w->failed ? -1 : 0;
}

int rvctr_writer__checkpoint(struct rvctr_writer *w)
{
	struct perf_file_header h;

	if (w->pipe)
		return w->failed ? -1 : (fflush(w->f) ? wfail(w, "write error: %s", strerror(errno)) : 0);
	if (w->failed)
		return -1;
	if (fflush(w->f))
		return wfail(w, "write error: %s", strerror(errno));
	file_header(w, &h);
	if (pwrite(fileno(w->f), &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return wfail(w, "write error: %s", strerror(errno));
	return 0;
}

/* Pipe mode's trailer: build ids, HEADER_ARCH and HEADER_NRCPUS as records. */
static void put_pipe_features(struct rvctr_writer *w)
{
	uint32_t cpus[2];

	put_build_ids(w, 67);	/* PERF_RECORD_HEADER_BUILD_ID */
	if (w->arch[0]) {
		struct perf_event_header h = {
			.type = 80,	/* PERF_RECORD_HEADER_FEATURE */
			.size = 16 + string_size(w->arch),
		};
		uint64_t feat = RVCTR_FEAT_ARCH;

		put(w, &h, sizeof(h));
		put(w, &feat, 8);
		put_string(w, w->arch);
	}
	if (nr_cpus(w, cpus)) {
		struct perf_event_header h = { .type = 80, .size = 16 + sizeof(cpus) };
		uint64_t feat = RVCTR_FEAT_NRCPUS;

		put(w, &h, sizeof(h));
		put(w, &feat, 8);
		put(w, cpus, sizeof(cpus));
	}
}

int rvctr_writer__close(struct rvctr_writer *w, char *err, size_t errlen)
{
	struct perf_file_header h;
	int ret = 0;

	if (w->pipe) {
		put_pipe_features(w);
	} else {
		file_header(w, &h);
		put_features(w, &h);
	}
	if (!w->failed && fflush(w->f))
		wfail(w, "write error: %s", strerror(errno));
	/*
	 * The final header, with pwrite(): the file offset stays at the end,
	 * for a descriptor shared with the shell (-o /dev/stdout) too.
	 */
	if (!w->pipe && !w->failed &&
	    pwrite(fileno(w->f), &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		wfail(w, "write error: %s", strerror(errno));
	if (w->failed) {
		snprintf(err, errlen, "%s", w->err);
		ret = -1;
	}
	if (!w->pipe && fclose(w->f) && !ret) {
		snprintf(err, errlen, "close: %s", strerror(errno));
		ret = -1;
	}
	w->f = NULL;
	free_writer(w);
	return ret;
}

uint64_t rvctr_writer__nr_samples(const struct rvctr_writer *w)
{
	return w->nr_samples;
}
