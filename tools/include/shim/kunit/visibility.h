/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel's <kunit/visibility.h>, as riscv_ctr_rec.c uses it: its
 * exports for the KUnit suite mean nothing in user space.
 */
#ifndef RVCTR_SHIM_KUNIT_VISIBILITY_H
#define RVCTR_SHIM_KUNIT_VISIBILITY_H

#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif /* RVCTR_SHIM_KUNIT_VISIBILITY_H */
