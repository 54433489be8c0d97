/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * AutoFDO text profile ("--profiler text" of create_llvm_prof/create_gcov):
 *
 *   <number of ranges>        then lines  <begin>-<end>:<count>
 *   <number of addresses>     then lines  <addr>:<count>
 *   <number of branches>      then lines  <from>-><to>:<count>
 *
 * addresses in hex without 0x, in the binary's address space as
 * create_llvm_prof symbolizes it: file offsets for ET_EXEC (AutoFDO adds the
 * load address back), ELF virtual addresses for ET_DYN (PIEs, shared
 * libraries).  AutoFDO's own perf.data reader gives file offsets for both;
 * those are the virtual addresses only where text has p_vaddr == p_offset
 * (GNU ld), so AutoFDO 0.19 gets no profile from the perf.data of an lld
 * PIE, and does from our text.  A range is the
 * straight-line code between two consecutive taken branches of one stack:
 * from the older branch's target to the newer branch's source.  Counting
 * follows AutoFDO's reader, so a text profile and the perf.data it came
 * from give the same counts.
 */
#ifndef RVCTR_AUTOFDO_H
#define RVCTR_AUTOFDO_H

#include <stdio.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <rvctr/perf_data.h>

struct rvctr_afdo;

/*
 * Map a runtime address to its file offset in the binary: returns 0 and sets
 * *out when @addr belongs to the binary, -1 otherwise.
 */
typedef int (*rvctr_afdo_xlate_t)(void *ctx, uint64_t addr, uint64_t *out);

struct rvctr_afdo *rvctr_afdo__new(void);
void rvctr_afdo__delete(struct rvctr_afdo *a);
/*
 * The binary's file, so file offsets become the addresses AutoFDO wants
 * (above); without it, file offsets are written (right for ET_EXEC and GNU
 * ld's ET_DYN).  0, or -1 with @err.
 */
int rvctr_afdo__set_binary(struct rvctr_afdo *a, const char *path, char *err, size_t errlen);
struct rvctr_symtab;
/* The same with the file already loaded (the machine's): @t must outlive @a. */
void rvctr_afdo__set_symtab(struct rvctr_afdo *a, const struct rvctr_symtab *t);
/* Add one sample: its ip and branch stack (entry 0 newest).  0 or -1 (ENOMEM). */
int rvctr_afdo__add(struct rvctr_afdo *a, uint64_t ip, const struct perf_branch_entry *br,
		    uint64_t nr, rvctr_afdo_xlate_t xlate, void *ctx);

/* A branch entry's ends as file offsets in the binary; *_ok 0 when not in it. */
struct rvctr_afdo_entry {
	uint64_t from, to;
	int from_ok, to_ok;
};

/*
 * The same with the translation done by the caller (once per sample for
 * every binary it touches): @br the raw entries, @offs their file offsets.
 */
int rvctr_afdo__add_entries(struct rvctr_afdo *a, int ip_ok, uint64_t ip_off,
			    const struct perf_branch_entry *br,
			    const struct rvctr_afdo_entry *offs, uint64_t nr);
/*
 * The same for a stack whose every end lies in one map of the binary: the
 * file offset of an address is address + @bias (modulo 2^64).
 */
int rvctr_afdo__add_biased(struct rvctr_afdo *a, int ip_ok, uint64_t ip_off,
			   const struct perf_branch_entry *br, uint64_t nr, uint64_t bias);
/*
 * Count only what ran in the last @n instructions before each sample point
 * (0: whole stacks, as AutoFDO counts): the ranges, cut to the window, and
 * the branches it reaches back over; the sample point's own range
 * [to_0, ip) counts too.  For stacks sampled on instructions or cycles,
 * where whole stacks over-count straight code (lib/autofdo.c).  Needs the
 * binary's code (rvctr_afdo__set_binary/_symtab first); ranges in code it
 * cannot read are not counted.  0, or -1 (ENOMEM, or @n too large).
 */
#define RVCTR_AFDO_MAX_WINDOW	65536
int rvctr_afdo__set_window(struct rvctr_afdo *a, unsigned int n);
/* Window: samples seen, and those whose stack reached back less than it. */
void rvctr_afdo__window_stats(const struct rvctr_afdo *a, uint64_t *samples,
			      uint64_t *short_stacks);
int rvctr_afdo__write(const struct rvctr_afdo *a, FILE *out);
/*
 * llvm-profgen's unsymbolized profile (what --skip-symbolization writes
 * and --unsymbolized-profile reads): the same text without the second
 * section, the address counts, which llvm-profgen refuses ("Invalid raw
 * profile").
 */
int rvctr_afdo__write_unsymbolized(const struct rvctr_afdo *a, FILE *out);
uint64_t rvctr_afdo__nr_ranges(const struct rvctr_afdo *a);
uint64_t rvctr_afdo__nr_branches(const struct rvctr_afdo *a);

#endif /* RVCTR_AUTOFDO_H */
