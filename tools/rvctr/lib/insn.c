// SPDX-License-Identifier: GPL-2.0-only
/* Instruction lengths at a recording's addresses; see rvctr/insn.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/insn.h>
#include <rvctr/maps.h>

#define CACHE_SIZE	4096	/* direct-mapped by (binary, file offset) */

struct insn_dso {
	struct rvctr_symtab *tab;	/* NULL when the file could not be used */
	int tried;
	int kernel;			/* addresses are runtime ones, less kaslr */
	uint64_t kaslr;			/* vmlinux: runtime - link address */
	char why[320];			/* why tab is NULL, or holds no code */
};

/* What is at an address: a length that decides, or why none does. */
enum insn_found {
	INSN_UNREAD,			/* no code bytes there (insn_dso.why) */
	INSN_NOT_BRANCH,		/* neither a 32-bit branch nor a c.beqz/c.bnez */
	INSN_C16 = 2,			/* c.beqz/c.bnez to +4 */
	INSN_C16_OFFSET,		/* c.beqz/c.bnez to another offset */
	INSN_B32 = 4,			/* BEQ, BNE, BLT, BGE, BLTU or BGEU */
};

struct insn_cached {
	uint64_t off;			/* in the dso: runtime address - start + pgoff */
	unsigned int dso;
	uint8_t found;			/* enum insn_found */
	uint8_t valid;
	int16_t c_offset;		/* INSN_C16_OFFSET: the branch's offset */
};

struct rvctr_insn {
	struct rvctr_symfind find;
	struct rvctr_maps *maps;
	struct insn_dso *dsos;
	unsigned int nr_dsos;
	uint64_t kernel_text;		/* runtime address of kernel_ref, from its MMAP */
	char kernel_ref[64];		/* perf's ref_reloc_sym: _text, or _stext */
	char why[512];			/* of the last undecided address */
	int maps_full;			/* a map was not kept (rvctr_maps__add()) */
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
	/* code bytes are in the binaries themselves: no debug files */
	x->find.code_only = 1;
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
		/* a reference symbol's name too long to keep: no relocation by it */
		x->kernel_text = (size_t)snprintf(x->kernel_ref, sizeof(x->kernel_ref), "%s",
						  m->filename[17] ? m->filename + 17 : "_text") <
				 sizeof(x->kernel_ref) ? m->pgoff : 0;
	}
	if (!rvctr_maps__event(x->maps, ev))
		return 0;
	x->maps_full = 1;
	return -1;
}

int rvctr_insn__build_id(struct rvctr_insn *x, const struct rvctr_build_id *b)
{
	return rvctr_maps__header_build_id(x->maps, b);
}

static void hex(char *out, const uint8_t *id, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * len] = 0;
}

/*
 * A vmlinux is whatever --vmlinux names: it must be the recording's
 * kernel (its machine, and its build id when both have one), and
 * relocatable to where it ran.
 */
static int check_vmlinux(struct rvctr_insn *x, struct insn_dso *d, const uint8_t *id,
			 unsigned int id_size)
{
	const char *path = x->find.vmlinux;
	char want[41], have_hex[41];
	uint8_t have[20];
	unsigned int n = rvctr_symtab__build_id(d->tab, have);
	uint64_t ref;

	if (x->find.machine && rvctr_symtab__machine(d->tab) != x->find.machine) {
		snprintf(d->why, sizeof(d->why), "%s: another machine's, not used", path);
		return -1;
	}
	if (id_size > 20)
		id_size = 20;
	if (n && id_size && (n != id_size || memcmp(have, id, n))) {
		hex(have_hex, have, n);
		hex(want, id, id_size);
		snprintf(d->why, sizeof(d->why), "%s has build id %s, the recording's kernel "
			 "%s: another kernel's, not used", path, have_hex, want);
		return -1;
	}
	if (!x->kernel_text)
		return 0;	/* no runtime address known: as linked */
	if (rvctr_symtab__any_symbol(d->tab, x->kernel_ref, &ref)) {
		snprintf(d->why, sizeof(d->why), "%s has no %s symbol, and the recording's "
			 "kernel had it at %#llx: cannot relocate it", path, x->kernel_ref,
			 (unsigned long long)x->kernel_text);
		return -1;
	}
	/* a vmlinux holds link addresses: relocate by the map's symbol */
	d->kaslr = x->kernel_text - ref;
	return 0;
}

/*
 * Find and open the file of binary @dso, once: only its code is read, so
 * no debug file is looked for (rvctr_insn__new() sets code_only).
 */
static void load_dso(struct rvctr_insn *x, struct insn_dso *d, const struct rvctr_map *map)
{
	const char *name = rvctr_maps__dso_name(x->maps, map->dso);
	unsigned int id_size;
	const uint8_t *id = rvctr_maps__dso_build_id(x->maps, map->dso, &id_size);
	int mismatch = 0;

	d->tried = 1;
	d->kernel = rvctr_symtab__is_kernel_name(name);
	if (map->pid == (uint32_t)-1 && !d->kernel) {
		/* a module's .ko is relocatable: its code's addresses are not in it */
		snprintf(d->why, sizeof(d->why), "%s: a kernel module (its .ko is not read)", name);
		return;
	}
	if (d->kernel && !x->find.vmlinux) {
		/* kallsyms has symbols, no code */
		snprintf(d->why, sizeof(d->why), "%s: no vmlinux (--vmlinux) to read the "
			 "kernel's code from", name);
		return;
	}
	d->tab = rvctr_symtab__find(&x->find, name, id, id_size, &mismatch, d->why,
				    sizeof(d->why));
	if (mismatch || (d->tab && d->kernel && check_vmlinux(x, d, id, id_size))) {
		/* the file there is another build's: its code says nothing of this one */
		if (mismatch)
			snprintf(d->why, sizeof(d->why), "%s: the file there has another build "
				 "id (or machine) than the recorded one: not used", name);
		rvctr_symtab__delete(d->tab);
		d->tab = NULL;
		return;
	}
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

/* The offset of a CB-format (c.beqz, c.bnez) branch: imm[8|4:3] at bits
 * 12|11:10, imm[7:6|2:1|5] at 6:5|4:3|2. */
static int cb_offset(uint16_t i)
{
	int off = ((i >> 12) & 1) << 8 | ((i >> 10) & 3) << 3 | ((i >> 5) & 3) << 6 |
		  ((i >> 3) & 3) << 1 | ((i >> 2) & 1) << 5;

	return off & 0x100 ? off - 0x200 : off;
}

/*
 * The instruction at @addr in @map, as a record COND to 4 bytes on needs
 * it: a 32-bit conditional branch, or a c.beqz/c.bnez to +4.  Anything
 * else there cannot have recorded it: another binary than the one that
 * ran, or a wrong address.
 */
static enum insn_found read_insn(const struct insn_dso *d, const struct rvctr_map *map,
				 uint64_t addr, int16_t *c_offset)
{
	uint64_t vaddr;
	uint8_t b[4];
	uint32_t i;

	if (!d->tab)
		return INSN_UNREAD;
	if (d->kernel)
		vaddr = addr - d->kaslr;
	else if (rvctr_symtab__offset_to_vaddr(d->tab, addr - map->start + map->pgoff, &vaddr))
		return INSN_UNREAD;
	/* little-endian parcels; the low bits of the first say the length */
	if (rvctr_symtab__read(d->tab, vaddr, b, 2))
		return INSN_UNREAD;
	i = b[0] | b[1] << 8;
	if ((i & 3) == 3) {
		unsigned int funct3;

		if (rvctr_symtab__read(d->tab, vaddr, b, 4))
			return INSN_UNREAD;
		i |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		funct3 = (i >> 12) & 7;
		/* BRANCH; funct3 010 and 011 are reserved */
		return (i & 0x7f) == 0x63 && funct3 != 2 && funct3 != 3 ? INSN_B32 :
									 INSN_NOT_BRANCH;
	}
	/* quadrant 1, funct3 110 (c.beqz) or 111 (c.bnez) */
	if ((i & 0xe003) != 0xc001 && (i & 0xe003) != 0xe001)
		return INSN_NOT_BRANCH;
	*c_offset = cb_offset(i);
	return *c_offset == 4 ? INSN_C16 : INSN_C16_OFFSET;
}

unsigned int rvctr_insn__length(struct rvctr_insn *x, uint32_t pid, uint64_t addr,
				const char **why)
{
	const struct rvctr_map *map = rvctr_maps__find(x->maps, pid, addr);
	struct insn_cached *c;
	struct insn_dso *d;
	uint64_t off;

	if (!map) {
		*why = x->maps_full ? "no mapped binary holds the address (too many maps or "
				      "binaries: some were not kept)" :
				      "no mapped binary holds the address";
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
		c->c_offset = 0;
		c->found = read_insn(d, map, addr, &c->c_offset);
		c->valid = 1;
	}
	switch (c->found) {
	case INSN_C16:
	case INSN_B32:
		return c->found;
	case INSN_NOT_BRANCH:
		snprintf(x->why, sizeof(x->why), "the instruction at %#llx in %s is not a "
			 "conditional branch: wrong binary?", (unsigned long long)addr,
			 d->kernel ? x->find.vmlinux : rvctr_maps__dso_name(x->maps, map->dso));
		*why = x->why;
		return 0;
	case INSN_C16_OFFSET:
		snprintf(x->why, sizeof(x->why), "the instruction at %#llx in %s is a "
			 "compressed branch to %+d, not +4: wrong binary?",
			 (unsigned long long)addr,
			 d->kernel ? x->find.vmlinux : rvctr_maps__dso_name(x->maps, map->dso),
			 c->c_offset);
		*why = x->why;
		return 0;
	}
	*why = d->why;
	return 0;
}
