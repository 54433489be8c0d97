/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a branch-stack recording holds.  Range outputs (AutoFDO text,
 * llvm-profgen's perf script input) take the code between two consecutive
 * records as executed straight through; that holds only when every taken
 * branch was recorded, and only taken branches.  A type filter (-j call,
 * cond, ...) or call-stack mode (-j stack; CTR's RASEMU, whose records are
 * a return-address stack's emulation) drops taken branches; the cpu PMU's
 * ctr_ntbr (config3 bit 0, drivers/perf/riscv_ctr.h; config2 bit 0 in
 * recordings made before it moved) adds not-taken
 * ones, which perf_branch_entry cannot mark: the driver gives them type
 * COND like taken ones (Documentation/ctr.rst, Decoding), with the target
 * the next instruction (CTR v1.0: ctrtarget of a not-taken branch).
 */
#ifndef RVCTR_BRSTACK_H
#define RVCTR_BRSTACK_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/*
 * 1 if samples of @a record every taken branch and nothing else; 0 if not,
 * with the reason in @why.  @config3: @a's attr.config3 (the reader's
 * rvctr_reader__attr_config3(): the host's perf_event_attr may lack it).
 * @arch: HEADER_ARCH (NULL if unknown), to know config3 (and config2)
 * for the RISC-V cpu PMU's.
 */
int rvctr_brstack__complete(const struct perf_event_attr *a, uint64_t config3,
			    const char *arch, char *why, size_t whylen);
/*
 * The same, not-taken records aside: 1 if samples of @a record every taken
 * branch (no type filter, no call-stack mode).  With ctr_ntbr on top they
 * are a complete taken trace once the not-taken records are told apart,
 * which the instruction at each COND to 4 bytes on does (see below).
 */
int rvctr_brstack__all_taken(const struct perf_event_attr *a, char *why, size_t whylen);
/*
 * The same for raw CTR snapshots, from the sctrctl they were recorded
 * under: RASEMU (call-stack mode), an inhibited transfer type or NTBREN
 * make it 0.
 */
int rvctr_brstack__ctl_complete(uint64_t sctrctl, char *why, size_t whylen);
/*
 * Does @a record not-taken branches (ctr_ntbr)?  config3 bit 0; or, in a
 * recording made before the option moved there (drivers up to November
 * 2026 put ctr_ntbr at config2:0 and ctr_bpfrz at config2:1), config2 bit
 * 0 with nothing but those two bits in config2 and nothing in config3.
 * The counter delegation series' counterid_mask (config2:0-31) cannot be
 * taken for the old layout there: it refuses a sampling event whose mask
 * names only counters 0-2, and a config3 bit marks a new recording.
 */
int rvctr_brstack__has_ntbr(const struct perf_event_attr *a, uint64_t config3,
			    const char *arch);
/*
 * Is @e, from a recording with not-taken records (ctr_ntbr), a not-taken
 * one?  Those have type COND and the next instruction as target: 0 if
 * not; 1 if COND to 2 bytes on (only a not-taken compressed branch);
 * RVCTR_BRSTACK_AMBIGUOUS if COND to 4 bytes on, which is a not-taken
 * 32-bit branch or a taken compressed branch over one 16-bit instruction,
 * told apart only by the length of the instruction at from: the caller
 * reads it from the binary mapped there (rvctr/insn.h; 4 bytes: not
 * taken, 2: taken), and only when that binary cannot be read is the
 * record left a guess.  Snapshots need neither: their TYPE 4 entries are
 * the not-taken ones (riscv_ctr_stack_to_perf_nt()).
 */
#define RVCTR_BRSTACK_AMBIGUOUS	2
int rvctr_brstack__not_taken(const struct perf_branch_entry *e);
/*
 * Copy the records of @in that are not not-taken ones to @out; their
 * number.  @not_taken: one flag per record, 1 for a not-taken one, 0 for
 * a taken one (known exactly), RVCTR_BRSTACK_AMBIGUOUS for one left a
 * guess; or NULL to guess all with rvctr_brstack__not_taken().  The
 * ambiguous ones are taken as not taken, their number added to
 * *@ambiguous (if not NULL).
 */
uint64_t rvctr_brstack__taken_only(const struct perf_branch_entry *in, uint64_t nr,
				   const uint8_t *not_taken, struct perf_branch_entry *out,
				   uint64_t *ambiguous);

#endif /* RVCTR_BRSTACK_H */
