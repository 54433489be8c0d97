/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The symbols of a mapped file, through elfutils: libdwfl reads the ELF
 * file, finds its separate debug file (by build id, or .gnu_debuglink with
 * its CRC) and picks the best symbol table (.symtab of the debug file or
 * of the file, else .dynsym and .gnu_debugdata); libelf gives the load
 * segments.  A kernel's symbols may also come from a kallsyms file.
 *
 * Addresses: a sample's runtime address goes to the map holding it
 * (start, pgoff), to a file offset (addr - start + pgoff), to the PT_LOAD
 * segment holding that offset, to an ELF virtual address (offset -
 * p_offset + p_vaddr), to the symbol.  That is right for every layout:
 * ET_EXEC, and ET_DYN (PIEs, shared libraries) as GNU ld lays them out
 * (text at p_vaddr == p_offset) and as lld does (text at p_vaddr ==
 * p_offset + 0x1000, the page after the read-only segment).
 */
#ifndef RVCTR_SYMTAB_H
#define RVCTR_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct rvctr_symtab;

struct rvctr_segment {
	uint64_t vaddr, offset, filesz, memsz;
};

/*
 * Load an ELF file; its symbols may come from a debug file found under
 * @debug_path (elfutils' debuginfo_path syntax: ':'-separated directories,
 * searched for .build-id/xx/rest.debug and debuglink names; NULL for
 * elfutils' default "+:.debug:/usr/lib/debug").
 */
struct rvctr_symtab *rvctr_symtab__load(const char *path, const char *debug_path,
					char *err, size_t errlen);
/* Parse an image in memory (copied; no debug file); for tests and fuzzing. */
struct rvctr_symtab *rvctr_symtab__parse(const void *buf, size_t len, char *err, size_t errlen);
/* The text symbols of a /proc/kallsyms-format file (runtime addresses). */
struct rvctr_symtab *rvctr_symtab__load_kallsyms(const char *path, char *err, size_t errlen);
void rvctr_symtab__delete(struct rvctr_symtab *t);

/* The function containing @addr (ELF virtual address), or NULL. */
const char *rvctr_symtab__lookup(const struct rvctr_symtab *t, uint64_t addr, uint64_t *off);
/*
 * The same, of a kallsyms table, among the symbols of kernel module
 * @module (its name as in kallsyms' "[name]"; '-' and '_' alike), or of
 * the kernel itself when @module is "": NULL when the nearest symbol at
 * or below @addr is another's (that module's symbols are not in the
 * table).  @module NULL, or a table of an ELF file: rvctr_symtab__lookup.
 */
const char *rvctr_symtab__lookup_module(const struct rvctr_symtab *t, uint64_t addr,
					const char *module, uint64_t *off);
/* The address of the function called @name, or 0. */
uint64_t rvctr_symtab__symbol(const struct rvctr_symtab *t, const char *name);
/*
 * The address of the symbol called @name, of any type (a vmlinux's _text
 * and _stext are linker-script symbols, not functions): 0, or -1.
 */
int rvctr_symtab__any_symbol(const struct rvctr_symtab *t, const char *name, uint64_t *addr);
/* EM_* of a perf HEADER_ARCH string (uname -m), 0 when unknown or NULL. */
uint16_t rvctr_symtab__arch_machine(const char *arch);
size_t rvctr_symtab__nr_symbols(const struct rvctr_symtab *t);
int rvctr_symtab__is_pie(const struct rvctr_symtab *t);
/* A kallsyms table: addresses are runtime addresses. */
int rvctr_symtab__is_kallsyms(const struct rvctr_symtab *t);
/* Returns the build id length (0 if none); @id has room for 20 bytes. */
unsigned int rvctr_symtab__build_id(const struct rvctr_symtab *t, uint8_t *id);
/* The first executable PT_LOAD; 0 if found, -1 if none. */
int rvctr_symtab__exec_segment(const struct rvctr_symtab *t, struct rvctr_segment *seg);
/* The ELF virtual address of file offset @off, through the PT_LOAD holding
 * it; 0, or -1 when no segment holds it. */
int rvctr_symtab__offset_to_vaddr(const struct rvctr_symtab *t, uint64_t off, uint64_t *vaddr);
/*
 * Copy @len bytes at ELF virtual address @vaddr of the file's own code or
 * data (an allocated section with file bytes) to @buf: 0, or -1 when the
 * file holds none there (a debug file's NOBITS sections, kallsyms, bss).
 */
int rvctr_symtab__read(const struct rvctr_symtab *t, uint64_t vaddr, void *buf, size_t len);
uint16_t rvctr_symtab__machine(const struct rvctr_symtab *t);
/* The file the symbols were read from (the debug file when one was used). */
const char *rvctr_symtab__symbols_file(const struct rvctr_symtab *t);

/*
 * Where rvctr_symtab__find() looks, in this order, for a file recorded as
 * NAME with build id ID (xx = its first byte in hex, rest = the others):
 *
 *   1. perf's build-id cache: BUILDID_DIR/.build-id/xx/rest/elf (the
 *      layout of perf 4.x and later), or .../xx/rest when that is a file
 *      (older perf); BUILDID_DIR is --buildid-dir, else $PERF_BUILDID_DIR,
 *      else ~/.debug;
 *   2. SYMFS/NAME (SYMFS is --symfs, default none: NAME itself), used only
 *      when its build id is ID (when one was recorded); NAME's "." and
 *      ".." are taken by name, and one whose ".." would leave SYMFS is not
 *      opened (a symbolic link under SYMFS is followed, as perf does);
 *   3. SYMFS/usr/lib/debug/.build-id/xx/rest, the binary by build id as
 *      elfutils' dwfl_build_id_find_elf looks it up;
 *   4. a debug file alone: SYMFS/usr/lib/debug/.build-id/xx/rest.debug,
 *      BUILDID_DIR/.build-id/xx/rest/debug.
 *
 * A file found in 1-3 without .symtab gets its symbols from its debug file,
 * found by elfutils (dwfl_standard_find_debuginfo) under
 * SYMFS/usr/lib/debug by build id, then by .gnu_debuglink (CRC checked) in
 * the file's directory, its .debug/ and SYMFS/usr/lib/debug/DIR/; then
 * from .dynsym.  The machine must be @machine (0: any).  Only regular
 * files are read, opened O_NONBLOCK (a FIFO or device is refused, never
 * waited on).
 *
 * Kernel maps (NAME starting with "[kernel.kallsyms]"): VMLINUX (--vmlinux),
 * perf's cache BUILDID_DIR/[kernel.kallsyms]/ID/kallsyms, KALLSYMS
 * (--kallsyms), then SYMFS/proc/kallsyms when --symfs is given.
 *
 * With code_only set, only files holding code are looked for (1-3; for
 * the kernel VMLINUX alone), and no debug file is searched for them (nor
 * asked of debuginfod): their function symbols are not read
 * (rvctr_symtab__lookup() finds none; rvctr_symtab__any_symbol() reads
 * the file's own).
 */
struct rvctr_symfind {
	const char *symfs;		/* NULL or "" for none */
	const char *buildid_dir;	/* NULL: $PERF_BUILDID_DIR, else ~/.debug */
	const char *kallsyms;		/* NULL: none */
	const char *vmlinux;		/* NULL: none */
	uint16_t machine;		/* EM_*, 0 for any */
	int code_only;			/* for the code bytes only (see above) */
	int kmodule;			/* a kernel module's .ko (ET_REL, not compressed):
					 * its .text functions at their offsets in .text */
};

/*
 * Find and load the file recorded as @name.  NULL with @err when none is
 * usable; *@mismatch is set when a file was there under @name but was not
 * the recorded one (build id or machine).
 */
struct rvctr_symtab *rvctr_symtab__find(const struct rvctr_symfind *f, const char *name,
					const uint8_t *id, unsigned int id_len, int *mismatch,
					char *err, size_t errlen);
/*
 * Kernel module symbols: the kernel's kallsyms (runtime addresses, module
 * symbols included), found as for the kernel map but never a vmlinux:
 * perf's cache by the kernel's build id @kernel_id, KALLSYMS, then
 * SYMFS/proc/kallsyms.
 */
struct rvctr_symtab *rvctr_symtab__find_kallsyms(const struct rvctr_symfind *f,
						 const uint8_t *kernel_id, unsigned int id_len,
						 char *err, size_t errlen);
/*
 * Are @f's directories (--symfs, --buildid-dir) short enough to look
 * under (shorter than PATH_MAX)?  -1 with @err if not.  A path that does
 * not fit is never cut short: rvctr_symtab__find() fails on it instead.
 */
int rvctr_symtab__check_find(const struct rvctr_symfind *f, char *err, size_t errlen);
/* Is @name the kernel's map ("[kernel.kallsyms]..." as perf names it)? */
int rvctr_symtab__is_kernel_name(const char *name);

#endif /* RVCTR_SYMTAB_H */
