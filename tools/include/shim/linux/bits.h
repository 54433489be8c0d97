/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The kernel's <linux/bits.h>, as far as riscv_ctr_rec.{c,h} use it. */
#ifndef RVCTR_SHIM_LINUX_BITS_H
#define RVCTR_SHIM_LINUX_BITS_H

#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define GENMASK(h, l)		((~0UL >> (8 * sizeof(long) - 1 - (h))) & (~0UL << (l)))
#define GENMASK_ULL(h, l)	((~0ULL >> (63 - (h))) & (~0ULL << (l)))

#endif /* RVCTR_SHIM_LINUX_BITS_H */
