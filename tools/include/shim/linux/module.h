/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel's <linux/module.h>, as far as a KUnit suite uses what it
 * brings in: memset() and ARRAY_SIZE(); the MODULE_*() tags are in
 * kunit/test.h.
 */
#ifndef RVCTR_SHIM_LINUX_MODULE_H
#define RVCTR_SHIM_LINUX_MODULE_H

#include <string.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* RVCTR_SHIM_LINUX_MODULE_H */
