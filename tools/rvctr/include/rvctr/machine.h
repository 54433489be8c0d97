/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a recording knew of the machine it ran on, as perf's machine,
 * thread, maps and dso layer has it: processes and their threads' names,
 * their maps (rvctr/maps.h), the binaries mapped, each binary's symbols
 * and code (rvctr/symtab.h), and where the kernel and its modules ran
 * (KASLR).  Fed every event once, in the reader's order; the filters,
 * the not-taken classifier (rvctr/ntbr.h), the AutoFDO sink and report
 * ask it.
 *
 * One input at a time: rvctr_machine__input() starts another, whose pids
 * are its own (no process carries over) and whose kernel may have run
 * elsewhere.  Binaries, by path and build id, stay (their indexes too):
 * one binary in two inputs is one profile.  Merged outputs that hold one
 * pid namespace (perf.data, spe) renumber pids after the machine, in
 * the output (pidmap.h): the machine sees each input's own pids, so that
 * the lookups of an input's samples are made in that input's processes.
 */
#ifndef RVCTR_MACHINE_H
#define RVCTR_MACHINE_H

#include <rvctr/maps.h>
#include <rvctr/symtab.h>

struct rvctr_machine;

/* A binary index for kernel addresses in no map (report's "[kernel.kallsyms]"). */
#define RVCTR_KERNEL_DSO	0xfffffffeu

/*
 * @syms: where symbols come from (debug files, kallsyms); @code: where
 * code bytes do (code_only is implied).  Either may be NULL (the
 * defaults); their strings must outlive the machine.
 */
struct rvctr_machine *rvctr_machine__new(const struct rvctr_symfind *syms,
					 const struct rvctr_symfind *code);
void rvctr_machine__delete(struct rvctr_machine *m);
/*
 * The input's HEADER_ARCH (may be NULL): binaries of another machine are
 * not used (unless the finds of rvctr_machine__new() named one).
 */
void rvctr_machine__set_arch(struct rvctr_machine *m, const char *arch);
/* --vmlinux, the kernel's code (code find's vmlinux), or NULL. */
const char *rvctr_machine__vmlinux(const struct rvctr_machine *m);
/* A build id of the input's header (rvctr_maps__header_build_id): 0, or -1. */
int rvctr_machine__build_id(struct rvctr_machine *m, const struct rvctr_build_id *b);
/*
 * Every event, in order (MMAP, MMAP2, FORK, EXIT, COMM change it).  0; 1
 * the first time a map, or a part of one, was not kept (the maps are
 * full, rvctr_maps__add()); -1 out of memory for a thread's name.
 */
int rvctr_machine__event(struct rvctr_machine *m, const struct rvctr_event *ev);
/* Another input starts. */
void rvctr_machine__input(struct rvctr_machine *m);
/* Was a map of this input not kept (addresses then in no map say so)? */
int rvctr_machine__maps_full(const struct rvctr_machine *m);

/*
 * Changes with the maps (any MMAP, MMAP2, FORK, EXIT, COMM, input): an
 * answer about an address is good while it stays the same.
 */
uint64_t rvctr_machine__generation(const struct rvctr_machine *m);
/* The maps: rvctr_maps__find() of @pid, dso names and build ids. */
struct rvctr_maps *rvctr_machine__maps(const struct rvctr_machine *m);
/* The name (COMM) of thread @tid, or NULL before any. */
const char *rvctr_machine__comm(const struct rvctr_machine *m, uint32_t tid);
/* Is binary @dso a kernel module (a kernel map other than the kernel's)? */
int rvctr_machine__is_module(const struct rvctr_machine *m, unsigned int dso);

/*
 * A binary's file, found and loaded at its first use: for its symbols
 * (rvctr_machine__syms) or for its code bytes (rvctr_machine__code).
 */
struct rvctr_dso_file {
	const struct rvctr_symtab *tab;	/* NULL: none usable, see why */
	int runtime;			/* addresses are runtime ones, less reloc */
	uint64_t reloc;			/* runtime - link address (KASLR, a module's base) */
	const char *module;		/* kallsyms: only this module's symbols, else NULL */
	const char *why;		/* code: why tab is NULL or holds no code */
};

/*
 * The file of binary @dso (or RVCTR_KERNEL_DSO); NULL out of memory.
 * Symbols: the binary's debug file when it has one, a vmlinux relocated
 * to where it ran, kallsyms, a module's .ko relocated to its base, else
 * kallsyms' symbols of the module.  Code: the binary itself, the
 * kernel's only from --vmlinux, and checked more strictly (rvctr/insn.h).
 * Valid until the next call of either.
 */
const struct rvctr_dso_file *rvctr_machine__syms(struct rvctr_machine *m, unsigned int dso);
const struct rvctr_dso_file *rvctr_machine__code(struct rvctr_machine *m, unsigned int dso);
/*
 * The address @f's table has for runtime address @addr in @map (map,
 * file offset, PT_LOAD, ELF virtual address; or less reloc): 0, or -1
 * when the file holds no such address (bss, a JIT).
 */
int rvctr_machine__vaddr(const struct rvctr_dso_file *f, const struct rvctr_map *map,
			 uint64_t addr, uint64_t *vaddr);
/* The function holding @vaddr in @f, or NULL (a module's own only, in kallsyms). */
const char *rvctr_machine__symbol(const struct rvctr_dso_file *f, uint64_t vaddr, uint64_t *off);
/* How many files were found but not used (another build id or machine). */
unsigned int rvctr_machine__mismatched(const struct rvctr_machine *m);

#endif /* RVCTR_MACHINE_H */
