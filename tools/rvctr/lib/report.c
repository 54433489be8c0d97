// SPDX-License-Identifier: GPL-2.0-only
/* Branch statistics; see rvctr/report.h. */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/maps.h>
#include <rvctr/perfscript.h>
#include <rvctr/report.h>
#include <rvctr/symtab.h>
#include <rvctr/table.h>

#define NO_DSO		0xffffffffu

struct dso_syms {
	struct rvctr_symtab *tab;	/* NULL when the file could not be used */
	int tried;
	int pie;
};

#define MAX_REPORT_BUILD_IDS	1024

struct rvctr_report {
	char *symfs;
	struct rvctr_maps *maps;
	struct dso_syms *dsos;
	unsigned int nr_dsos;
	struct rvctr_table *edges;
	struct rvctr_table *funcs;	/* key (dso, function address) */
	uint64_t by_type[16];		/* perf_branch_entry.type is 4 bits */
	uint64_t branches, samples, mispred, predicted, with_cycles;
	uint16_t machine;		/* EM_* of HEADER_ARCH, 0 if unknown */
	struct rvctr_build_id *build_ids;
	unsigned int nr_build_ids;
	unsigned int mismatched;	/* files whose symbols were not used */
};

struct rvctr_report *rvctr_report__new(const char *symfs)
{
	struct rvctr_report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->maps = rvctr_maps__new();
	r->edges = rvctr_table__new();
	r->funcs = rvctr_table__new();
	r->symfs = strdup(symfs ? symfs : "");
	if (!r->maps || !r->edges || !r->funcs || !r->symfs) {
		rvctr_report__delete(r);
		return NULL;
	}
	return r;
}

void rvctr_report__delete(struct rvctr_report *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < r->nr_dsos; i++)
		rvctr_symtab__delete(r->dsos[i].tab);
	free(r->dsos);
	free(r->build_ids);
	rvctr_maps__delete(r->maps);
	rvctr_table__delete(r->edges);
	rvctr_table__delete(r->funcs);
	free(r->symfs);
	free(r);
}

int rvctr_report__mmap(struct rvctr_report *r, const struct rvctr_mmap *m)
{
	return rvctr_maps__add(r->maps, m);
}

void rvctr_report__set_arch(struct rvctr_report *r, const char *arch)
{
	static const struct { const char *arch; uint16_t machine; } machines[] = {
		{ "riscv64", EM_RISCV }, { "x86_64", EM_X86_64 }, { "aarch64", EM_AARCH64 },
		{ "arm64", EM_AARCH64 },
	};
	unsigned int i;

	r->machine = 0;
	for (i = 0; arch && i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(arch, machines[i].arch))
			r->machine = machines[i].machine;
}

int rvctr_report__build_id(struct rvctr_report *r, const struct rvctr_build_id *b)
{
	if (r->nr_build_ids >= MAX_REPORT_BUILD_IDS)
		return 0;	/* symbols of the rest are then taken unchecked */
	if (!r->build_ids) {
		r->build_ids = calloc(MAX_REPORT_BUILD_IDS, sizeof(*r->build_ids));
		if (!r->build_ids)
			return -1;
	}
	r->build_ids[r->nr_build_ids++] = *b;
	return 0;
}

/* Is the local file the one that was recorded? */
static int same_file(struct rvctr_report *r, const char *name, const struct rvctr_symtab *t)
{
	uint8_t id[20];
	unsigned int i, n;

	if (r->machine && rvctr_symtab__machine(t) != r->machine)
		return 0;
	for (i = 0; i < r->nr_build_ids; i++) {
		const struct rvctr_build_id *b = &r->build_ids[i];

		if (strcmp(b->filename, name))
			continue;
		n = rvctr_symtab__build_id(t, id);
		return n == b->size && !memcmp(id, b->id, n);
	}
	return 1;
}

static struct dso_syms *dso_syms(struct rvctr_report *r, unsigned int dso)
{
	char path[4096], err[256];

	if (dso >= r->nr_dsos) {
		unsigned int n = rvctr_maps__nr_dsos(r->maps);
		struct dso_syms *d = realloc(r->dsos, n * sizeof(*d));

		if (!d)
			return NULL;
		memset(d + r->nr_dsos, 0, (n - r->nr_dsos) * sizeof(*d));
		r->dsos = d;
		r->nr_dsos = n;
	}
	if (!r->dsos[dso].tried) {
		r->dsos[dso].tried = 1;
		snprintf(path, sizeof(path), "%s%s", r->symfs, rvctr_maps__dso_name(r->maps, dso));
		r->dsos[dso].tab = rvctr_symtab__load(path, err, sizeof(err));
		if (r->dsos[dso].tab &&
		    !same_file(r, rvctr_maps__dso_name(r->maps, dso), r->dsos[dso].tab)) {
			rvctr_symtab__delete(r->dsos[dso].tab);
			r->dsos[dso].tab = NULL;
			r->mismatched++;
		}
		r->dsos[dso].pie = r->dsos[dso].tab && rvctr_symtab__is_pie(r->dsos[dso].tab);
	}
	return &r->dsos[dso];
}

/* Key of the function holding @addr: (dso, ELF address of the symbol). */
static void locate(struct rvctr_report *r, uint32_t pid, uint64_t addr, uint64_t *dso,
		   uint64_t *func)
{
	const struct rvctr_map *map = rvctr_maps__find(r->maps, pid, addr);
	struct dso_syms *d;
	uint64_t off, elf;

	*dso = NO_DSO;
	*func = addr;
	if (!map)
		return;
	*dso = map->dso;
	d = dso_syms(r, map->dso);
	if (!d || !d->tab)
		return;
	elf = rvctr_map__file_addr(map, addr, d->pie);
	*func = rvctr_symtab__lookup(d->tab, elf, &off) ? elf - off : elf;
}

static int add_branch(struct rvctr_report *r, uint32_t pid, const struct perf_branch_entry *b)
{
	struct rvctr_counts *e = rvctr_table__get(r->edges, b->from, b->to), *f;
	uint64_t dso, func;

	if (!e)
		return -1;
	e->count++;
	e->type = b->type;
	e->mispred += b->mispred;
	if (b->cycles) {
		e->cycles += b->cycles;
		e->cycles_n++;
		r->with_cycles++;
	}
	locate(r, pid, b->from, &dso, &func);
	f = rvctr_table__get(r->funcs, dso, func);
	if (!f)
		return -1;
	f->count++;
	f->mispred += b->mispred;
	r->by_type[b->type]++;
	r->mispred += b->mispred;
	r->predicted += b->predicted;
	r->branches++;
	return 0;
}

int rvctr_report__sample(struct rvctr_report *r, const struct rvctr_sample *s)
{
	uint64_t i;

	r->samples++;
	for (i = 0; i < s->nr_branches; i++)
		if (add_branch(r, s->pid, &s->branches[i]))
			return -1;
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void print_types(const struct rvctr_report *r, FILE *out)
{
	unsigned int t;

	fprintf(out, "# %" PRIu64 " branches in %" PRIu64 " samples\n\n", r->branches, r->samples);
	fprintf(out, "# branch types\n%-10s %12s %7s\n", "type", "count", "%");
	for (t = 0; t < 16; t++)
		if (r->by_type[t])
			fprintf(out, "%-10s %12" PRIu64 " %6.2f%%\n", rvctr_perf_branch_type_name(t),
				r->by_type[t], pct(r->by_type[t], r->branches));
	if (r->mispred + r->predicted)
		fprintf(out, "\nmispredict rate: %.2f%% (%" PRIu64 " of %" PRIu64 ")\n",
			pct(r->mispred, r->mispred + r->predicted), r->mispred,
			r->mispred + r->predicted);
	else
		fprintf(out, "\nmispredict rate: not reported by the hardware\n");
}

static void print_edges(const struct rvctr_report *r, FILE *out, unsigned int top)
{
	struct rvctr_counts *c;
	size_t n, i;

	c = rvctr_table__by_count(r->edges, &n);
	if (!c)
		return;
	fprintf(out, "\n# hottest edges\n%-18s %-18s %-8s %10s %7s %7s %10s\n", "from", "to",
		"type", "count", "%", "misp%", "cycles");
	for (i = 0; i < n && i < top; i++) {
		fprintf(out, "%#-18" PRIx64 " %#-18" PRIx64 " %-8s %10" PRIu64 " %6.2f%% %6.2f%% ",
			c[i].a, c[i].b, rvctr_perf_branch_type_name(c[i].type), c[i].count,
			pct(c[i].count, r->branches), pct(c[i].mispred, c[i].count));
		if (c[i].cycles_n)
			fprintf(out, "%10.1f\n", (double)c[i].cycles / c[i].cycles_n);
		else
			fprintf(out, "%10s\n", "-");
	}
	free(c);
}

static void print_funcs(struct rvctr_report *r, FILE *out, unsigned int top)
{
	struct rvctr_counts *c;
	size_t n, i;

	c = rvctr_table__by_count(r->funcs, &n);
	if (!c)
		return;
	fprintf(out, "\n# branches by binary and symbol (source address)\n%10s %7s %7s  %s\n",
		"count", "%", "misp%", "binary: symbol");
	for (i = 0; i < n && i < top; i++) {
		const char *dso = c[i].a == NO_DSO ? "[unknown]" :
				  rvctr_maps__dso_name(r->maps, c[i].a);
		const struct dso_syms *d = c[i].a == NO_DSO ? NULL : dso_syms(r, c[i].a);
		const char *sym = d && d->tab ? rvctr_symtab__lookup(d->tab, c[i].b, NULL) : NULL;

		fprintf(out, "%10" PRIu64 " %6.2f%% %6.2f%%  %s: ", c[i].count,
			pct(c[i].count, r->branches), pct(c[i].mispred, c[i].count), dso);
		if (sym)
			fprintf(out, "%s\n", sym);
		else
			fprintf(out, "%#" PRIx64 "\n", c[i].b);
	}
	if (r->mismatched)
		fprintf(out, "# %u local file(s) differ from the recorded ones (build id or "
			"machine): addresses shown; see --symfs\n", r->mismatched);
	free(c);
}

int rvctr_report__print(struct rvctr_report *r, FILE *out, unsigned int top)
{
	print_types(r, out);
	print_edges(r, out, top);
	print_funcs(r, out, top);
	return ferror(out) ? -1 : 0;
}

uint64_t rvctr_report__nr_branches(const struct rvctr_report *r)
{
	return r->branches;
}
