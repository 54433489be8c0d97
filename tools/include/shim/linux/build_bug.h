/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel's <linux/build_bug.h>, as far as riscv_ctr_rec.c uses it:
 * static_assert() with the message optional.
 */
#ifndef RVCTR_SHIM_LINUX_BUILD_BUG_H
#define RVCTR_SHIM_LINUX_BUILD_BUG_H

#ifndef static_assert
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)
#endif

#endif /* RVCTR_SHIM_LINUX_BUILD_BUG_H */
