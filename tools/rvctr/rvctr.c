// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr: turn RISC-V Control Transfer Records into the formats profilers
 * read.  Subcommands: record, convert, report, topdown.
 */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

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

void progress__init(struct progress *p, const char *what, int forced)
{
	p->on = forced || isatty(STDERR_FILENO);
	p->last = -1;
	p->what = what;
}

void progress__update(struct progress *p, double frac)
{
	if (!p->on || frac - p->last < 0.01)
		return;
	p->last = frac;
	fprintf(stderr, "\r%s: %3.0f%%", p->what, 100 * frac);
}

void progress__done(struct progress *p)
{
	if (p->on)
		fprintf(stderr, "\r%s: done\n", p->what);
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
