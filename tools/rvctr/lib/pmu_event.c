// SPDX-License-Identifier: GPL-2.0-only
/* sysfs PMU event aliases to attr config words; see rvctr/pmu_event.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/pmu_event.h>

/* Place @value in the bit ranges of @fmt ("config1:0-7,32-35"). */
static int place(const char *fmt, uint64_t value, struct perf_event_attr *attr)
{
	unsigned long long *word;
	const char *p = strchr(fmt, ':');
	unsigned int lo, hi, shift = 0;
	int n;

	if (!p)
		return -1;
	if (!strncmp(fmt, "config:", 7))
		word = &attr->config;
	else if (!strncmp(fmt, "config1:", 8))
		word = &attr->config1;
	else if (!strncmp(fmt, "config2:", 8))
		word = &attr->config2;
#ifdef PERF_ATTR_SIZE_VER8	/* the header has config3 (Linux 6.3) */
	else if (!strncmp(fmt, "config3:", 8))
		word = &attr->config3;
#endif
	else
		return -1;
	for (p++; *p && *p != '\n'; p += n + (p[n] == ',')) {
		if (sscanf(p, "%u-%u%n", &lo, &hi, &n) != 2) {
			if (sscanf(p, "%u%n", &lo, &n) != 1)
				return -1;
			hi = lo;
		}
		if (hi < lo || hi > 63)
			return -1;
		*word |= ((value >> shift) & (~0ULL >> (63 - (hi - lo)))) << lo;
		shift += hi - lo + 1;
		if (p[n] != ',' && p[n] && p[n] != '\n')
			return -1;
	}
	return shift >= 64 || !(value >> shift) ? 0 : -1;
}

int rvctr_pmu_event__parse(const char *spec, rvctr_format_fn format, void *ctx,
			   struct perf_event_attr *attr, char *err, size_t errlen)
{
	char buf[256], *term, *save, *eq, *end;
	unsigned long long value;
	const char *fmt;

	if ((size_t)snprintf(buf, sizeof(buf), "%s", spec) >= sizeof(buf)) {
		snprintf(err, errlen, "\"%.32s...\": longer than %zu bytes", spec, sizeof(buf) - 1);
		return -1;
	}
	buf[strcspn(buf, "\n")] = 0;
	for (term = strtok_r(buf, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		eq = strchr(term, '=');
		value = 1;	/* a bare term is a flag */
		if (eq) {
			*eq = 0;
			errno = 0;
			value = strtoull(eq + 1, &end, 0);
			if (errno || *end || end == eq + 1) {
				snprintf(err, errlen, "bad value in \"%s\"", spec);
				return -1;
			}
		}
		fmt = format(ctx, term);
		if (!fmt || place(fmt, value, attr)) {
			snprintf(err, errlen, "term \"%s\" of \"%s\": %s", term, spec,
				 fmt ? "value does not fit its format" : "no such format");
			return -1;
		}
	}
	return 0;
}
