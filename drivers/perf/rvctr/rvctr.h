/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rvctr: RISC-V CPU PMU driver (hpmcounters, Sscofpmf, Smctr/Ssctr).
 * Internal interfaces shared by the driver's files.
 */
#ifndef _RVCTR_H
#define _RVCTR_H

#include <linux/bits.h>
#include <linux/platform_device.h>
#include <linux/types.h>

/* ISA extensions the driver cares about, as read from the device tree. */
enum rvctr_ext {
	RVCTR_EXT_SSCOFPMF,
	RVCTR_EXT_SMCSRIND,
	RVCTR_EXT_SSCSRIND,
	RVCTR_EXT_SMCTR,
	RVCTR_EXT_SSCTR,
	RVCTR_EXT_SMCDELEG,
	RVCTR_EXT_SSCCFG,
	RVCTR_EXT_SMSTATEEN,
	RVCTR_EXT_H,
	RVCTR_NR_EXT,
};

struct rvctr_caps {
	unsigned long ext;		/* BIT(enum rvctr_ext) on every hart */
	unsigned int ctr_depths;	/* BIT(n): 16 << n entries supported */
};

const char *rvctr_ext_name(enum rvctr_ext ext);
int rvctr_isa_probe(struct device *dev, struct rvctr_caps *caps);

static inline bool rvctr_has(const struct rvctr_caps *caps, enum rvctr_ext ext)
{
	return caps->ext & BIT(ext);
}

#endif /* _RVCTR_H */
