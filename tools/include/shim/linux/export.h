/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel's <linux/export.h>: riscv_ctr_rec.c exports only through
 * EXPORT_SYMBOL_IF_KUNIT() (the shim's kunit/visibility.h), so nothing.
 */
#ifndef RVCTR_SHIM_LINUX_EXPORT_H
#define RVCTR_SHIM_LINUX_EXPORT_H
#endif /* RVCTR_SHIM_LINUX_EXPORT_H */
