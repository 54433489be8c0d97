// SPDX-License-Identifier: GPL-2.0-only
/*
 * AutoFDO text profile (rvctr/autofdo.h) as a sink: one profile per mapped
 * binary is aggregated while reading; at close the one asked for (or the
 * one with the most branches) is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/autofdo.h>
#include <rvctr/maps.h>
#include <rvctr/sink.h>
#include <rvctr/symtab.h>

#define MAX_AFDO_BUILD_IDS	1024

struct afdo_sink {
	struct rvctr_sink base;
	char *path;
	char *binary;
	struct rvctr_maps *maps;
	struct rvctr_afdo **afdo;	/* per binary, indexed like maps' dsos */
	uint64_t *branches;
	unsigned int nr;
	int maps_full;
	struct rvctr_symfind find;	/* where the binaries are */
	struct rvctr_build_id *ids;	/* what the input recorded */
	unsigned int nr_ids;
};

struct xlate_ctx {
	struct rvctr_maps *maps;
	uint32_t pid;
	unsigned int dso;
};

static void afdo_release(struct afdo_sink *a)
{
	unsigned int i;

	for (i = 0; i < a->nr; i++)
		rvctr_afdo__delete(a->afdo[i]);
	free(a->afdo);
	free(a->branches);
	rvctr_maps__delete(a->maps);
	free(a->path);
	free(a->binary);
	free(a->ids);
}

static void afdo_free(struct afdo_sink *a)
{
	afdo_release(a);
	free(a);
}

static struct rvctr_sink *afdo_open(const struct rvctr_sink_info *info, char *err, size_t errlen)
{
	struct afdo_sink *a = calloc(1, sizeof(*a));

	if (!a || !(a->maps = rvctr_maps__new()) || !(a->path = strdup(info->path)) ||
	    (info->binary && !(a->binary = strdup(info->binary)))) {
		if (a)
			afdo_free(a);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (info->find)
		a->find = *info->find;
	if (!a->find.machine)
		a->find.machine = rvctr_symtab__arch_machine(info->arch);
	return &a->base;
}

/* A build id the input recorded (header, or an MMAP2's): the first wins. */
static int afdo_note_id(struct afdo_sink *a, const char *name, const uint8_t *id, uint8_t size)
{
	unsigned int i;

	if (!size || !name[0] || a->nr_ids >= MAX_AFDO_BUILD_IDS)
		return 0;	/* past the limit, files are used unchecked */
	for (i = 0; i < a->nr_ids; i++)
		if (!strcmp(a->ids[i].filename, name))
			return 0;
	if (!a->ids) {
		a->ids = calloc(MAX_AFDO_BUILD_IDS, sizeof(*a->ids));
		if (!a->ids)
			return -1;
	}
	a->ids[a->nr_ids].size = size > 20 ? 20 : size;
	memcpy(a->ids[a->nr_ids].id, id, a->ids[a->nr_ids].size);
	snprintf(a->ids[a->nr_ids].filename, sizeof(a->ids[0].filename), "%s", name);
	a->nr_ids++;
	return 0;
}

static int afdo_build_id(struct rvctr_sink *s, const struct rvctr_build_id *b)
{
	return afdo_note_id((struct afdo_sink *)s, b->filename, b->id, b->size) ?
	       rvctr_sink__fail(s, "out of memory") : 0;
}

static int afdo_mmap(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct afdo_sink *a = (struct afdo_sink *)s;

	if (afdo_note_id(a, ev->mmap.filename, ev->mmap.build_id, ev->mmap.build_id_size))
		return rvctr_sink__fail(s, "out of memory");
	if (rvctr_maps__add(a->maps, &ev->mmap) && !a->maps_full) {
		/* a limit, not an error: later maps are not attributed */
		a->maps_full = 1;
		fprintf(stderr, "rvctr: warning: too many maps: branches in maps after the "
			"first %u are not profiled\n", 65536);
	}
	return 0;
}

static int xlate(void *ctx, uint64_t addr, uint64_t *out)
{
	struct xlate_ctx *x = ctx;
	const struct rvctr_map *map = rvctr_maps__find(x->maps, x->pid, addr);

	if (!map || map->dso != x->dso)
		return -1;
	*out = addr - map->start + map->pgoff;	/* the file offset */
	return 0;
}

static struct rvctr_afdo *afdo_for(struct afdo_sink *a, unsigned int dso)
{
	if (dso >= a->nr) {
		unsigned int n = rvctr_maps__nr_dsos(a->maps);
		struct rvctr_afdo **p = realloc(a->afdo, n * sizeof(*p));
		uint64_t *b;

		if (!p)
			return NULL;
		a->afdo = p;
		b = realloc(a->branches, n * sizeof(*b));
		if (!b)
			return NULL;
		a->branches = b;
		memset(p + a->nr, 0, (n - a->nr) * sizeof(*p));
		memset(b + a->nr, 0, (n - a->nr) * sizeof(*b));
		a->nr = n;
	}
	if (!a->afdo[dso]) {
		const char *name = rvctr_maps__dso_name(a->maps, dso);
		const struct rvctr_build_id *id = NULL;
		struct rvctr_symtab *t;
		unsigned int i;
		char err[512];
		int mismatch;

		a->afdo[dso] = rvctr_afdo__new();
		if (!a->afdo[dso] || name[0] != '/')
			return a->afdo[dso];
		for (i = 0; i < a->nr_ids && !id; i++)
			if (!strcmp(a->ids[i].filename, name))
				id = &a->ids[i];
		/* the recorded file: build-id cache, --symfs, .build-id dirs */
		t = rvctr_symtab__find(&a->find, name, id ? id->id : NULL, id ? id->size : 0,
				       &mismatch, err, sizeof(err));
		if (t)
			rvctr_afdo__set_symtab(a->afdo[dso], t);
		else
			fprintf(stderr, "rvctr: warning: %s: writing file offsets (right for "
				"ET_EXEC and GNU ld layouts only; see --symfs)\n", err);
	}
	return a->afdo[dso];
}

/* Add the sample to the profile of every binary its branches touch. */
static int afdo_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	struct afdo_sink *a = (struct afdo_sink *)s;
	unsigned int seen[8], nr_seen = 0, j;
	uint64_t i;

	for (i = 0; i < smp->nr_branches && nr_seen < 8; i++) {
		const struct rvctr_map *m = rvctr_maps__find(a->maps, smp->pid, smp->branches[i].to);
		struct xlate_ctx x = { a->maps, smp->pid, 0 };
		struct rvctr_afdo *p;

		if (!m)
			continue;
		for (j = 0; j < nr_seen && seen[j] != m->dso; j++)
			;
		if (j < nr_seen)
			continue;
		seen[nr_seen++] = m->dso;
		x.dso = m->dso;
		p = afdo_for(a, m->dso);
		if (!p || rvctr_afdo__add(p, smp->ip, smp->branches, smp->nr_branches, xlate, &x))
			return rvctr_sink__fail(s, "out of memory");
		a->branches[m->dso] += smp->nr_branches;
	}
	return 0;
}

static int name_matches(const char *dso, const char *want)
{
	const char *base = strrchr(dso, '/');

	return !strcmp(dso, want) || (base && !strcmp(base + 1, want)) ||
	       (strrchr(want, '/') && !strcmp(base ? base + 1 : dso, strrchr(want, '/') + 1));
}

static int pick_binary(const struct afdo_sink *a)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < a->nr; i++) {
		if (!a->afdo[i])
			continue;
		if (a->binary) {
			if (name_matches(rvctr_maps__dso_name(a->maps, i), a->binary))
				return i;
		} else if (best < 0 || a->branches[i] > a->branches[best]) {
			best = i;
		}
	}
	return best;
}

static int afdo_close(struct rvctr_sink *s)
{
	struct afdo_sink *a = (struct afdo_sink *)s;
	int dso = pick_binary(a), ret = -1, to_stdout = !strcmp(a->path, "-");
	FILE *f;

	if (dso < 0) {
		rvctr_sink__fail(s, "no branches fall in %s%s",
				 a->binary ? "binary " : "any mapped binary",
				 a->binary ? a->binary : " (is the input missing MMAP records?)");
		goto out;
	}
	f = to_stdout ? stdout : fopen(a->path, "w");
	if (!f) {
		rvctr_sink__fail(s, "%s: %s", a->path, strerror(errno));
		goto out;
	}
	ret = rvctr_afdo__write(a->afdo[dso], f);
	if ((to_stdout ? fflush(f) : fclose(f)) || ret) {
		ret = rvctr_sink__fail(s, "%s: write error", a->path);
		goto out;
	}
	fprintf(stderr, "rvctr: autofdo profile of %s: %llu ranges, %llu branches\n",
		rvctr_maps__dso_name(a->maps, dso),
		(unsigned long long)rvctr_afdo__nr_ranges(a->afdo[dso]),
		(unsigned long long)rvctr_afdo__nr_branches(a->afdo[dso]));
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
	.build_id = afdo_build_id,
	.mmap = afdo_mmap,
	.sample = afdo_sample,
	.close = afdo_close,
	.abort = afdo_abort,
};
