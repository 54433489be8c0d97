// SPDX-License-Identifier: GPL-2.0-only
/*
 * AutoFDO text profile (rvctr/autofdo.h) as a sink: one profile per mapped
 * binary is aggregated while reading; at close the one asked for (or the
 * one with the most branches) is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rvctr/autofdo.h>
#include <rvctr/machine.h>
#include <rvctr/output.h>
#include <rvctr/sink.h>
#include <rvctr/symtab.h>

#define UNWANTED_UNKNOWN	2

struct afdo_sink {
	struct rvctr_sink base;
	char *path;
	int fd;				/* path's, when it is a temporary file; else -1 */
	char *binary;
	struct rvctr_machine *machine;	/* the maps, binaries and their symbols */
	struct rvctr_afdo **afdo;	/* per binary, indexed like maps' dsos */
	unsigned char *unwanted;	/* per binary: not the one -b names, or
					 * UNWANTED_UNKNOWN (not asked yet) */
	uint64_t *branches;		/* per binary: taken branches of its samples */
	uint64_t *records;		/* per binary: records of its samples, as
					 * recorded (the busiest has most) */
	unsigned int nr;
	int unsymbolized;		/* -f profgen: no address counts */
	unsigned int window;		/* rvctr_afdo__set_window() */
	/* the map place() found last, while the maps stay the same */
	struct hit {
		int valid;
		uint32_t pid;
		uint64_t start, len, pgoff;
		unsigned int dso;
		uint64_t generation;	/* rvctr_machine__generation() */
	} hit;
	/* one sample's entries, placed */
	struct rvctr_afdo_entry offs[RVCTR_MAX_BRANCHES];
	unsigned int from_dso[RVCTR_MAX_BRANCHES], to_dso[RVCTR_MAX_BRANCHES];
	unsigned char from_in[RVCTR_MAX_BRANCHES], to_in[RVCTR_MAX_BRANCHES];
	unsigned int seen[RVCTR_MAX_BRANCHES];	/* the binaries its records go to */
};


static void afdo_release(struct afdo_sink *a)
{
	unsigned int i;

	for (i = 0; i < a->nr; i++)
		rvctr_afdo__delete(a->afdo[i]);
	free(a->afdo);
	free(a->unwanted);
	free(a->branches);
	free(a->records);
	free(a->path);
	free(a->binary);
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

static void afdo_free(struct afdo_sink *a)
{
	afdo_release(a);
	free(a);
}

static struct rvctr_sink *afdo_open(const struct rvctr_sink_info *info, char *err, size_t errlen)
{
	struct afdo_sink *a = calloc(1, sizeof(*a));
	int fd = info->out ? rvctr_output__fd(info->out) : -1;

	if (!info->machine) {
		/* where records are, and the binaries' files, are the machine's */
		snprintf(err, errlen, "autofdo: no machine (rvctr_sink_info.machine)");
		free(a);
		return NULL;
	}
	if (a)
		a->fd = -1;
	if (!a || !(a->path = strdup(info->path)) ||
	    (info->binary && !(a->binary = strdup(info->binary)))) {
		if (a)
			afdo_free(a);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* the profile is written at close: through the file's descriptor, if it has one */
	if (fd >= 0 && (a->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		snprintf(err, errlen, "%s: %s", a->path, strerror(errno));
		afdo_free(a);
		return NULL;
	}
	a->machine = info->machine;
	a->window = info->window;
	return &a->base;
}

static const char *dso_name(const struct afdo_sink *a, unsigned int dso)
{
	return rvctr_maps__dso_name(rvctr_machine__maps(a->machine), dso);
}

/*
 * Is binary @dso the one -b names (@want)?  By path, or by name; and
 * "[kernel.kallsyms]" is the kernel, whose map perf names after the
 * symbol it starts at ("[kernel.kallsyms]_text").
 */
static int name_matches(const char *dso, const char *want)
{
	const char *base = strrchr(dso, '/');

	if (!strcmp(want, "[kernel.kallsyms]") && rvctr_symtab__is_kernel_name(dso))
		return 1;
	return !strcmp(dso, want) || (base && !strcmp(base + 1, want)) ||
	       (strrchr(want, '/') && !strcmp(base ? base + 1 : dso, strrchr(want, '/') + 1));
}

/* Room for binary @dso in the per-binary arrays: 0, or -1 out of memory. */
static int grow(struct afdo_sink *a, unsigned int dso)
{
	unsigned int n;
	struct rvctr_afdo **f;
	unsigned char *u;
	uint64_t *b, *r;

	if (dso < a->nr)
		return 0;
	n = rvctr_maps__nr_dsos(rvctr_machine__maps(a->machine));
	f = realloc(a->afdo, n * sizeof(*f));
	if (!f)
		return -1;
	a->afdo = f;
	b = realloc(a->branches, n * sizeof(*b));
	if (!b)
		return -1;
	a->branches = b;
	r = realloc(a->records, n * sizeof(*r));
	if (!r)
		return -1;
	a->records = r;
	u = realloc(a->unwanted, n);
	if (!u)
		return -1;
	a->unwanted = u;
	memset(f + a->nr, 0, (n - a->nr) * sizeof(*f));
	memset(b + a->nr, 0, (n - a->nr) * sizeof(*b));
	memset(r + a->nr, 0, (n - a->nr) * sizeof(*r));
	memset(u + a->nr, UNWANTED_UNKNOWN, n - a->nr);
	a->nr = n;
	return 0;
}

/* Is binary @dso (grown) one -b names?  Asked once a binary. */
static int wanted(struct afdo_sink *a, unsigned int dso)
{
	if (a->unwanted[dso] == UNWANTED_UNKNOWN)
		a->unwanted[dso] = a->binary &&
				   !name_matches(dso_name(a, dso), a->binary);
	return !a->unwanted[dso];
}

/*
 * The recorded file of binary @dso (the machine's: build-id cache,
 * --symfs, .build-id dirs) gives its profile ELF addresses; a module's
 * .ko is relocatable, no such file.  -1 out of memory.
 */
static int use_file(struct afdo_sink *a, unsigned int dso)
{
	const struct rvctr_dso_file *f = NULL;

	if (!rvctr_machine__is_module(a->machine, dso)) {
		f = rvctr_machine__syms(a->machine, dso);
		if (!f)
			return -1;
	}
	if (f && f->tab)
		rvctr_afdo__set_symtab(a->afdo[dso], f->tab);
	else
		fprintf(stderr, "rvctr: warning: %s: writing file offsets (right for "
			"ET_EXEC and GNU ld layouts only; see --symfs)\n",
			f ? f->why : "a kernel module's .ko");
	return 0;
}

/*
 * The profile of binary @dso into *@p: -1 when out of memory; *@p NULL
 * when -b names another binary (only the one named is written, so the
 * others are not even counted).
 */
static int afdo_for(struct afdo_sink *a, unsigned int dso, struct rvctr_afdo **p)
{
	*p = NULL;
	if (grow(a, dso))
		return -1;
	if (!wanted(a, dso))
		return 0;
	if (!a->afdo[dso]) {
		a->afdo[dso] = rvctr_afdo__new();
		if (!a->afdo[dso] || (dso_name(a, dso)[0] == '/' && use_file(a, dso)) ||
		    rvctr_afdo__set_window(a->afdo[dso], a->window))
			return -1;
	}
	*p = a->afdo[dso];
	return 0;
}

/* Count @nr records towards binary @dso's being the busiest: -1 out of memory. */
static int count(struct afdo_sink *a, unsigned int dso, uint64_t nr)
{
	if (grow(a, dso))
		return -1;
	if (wanted(a, dso))
		a->records[dso] += nr;
	return 0;
}

/*
 * Where @addr of @pid is: its binary and file offset, through a one-map
 * cache (a stack's addresses mostly fall in one map), else -1.
 */
static int place(struct afdo_sink *a, uint32_t pid, uint64_t addr, unsigned int *dso,
		 uint64_t *off)
{
	uint64_t gen = rvctr_machine__generation(a->machine);
	const struct rvctr_map *m;

	if (!a->hit.valid || a->hit.pid != pid || a->hit.generation != gen ||
	    addr - a->hit.start >= a->hit.len) {
		m = rvctr_maps__find(rvctr_machine__maps(a->machine), pid, addr);
		if (!m)
			return -1;
		a->hit = (struct hit){ 1, pid, m->start, m->len, m->pgoff, m->dso, gen };
	}
	*dso = a->hit.dso;
	*off = addr - a->hit.start + a->hit.pgoff;
	return 0;
}

/* Does every end of the stack lie in the map place() found last? */
static int all_in_hit(const struct afdo_sink *a, uint32_t pid, const struct perf_branch_entry *b,
		      uint64_t n)
{
	uint64_t start = a->hit.start, len = a->hit.len, i;
	int in = a->hit.valid && a->hit.pid == pid &&
		 a->hit.generation == rvctr_machine__generation(a->machine);

	for (i = 0; i < n && in; i++)
		in = b[i].from - start < len && b[i].to - start < len;
	return in;
}

/* Add @dso to the @nr binaries seen, if not there: how many there are. */
static inline unsigned int add_seen(struct afdo_sink *a, unsigned int nr, unsigned int dso)
{
	unsigned int j;

	for (j = 0; j < nr && a->seen[j] != dso; j++)
		;
	if (j == nr)
		a->seen[nr++] = dso;
	return nr;
}

/*
 * Add the sample to the profile of every binary its branches go to: each
 * address is placed once, then each binary takes the entries that fall
 * in it.  A stack wholly in one map (nearly all of them) is added in one
 * go, its offsets made on the way.
 *
 * Each binary its records go to as recorded (not-taken ones too, see
 * rvctr_sample.recorded) counts them towards the busiest: a measure that
 * does not depend on which records were told taken, nor on how many
 * binaries a stack goes through.
 */
static int afdo_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	struct afdo_sink *a = (struct afdo_sink *)s;
	const struct perf_branch_entry *rec = smp->recorded ? smp->recorded : smp->branches;
	uint64_t nr_rec = smp->recorded ? smp->nr_recorded : smp->nr_branches;
	uint64_t i, k, n = smp->nr_branches < RVCTR_MAX_BRANCHES ? smp->nr_branches :
								 RVCTR_MAX_BRANCHES;
	uint64_t n_rec = nr_rec < RVCTR_MAX_BRANCHES ? nr_rec : RVCTR_MAX_BRANCHES;
	unsigned int nr_seen = 0, j, ip_dso = 0, dso;
	uint64_t ip_off = 0, off;
	int ip_in = !place(a, smp->pid, smp->ip, &ip_dso, &ip_off), some;
	int all = rec == smp->branches;	/* none was taken out */
	struct rvctr_afdo *p;

	if (n_rec && all_in_hit(a, smp->pid, rec, n_rec)) {
		dso = a->hit.dso;
		if (count(a, dso, nr_rec) || (n && afdo_for(a, dso, &p)) ||
		    (n && p && rvctr_afdo__add_biased(p, ip_in && ip_dso == dso, ip_off,
						      smp->branches, n, a->hit.pgoff - a->hit.start)))
			return rvctr_sink__fail(s, "out of memory");
		if (n && p)
			a->branches[dso] += smp->nr_branches;
		return 0;
	}

	for (i = 0; i < n; i++) {
		const struct perf_branch_entry *b = &smp->branches[i];

		a->from_in[i] = !place(a, smp->pid, b->from, &a->from_dso[i], &a->offs[i].from);
		a->to_in[i] = !place(a, smp->pid, b->to, &a->to_dso[i], &a->offs[i].to);
		if (all && a->to_in[i])
			nr_seen = add_seen(a, nr_seen, a->to_dso[i]);
	}
	/* records taken out: the kept ones, in order among them, are placed */
	for (i = 0, k = 0; !all && i < n_rec; i++) {
		if (k < n && rec[i].to == smp->branches[k].to &&
		    rec[i].from == smp->branches[k].from) {
			if (a->to_in[k])
				nr_seen = add_seen(a, nr_seen, a->to_dso[k]);
			k++;
		} else if (!place(a, smp->pid, rec[i].to, &dso, &off)) {
			nr_seen = add_seen(a, nr_seen, dso);
		}
	}
	for (j = 0; j < nr_seen; j++) {
		dso = a->seen[j];
		if (count(a, dso, nr_rec))
			return rvctr_sink__fail(s, "out of memory");
		if (!wanted(a, dso))
			continue;
		for (i = 0, some = 0; i < n; i++) {
			a->offs[i].from_ok = a->from_in[i] && a->from_dso[i] == dso;
			a->offs[i].to_ok = a->to_in[i] && a->to_dso[i] == dso;
			some |= a->offs[i].to_ok;
		}
		if (!some)
			continue;	/* only not-taken records go there */
		if (afdo_for(a, dso, &p))
			return rvctr_sink__fail(s, "out of memory");
		if (rvctr_afdo__add_entries(p, ip_in && ip_dso == dso, ip_off, smp->branches,
					    a->offs, n))
			return rvctr_sink__fail(s, "out of memory");
		a->branches[dso] += smp->nr_branches;
	}
	return 0;
}

/*
 * The binary a record's end at @addr goes to: the profile of the binary
 * mapped there, when -b names it (any binary without -b: the busiest is
 * only known at close).
 */
static int afdo_part(struct rvctr_sink *s, uint32_t pid, uint64_t addr, uint64_t *start,
		     uint64_t *len)
{
	struct afdo_sink *a = (struct afdo_sink *)s;
	unsigned int dso;
	uint64_t off;

	*len = 0;
	if (place(a, pid, addr, &dso, &off))
		return -1;
	*start = a->hit.start;	/* the map */
	*len = a->hit.len;
	if (!a->binary)
		return dso;
	/* out of memory: the binary may be the one written */
	return grow(a, dso) || wanted(a, dso) ? (int)dso : -1;
}

static int pick_binary(const struct afdo_sink *a)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < a->nr; i++) {
		if (!a->records[i])
			continue;
		if (a->binary && !name_matches(dso_name(a, i), a->binary))
			continue;
		if (best < 0 || a->records[i] > a->records[best])
			best = i;	/* of -b's builds too: the busiest */
	}
	return best;
}

static void id_text(const struct afdo_sink *a, unsigned int dso, char *buf, size_t len)
{
	unsigned int size, i;
	const uint8_t *id = rvctr_maps__dso_build_id(rvctr_machine__maps(a->machine), dso, &size);

	snprintf(buf, len, "%s", id ? "" : "unknown");
	for (i = 0; id && i < size && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, len - 2 * i, "%02x", id[i]);
}

/*
 * The profile is of one build of @dso's path: other builds (other build
 * ids) had other code at those offsets, so their branches are not added
 * to it; say so when they had any.
 */
static void warn_other_builds(const struct afdo_sink *a, unsigned int dso)
{
	const char *name = dso_name(a, dso);
	char mine[48], other[48];
	unsigned int i;

	for (i = 0; i < a->nr; i++) {
		if (i == dso || !a->afdo[i] || !a->branches[i] ||
		    strcmp(dso_name(a, i), name))
			continue;
		id_text(a, dso, mine, sizeof(mine));
		id_text(a, i, other, sizeof(other));
		fprintf(stderr, "rvctr: warning: %s: the profile is of build id %s; %llu branches in "
			"another build of it (build id %s) are left out\n", name, mine,
			(unsigned long long)a->branches[i], other);
	}
}

static int afdo_output_part(struct rvctr_sink *s, const char **name)
{
	struct afdo_sink *a = (struct afdo_sink *)s;
	int dso = pick_binary(a);

	*name = dso < 0 ? NULL : dso_name(a, dso);
	return dso;
}

static int afdo_close(struct rvctr_sink *s)
{
	struct afdo_sink *a = (struct afdo_sink *)s;
	int dso = pick_binary(a), ret = -1, to_stdout = !strcmp(a->path, "-");
	struct rvctr_afdo *p;
	FILE *f;

	if (dso < 0) {
		rvctr_sink__fail(s, "no branches fall in %s%s",
				 a->binary ? "binary " : "any mapped binary",
				 a->binary ? a->binary : " (is the input missing MMAP records?)");
		goto out;
	}
	/* a profile is made at a binary's first taken branch: it may have none */
	if (!a->afdo[dso] && afdo_for(a, dso, &p)) {
		rvctr_sink__fail(s, "out of memory");
		goto out;
	}
	f = to_stdout ? stdout : a->fd >= 0 ? fdopen(a->fd, "w") : fopen(a->path, "w");
	if (f && a->fd >= 0)
		a->fd = -1;	/* fclose() closes it */
	if (!f) {
		rvctr_sink__fail(s, "%s: %s", a->path, strerror(errno));
		goto out;
	}
	warn_other_builds(a, dso);
	errno = 0;
	ret = a->unsymbolized ? rvctr_afdo__write_unsymbolized(a->afdo[dso], f) :
				rvctr_afdo__write(a->afdo[dso], f);
	if ((to_stdout ? fflush(f) : fclose(f)) || ret) {
		ret = rvctr_sink__fail(s, "%s: write error: %s", a->path,
				       errno ? strerror(errno) : "short write");
		goto out;
	}
	fprintf(stderr, "rvctr: %s profile of %s: %llu ranges, %llu branches\n",
		a->unsymbolized ? "unsymbolized" : "autofdo", dso_name(a, dso),
		(unsigned long long)rvctr_afdo__nr_ranges(a->afdo[dso]),
		(unsigned long long)rvctr_afdo__nr_branches(a->afdo[dso]));
	if (a->window) {
		uint64_t n, short_stacks;

		rvctr_afdo__window_stats(a->afdo[dso], &n, &short_stacks);
		fprintf(stderr, "rvctr: window of %u instructions: %llu of %llu samples' "
			"stacks reach back less\n", a->window, (unsigned long long)short_stacks,
			(unsigned long long)n);
	}
out:
	afdo_release(a);
	return ret;
}

static void afdo_abort(struct rvctr_sink *s)
{
	afdo_free((struct afdo_sink *)s);
}

const struct rvctr_sink_ops rvctr_sink_autofdo = {
	.name = "autofdo",
	.help = "AutoFDO text profile for create_llvm_prof / create_gcov\n"
		"--profiler text (one binary)",
	.ranges = 1,
	.open = afdo_open,
	.sample = afdo_sample,
	.part = afdo_part,
	.output_part = afdo_output_part,
	.close = afdo_close,
	.abort = afdo_abort,
};

/*
 * -f profgen: the same profile as llvm-profgen's unsymbolized input.  A
 * few KB instead of perf-script text 10-20 times the recording's size:
 * the fast way from a recording to an LLVM sample profile
 * (Documentation/profile-bench.rst, "Converter speed").
 */
static struct rvctr_sink *profgen_open(const struct rvctr_sink_info *info, char *err,
				       size_t errlen)
{
	struct rvctr_sink *s = afdo_open(info, err, errlen);

	if (s)
		((struct afdo_sink *)s)->unsymbolized = 1;
	return s;
}

const struct rvctr_sink_ops rvctr_sink_profgen = {
	.name = "profgen",
	.help = "llvm-profgen --unsymbolized-profile input (one binary)",
	.ranges = 1,
	.open = profgen_open,
	.sample = afdo_sample,
	.part = afdo_part,
	.output_part = afdo_output_part,
	.close = afdo_close,
	.abort = afdo_abort,
};
