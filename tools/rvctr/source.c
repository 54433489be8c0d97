// SPDX-License-Identifier: GPL-2.0-only
/* Input detection and snapshot-to-sample conversion; see source.h. */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/brstack.h>
#include <rvctr/ntbr.h>
#include <rvctr/snapshot.h>
#include <rvctr/symtab.h>
#include "source.h"

#define IOBUF	(1 << 20)

struct source {
	struct source_opts o;
	struct rvctr_reader *reader;
	FILE *f;			/* snapshot text */
	char *iobuf;			/* f's buffer (see IOBUF) */
	uint64_t size;
	struct rvctr_snapshot_reader *snap;
	struct rvctr_snapshot cur;
	struct perf_branch_entry br[RISCV_CTR_DEPTH_MAX];
	uint8_t nt[RISCV_CTR_DEPTH_MAX];	/* br[i] came from a TYPE 4 entry */
	struct rvctr_mmap binmap;
	int pending;			/* synthetic COMM/MMAP2 left to emit */
	uint64_t seq;
	uint64_t ctl_seen;		/* sctrctl bits of every snapshot so far, and
					 * NTBREN once an entry was not taken */
	char err[512];
};

/*
 * Standard input cannot be rewound once probed: a FILE that gives the
 * probed bytes back first, then the rest of stdin.
 */
struct peeked {
	char buf[256];
	size_t len, pos;
};

static ssize_t peeked_read(void *cookie, char *out, size_t n)
{
	struct peeked *p = cookie;

	if (p->pos < p->len) {
		size_t k = p->len - p->pos < n ? p->len - p->pos : n;

		memcpy(out, p->buf + p->pos, k);
		p->pos += k;
		return k;
	}
	return read(STDIN_FILENO, out, n);
}

static int peeked_close(void *cookie)
{
	free(cookie);
	return 0;
}

static FILE *open_stdin(int *is_snapshot)
{
	cookie_io_functions_t io = { .read = peeked_read, .close = peeked_close };
	struct peeked *p;
	struct stat st;
	ssize_t k;
	FILE *f;

	/* a regular file on stdin can be read like any other (and seeks) */
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
		f = fdopen(dup(STDIN_FILENO), "rb");
		if (f) {
			char buf[256];
			size_t n = fread(buf, 1, sizeof(buf), f);

			rewind(f);
			*is_snapshot = rvctr_snapshot__probe(buf, n);
		}
		return f;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	while (p->len < sizeof(p->buf) &&
	       (k = read(STDIN_FILENO, p->buf + p->len, sizeof(p->buf) - p->len)) > 0)
		p->len += k;
	*is_snapshot = rvctr_snapshot__probe(p->buf, p->len);
	f = fopencookie(p, "rb", io);
	if (!f)
		free(p);
	return f;
}

/*
 * Read without stdio: perf.data is then mapped by the reader, and a stdio
 * read would have filled (and faulted in) a whole buffer for nothing.
 */
static int probe_snapshot(FILE *f)
{
	char buf[256];
	ssize_t n = pread(fileno(f), buf, sizeof(buf), 0);

	return rvctr_snapshot__probe(buf, n > 0 ? n : 0);
}

/* The binary's executable segment, mapped where it was linked. */
static int load_binary(struct source *s, char *err, size_t errlen)
{
	struct rvctr_symtab *t = rvctr_symtab__load(s->o.binary, NULL, err, errlen);
	struct rvctr_segment seg;

	if (!t)
		return -1;
	if (rvctr_symtab__exec_segment(t, &seg)) {
		snprintf(err, errlen, "%s: no executable segment", s->o.binary);
		rvctr_symtab__delete(t);
		return -1;
	}
	s->binmap.pid = s->binmap.tid = s->o.pid;
	s->binmap.start = seg.vaddr & ~0xfffULL;
	s->binmap.pgoff = seg.offset & ~0xfffULL;
	s->binmap.len = seg.vaddr + seg.memsz - s->binmap.start;
	s->binmap.prot = 5;	/* PROT_READ | PROT_EXEC */
	if ((size_t)snprintf(s->binmap.filename, sizeof(s->binmap.filename), "%s",
			     s->o.binary) >= sizeof(s->binmap.filename)) {
		snprintf(err, errlen, "%.64s...: a path longer than %zu bytes, more than a map's "
			 "name holds", s->o.binary, sizeof(s->binmap.filename) - 1);
		rvctr_symtab__delete(t);
		return -1;
	}
	s->pending = 2;
	rvctr_symtab__delete(t);
	return 0;
}

static struct source *open_snapshot(struct source *s, FILE *f, char *err, size_t errlen)
{
	struct stat st;

	s->f = f;
	s->size = fstat(fileno(f), &st) == 0 ? (uint64_t)st.st_size : 0;
	s->snap = rvctr_snapshot_reader__new(f);
	if (!s->snap) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (s->o.binary && load_binary(s, err, errlen))
		return NULL;
	return s;
}

struct source *source__open(const char *path, const struct source_opts *o,
			    char *err, size_t errlen)
{
	struct source *s = calloc(1, sizeof(*s));
	int snap = 0;
	FILE *f;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->o = *o;
	if (!strcmp(path, "-")) {
		f = open_stdin(&snap);
	} else {
		struct stat st;

		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			/* the reader names the --threads layout */
			s->reader = rvctr_reader__open(path, err, errlen);
			source__close(s);
			return NULL;
		}
		f = fopen(path, "rb");
		snap = f && probe_snapshot(f);
		/* snapshot text: stdio's 4 KiB reads cost as much as the parsing */
		s->iobuf = snap ? malloc(IOBUF) : NULL;
		if (s->iobuf)
			setvbuf(f, s->iobuf, _IOFBF, IOBUF);
	}
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(s->iobuf);
		free(s);
		return NULL;
	}
	if (snap) {
		if (open_snapshot(s, f, err, errlen))
			return s;
	} else if ((s->reader = rvctr_reader__fopen(f, err, errlen))) {
		s->f = f;
		return s;
	}
	if (!s->f) {
		fclose(f);
		free(s->iobuf);
		s->iobuf = NULL;
	}
	source__close(s);
	return NULL;
}

void source__close(struct source *s)
{
	if (!s)
		return;
	rvctr_reader__close(s->reader);
	rvctr_snapshot_reader__delete(s->snap);
	if (s->f)
		fclose(s->f);
	free(s->iobuf);
	free(s);
}

static void synth_event(struct source *s, struct rvctr_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (s->pending == 2) {
		char tmp[sizeof(s->binmap.filename)];

		ev->type = PERF_RECORD_COMM;
		ev->comm.pid = ev->comm.tid = s->o.pid;
		snprintf(tmp, sizeof(tmp), "%s", s->binmap.filename);
		snprintf(ev->comm.comm, 16, "%s", basename(tmp));
	} else {
		ev->type = PERF_RECORD_MMAP2;
		ev->misc = PERF_RECORD_MISC_USER;
		ev->mmap = s->binmap;
	}
	s->pending--;
}

static int snapshot_event(struct source *s, struct rvctr_event *ev)
{
	struct rvctr_sample *smp = &ev->sample;
	int ret = rvctr_snapshot_reader__next(s->snap, &s->cur);
	unsigned int n;

	if (ret <= 0) {
		if (ret < 0)
			snprintf(s->err, sizeof(s->err), "%s",
				 rvctr_snapshot_reader__error(s->snap));
		return ret;
	}
	s->ctl_seen |= s->cur.sctrctl;
	/* a not-taken entry says NTBREN was set, whatever the header says */
	for (n = 0; n < s->cur.nr && !(s->ctl_seen & CTRCTL_NTBREN); n++)
		if (riscv_ctr_valid(s->cur.entries[n].source) &&
		    riscv_ctr_type(s->cur.entries[n].data) == CTRDATA_TYPE_NONTAKEN_BRANCH)
			s->ctl_seen |= CTRCTL_NTBREN;
	n = riscv_ctr_stack_to_perf_nt(s->cur.entries, s->cur.nr, s->o.has_misp,
				       RVCTR_SNAPSHOT_BST, s->br, s->nt);
	memset(ev, 0, sizeof(*ev));
	ev->type = PERF_RECORD_SAMPLE;
	smp->pid = smp->tid = s->o.pid;
	smp->time = ++s->seq;
	smp->period = 1;
	smp->nr_branches = n;
	smp->branches = s->br;
	/* the sample is taken where the newest recorded transfer went */
	smp->ip = n ? s->br[0].to : 0;
	smp->misc = n && riscv_ctr_is_kernel(smp->ip) ? PERF_RECORD_MISC_KERNEL :
							 PERF_RECORD_MISC_USER;
	ev->misc = smp->misc;
	return 1;
}

int source__next(struct source *s, struct rvctr_event *ev)
{
	int ret;

	if (s->reader) {
		ret = rvctr_reader__next(s->reader, ev);
		if (ret < 0)
			snprintf(s->err, sizeof(s->err), "%s", rvctr_reader__error(s->reader));
		return ret;
	}
	if (s->pending) {
		synth_event(s, ev);
		return 1;
	}
	return snapshot_event(s, ev);
}

const char *source__error(const struct source *s)
{
	return s->err;
}

double source__progress(const struct source *s)
{
	if (s->reader)
		return rvctr_reader__data_size(s->reader) ?
		       (double)rvctr_reader__data_pos(s->reader) / rvctr_reader__data_size(s->reader) : 1;
	return s->size ? (double)ftello(s->f) / s->size : 0;
}

struct rvctr_reader *source__reader_mut(struct source *s)
{
	return s->reader;
}

const struct rvctr_reader *source__reader(const struct source *s)
{
	return s->reader;
}

uint64_t source__snapshot_ctl(const struct source *s)
{
	return s->ctl_seen;
}

/*
 * Can @smp hold not-taken records?  Snapshots: when its stack is the
 * snapshot's, *@known then its TYPE 4 entries' flags.  perf.data: when
 * @smp's own event was recorded with ctr_ntbr, *@known NULL (they are
 * told apart by their instructions).
 */
static int not_taken(const struct source *s, const struct rvctr_sample *smp,
		     const uint8_t **known)
{
	const struct rvctr_reader *r = s->reader;

	*known = NULL;
	if (!r) {
		*known = s->nt;
		return smp->branches == s->br;
	}
	return smp->attr < rvctr_reader__nr_attrs(r) &&
	       rvctr_brstack__has_ntbr(rvctr_reader__attr(r, smp->attr),
				       rvctr_reader__attr_config3(r, smp->attr),
				       rvctr_reader__arch(r));
}

int source__is_snapshot(const struct source *s)
{
	return !s->reader;
}

uint64_t source__drop_not_taken(struct source *s, struct rvctr_sample *smp, struct rvctr_ntbr *n,
				struct perf_branch_entry *out)
{
	const uint8_t *known;

	return not_taken(s, smp, &known) ? rvctr_ntbr__drop(n, smp, known, out) : 0;
}
