/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysfs PMU event aliases ("event=0x16,umask=0x2" in .../events/NAME) and
 * the format terms they use ("config:0-15" in .../format/event), turned
 * into perf_event_attr config words.
 */
#ifndef RVCTR_PMU_EVENT_H
#define RVCTR_PMU_EVENT_H

#include <stddef.h>
#include <linux/perf_event.h>

/* Returns the format text of @term (e.g. "config:0-15"), or NULL. */
typedef const char *(*rvctr_format_fn)(void *ctx, const char *term);

/*
 * Fill attr->config/config1/config2 (and config3, where the build's
 * <linux/perf_event.h> has it: the CTR options) from @spec; 0 or -1 (@err
 * says why).
 */
int rvctr_pmu_event__parse(const char *spec, rvctr_format_fn format, void *ctx,
			   struct perf_event_attr *attr, char *err, size_t errlen);

#endif /* RVCTR_PMU_EVENT_H */
