// SPDX-License-Identifier: GPL-2.0-only
/*
 * Discovery of the extensions rvctr uses.  Linux 6.12 has no ISA ids for
 * Smctr/Ssctr/Sscsrind, so read each cpu node's riscv,isa-extensions (or,
 * on an ACPI boot, the ISA strings of the RHCT) and keep what every hart
 * has: perf events migrate between harts, so a capability present on
 * only some of them cannot be offered.
 */
#include <linux/acpi.h>
#include <linux/cpumask.h>
#include <linux/of.h>

#include <rvctr/isa.h>
#include "rvctr.h"

static const char * const rvctr_ext_names[RVCTR_NR_EXT] = {
	[RVCTR_EXT_SSCOFPMF]	= "sscofpmf",
	[RVCTR_EXT_SMCSRIND]	= "smcsrind",
	[RVCTR_EXT_SSCSRIND]	= "sscsrind",
	[RVCTR_EXT_SMCTR]	= "smctr",
	[RVCTR_EXT_SSCTR]	= "ssctr",
	[RVCTR_EXT_SMCDELEG]	= "smcdeleg",
	[RVCTR_EXT_SSCCFG]	= "ssccfg",
	[RVCTR_EXT_SMSTATEEN]	= "smstateen",
	[RVCTR_EXT_H]		= "h",
};

const char *rvctr_ext_name(enum rvctr_ext ext)
{
	return ext < RVCTR_NR_EXT ? rvctr_ext_names[ext] : "?";
}

static unsigned long rvctr_node_exts(struct device_node *np)
{
	unsigned long ext = 0;
	int i;

	for (i = 0; i < RVCTR_NR_EXT; i++)
		if (of_property_match_string(np, "riscv,isa-extensions",
					     rvctr_ext_names[i]) >= 0)
			ext |= BIT(i);
	return ext;
}

static int rvctr_isa_of(struct device *dev, unsigned long *ext)
{
	struct device_node *np;
	int cpu;

	*ext = ~0UL;
	for_each_possible_cpu(cpu) {
		np = of_get_cpu_node(cpu, NULL);
		if (!np) {
			dev_err(dev, "cpu%d has no device tree node\n", cpu);
			return -ENODEV;
		}
		*ext &= rvctr_node_exts(np);
		of_node_put(np);
	}
	return 0;
}

#ifdef CONFIG_ACPI
/*
 * The RHCT's hart info nodes each point at the ISA string of one hart;
 * keep what all of them have (include/rvctr/isa.h walks the table).
 */
static int rvctr_isa_acpi(struct device *dev, unsigned long *ext)
{
	struct acpi_table_header *table;
	unsigned int harts;
	acpi_status status;
	int ret;

	status = acpi_get_table(ACPI_SIG_RHCT, 0, &table);
	if (ACPI_FAILURE(status)) {
		dev_err(dev, "ACPI boot without an RHCT: cannot tell the harts' extensions\n");
		return -ENODEV;
	}
	ret = rvctr_rhct_exts(table, table->length, rvctr_ext_names,
			      RVCTR_NR_EXT, ext, &harts);
	acpi_put_table(table);
	if (ret) {
		dev_err(dev, "RHCT unusable (%d)\n", ret);
		return -ENODEV;
	}
	if (harts < num_possible_cpus()) {
		dev_err(dev, "RHCT describes %u harts of %u\n", harts,
			num_possible_cpus());
		return -ENODEV;
	}
	return 0;
}
#else
static int rvctr_isa_acpi(struct device *dev, unsigned long *ext)
{
	return -ENODEV;
}
#endif

int rvctr_isa_probe(struct device *dev, struct rvctr_caps *caps)
{
	unsigned long ext;
	int ret;

	ret = acpi_disabled ? rvctr_isa_of(dev, &ext) : rvctr_isa_acpi(dev, &ext);
	if (ret)
		return ret;
	caps->ext = ext & GENMASK(RVCTR_NR_EXT - 1, 0);
	return 0;
}
