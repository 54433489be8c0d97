/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * RISC-V Control Transfer Records (Smctr/Ssctr, ratified v1.0): the
 * register layout and the SCTRCLR instruction, written once.
 *
 * The names are those the kernel headers carry for their neighbours
 * (Linux 7.3 has the Sscsrind and Smcdeleg ones).  The upstream series
 * (make series) puts the first block into asm/csr.h and the second into
 * asm/insn-def.h; the module force-includes this file ahead of its
 * kernel's headers (drivers/perf/rvctr/Kbuild), and userspace reaches it
 * through tools/include/shim/asm/csr.h.  Like asm/csr.h it depends on
 * <linux/bits.h> only (userspace: the shim's), so the blocks go into the
 * kernel headers as they are.  The decoders and everything built on them
 * are in drivers/perf/riscv_ctr_rec.h, shared by the kernel, the tool and
 * the host tests.
 *
 * CSR numbers and bit positions are those of v1.0, which QEMU 10
 * implements; the 0.x drafts differ.
 */
#ifndef RVCTR_CTR_H
#define RVCTR_CTR_H

#include <linux/bits.h>

/* ---- asm/csr.h: Smctr/Ssctr (CTR v1.0 chapter 2) ---- */

#define CSR_SCTRCTL		0x14e
#define CSR_SCTRSTATUS		0x14f
#define CSR_SCTRDEPTH		0x15f
#define CSR_VSCTRCTL		0x24e
#define CSR_MCTRCTL		0x34e

/* xctrctl; the inhibit bit of a transfer type is 32 + its ctrdata.TYPE */
#define CTRCTL_U_ENABLE		BIT_ULL(0)
#define CTRCTL_S_ENABLE		BIT_ULL(1)
#define CTRCTL_M_ENABLE		BIT_ULL(2)
#define CTRCTL_RASEMU		BIT_ULL(7)
#define CTRCTL_STE		BIT_ULL(8)
#define CTRCTL_MTE		BIT_ULL(9)
#define CTRCTL_BPFRZ		BIT_ULL(11)
#define CTRCTL_LCOFIFRZ		BIT_ULL(12)
#define CTRCTL_EXCINH		BIT_ULL(33)
#define CTRCTL_INTRINH		BIT_ULL(34)
#define CTRCTL_TRETINH		BIT_ULL(35)
#define CTRCTL_NTBREN		BIT_ULL(36)
#define CTRCTL_TKBRINH		BIT_ULL(37)
#define CTRCTL_INDCALL_INH	BIT_ULL(40)
#define CTRCTL_DIRCALL_INH	BIT_ULL(41)
#define CTRCTL_INDJUMP_INH	BIT_ULL(42)
#define CTRCTL_DIRJUMP_INH	BIT_ULL(43)
#define CTRCTL_CORSWAP_INH	BIT_ULL(44)
#define CTRCTL_RET_INH		BIT_ULL(45)
#define CTRCTL_INDLJUMP_INH	BIT_ULL(46)
#define CTRCTL_DIRLJUMP_INH	BIT_ULL(47)

/* sctrstatus */
#define SCTRSTATUS_WRPTR_MASK	GENMASK_ULL(7, 0)
#define SCTRSTATUS_FROZEN	BIT_ULL(31)

/* sctrdepth: DEPTH (WARL) encodes 16 << DEPTH entries */
#define SCTRDEPTH_MASK		GENMASK_ULL(2, 0)
#define SCTRDEPTH_MIN		0	/* 16 entries */
#define SCTRDEPTH_MAX		4	/* 256 entries */

/* Entry i: siselect = CTR_ENTRIES_FIRST + i, then sireg/sireg2/sireg3 */
#define CTR_ENTRIES_FIRST	0x200
#define CTR_ENTRIES_LAST	0x2ff

/* ctrsource, ctrtarget, ctrdata */
#define CTRSOURCE_VALID		BIT_ULL(0)
#define CTRTARGET_MISP		BIT_ULL(0)
#define CTRDATA_TYPE_MASK	GENMASK_ULL(3, 0)
#define CTRDATA_CCV		BIT_ULL(15)
#define CTRDATA_CCM_MASK	GENMASK_ULL(27, 16)
#define CTRDATA_CCE_MASK	GENMASK_ULL(31, 28)

/* ctrdata.TYPE */
#define CTRDATA_TYPE_NONE			0
#define CTRDATA_TYPE_EXCEPTION			1
#define CTRDATA_TYPE_INTERRUPT			2
#define CTRDATA_TYPE_TRAP_RET			3
#define CTRDATA_TYPE_NONTAKEN_BRANCH		4
#define CTRDATA_TYPE_TAKEN_BRANCH		5
#define CTRDATA_TYPE_RESERVED_6			6
#define CTRDATA_TYPE_RESERVED_7			7
#define CTRDATA_TYPE_INDIRECT_CALL		8
#define CTRDATA_TYPE_DIRECT_CALL		9
#define CTRDATA_TYPE_INDIRECT_JUMP		10
#define CTRDATA_TYPE_DIRECT_JUMP		11
#define CTRDATA_TYPE_CO_ROUTINE_SWAP		12
#define CTRDATA_TYPE_RETURN			13
#define CTRDATA_TYPE_OTHER_INDIRECT_JUMP	14
#define CTRDATA_TYPE_OTHER_DIRECT_JUMP		15

/* ---- end of the asm/csr.h block ---- */

/* ---- asm/insn-def.h: SCTRCLR (CTR v1.0 "Clear") ---- */

#define SCTRCLR()						\
	INSN_R(OPCODE_SYSTEM, FUNC3(0), FUNC7(8),		\
	       __RD(0), __RS1(0), __RS2(4))

/* ---- end of the asm/insn-def.h block ---- */

/*
 * Sscsrind, Sscofpmf and Smcdeleg/Ssccfg CSRs that Linux 7.3's asm/csr.h
 * has and 6.12's (or a libc) lacks; defined the same way, so a kernel
 * header that defines them again does not conflict.
 */
#ifndef CSR_SCOUNTINHIBIT
#define CSR_SCOUNTINHIBIT	0x120
#endif
#ifndef CSR_SISELECT
#define CSR_SISELECT		0x150
#endif
#ifndef CSR_SIREG
#define CSR_SIREG		0x151
#endif
#ifndef CSR_SIREG2
#define CSR_SIREG2		0x152
#endif
#ifndef CSR_SIREG3
#define CSR_SIREG3		0x153
#endif
#ifndef CSR_SCOUNTOVF
#define CSR_SCOUNTOVF		0xda0
#endif
/* siselect SISELECT_SSCCFG_BASE + i reaches counter i (Smcdeleg) */
#ifndef SISELECT_SSCCFG_BASE
#define SISELECT_SSCCFG_BASE		0x40
#endif

#endif /* RVCTR_CTR_H */
