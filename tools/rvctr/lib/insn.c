// SPDX-License-Identifier: GPL-2.0-only
/* Instruction lengths at a recording's addresses; see rvctr/insn.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/insn.h>
#include <rvctr/maps.h>

#define CACHE_SIZE	4096	/* lengths, direct-mapped by file offset */

struct insn_dso {
	struct rvctr_symtab *tab;	/* NULL when the file could not be used */
	int tried;
	int kernel;			/* addresses are runtime ones, less kaslr */
	uint64_t kaslr;			/* vmlinux: runtime - link address */
	char why[320];			/* why tab is NULL, or holds no code */
};

struct insn_cached {
	uint64_t off;			/* in the dso: runtime address - start + pgoff */
	unsigned int dso;
	uint8_t len;			/* 2, 4, or 0: unreadable */
	uint8_t valid;
};

struct rvctr_insn {
	struct rvctr_symfind find;
	struct rvctr_maps *maps;
	struct insn_dso *dsos;
	unsigned int nr_dsos;
	uint64_t kernel_text;		/* runtime address of kernel_ref, from its MMAP */
	char kernel_ref[64];		/* perf's ref_reloc_sym: _text, or _stext */
	struct insn_cached cache[CACHE_SIZE];
};

struct rvctr_insn *rvctr_insn__new(const struct rvctr_symfind *find)
{
	struct rvctr_insn *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->maps = rvctr_maps__new();
	if (!x->maps) {
		free(x);
		return NULL;
	}
	if (find)
		x->find = *find;
	return x;
}

void rvctr_insn__delete(struct rvctr_insn *x)
{
	unsigned int i;

	if (!x)
		return;
	for (i = 0; i < x->nr_dsos; i++)
		rvctr_symtab__delete(x->dsos[i].tab);
	free(x->dsos);
	rvctr_maps__delete(x->maps);
	free(x);
}

/* The kernel's map names perf's reference symbol; its pgoff is where it runs. */
int rvctr_insn__event(struct rvctr_insn *x, const struct rvctr_event *ev)
{
	const struct rvctr_mmap *m = &ev->mmap;

	if ((ev->type == PERF_RECORD_MMAP || ev->type == PERF_RECORD_MMAP2) &&
	    rvctr_symtab__is_kernel_name(m->filename) && m->pgoff) {
		x->kernel_text = m->pgoff;
		snprintf(x->kernel_ref, sizeof(x->kernel_ref), "%s",
			 m->filename[17] ? m->filename + 17 : "_text");
	}
	return rvctr_maps__event(x->maps, ev);
}

int rvctr_insn__build_id(struct rvctr_insn *x, const struct rvctr_build_id *b)
{
	return rvctr_maps__header_build_id(x->maps, b);
}

/* Find and open the file of binary @dso, once. */
static void load_dso(struct rvctr_insn *x, struct insn_dso *d, const struct rvctr_map *map)
{
	const char *name = rvctr_maps__dso_name(x->maps, map->dso);
	unsigned int id_size;
	const uint8_t *id = rvctr_maps__dso_build_id(x->maps, map->dso, &id_size);
	uint64_t ref;
	int mismatch;

	d->tried = 1;
	d->kernel = rvctr_symtab__is_kernel_name(name);
	if (map->pid == (uint32_t)-1 && !d->kernel) {
		/* a module's .ko is relocatable: its code's addresses are not in it */
		snprintf(d->why, sizeof(d->why), "%s: a kernel module (its .ko is not read)", name);
		return;
	}
	d->tab = rvctr_symtab__find(&x->find, name, id, id_size, &mismatch, d->why,
				    sizeof(d->why));
	if (d->kernel && (!d->tab || rvctr_symtab__is_kallsyms(d->tab))) {
		/* kallsyms has symbols, no code */
		snprintf(d->why, sizeof(d->why), "%s: no vmlinux (--vmlinux) to read the "
			 "kernel's code from", name);
		rvctr_symtab__delete(d->tab);
		d->tab = NULL;
		return;
	}
	/* a vmlinux holds link addresses: relocate by the map's symbol */
	if (d->tab && d->kernel && x->kernel_text &&
	    !rvctr_symtab__any_symbol(d->tab, x->kernel_ref, &ref))
		d->kaslr = x->kernel_text - ref;
	if (d->tab)
		snprintf(d->why, sizeof(d->why), "%s: no code bytes at the address", name);
}

static struct insn_dso *insn_dso(struct rvctr_insn *x, const struct rvctr_map *map)
{
	if (map->dso >= x->nr_dsos) {
		unsigned int n = rvctr_maps__nr_dsos(x->maps);
		struct insn_dso *d = realloc(x->dsos, n * sizeof(*d));

		if (!d)
			return NULL;
		memset(d + x->nr_dsos, 0, (n - x->nr_dsos) * sizeof(*d));
		x->dsos = d;
		x->nr_dsos = n;
	}
	if (!x->dsos[map->dso].tried)
		load_dso(x, &x->dsos[map->dso], map);
	return &x->dsos[map->dso];
}

/* The length of the instruction at @addr in @map, 0 if it cannot be read. */
static unsigned int read_length(const struct insn_dso *d, const struct rvctr_map *map,
				uint64_t addr)
{
	uint64_t vaddr;
	uint8_t lo;

	if (!d->tab)
		return 0;
	if (d->kernel)
		vaddr = addr - d->kaslr;
	else if (rvctr_symtab__offset_to_vaddr(d->tab, addr - map->start + map->pgoff, &vaddr))
		return 0;
	/* the low bits are in the first byte (instructions are little-endian) */
	if (rvctr_symtab__read(d->tab, vaddr, &lo, 1))
		return 0;
	return (lo & 3) == 3 ? 4 : 2;
}

unsigned int rvctr_insn__length(struct rvctr_insn *x, uint32_t pid, uint64_t addr,
				const char **why)
{
	const struct rvctr_map *map = rvctr_maps__find(x->maps, pid, addr);
	struct insn_cached *c;
	struct insn_dso *d;
	uint64_t off;

	if (!map) {
		*why = "no mapped binary holds the address";
		return 0;
	}
	d = insn_dso(x, map);
	if (!d) {
		*why = "out of memory";
		return 0;
	}
	off = addr - map->start + map->pgoff;
	c = &x->cache[(off >> 1 ^ (uint64_t)map->dso * 0x9e3779b1) % CACHE_SIZE];
	if (!c->valid || c->off != off || c->dso != map->dso) {
		c->off = off;
		c->dso = map->dso;
		c->len = read_length(d, map, addr);
		c->valid = 1;
	}
	*why = d->why;
	return c->len;
}
