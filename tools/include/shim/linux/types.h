/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The UAPI <linux/types.h> plus what the kernel's adds: u8..s64, bool,
 * size_t.  A build that also has the kernel's tools/include (the guest
 * selftests) reaches its <linux/types.h> next, which has them already.
 */
#ifndef RVCTR_SHIM_LINUX_TYPES_H
#define RVCTR_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#ifndef _TOOLS_LINUX_TYPES_H_
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;
#endif

#endif /* RVCTR_SHIM_LINUX_TYPES_H */
