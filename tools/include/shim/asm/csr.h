/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CTR register layout, which upstream keeps in the kernel's
 * arch/riscv/include/asm/csr.h.
 */
#ifndef RVCTR_SHIM_ASM_CSR_H
#define RVCTR_SHIM_ASM_CSR_H

#include <rvctr/ctr.h>

#endif /* RVCTR_SHIM_ASM_CSR_H */
