// SPDX-License-Identifier: GPL-2.0-only
/* Instruction lengths at a recording's addresses; see rvctr/insn.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/insn.h>
#include <rvctr/machine.h>

#define CACHE_SIZE	4096	/* direct-mapped by (binary, file offset) */

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
	struct rvctr_machine *machine;
	char why[512];			/* of the last undecided address */
	struct insn_cached cache[CACHE_SIZE];
};

struct rvctr_insn *rvctr_insn__new(struct rvctr_machine *m)
{
	struct rvctr_insn *x = calloc(1, sizeof(*x));

	if (x)
		x->machine = m;
	return x;
}

void rvctr_insn__delete(struct rvctr_insn *x)
{
	free(x);
}

/* Another input: its binaries' files may be other ones (a kernel elsewhere). */
void rvctr_insn__input(struct rvctr_insn *x)
{
	memset(x->cache, 0, sizeof(x->cache));
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
static enum insn_found read_insn(const struct rvctr_dso_file *d, const struct rvctr_map *map,
				 uint64_t addr, int16_t *c_offset)
{
	uint64_t vaddr;
	uint8_t b[4];
	uint32_t i;

	if (!d->tab || rvctr_machine__vaddr(d, map, addr, &vaddr))
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

/* The binary's name in messages: the kernel's is --vmlinux. */
static const char *file_name(const struct rvctr_insn *x, const struct rvctr_dso_file *d,
			     const struct rvctr_map *map)
{
	return d->runtime ? rvctr_machine__vmlinux(x->machine) :
			    rvctr_maps__dso_name(rvctr_machine__maps(x->machine), map->dso);
}

/* What is at file offset @off of @map's binary, through the cache. */
static const struct insn_cached *lookup(struct rvctr_insn *x, const struct rvctr_dso_file *d,
					const struct rvctr_map *map, uint64_t addr)
{
	uint64_t off = addr - map->start + map->pgoff;
	struct insn_cached *c = &x->cache[(off >> 1 ^ (uint64_t)map->dso * 0x9e3779b1) % CACHE_SIZE];

	if (!c->valid || c->off != off || c->dso != map->dso) {
		c->off = off;
		c->dso = map->dso;
		c->c_offset = 0;
		c->found = read_insn(d, map, addr, &c->c_offset);
		c->valid = 1;
	}
	return c;
}

unsigned int rvctr_insn__length(struct rvctr_insn *x, uint32_t pid, uint64_t addr,
				const char **why)
{
	const struct rvctr_map *map = rvctr_maps__find(rvctr_machine__maps(x->machine), pid, addr);
	const struct rvctr_dso_file *d;
	const struct insn_cached *c;

	if (!map) {
		*why = rvctr_machine__maps_full(x->machine) ?
		       "no mapped binary holds the address (too many maps or binaries: some were "
		       "not kept)" : "no mapped binary holds the address";
		return 0;
	}
	d = rvctr_machine__code(x->machine, map->dso);
	if (!d) {
		*why = "out of memory";
		return 0;
	}
	c = lookup(x, d, map, addr);
	switch (c->found) {
	case INSN_C16:
	case INSN_B32:
		return c->found;
	case INSN_NOT_BRANCH:
		snprintf(x->why, sizeof(x->why), "the instruction at %#llx in %s is not a "
			 "conditional branch: wrong binary?", (unsigned long long)addr,
			 file_name(x, d, map));
		*why = x->why;
		return 0;
	case INSN_C16_OFFSET:
		snprintf(x->why, sizeof(x->why), "the instruction at %#llx in %s is a "
			 "compressed branch to %+d, not +4: wrong binary?",
			 (unsigned long long)addr, file_name(x, d, map), c->c_offset);
		*why = x->why;
		return 0;
	}
	*why = d->why;
	return 0;
}
