// SPDX-License-Identifier: GPL-2.0-only
/* Input detection and snapshot-to-sample conversion; see source.h. */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/brstack.h>
#include <rvctr/insn.h>
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
	uint64_t ambiguous;		/* records guessed not taken */
	char ambiguous_why[320];	/* why the first could not be decided */
	struct rvctr_insn *insn;	/* perf.data with ctr_ntbr: instruction lengths */
	int insn_checked;		/* insn is kept only if an attr has ctr_ntbr */
	uint8_t pnt[RVCTR_MAX_BRANCHES];	/* perf.data: not-taken flags of a sample */
	int parts[2 * RVCTR_MAX_BRANCHES + 2];	/* decide_run(): the output's parts */
	unsigned int nr_parts;
	struct {			/* the last source_scope part() answer */
		uint32_t pid;
		uint64_t start, len;	/* len 0: none; valid until a non-sample */
		int part;
	} last_part;
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

static int has_ntbr(const struct rvctr_reader *r)
{
	unsigned int i;

	for (i = 0; i < rvctr_reader__nr_attrs(r); i++)
		if (rvctr_brstack__has_ntbr(rvctr_reader__attr(r, i),
					    rvctr_reader__attr_config3(r, i),
					    rvctr_reader__arch(r)))
			return 1;
	return 0;
}

/*
 * The instruction lengths that decide ctr_ntbr's ambiguous records, for
 * a recording that has some, unless the caller keeps every record: its
 * maps from the start.  A pipe's attrs come as records: then kept until
 * its first sample says.
 */
static int open_insn(struct source *s)
{
	struct rvctr_symfind find = { 0 };
	unsigned int i;

	if (s->o.keep_not_taken ||
	    (rvctr_reader__nr_attrs(s->reader) && !has_ntbr(s->reader)))
		return 0;
	if (s->o.find)
		find = *s->o.find;
	if (!find.machine)
		find.machine = rvctr_symtab__arch_machine(rvctr_reader__arch(s->reader));
	s->insn = rvctr_insn__new(&find);
	if (!s->insn)
		return -1;
	for (i = 0; i < rvctr_reader__nr_build_ids(s->reader); i++)
		if (rvctr_insn__build_id(s->insn, rvctr_reader__build_id(s->reader, i)))
			return -1;
	return 0;
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
		if (!open_insn(s))
			return s;
		snprintf(err, errlen, "out of memory");
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
	rvctr_insn__delete(s->insn);
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

/* Maps for the instruction lengths; when full, later ones stay ambiguous. */
static void insn_event(struct source *s, const struct rvctr_event *ev)
{
	if (ev->type == PERF_RECORD_SAMPLE && !s->insn_checked) {
		s->insn_checked = 1;
		if (!has_ntbr(s->reader)) {
			rvctr_insn__delete(s->insn);
			s->insn = NULL;
		}
		return;
	}
	rvctr_insn__event(s->insn, ev);
}

int source__next(struct source *s, struct rvctr_event *ev)
{
	int ret;

	if (s->reader) {
		ret = rvctr_reader__next(s->reader, ev);
		if (ret < 0)
			snprintf(s->err, sizeof(s->err), "%s", rvctr_reader__error(s->reader));
		if (ret > 0 && s->insn)
			insn_event(s, ev);
		if (ret > 0 && ev->type != PERF_RECORD_SAMPLE)
			s->last_part.len = 0;	/* maps may change */
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
 * The length of the instruction at @e's source: 4, not taken (1); 2, a
 * taken compressed branch (0); else RVCTR_BRSTACK_AMBIGUOUS, *@why saying
 * why, and the first reason kept.
 */
static inline uint8_t decide(struct source *s, uint32_t pid, const struct perf_branch_entry *e,
			     const char **why)
{
	unsigned int len = s->insn ? rvctr_insn__length(s->insn, pid, e->from, why) : 0;

	if (len)
		return len == 4;
	if (!s->insn)
		*why = s->o.keep_not_taken ? "instructions not read" : "out of memory";
	if (!s->ambiguous_why[0])
		snprintf(s->ambiguous_why, sizeof(s->ambiguous_why), "%s", *why);
	return RVCTR_BRSTACK_AMBIGUOUS;
}

/* source_scope's part() through the last answer: a stack is mostly in one map. */
static inline int part_of(struct source *s, const struct source_scope *sc, uint32_t pid,
			  uint64_t addr)
{
	if (s->last_part.pid != pid || addr - s->last_part.start >= s->last_part.len) {
		s->last_part.len = 0;
		s->last_part.part = sc->part(sc->ctx, pid, addr, &s->last_part.start,
					     &s->last_part.len);
		s->last_part.pid = pid;
	}
	return s->last_part.part;
}

/* Add the part of @addr, if any, to s->parts: 1 if it has one. */
static inline int add_part(struct source *s, const struct source_scope *sc, uint32_t pid,
			   uint64_t addr)
{
	int part = part_of(s, sc, pid, addr);
	unsigned int i;

	if (part < 0)
		return 0;
	for (i = 0; i < s->nr_parts && s->parts[i] != part; i++)
		;
	if (i == s->nr_parts)
		s->parts[s->nr_parts++] = part;
	return 1;
}

/*
 * The parts of the output records [@i, @j) of @smp can change, into
 * s->parts (see decide_run()); with @any, only whether there is one.
 */
static unsigned int run_parts(struct source *s, const struct rvctr_sample *smp, uint64_t i,
			      uint64_t j, const struct source_scope *sc, int any)
{
	const struct perf_branch_entry *e = smp->branches;
	uint32_t pid = smp->pid;
	uint64_t k;

	s->nr_parts = 0;
	if (i && add_part(s, sc, pid, e[i - 1].from) && any)
		return 1;
	for (k = i; k < j; k++) {
		if (s->pnt[k] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		if ((add_part(s, sc, pid, e[k].from) | add_part(s, sc, pid, e[k].to)) && any)
			return 1;
	}
	if (j < smp->nr_branches)
		add_part(s, sc, pid, e[j].to);
	return s->nr_parts;
}

/*
 * Records [@i, @j) of @smp, none known taken, some COND to 4 bytes on,
 * between taken ones (or a stack's end): whatever they are, the stack
 * outside them is the same.  Their decisions change the parts of the
 * output their own ends and the ends of the taken records around them
 * that face them go to (a range from the older one's target to the
 * newer one's source, split or not): if none, they are not read.
 *
 * An undecided record is told of the parts of the run's two facing ends
 * and of the run's records not decided when its first undecided one was
 * reached (run_parts(), once).  That leaves out records decided before,
 * which is right only because
 * records are decided newest first: those are newer, and each range its
 * own decision changes still has its older end at a record not decided
 * yet or at the older facing end, both in; a range counts in a part only
 * when both its ends lie there.
 */
static void decide_run(struct source *s, const struct rvctr_sample *smp, uint64_t i, uint64_t j,
		       const struct source_scope *sc)
{
	const char *why;
	int have_parts = 0;
	uint64_t k;

	if (!run_parts(s, smp, i, j, sc, 1)) {
		for (k = i; k < j; k++)
			s->pnt[k] = 1;	/* shown nowhere: dropped unread */
		return;
	}
	for (k = i; k < j; k++) {
		if (s->pnt[k] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		s->pnt[k] = decide(s, smp->pid, &smp->branches[k], &why);
		if (s->pnt[k] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		if (!have_parts)
			run_parts(s, smp, i, j, sc, 0);
		have_parts = 1;
		sc->undecided(sc->ctx, s->parts, s->nr_parts, why);
	}
}

/*
 * Decide each COND to 4 bytes on of @smp: those left undecided are told
 * to @sc (if any) with @parts.
 */
static inline void decide_all(struct source *s, const struct rvctr_sample *smp,
			      const struct source_scope *sc, const int *parts, unsigned int nr)
{
	const struct perf_branch_entry *e = smp->branches;
	const char *why;
	uint64_t i;

	for (i = 0; i < smp->nr_branches; i++) {
		s->pnt[i] = rvctr_brstack__not_taken(&e[i]);
		if (s->pnt[i] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		s->pnt[i] = decide(s, smp->pid, &e[i], &why);
		if (s->pnt[i] == RVCTR_BRSTACK_AMBIGUOUS && sc)
			sc->undecided(sc->ctx, parts, nr, why);
	}
}

/* Does every end of @smp's records lie where part_of() answered last? */
static inline int all_in_last_part(const struct source *s, const struct rvctr_sample *smp)
{
	uint64_t start = s->last_part.start, len = s->last_part.len, i;
	const struct perf_branch_entry *e = smp->branches;

	if (s->last_part.pid != smp->pid)
		return 0;
	for (i = 0; i < smp->nr_branches; i++)
		if (e[i].from - start >= len || e[i].to - start >= len)
			return 0;
	return 1;
}

/*
 * perf.data: which of @smp's records are not taken, a COND to 4 bytes on
 * by the instruction at its source: 32 bits, not taken; 16, a taken
 * compressed branch.  With a scope that shows parts, by runs of records
 * not known taken (decide_run()); a stack wholly in one place of the
 * output (nearly all of them) is one part, or none.
 */
static void decide_not_taken(struct source *s, const struct rvctr_sample *smp,
			     const struct source_scope *sc)
{
	static const int all[1] = { 0 };
	const struct perf_branch_entry *e = smp->branches;
	uint64_t i, n = smp->nr_branches, run = 0;
	int some = 0, part;

	if (!sc || !sc->part) {
		decide_all(s, smp, sc, all, 1);
		return;
	}
	if (!n)
		return;
	part = part_of(s, sc, smp->pid, e[0].from);
	if (all_in_last_part(s, smp)) {
		if (part >= 0) {
			decide_all(s, smp, sc, &part, 1);
			return;
		}
		/* shown nowhere: not-taken candidates dropped unread */
		for (i = 0; i < n; i++)
			s->pnt[i] = !!rvctr_brstack__not_taken(&e[i]);
		return;
	}
	for (i = 0; i < n; i++) {
		s->pnt[i] = rvctr_brstack__not_taken(&e[i]);
		if (s->pnt[i]) {
			some |= s->pnt[i] == RVCTR_BRSTACK_AMBIGUOUS;
			continue;
		}
		if (some)
			decide_run(s, smp, run, i, sc);
		some = 0;
		run = i + 1;
	}
	if (some)
		decide_run(s, smp, run, n, sc);
}

uint64_t source__drop_not_taken(struct source *s, struct rvctr_sample *smp,
				struct perf_branch_entry *out, const struct source_scope *scope)
{
	const uint8_t *nt = s->pnt;
	uint64_t n;

	if (!s->reader) {
		if (smp->branches != s->br)
			return 0;
		nt = s->nt;
	} else if (smp->attr >= rvctr_reader__nr_attrs(s->reader) ||
		   !rvctr_brstack__has_ntbr(rvctr_reader__attr(s->reader, smp->attr),
					    rvctr_reader__attr_config3(s->reader, smp->attr),
					    rvctr_reader__arch(s->reader))) {
		return 0;
	} else {
		decide_not_taken(s, smp, scope);
	}
	n = rvctr_brstack__taken_only(smp->branches, smp->nr_branches, nt, out,
				      &s->ambiguous);
	if (n == smp->nr_branches)
		return 0;
	smp->recorded = smp->branches;
	smp->nr_recorded = smp->nr_branches;
	n = smp->nr_branches - n;
	smp->nr_branches -= n;
	smp->branches = out;
	return n;
}

int source__is_snapshot(const struct source *s)
{
	return !s->reader;
}

void source__warn_ambiguous(const struct source *s, const char *path)
{
	if (!s->ambiguous)
		return;
	fprintf(stderr, "rvctr: warning: %s: %llu record%s of ctr_ntbr events %s COND to "
		"4 bytes on and taken as not taken, undecided by their instruction (%s); a taken "
		"compressed branch over one 16-bit instruction looks the same, so some may "
		"have been taken\n", path, (unsigned long long)s->ambiguous,
		s->ambiguous == 1 ? "" : "s", s->ambiguous == 1 ? "was" : "were", s->ambiguous_why);
}
