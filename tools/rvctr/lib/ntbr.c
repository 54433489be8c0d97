// SPDX-License-Identifier: GPL-2.0-only
/* Not-taken records told from taken ones; see rvctr/ntbr.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/brstack.h>
#include <rvctr/insn.h>
#include <rvctr/machine.h>
#include <rvctr/ntbr.h>
#include <rvctr/sink.h>

/*
 * Undecided records, by the part of the output they can change, and all
 * of them: how many, in how many inputs, the input of the first and why
 * it was not decided.
 */
struct undecided {
	uint64_t n;
	unsigned int inputs;
	const char *path, *last;
	char *why;
};

struct rvctr_ntbr {
	struct rvctr_machine *machine;
	struct rvctr_sink *sink;	/* NULL: one part */
	struct rvctr_insn *insn;
	const char *path;		/* the input */
	uint64_t ambiguous;		/* this input's records taken as not taken */
	char ambiguous_why[320];	/* why its first could not be decided */
	uint8_t nt[RVCTR_MAX_BRANCHES];	/* a sample's not-taken flags */
	int parts[2 * RVCTR_MAX_BRANCHES + 2];	/* decide_run(): the output's parts */
	unsigned int nr_parts;
	struct {			/* the sink's last part() answer */
		uint32_t pid;
		uint64_t start, len;	/* len 0: none; valid until the maps change */
		uint64_t generation;	/* rvctr_machine__generation() then */
		int part;
	} last_part;
	struct undecided *und, und_all;
	unsigned int nr_und;
	int oom;
};

struct rvctr_ntbr *rvctr_ntbr__new(struct rvctr_machine *m, struct rvctr_sink *sink)
{
	struct rvctr_ntbr *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->insn = rvctr_insn__new(m);
	if (!n->insn) {
		free(n);
		return NULL;
	}
	n->machine = m;
	n->sink = sink && sink->ops->part ? sink : NULL;
	n->path = "";
	return n;
}

void rvctr_ntbr__delete(struct rvctr_ntbr *n)
{
	if (!n)
		return;
	while (n->nr_und--)
		free(n->und[n->nr_und].why);
	free(n->und);
	free(n->und_all.why);
	rvctr_insn__delete(n->insn);
	free(n);
}

void rvctr_ntbr__input(struct rvctr_ntbr *n, const char *path)
{
	rvctr_insn__input(n->insn);
	n->path = path;
	n->ambiguous = 0;
	n->ambiguous_why[0] = 0;
	n->last_part.len = 0;
}

static void count_undecided(struct rvctr_ntbr *n, struct undecided *u, const char *why)
{
	if (!u->n) {
		u->path = n->path;
		u->why = strdup(why);
		if (!u->why)
			n->oom = 1;
	}
	if (u->last != n->path)
		u->inputs++;
	u->last = n->path;
	u->n++;
}

/* Room for part @part's count: NULL out of memory. */
static struct undecided *undecided_of(struct rvctr_ntbr *n, int part)
{
	unsigned int nr = part + 16;
	struct undecided *u;

	if ((unsigned int)part < n->nr_und)
		return &n->und[part];
	u = realloc(n->und, nr * sizeof(*u));
	if (!u) {
		n->oom = 1;
		return NULL;
	}
	memset(u + n->nr_und, 0, (nr - n->nr_und) * sizeof(*u));
	n->und = u;
	n->nr_und = nr;
	return &u[part];
}

/* A record left undecided that can change @parts of the output. */
static void note_undecided(struct rvctr_ntbr *n, const int *parts, unsigned int nr,
			   const char *why)
{
	struct undecided *u;
	unsigned int i;

	count_undecided(n, &n->und_all, why);
	for (i = 0; i < nr; i++) {
		u = undecided_of(n, parts[i]);
		if (!u)
			return;
		count_undecided(n, u, why);
	}
}

uint64_t rvctr_ntbr__undecided(const struct rvctr_ntbr *n, int part)
{
	return (unsigned int)part < n->nr_und ? n->und[part].n : 0;
}

/*
 * The length of the instruction at @e's source: 4, not taken (1); 2, a
 * taken compressed branch (0); else RVCTR_BRSTACK_AMBIGUOUS, *@why saying
 * why, and the input's first reason kept.
 */
static inline uint8_t decide(struct rvctr_ntbr *n, uint32_t pid,
			     const struct perf_branch_entry *e, const char **why)
{
	unsigned int len = rvctr_insn__length(n->insn, pid, e->from, why);

	if (len)
		return len == 4;
	if (!n->ambiguous_why[0])
		snprintf(n->ambiguous_why, sizeof(n->ambiguous_why), "%s", *why);
	return RVCTR_BRSTACK_AMBIGUOUS;
}

/* The sink's part() through its last answer: a stack is mostly in one map. */
static inline int part_of(struct rvctr_ntbr *n, uint32_t pid, uint64_t addr)
{
	uint64_t gen = rvctr_machine__generation(n->machine);

	if (n->last_part.pid != pid || n->last_part.generation != gen ||
	    addr - n->last_part.start >= n->last_part.len) {
		n->last_part.len = 0;
		n->last_part.part = rvctr_sink__part(n->sink, pid, addr, &n->last_part.start,
						     &n->last_part.len);
		n->last_part.pid = pid;
		n->last_part.generation = gen;
	}
	return n->last_part.part;
}

/* Add the part of @addr, if any, to n->parts: 1 if it has one. */
static inline int add_part(struct rvctr_ntbr *n, uint32_t pid, uint64_t addr)
{
	int part = part_of(n, pid, addr);
	unsigned int i;

	if (part < 0)
		return 0;
	for (i = 0; i < n->nr_parts && n->parts[i] != part; i++)
		;
	if (i == n->nr_parts)
		n->parts[n->nr_parts++] = part;
	return 1;
}

/*
 * The parts of the output records [@i, @j) of @smp can change, into
 * n->parts (see decide_run()); with @any, only whether there is one.
 */
static unsigned int run_parts(struct rvctr_ntbr *n, const struct rvctr_sample *smp, uint64_t i,
			      uint64_t j, int any)
{
	const struct perf_branch_entry *e = smp->branches;
	uint32_t pid = smp->pid;
	uint64_t k;

	n->nr_parts = 0;
	if (i && add_part(n, pid, e[i - 1].from) && any)
		return 1;
	for (k = i; k < j; k++) {
		if (n->nt[k] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		if ((add_part(n, pid, e[k].from) | add_part(n, pid, e[k].to)) && any)
			return 1;
	}
	if (j < smp->nr_branches)
		add_part(n, pid, e[j].to);
	return n->nr_parts;
}

/*
 * Records [@i, @j) of @smp, none known taken, some COND to 4 bytes on,
 * between taken ones (or a stack's end): whatever they are, the stack
 * outside them is the same.  Their decisions change the parts of the
 * output their own ends and the ends of the taken records around them
 * that face them go to (a range from the older one's target to the
 * newer one's source, split or not): if none, they are not read.
 *
 * An undecided record is counted in the parts of the run's two facing
 * ends and of the run's records not decided when its first undecided one
 * was reached (run_parts(), once).  That leaves out records decided
 * before, which is right only because records are decided newest first:
 * those are newer, and each range its own decision changes still has its
 * older end at a record not decided yet or at the older facing end, both
 * in; a range counts in a part only when both its ends lie there.
 */
static void decide_run(struct rvctr_ntbr *n, const struct rvctr_sample *smp, uint64_t i,
		       uint64_t j)
{
	const char *why;
	int have_parts = 0;
	uint64_t k;

	if (!run_parts(n, smp, i, j, 1)) {
		for (k = i; k < j; k++)
			n->nt[k] = 1;	/* shown nowhere: dropped unread */
		return;
	}
	for (k = i; k < j; k++) {
		if (n->nt[k] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		n->nt[k] = decide(n, smp->pid, &smp->branches[k], &why);
		if (n->nt[k] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		if (!have_parts)
			run_parts(n, smp, i, j, 0);
		have_parts = 1;
		note_undecided(n, n->parts, n->nr_parts, why);
	}
}

/* Decide each COND to 4 bytes on of @smp: those left undecided count in @parts. */
static inline void decide_all(struct rvctr_ntbr *n, const struct rvctr_sample *smp,
			      const int *parts, unsigned int nr)
{
	const struct perf_branch_entry *e = smp->branches;
	const char *why;
	uint64_t i;

	for (i = 0; i < smp->nr_branches; i++) {
		n->nt[i] = rvctr_brstack__not_taken(&e[i]);
		if (n->nt[i] != RVCTR_BRSTACK_AMBIGUOUS)
			continue;
		n->nt[i] = decide(n, smp->pid, &e[i], &why);
		if (n->nt[i] == RVCTR_BRSTACK_AMBIGUOUS)
			note_undecided(n, parts, nr, why);
	}
}

/* Does every end of @smp's records lie where part_of() answered last? */
static inline int all_in_last_part(const struct rvctr_ntbr *n, const struct rvctr_sample *smp)
{
	uint64_t start = n->last_part.start, len = n->last_part.len, i;
	const struct perf_branch_entry *e = smp->branches;

	if (n->last_part.pid != smp->pid)
		return 0;
	for (i = 0; i < smp->nr_branches; i++)
		if (e[i].from - start >= len || e[i].to - start >= len)
			return 0;
	return 1;
}

/* A stack wholly in one place of the output: one part, or none. */
static void decide_in_part(struct rvctr_ntbr *n, const struct rvctr_sample *smp, int part)
{
	uint64_t i;

	if (part >= 0) {
		decide_all(n, smp, &part, 1);
		return;
	}
	/* shown nowhere: not-taken candidates dropped unread */
	for (i = 0; i < smp->nr_branches; i++)
		n->nt[i] = !!rvctr_brstack__not_taken(&smp->branches[i]);
}

/*
 * Which of @smp's records are not taken, into n->nt.  With a sink that
 * shows parts, by runs of records not known taken (decide_run()); a
 * stack wholly in one place of the output (nearly all of them) is one
 * part, or none.
 */
static void decide_not_taken(struct rvctr_ntbr *n, const struct rvctr_sample *smp)
{
	static const int all[1] = { 0 };
	const struct perf_branch_entry *e = smp->branches;
	uint64_t i, nr = smp->nr_branches, run = 0;
	int some = 0, part;

	if (!n->sink) {
		decide_all(n, smp, all, 1);
		return;
	}
	if (!nr)
		return;
	part = part_of(n, smp->pid, e[0].from);
	if (all_in_last_part(n, smp)) {
		decide_in_part(n, smp, part);
		return;
	}
	for (i = 0; i < nr; i++) {
		n->nt[i] = rvctr_brstack__not_taken(&e[i]);
		if (n->nt[i]) {
			some |= n->nt[i] == RVCTR_BRSTACK_AMBIGUOUS;
			continue;
		}
		if (some)
			decide_run(n, smp, run, i);
		some = 0;
		run = i + 1;
	}
	if (some)
		decide_run(n, smp, run, nr);
}

uint64_t rvctr_ntbr__drop(struct rvctr_ntbr *n, struct rvctr_sample *smp, const uint8_t *known,
			  struct perf_branch_entry *out)
{
	uint64_t nr;

	if (!known) {
		decide_not_taken(n, smp);
		known = n->nt;
	}
	nr = rvctr_brstack__taken_only(smp->branches, smp->nr_branches, known, out,
				       &n->ambiguous);
	if (nr == smp->nr_branches)
		return 0;
	smp->recorded = smp->branches;
	smp->nr_recorded = smp->nr_branches;
	nr = smp->nr_branches - nr;
	smp->nr_branches -= nr;
	smp->branches = out;
	return nr;
}

void rvctr_ntbr__warn_input(const struct rvctr_ntbr *n)
{
	if (!n->ambiguous)
		return;
	fprintf(stderr, "rvctr: warning: %s: %llu record%s of ctr_ntbr events %s COND to "
		"4 bytes on and taken as not taken, undecided by their instruction (%s); a taken "
		"compressed branch over one 16-bit instruction looks the same, so some may "
		"have been taken\n", n->path, (unsigned long long)n->ambiguous,
		n->ambiguous == 1 ? "" : "s", n->ambiguous == 1 ? "was" : "were", n->ambiguous_why);
}

/* The count of the part @n's sink writes (all: none has anything), or NULL. */
static const struct undecided *written(struct rvctr_ntbr *n, struct rvctr_sink *s,
				       const char **name)
{
	int part = rvctr_sink__output_part(s, name);

	if (part < 0)
		return &n->und_all;
	if ((unsigned int)part < n->nr_und && n->und[part].n)
		return &n->und[part];
	return NULL;
}

static void refuse(const struct undecided *u, const char *format, const char *name, char *err,
		   size_t errlen)
{
	char where[160] = "";

	if (u->inputs > 1)
		snprintf(where, sizeof(where), " (in %u inputs, the first in %s)", u->inputs,
			 u->path);
	snprintf(err, errlen, "%s%sno %s output: %s recorded with not-taken branches "
		 "(ctr_ntbr), and %llu record%s COND to 4 bytes on%s%s%s could not be told from "
		 "a taken compressed branch by their instruction (%s) (--force converts %s "
		 "anyway, taking such records as not taken)",
		 u->inputs > 1 ? "" : u->path, u->inputs > 1 ? "" : ": ", format,
		 u->inputs > 1 ? "they were" : "it was", (unsigned long long)u->n,
		 u->n == 1 ? "" : "s", name ? " in the profile of " : "", name ? name : "",
		 where, u->why, u->inputs > 1 ? "them" : "it");
}

static void warn(const struct undecided *u, const char *name)
{
	char where[160] = "";

	if (u->inputs > 1)
		snprintf(where, sizeof(where), " (in %u inputs, the first in %s)", u->inputs,
			 u->path);
	fprintf(stderr, "rvctr: warning: %s%s%llu record%s of ctr_ntbr events%s%s%s %s COND to 4 "
		"bytes on and taken as not taken, undecided by their instruction (%s); a taken "
		"compressed branch over one 16-bit instruction looks the same, so some may "
		"have been taken\n", u->inputs > 1 ? "" : u->path, u->inputs > 1 ? "" : ": ",
		(unsigned long long)u->n, u->n == 1 ? "" : "s", name ? " in the profile of " : "",
		name ? name : "", where, u->n == 1 ? "was" : "were", u->why);
}

/*
 * Records the output does not show are no reason: autofdo's profile is of
 * one binary, and samples filtered out are not looked at.  When no part
 * has anything to write (autofdo: no binary -b allows has a taken
 * branch), any of them might have made one.  An output that shows every
 * record warns for each input (rvctr_ntbr__warn_input()).
 */
int rvctr_ntbr__check(struct rvctr_ntbr *n, struct rvctr_sink *s, int force, char *err,
		      size_t errlen)
{
	const struct undecided *u;
	const char *name;

	if (n->oom) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!n->und_all.n)
		return 0;
	u = written(n, s, &name);
	if (!u)
		return 0;
	if (s->ops->ranges && !force) {
		refuse(u, s->ops->name, name, err, errlen);
		return -1;
	}
	if (s->ops->part)
		warn(u, name);
	return 0;
}
