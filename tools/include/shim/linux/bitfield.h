/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel's <linux/bitfield.h>, as far as riscv_ctr_rec.{c,h} and its
 * KUnit suite use it: FIELD_GET() and FIELD_PREP() of a constant, non-zero
 * mask (the kernel's also checks both at compile time).
 */
#ifndef RVCTR_SHIM_LINUX_BITFIELD_H
#define RVCTR_SHIM_LINUX_BITFIELD_H

#define FIELD_GET(mask, reg)	\
	((__typeof__(mask))(((reg) & (mask)) >> __builtin_ctzll(mask)))
#define FIELD_PREP(mask, val)	\
	((__typeof__(mask))(((__typeof__(mask))(val) << __builtin_ctzll(mask)) & (mask)))

#endif /* RVCTR_SHIM_LINUX_BITFIELD_H */
