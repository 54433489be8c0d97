/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The UAPI <linux/types.h> plus the kernel's short integer types and bool. */
#ifndef RVCTR_SHIM_LINUX_TYPES_H
#define RVCTR_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#endif /* RVCTR_SHIM_LINUX_TYPES_H */
