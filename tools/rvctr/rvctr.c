// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr: turn RISC-V Control Transfer Records into the formats profilers
 * read.  Subcommands: record, convert, report, topdown.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rvctr/symtab.h>
#include "builtin.h"

static const char usage[] =
	"usage: rvctr <command> [options]\n"
	"\n"
	"  record    run a command and record branch stacks into perf.data\n"
	"  convert   perf.data or raw CTR snapshots to perf.data, SPE-like samples,\n"
	"            AutoFDO text or llvm-profgen perf-script input\n"
	"  report    branch types, hottest edges, mispredicts, cycles, by binary/symbol\n"
	"  topdown   top-down levels 1-3 from counter values\n"
	"\n"
	"rvctr <command> --help describes each; see also rvctr(1).\n";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "record", cmd_record },
	{ "convert", cmd_convert },
	{ "report", cmd_report },
	{ "topdown", cmd_topdown },
};

int error(const char *fmt, ...)
{
	va_list ap;

	fputs("rvctr: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/*
 * -b: the binary's absolute path, its directory resolved (realpath) but
 * its own name kept, so that a symbolic link (bench -> bench.unstripped)
 * still matches the name the recording has; a missing file is said loudly
 * (but for the kernel's name, [kernel.kallsyms], which is no file).
 */
char *binary_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir, *abs = NULL;
	struct stat st;

	if (rvctr_symtab__is_kernel_name(path))
		return strdup(path);	/* the kernel: no file */
	errno = 0;
	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (dir && *base && !stat(path, &st)) {
		char *rdir = realpath(dir, NULL);

		if (rdir && asprintf(&abs, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", base) < 0)
			abs = NULL;
		free(rdir);
	}
	free(dir);
	if (abs)
		return abs;
	fprintf(stderr, "rvctr: warning: -b %s: %s: matched by name only, its program headers "
		"unread; unless the recorded file is found (--symfs, --buildid-dir), addresses "
		"are file offsets (an lld PIE's profile is 0x1000 short)\n", path,
		errno ? strerror(errno) : "not a file name");
	return strdup(path);
}

/*
 * On a terminal progress rewrites one line; into a log (stderr not a
 * terminal, --progress) it writes whole lines, at most one per 10% or per
 * second, so the log stays readable.
 */
void progress__init(struct progress *p, const char *what, int forced)
{
	p->tty = isatty(STDERR_FILENO);
	p->on = forced || p->tty;
	p->last = -1;
	p->last_line = 0;
	p->what = what;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void progress__update(struct progress *p, double frac)
{
	if (!p->on)
		return;
	if (p->tty) {
		if (frac - p->last < 0.01)
			return;
		fprintf(stderr, "\r%s: %3.0f%%", p->what, 100 * frac);
	} else {
		if (frac - p->last < 0.1)
			return;
		fprintf(stderr, "%s: %3.0f%%\n", p->what, 100 * frac);
	}
	p->last = frac;
}

void progress__count(struct progress *p, unsigned long long n, const char *unit)
{
	double t;

	if (!p->on)
		return;
	if (p->tty) {
		fprintf(stderr, "\r%s: %llu %s", p->what, n, unit);
		return;
	}
	t = now();
	if (t - p->last_line >= 1) {
		fprintf(stderr, "%s: %llu %s\n", p->what, n, unit);
		p->last_line = t;
	}
}

void progress__done(struct progress *p)
{
	if (p->on)
		fprintf(stderr, p->tty ? "\r%s: done\n" : "%s: done\n", p->what);
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("rvctr 0.1");
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "rvctr: unknown command '%s'\n\n%s", argv[1], usage);
	return 2;
}
