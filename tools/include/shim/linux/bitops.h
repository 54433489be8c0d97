/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel's <linux/bitops.h>, as far as riscv_ctr_rec.c uses it:
 * __ffs() and __ffs64(), the index of the lowest set bit of a word that
 * is not 0 (undefined for 0, as the kernel's).
 */
#ifndef RVCTR_SHIM_LINUX_BITOPS_H
#define RVCTR_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

static inline unsigned int __ffs64(u64 word)
{
	return __builtin_ctzll(word);
}

#endif /* RVCTR_SHIM_LINUX_BITOPS_H */
