/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sample filters of convert and report, as perf script/report have them:
 * --pid, --tid, --comm, --dso, each a comma-separated list; a sample is
 * kept when it matches every given filter.  --comm is the thread's name
 * at the sample (from COMM records), --dso the binary its ip is in
 * (full path or file name), as the machine has them (rvctr/machine.h).
 * Other records always pass.
 */
#ifndef RVCTR_FILTER_H
#define RVCTR_FILTER_H

#include <rvctr/perf_data.h>

struct rvctr_machine;

struct filter;

struct filter *filter__new(void);
void filter__delete(struct filter *f);
/* One option: 0, or -1 with @err. */
int filter__add(struct filter *f, const char *what, const char *list, char *err, size_t errlen);
int filter__active(const struct filter *f);
/* Does @s pass?  Its thread's name and its ip's binary are @m's. */
int filter__keep(struct filter *f, const struct rvctr_machine *m, const struct rvctr_sample *s);
uint64_t filter__dropped(const struct filter *f);

/*
 * The help lines of --tid, --comm and --dso.  --pid is described by each
 * command, as -p, --pid: for raw snapshots it also names the process the
 * samples are attributed to.
 */
#define FILTER_USAGE \
	"      --tid LIST       only samples of these threads\n" \
	"      --comm LIST      only samples of threads with these names\n" \
	"      --dso LIST       only samples whose ip is in these binaries\n"

#endif /* RVCTR_FILTER_H */
