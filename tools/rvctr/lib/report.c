// SPDX-License-Identifier: GPL-2.0-only
/* Branch statistics; see rvctr/report.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/brstack.h>
#include <rvctr/machine.h>
#include <rvctr/perfscript.h>
#include <rvctr/report.h>
#include <rvctr/symtab.h>
#include <rvctr/table.h>

#define NO_DSO		0xffffffffu
#define KERNEL_DSO	RVCTR_KERNEL_DSO	/* a kernel address outside every map */

struct rvctr_report {
	struct rvctr_machine *machine;	/* maps, binaries and their symbols */
	struct rvctr_table *edges;
	struct rvctr_table *funcs;	/* key (dso, function address) */
	uint64_t by_type[16];		/* perf_branch_entry.type is 4 bits */
	uint64_t branches, samples, mispred, predicted, with_cycles;
	uint64_t not_taken;		/* not-taken records, not counted as branches */
};

struct rvctr_report *rvctr_report__new(struct rvctr_machine *m)
{
	struct rvctr_report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->machine = m;
	r->edges = rvctr_table__new();
	r->funcs = rvctr_table__new();
	if (!r->edges || !r->funcs) {
		rvctr_report__delete(r);
		return NULL;
	}
	return r;
}

void rvctr_report__delete(struct rvctr_report *r)
{
	if (!r)
		return;
	rvctr_table__delete(r->edges);
	rvctr_table__delete(r->funcs);
	free(r);
}

static struct rvctr_maps *maps(const struct rvctr_report *r)
{
	return rvctr_machine__maps(r->machine);
}

/*
 * Where @addr of @pid is: its binary (NO_DSO if none) and its address in
 * the binary's symbols (rvctr_machine__vaddr()), or the address itself
 * when that cannot be done.  Returns the binary's symbols, or NULL.
 */
static const struct rvctr_dso_file *resolve(struct rvctr_report *r, uint32_t pid, uint64_t addr,
					    uint64_t *dso, uint64_t *vaddr)
{
	const struct rvctr_map *map = rvctr_maps__find(maps(r), pid, addr);
	const struct rvctr_dso_file *f;

	*dso = map ? map->dso : (int64_t)addr < 0 ? KERNEL_DSO : NO_DSO;
	*vaddr = addr;
	if (*dso == NO_DSO)
		return NULL;
	f = rvctr_machine__syms(r->machine, *dso);
	if (!f || !f->tab)
		return NULL;
	if (rvctr_machine__vaddr(f, map, addr, vaddr)) {
		*vaddr = addr;
		return NULL;	/* not in the file's loaded bytes (bss, a JIT) */
	}
	return f;
}

#define UNRESOLVED	(1ULL << 32)	/* in a function key: a bare runtime address */

/*
 * Key of the function holding @addr: (dso, ELF address of the symbol), or
 * (dso | UNRESOLVED, runtime address) when there is no symbol for it.
 */
static void locate(struct rvctr_report *r, uint32_t pid, uint64_t addr, uint64_t *dso,
		   uint64_t *func)
{
	const struct rvctr_dso_file *f = resolve(r, pid, addr, dso, func);
	uint64_t off;

	if (f && rvctr_machine__symbol(f, *func, &off)) {
		*func -= off;
	} else {
		*dso |= UNRESOLVED;
		*func = addr;
	}
}

/*
 * An edge's end is where it is in a binary: (binary, file offset), packed
 * as EDGE_IN_DSO | dso << 48 | offset (top nibble 8), so two programs at
 * the same addresses (two non-PIEs of a -a recording) are two edges and
 * one PIE at two bases is one.  The kernel's maps (the same for every
 * process) and addresses in no map are the runtime address: user space is
 * below 2^57 (top nibble 0), the kernel's at the top (0xf); only a
 * non-canonical address could look packed, and then shows as one.
 */
#define EDGE_IN_DSO	0x8000000000000000ULL
#define EDGE_OFF_MASK	((1ULL << 48) - 1)
#define EDGE_MAX_DSO	(1u << 12)

static int edge_in_dso(const struct rvctr_report *r, uint64_t key)
{
	return key >> 60 == EDGE_IN_DSO >> 60 &&
	       (key >> 48 & (EDGE_MAX_DSO - 1)) < rvctr_maps__nr_dsos(maps(r));
}

static uint64_t edge_key(struct rvctr_report *r, uint32_t pid, uint64_t addr)
{
	const struct rvctr_map *map = rvctr_maps__find(maps(r), pid, addr);
	uint64_t off = map ? addr - map->start + map->pgoff : 0;

	if (!map || map->pid == (uint32_t)-1 || rvctr_machine__is_module(r->machine, map->dso) ||
	    off > EDGE_OFF_MASK || map->dso >= EDGE_MAX_DSO ||
	    rvctr_symtab__is_kernel_name(rvctr_maps__dso_name(maps(r), map->dso)))
		return addr;
	return EDGE_IN_DSO | (uint64_t)map->dso << 48 | off;
}

static int add_branch(struct rvctr_report *r, uint32_t pid, const struct perf_branch_entry *b)
{
	struct rvctr_counts *e = rvctr_table__get(r->edges, edge_key(r, pid, b->from),
						  edge_key(r, pid, b->to)), *f;
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

void rvctr_report__not_taken(struct rvctr_report *r, uint64_t n)
{
	r->not_taken += n;
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

	fprintf(out, "# %" PRIu64 " branches in %" PRIu64 " samples\n", r->branches, r->samples);
	if (r->not_taken)
		fprintf(out, "# %" PRIu64 " not-taken branch records (ctr_ntbr), not counted\n",
			r->not_taken);
	fputc('\n', out);
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

/*
 * "sym+0xoff" for an edge's end (edge_key), else "binary+0xoffset" in its
 * binary, else the address.
 */
static const char *sym_off(struct rvctr_report *r, uint64_t key, char *buf, size_t len)
{
	uint64_t dso, vaddr, off;
	const struct rvctr_dso_file *f;
	const char *sym = NULL, *name;

	if (!edge_in_dso(r, key)) {
		/* a kernel address (the kernel's maps are pid -1's), or in no map */
		f = resolve(r, -1, key, &dso, &vaddr);
		sym = f ? rvctr_machine__symbol(f, vaddr, &off) : NULL;
		if (sym)
			snprintf(buf, len, "%s+0x%" PRIx64, sym, off);
		else
			snprintf(buf, len, "%#" PRIx64, key);
		return buf;
	}
	dso = key >> 48 & (EDGE_MAX_DSO - 1);
	key &= EDGE_OFF_MASK;
	f = rvctr_machine__syms(r->machine, dso);
	if (f && f->tab && !rvctr_symtab__offset_to_vaddr(f->tab, key, &vaddr))
		sym = rvctr_machine__symbol(f, vaddr, &off);
	if (sym) {
		snprintf(buf, len, "%s+0x%" PRIx64, sym, off);
	} else {
		name = rvctr_maps__dso_name(maps(r), dso);
		snprintf(buf, len, "%s+%#" PRIx64, strrchr(name, '/') ? strrchr(name, '/') + 1 : name,
			 key);
	}
	return buf;
}

static void print_edges(struct rvctr_report *r, FILE *out, unsigned int top)
{
	struct rvctr_counts *c;
	char from[256], to[256];
	size_t n, i;

	c = rvctr_table__by_count(r->edges, &n);
	if (!c)
		return;
	fprintf(out, "\n# hottest edges\n%-28s %-28s %-8s %10s %7s %7s %10s\n", "from", "to",
		"type", "count", "%", "misp%", "cycles");
	for (i = 0; i < n && i < top; i++) {
		fprintf(out, "%-28s %-28s %-8s %10" PRIu64 " %6.2f%% %6.2f%% ",
			sym_off(r, c[i].a, from, sizeof(from)),
			sym_off(r, c[i].b, to, sizeof(to)),
			rvctr_perf_branch_type_name(c[i].type), c[i].count,
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
		uint64_t key = c[i].a & ~UNRESOLVED;
		const char *dso = key == NO_DSO ? "[unknown]" :
				  key == KERNEL_DSO ? "[kernel.kallsyms]" :
				  rvctr_maps__dso_name(maps(r), key);
		const struct rvctr_dso_file *f = c[i].a & UNRESOLVED ? NULL :
						 rvctr_machine__syms(r->machine, key);
		const char *sym = f ? rvctr_machine__symbol(f, c[i].b, NULL) : NULL;

		fprintf(out, "%10" PRIu64 " %6.2f%% %6.2f%%  %s: ", c[i].count,
			pct(c[i].count, r->branches), pct(c[i].mispred, c[i].count), dso);
		if (sym)
			fprintf(out, "%s\n", sym);
		else
			fprintf(out, "%#" PRIx64 "\n", c[i].b);
	}
	if (rvctr_machine__mismatched(r->machine))
		fprintf(out, "# %u local file(s) differ from the recorded ones (build id or "
			"machine): addresses shown; see --symfs\n",
			rvctr_machine__mismatched(r->machine));
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
