/* SPDX-License-Identifier: GPL-2.0-only */
/* The rvctr subcommands and what they share. */
#ifndef RVCTR_BUILTIN_H
#define RVCTR_BUILTIN_H

#include <stdio.h>
#include <sys/types.h>

int cmd_record(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_topdown(int argc, char **argv);

struct rvctr_topdown;
/* topdown -- COMMAND: count the events this PMU has while COMMAND runs. */
int topdown_run(char **argv, struct rvctr_topdown *td, unsigned int level);

/*
 * Fork COMMAND held before exec until a byte is written to *go (so events
 * opened on its pid count from exec on); @stdout_to_stderr: its standard
 * output is standard error.  Returns its pid, or -1.
 */
pid_t workload_start(char **argv, int *go, int stdout_to_stderr);

/*
 * Progress on stderr: only when it is a terminal or --progress asked; in
 * whole lines when it is not a terminal (a log).
 */
struct progress {
	int on, tty;
	double last, last_line;
	const char *what;
};

void progress__init(struct progress *p, const char *what, int forced);
void progress__update(struct progress *p, double frac);
/* A count instead of a fraction ("recording: 1234 samples"). */
void progress__count(struct progress *p, unsigned long long n, const char *unit);
void progress__done(struct progress *p);

/*
 * -b PATH: the binary's absolute path, symlinks resolved (realpath), as the
 * kernel names a mapped file and as a profile's consumers look it up.  A
 * PATH that is no file here is kept as given, with a warning: it is then
 * matched by name only and its program headers are not read, so unless the
 * recorded file is found (--symfs, --buildid-dir) addresses are file
 * offsets (an lld PIE's profile 0x1000 short).  NULL when out of memory.
 */
char *binary_path(const char *path);

/* "rvctr: <msg>" on stderr; returns the exit status for errors (1). */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* RVCTR_BUILTIN_H */
