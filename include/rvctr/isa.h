/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * RISC-V ISA strings and the ACPI RISC-V Hart Capabilities Table (RHCT):
 * which of a list of extensions every hart has.  Pure functions over
 * bytes, in drivers/perf/rvctr/rvctr_rhct.c (kernel-free), compiled by the
 * module (ACPI boot) and the host unit tests, which feed them tables laid
 * out as QEMU's virt machine and the ACPI 6.6 spec do.  Module only: the
 * upstream series asks the kernel (riscv_isa_extension_available()).
 *
 * Why not the kernel's own parsing: acpi_get_riscv_isa() is not exported
 * to modules, and Linux 6.12 has no ISA ids for Smctr, Ssctr or Sscsrind,
 * so riscv_isa_extension_available() cannot answer for them.
 *
 * RHCT layout (little endian, packed; ACPI 6.6 5.2.37):
 *   0   table header (36 bytes; length at 4)
 *   36  u32 flags, 40 u64 time base frequency,
 *   48  u32 node count, 52 u32 offset of the first node
 * each node: u16 type, u16 length, u16 revision, then
 *   ISA string (type 0):   u16 string length, the string (NUL included)
 *   hart info (0xffff):    u16 offset count, u32 ACPI processor UID,
 *                          u32 offsets of the nodes that describe the hart
 */
#ifndef RVCTR_ISA_H
#define RVCTR_ISA_H

#include <linux/types.h>

#define RVCTR_RHCT_HDR_LEN		56
#define RVCTR_RHCT_NODE_ISA		0x0000
#define RVCTR_RHCT_NODE_HART_INFO	0xffff

/*
 * Is extension NAME in ISA (LEN bytes, need not be NUL-terminated), as in
 * "rv64imafdch_zicsr_sscofpmf_smctr"?  A one-letter NAME is looked up in
 * the base ("rv64" then letters, each optionally versioned as "2p1"), a
 * longer one must be a whole '_'-separated token, optionally followed by
 * a version ("sscofpmf1p0").  Case-insensitive.
 */
int rvctr_isa_has(const char *isa, size_t len, const char *name);

/* The bits of NAMES[0..NR-1] that ISA has. */
unsigned long rvctr_isa_exts(const char *isa, size_t len,
			     const char *const *names, int nr);

/*
 * Walk an RHCT of LEN bytes: *EXT gets the extensions of NAMES that every
 * hart info node's ISA string has, *HARTS the number of such nodes.
 * -EINVAL if the table is malformed (a node or an offset outside it, a
 * hart without exactly one ISA string), -ENOENT if it describes no hart.
 */
int rvctr_rhct_exts(const void *table, size_t len,
		    const char *const *names, int nr,
		    unsigned long *ext, unsigned int *harts);

#endif /* RVCTR_ISA_H */
