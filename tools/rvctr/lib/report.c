// SPDX-License-Identifier: GPL-2.0-only
/* Branch statistics; see rvctr/report.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/brstack.h>
#include <rvctr/maps.h>
#include <rvctr/perfscript.h>
#include <rvctr/report.h>
#include <rvctr/symtab.h>
#include <rvctr/table.h>

#define NO_DSO		0xffffffffu
#define KERNEL_DSO	0xfffffffeu	/* a kernel address outside every map */

struct dso_syms {
	struct rvctr_symtab *tab;	/* NULL when the file could not be used */
	int tried;
	int kernel;
	int module;			/* a kernel module: tab is the shared kallsyms */
	uint64_t kaslr;			/* vmlinux: runtime - link address */
	int by_module;			/* kallsyms: only the symbols of module mod */
	char mod[64];
};

struct rvctr_report {
	char *symfs;
	struct rvctr_symfind find;
	struct rvctr_maps *maps;
	struct dso_syms *dsos;
	unsigned int nr_dsos;
	struct dso_syms kernel;		/* for KERNEL_DSO */
	struct dso_syms modules;	/* kallsyms, for every module map */
	struct rvctr_table *edges;
	struct rvctr_table *funcs;	/* key (dso, function address) */
	uint64_t by_type[16];		/* perf_branch_entry.type is 4 bits */
	uint64_t branches, samples, mispred, predicted, with_cycles;
	uint64_t not_taken;		/* not-taken records, not counted as branches */
	uint16_t machine;		/* EM_* of HEADER_ARCH, 0 if unknown */
	uint64_t kernel_text;		/* runtime address of kernel_ref, from its MMAP */
	char kernel_ref[64];		/* perf's ref_reloc_sym: _text, or _stext */
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
	r->find.symfs = r->symfs;
	return r;
}

void rvctr_report__set_lookup(struct rvctr_report *r, const char *buildid_dir,
			      const char *kallsyms, const char *vmlinux)
{
	r->find.buildid_dir = buildid_dir;
	r->find.kallsyms = kallsyms;
	r->find.vmlinux = vmlinux;
}

void rvctr_report__delete(struct rvctr_report *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < r->nr_dsos; i++)
		if (!r->dsos[i].module)
			rvctr_symtab__delete(r->dsos[i].tab);
	rvctr_symtab__delete(r->kernel.tab);
	rvctr_symtab__delete(r->modules.tab);
	free(r->dsos);
	rvctr_maps__delete(r->maps);
	rvctr_table__delete(r->edges);
	rvctr_table__delete(r->funcs);
	free(r->symfs);
	free(r);
}

static struct dso_syms *dso_slot(struct rvctr_report *r, unsigned int dso)
{
	if (dso >= r->nr_dsos) {
		unsigned int n = rvctr_maps__nr_dsos(r->maps);
		struct dso_syms *d = realloc(r->dsos, n * sizeof(*d));

		if (!d)
			return NULL;
		memset(d + r->nr_dsos, 0, (n - r->nr_dsos) * sizeof(*d));
		r->dsos = d;
		r->nr_dsos = n;
	}
	return &r->dsos[dso];
}

/*
 * The kernel's map is "[kernel.kallsyms]" + the name of perf's reference
 * symbol (ref_reloc_sym: _text, else _stext), with pgoff = that symbol's
 * runtime address: with a vmlinux's link address it gives the KASLR
 * offset.  Other kernel maps (pid -1, or kernel cpumode) are modules, as
 * perf synthesizes them from /proc/modules: "[name]" or the .ko's path.
 */
int rvctr_report__mmap(struct rvctr_report *r, const struct rvctr_mmap *m)
{
	uint16_t mode = m->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct rvctr_map *map;
	struct dso_syms *d;
	int ret;

	if (rvctr_symtab__is_kernel_name(m->filename)) {
		/* a reference symbol's name too long to keep: no relocation by it */
		if (m->pgoff)
			r->kernel_text = (size_t)snprintf(r->kernel_ref, sizeof(r->kernel_ref), "%s",
							  m->filename[17] ? m->filename + 17 :
							  "_text") < sizeof(r->kernel_ref) ?
					 m->pgoff : 0;
		return rvctr_maps__add(r->maps, m);
	}
	ret = rvctr_maps__add(r->maps, m);
	if (ret < 0)
		return -1;	/* not kept */
	if (m->pid != (uint32_t)-1 && mode != PERF_RECORD_MISC_KERNEL &&
	    mode != PERF_RECORD_MISC_GUEST_KERNEL)
		return ret;
	map = rvctr_maps__find(r->maps, m->pid, m->start);
	d = map ? dso_slot(r, map->dso) : NULL;
	if (!d)
		return -1;
	d->module = 1;
	return ret;
}

void rvctr_report__set_arch(struct rvctr_report *r, const char *arch)
{
	r->machine = rvctr_symtab__arch_machine(arch);
	r->find.machine = r->machine;
}

int rvctr_report__task(struct rvctr_report *r, const struct rvctr_event *ev)
{
	return rvctr_maps__event(r->maps, ev);
}

void rvctr_report__input(struct rvctr_report *r)
{
	rvctr_maps__reset(r->maps);
}

/*
 * The build ids are the maps' (rvctr/maps.h), as autofdo's: a map's MMAP2
 * one, else the header's for its name.
 */
int rvctr_report__build_id(struct rvctr_report *r, const struct rvctr_build_id *b)
{
	return rvctr_maps__header_build_id(r->maps, b);
}

/*
 * The kernel's name of the module mapped as @map: "[name]", or its file
 * (.../name.ko, .ko.gz, .ko.xz, .ko.zst).
 */
static void module_name(const char *map, char *buf, size_t len)
{
	const char *b = strrchr(map, '/') ? strrchr(map, '/') + 1 : map;
	size_t n = strlen(b);

	if (*b == '[' && n > 1 && b[n - 1] == ']') {
		b++;
		n -= 2;
	} else if (strstr(b, ".ko")) {
		n = strstr(b, ".ko") - b;
	}
	snprintf(buf, len, "%.*s", (int)n, b);
}

/* The function holding @vaddr in @d's symbols @t: a module's own only. */
static const char *lookup(const struct dso_syms *d, const struct rvctr_symtab *t, uint64_t vaddr,
			  uint64_t *off)
{
	return rvctr_symtab__lookup_module(t, vaddr, d && d->by_module ? d->mod : NULL, off);
}

/*
 * Find and load the file of binary @dso (see rvctr_symtab__find for the
 * order), KERNEL_DSO for kernel addresses outside every map.
 */
static void load_dso(struct rvctr_report *r, struct dso_syms *d, unsigned int dso)
{
	const char *name = dso == KERNEL_DSO ? "[kernel.kallsyms]" :
			   rvctr_maps__dso_name(r->maps, dso);
	const struct rvctr_build_id *b;
	const uint8_t *id = NULL;
	unsigned int id_size = 0;
	int mismatch;
	char err[512];

	d->tried = 1;
	if (d->module) {
		/* every module's symbols are in the one kallsyms */
		if (!r->modules.tried) {
			b = rvctr_maps__find_header_build_id(r->maps, "[kernel.kallsyms]");
			r->modules.tried = 1;
			r->modules.tab = rvctr_symtab__find_kallsyms(&r->find, b ? b->id : NULL,
								     b ? b->size : 0, err,
								     sizeof(err));
		}
		d->tab = r->modules.tab;
		module_name(name, d->mod, sizeof(d->mod));
		d->by_module = 1;
		return;
	}
	d->kernel = rvctr_symtab__is_kernel_name(name);
	if (dso != KERNEL_DSO) {
		id = rvctr_maps__dso_build_id(r->maps, dso, &id_size);
	} else if ((b = rvctr_maps__find_header_build_id(r->maps, name))) {
		id = b->id;
		id_size = b->size;
	}
	d->tab = rvctr_symtab__find(&r->find, name, id, id_size, &mismatch, err, sizeof(err));
	r->mismatched += mismatch;
	if (d->tab && d->kernel && !rvctr_symtab__is_kallsyms(d->tab) && r->kernel_text) {
		/* a vmlinux holds link addresses: relocate by the map's symbol */
		uint64_t ref;

		if (!rvctr_symtab__any_symbol(d->tab, r->kernel_ref, &ref))
			d->kaslr = r->kernel_text - ref;
	}
}

static struct dso_syms *dso_syms(struct rvctr_report *r, unsigned int dso)
{
	if (dso == KERNEL_DSO) {
		if (!r->kernel.tried)
			load_dso(r, &r->kernel, KERNEL_DSO);
		return &r->kernel;
	}
	if (!dso_slot(r, dso))
		return NULL;
	if (!r->dsos[dso].tried)
		load_dso(r, &r->dsos[dso], dso);
	return &r->dsos[dso];
}

/*
 * Where @addr of @pid is: its binary (NO_DSO if none) and its ELF virtual
 * address there (runtime address -> map -> file offset -> PT_LOAD holding
 * it -> p_vaddr), or the address itself when that cannot be done.
 * Returns the binary's symbols, or NULL.
 */
static const struct rvctr_symtab *resolve(struct rvctr_report *r, uint32_t pid, uint64_t addr,
					  uint64_t *dso, uint64_t *vaddr)
{
	const struct rvctr_map *map = rvctr_maps__find(r->maps, pid, addr);
	struct dso_syms *d;

	*dso = map ? map->dso : (int64_t)addr < 0 ? KERNEL_DSO : NO_DSO;
	*vaddr = addr;
	if (*dso == NO_DSO)
		return NULL;
	d = dso_syms(r, *dso);
	if (!d || !d->tab)
		return NULL;
	if (d->kernel || d->module || *dso == KERNEL_DSO) {
		/* kallsyms holds runtime addresses; a vmlinux link addresses */
		*vaddr = addr - d->kaslr;
		return d->tab;
	}
	if (rvctr_symtab__offset_to_vaddr(d->tab, addr - map->start + map->pgoff, vaddr)) {
		*vaddr = addr;
		return NULL;	/* not in the file's loaded bytes (bss, a JIT) */
	}
	return d->tab;
}

#define UNRESOLVED	(1ULL << 32)	/* in a function key: a bare runtime address */

/*
 * Key of the function holding @addr: (dso, ELF address of the symbol), or
 * (dso | UNRESOLVED, runtime address) when there is no symbol for it.
 */
static void locate(struct rvctr_report *r, uint32_t pid, uint64_t addr, uint64_t *dso,
		   uint64_t *func)
{
	const struct rvctr_symtab *t = resolve(r, pid, addr, dso, func);
	uint64_t off;

	if (t && lookup(dso_syms(r, *dso), t, *func, &off)) {
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
	       (key >> 48 & (EDGE_MAX_DSO - 1)) < rvctr_maps__nr_dsos(r->maps);
}

static uint64_t edge_key(struct rvctr_report *r, uint32_t pid, uint64_t addr)
{
	const struct rvctr_map *map = rvctr_maps__find(r->maps, pid, addr);
	const struct dso_syms *d = map ? dso_slot(r, map->dso) : NULL;
	uint64_t off = map ? addr - map->start + map->pgoff : 0;

	if (!d || map->pid == (uint32_t)-1 || d->module || off > EDGE_OFF_MASK ||
	    map->dso >= EDGE_MAX_DSO ||
	    rvctr_symtab__is_kernel_name(rvctr_maps__dso_name(r->maps, map->dso)))
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
	const struct rvctr_symtab *t;
	const char *sym = NULL, *name;

	if (!edge_in_dso(r, key)) {
		/* a kernel address (the kernel's maps are pid -1's), or in no map */
		t = resolve(r, -1, key, &dso, &vaddr);
		sym = t ? lookup(dso_syms(r, dso), t, vaddr, &off) : NULL;
		if (sym)
			snprintf(buf, len, "%s+0x%" PRIx64, sym, off);
		else
			snprintf(buf, len, "%#" PRIx64, key);
		return buf;
	}
	dso = key >> 48 & (EDGE_MAX_DSO - 1);
	key &= EDGE_OFF_MASK;
	t = dso_syms(r, dso) ? dso_syms(r, dso)->tab : NULL;
	if (t && !rvctr_symtab__offset_to_vaddr(t, key, &vaddr))
		sym = lookup(dso_syms(r, dso), t, vaddr, &off);
	if (sym) {
		snprintf(buf, len, "%s+0x%" PRIx64, sym, off);
	} else {
		name = rvctr_maps__dso_name(r->maps, dso);
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
				  rvctr_maps__dso_name(r->maps, key);
		const struct dso_syms *d = c[i].a & UNRESOLVED ? NULL : dso_syms(r, key);
		const char *sym = d && d->tab ? lookup(d, d->tab, c[i].b, NULL) : NULL;

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
