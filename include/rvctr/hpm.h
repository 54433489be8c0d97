/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mhpmevent3..31 (Sscofpmf; sireg2 of a delegated counter, Smcdeleg):
 * overflow flag and per-privilege inhibits in the top bits, the event
 * selector below them (the privileged spec's mhpmevent and Sscofpmf;
 * XiangShan Kunminghu's combining selector), and the field helpers the
 * vendor tables use.  Depends on <linux/types.h> only.
 */
#ifndef RVCTR_HPM_H
#define RVCTR_HPM_H

#include <linux/types.h>

#define RVCTR_BIT(n)		(1ULL << (n))
/* Contiguous mask of bits h..l (inclusive), like the kernel's GENMASK_ULL. */
#define RVCTR_MASK(h, l)	((~0ULL >> (63 - (h))) & (~0ULL << (l)))
/* Extract/insert a field given its mask, like FIELD_GET/FIELD_PREP. */
#define RVCTR_GET(mask, v)	(((__u64)(v) & (mask)) >> __builtin_ctzll(mask))
#define RVCTR_PREP(mask, v)	(((__u64)(v) << __builtin_ctzll(mask)) & (mask))

#define RVCTR_HPMEVENT_OF	RVCTR_BIT(63)
#define RVCTR_HPMEVENT_MINH	RVCTR_BIT(62)
#define RVCTR_HPMEVENT_SINH	RVCTR_BIT(61)
#define RVCTR_HPMEVENT_UINH	RVCTR_BIT(60)
#define RVCTR_HPMEVENT_VSINH	RVCTR_BIT(59)
#define RVCTR_HPMEVENT_VUINH	RVCTR_BIT(58)
#define RVCTR_HPMEVENT_INH_ALL	RVCTR_MASK(62, 58)
#define RVCTR_HPMEVENT_SELECTOR	RVCTR_MASK(55, 0)

#endif /* RVCTR_HPM_H */
