// SPDX-License-Identifier: GPL-2.0-only
/* sysfs event alias parsing. */
#include <rvctr/pmu_event.h>

#include "tests.h"

static const char *formats(void *ctx, const char *term)
{
	(void)ctx;
	if (!strcmp(term, "event"))
		return "config:0-15\n";
	if (!strcmp(term, "split"))
		return "config1:0-3,32-35";
	if (!strcmp(term, "edge"))
		return "config:18";
	return NULL;
}

int main(void)
{
	struct perf_event_attr a;
	char err[256];

	memset(&a, 0, sizeof(a));
	T_EQ(rvctr_pmu_event__parse("event=0x16\n", formats, NULL, &a, err, sizeof(err)), 0, "parses");
	T_EQ(a.config, 0x16, "event in config bits 0-15");
	memset(&a, 0, sizeof(a));
	T_EQ(rvctr_pmu_event__parse("event=0x2,split=0xab,edge", formats, NULL, &a, err,
				    sizeof(err)), 0, "three terms");
	T_EQ(a.config, 0x2 | 1 << 18, "flag term sets its bit");
	T_EQ(a.config1, 0xbULL | 0xaULL << 32, "split field");
	T_EQ(rvctr_pmu_event__parse("event=0x10000", formats, NULL, &a, err, sizeof(err)),
	     (uint64_t)-1, "value wider than its format");
	T_EQ(rvctr_pmu_event__parse("umask=1", formats, NULL, &a, err, sizeof(err)),
	     (uint64_t)-1, "unknown term");
	T_OK(strstr(err, "no such format") != NULL, "says so");
	T_EQ(rvctr_pmu_event__parse("event=zz", formats, NULL, &a, err, sizeof(err)),
	     (uint64_t)-1, "bad number");
	return tests_done();
}
