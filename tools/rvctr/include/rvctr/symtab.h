/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small ELF64 (little-endian) reader: function symbols from .symtab (or
 * .dynsym), the GNU build id, the ELF type and the executable segment.
 */
#ifndef RVCTR_SYMTAB_H
#define RVCTR_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct rvctr_symtab;

struct rvctr_segment {
	uint64_t vaddr, offset, filesz, memsz;
};

struct rvctr_symtab *rvctr_symtab__load(const char *path, char *err, size_t errlen);
/* Parse an image in memory (copied); for tests and fuzzing. */
struct rvctr_symtab *rvctr_symtab__parse(const void *buf, size_t len, char *err, size_t errlen);
void rvctr_symtab__delete(struct rvctr_symtab *t);

/* The function containing @addr (ELF virtual address), or NULL. */
const char *rvctr_symtab__lookup(const struct rvctr_symtab *t, uint64_t addr, uint64_t *off);
size_t rvctr_symtab__nr_symbols(const struct rvctr_symtab *t);
int rvctr_symtab__is_pie(const struct rvctr_symtab *t);
/* Returns the build id length (0 if none); @id has room for 20 bytes. */
unsigned int rvctr_symtab__build_id(const struct rvctr_symtab *t, uint8_t *id);
/* The first executable PT_LOAD; 0 if found, -1 if none. */
int rvctr_symtab__exec_segment(const struct rvctr_symtab *t, struct rvctr_segment *seg);
uint16_t rvctr_symtab__machine(const struct rvctr_symtab *t);

#endif /* RVCTR_SYMTAB_H */
