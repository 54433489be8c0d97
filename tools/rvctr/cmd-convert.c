// SPDX-License-Identifier: GPL-2.0-only
/* rvctr convert: one input stream, one output format. */
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/autofdo.h>
#include <rvctr/maps.h>
#include <rvctr/perf_data.h>
#include <rvctr/perfscript.h>
#include <rvctr/spe.h>
#include <rvctr/symtab.h>
#include "builtin.h"
#include "source.h"

static const char convert_usage[] =
	"usage: rvctr convert [options] -f FORMAT -o OUTPUT [INPUT]\n"
	"\n"
	"INPUT (default perf.data) is a perf.data file with branch stacks (from perf\n"
	"record -b or rvctr record) or the driver's raw CTR snapshot text.\n"
	"\n"
	"  -f, --format FORMAT  perf        perf.data with branch stacks\n"
	"                       spe         SPE-like per-branch samples (events branch,\n"
	"                                   branch-miss; ip=source, addr=target,\n"
	"                                   weight=cycles, brstack=[this,\n"
	"                                   {0, previous target}], as perf's SPE)\n"
	"                       autofdo     AutoFDO text profile for create_llvm_prof /\n"
	"                                   create_gcov --profiler text (one binary)\n"
	"                       perfscript  perf-script text for llvm-profgen --perfscript\n"
	"  -o, --output FILE    output file (required)\n"
	"  -b, --binary PATH    snapshots: the program the addresses belong to (adds its\n"
	"                       COMM and MMAP2); autofdo: the binary to profile (default:\n"
	"                       the one with the most branches)\n"
	"  -p, --pid N          snapshots: pid to attribute samples to (default 1)\n"
	"      --misp           snapshots: the hart implements ctrtarget.MISP\n"
	"      --arch NAME      HEADER_ARCH of perf.data output (default: the input's,\n"
	"                       else riscv64)\n"
	"      --progress       show progress even when stderr is not a terminal\n"
	"  -h, --help           this text\n";

enum format { FMT_PERF, FMT_SPE, FMT_AUTOFDO, FMT_PERFSCRIPT };

struct convert {
	enum format fmt;
	const char *output;
	const char *binary;
	const char *arch;
	struct rvctr_writer *w;
	FILE *out;
	struct rvctr_maps *maps;
	struct rvctr_afdo **afdo;	/* per binary, indexed like maps' dsos */
	uint64_t *afdo_branches;
	unsigned int nr_afdo;
	uint64_t samples, no_branches;
	int local_build_ids;	/* snapshots: build ids from the files named */
	char err[512];
};

struct xlate_ctx {
	struct rvctr_maps *maps;
	uint32_t pid;
	unsigned int dso;
};

static int parse_format(const char *s, enum format *f)
{
	static const char * const names[] = { "perf", "spe", "autofdo", "perfscript" };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*f = i;
			return 0;
		}
	return -1;
}

/* The attribute of branch-stack output: the input's event, our sample layout. */
static void perf_attr(const struct rvctr_reader *r, struct perf_event_attr *a)
{
	const struct perf_event_attr *in = r ? rvctr_reader__attr(r, 0) : NULL;

	memset(a, 0, sizeof(*a));
	if (in) {
		a->type = in->type;
		a->config = in->config;
		a->sample_period = in->sample_period;
		a->freq = in->freq;
		a->exclude_kernel = in->exclude_kernel;
		a->exclude_user = in->exclude_user;
		a->exclude_hv = in->exclude_hv;
		a->branch_sample_type = in->branch_sample_type &
			~(uint64_t)(PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS);
	} else {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->sample_period = 1;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK;
	a->sample_id_all = 1;
	a->mmap = a->mmap2 = a->comm = 1;
}

static void copy_build_ids(struct convert *c, const struct rvctr_reader *r)
{
	unsigned int i;

	for (i = 0; r && i < rvctr_reader__nr_build_ids(r); i++) {
		const struct rvctr_build_id *b = rvctr_reader__build_id(r, i);

		rvctr_writer__add_build_id(c->w, b->pid, b->misc & 0x7, b->filename, b->id,
					   b->size);
	}
}

static int open_writer(struct convert *c, const struct source *src)
{
	const struct rvctr_reader *r = source__reader(src);
	struct perf_event_attr attrs[RVCTR_SPE_NR_ATTRS];
	const char *names[RVCTR_SPE_NR_ATTRS];
	const char *arch = c->arch;

	if (c->fmt == FMT_SPE) {
		rvctr_spe__attrs(attrs, names, r ? rvctr_reader__attr(r, 0) : NULL);
		c->w = rvctr_writer__open(c->output, attrs, names, RVCTR_SPE_NR_ATTRS,
					  c->err, sizeof(c->err));
	} else {
		perf_attr(r, &attrs[0]);
		names[0] = r ? rvctr_reader__attr_name(r, 0) : "cycles";
		c->w = rvctr_writer__open(c->output, attrs, names, 1, c->err, sizeof(c->err));
	}
	if (!c->w)
		return -1;
	if (!arch)
		arch = r && rvctr_reader__arch(r) ? rvctr_reader__arch(r) : "riscv64";
	rvctr_writer__set_arch(c->w, arch);
	copy_build_ids(c, r);
	return 0;
}

static int open_output(struct convert *c, const struct source *src)
{
	if (c->fmt == FMT_PERF || c->fmt == FMT_SPE)
		return open_writer(c, src);
	if (c->fmt == FMT_AUTOFDO) {
		c->maps = rvctr_maps__new();
		if (!c->maps) {
			snprintf(c->err, sizeof(c->err), "out of memory");
			return -1;
		}
		return 0;
	}
	c->out = fopen(c->output, "w");
	if (!c->out) {
		snprintf(c->err, sizeof(c->err), "%s: %m", c->output);
		return -1;
	}
	return 0;
}

/*
 * Build id of a mapped file, for snapshot input only: the user named the
 * binary.  A perf.data's own build ids are copied instead; a local file of
 * the same name may be another build.
 */
static void add_file_build_id(struct convert *c, const struct rvctr_mmap *m)
{
	struct rvctr_symtab *t;
	uint8_t id[20];
	unsigned int n;
	char err[256];

	if (m->filename[0] != '/')
		return;
	t = rvctr_symtab__load(m->filename, NULL, err, sizeof(err));
	if (!t)
		return;
	n = rvctr_symtab__build_id(t, id);
	if (n)
		rvctr_writer__add_build_id(c->w, -1, PERF_RECORD_MISC_USER, m->filename, id, n);
	rvctr_symtab__delete(t);
}

static int on_mmap(struct convert *c, const struct rvctr_mmap *m)
{
	switch (c->fmt) {
	case FMT_PERF:
	case FMT_SPE:
		if (c->local_build_ids)
			add_file_build_id(c, m);
		return rvctr_writer__mmap2(c->w, m, 0);
	case FMT_AUTOFDO:
		return rvctr_maps__add(c->maps, m);
	case FMT_PERFSCRIPT:
		return rvctr_perfscript__mmap(c->out, m, NULL);
	}
	return 0;
}

static int xlate(void *ctx, uint64_t addr, uint64_t *out)
{
	struct xlate_ctx *x = ctx;
	const struct rvctr_map *map = rvctr_maps__find(x->maps, x->pid, addr);

	if (!map || map->dso != x->dso)
		return -1;
	*out = addr - map->start + map->pgoff;	/* the file offset */
	return 0;
}

static struct rvctr_afdo *afdo_for(struct convert *c, unsigned int dso)
{
	if (dso >= c->nr_afdo) {
		unsigned int n = rvctr_maps__nr_dsos(c->maps);
		struct rvctr_afdo **a = realloc(c->afdo, n * sizeof(*a));
		uint64_t *b = realloc(c->afdo_branches, n * sizeof(*b));

		if (a)
			c->afdo = a;
		if (b)
			c->afdo_branches = b;
		if (!a || !b)
			return NULL;
		memset(a + c->nr_afdo, 0, (n - c->nr_afdo) * sizeof(*a));
		memset(b + c->nr_afdo, 0, (n - c->nr_afdo) * sizeof(*b));
		c->nr_afdo = n;
	}
	if (!c->afdo[dso]) {
		char err[512];

		c->afdo[dso] = rvctr_afdo__new();
		if (c->afdo[dso] && rvctr_afdo__set_binary(c->afdo[dso],
					rvctr_maps__dso_name(c->maps, dso), err, sizeof(err)) &&
		    rvctr_maps__dso_name(c->maps, dso)[0] == '/')
			fprintf(stderr, "rvctr: warning: %s: writing file offsets (right for "
				"ET_EXEC and GNU ld layouts only)\n", err);
	}
	return c->afdo[dso];
}

/* Add the sample to the profile of every binary its branches touch. */
static int afdo_sample(struct convert *c, const struct rvctr_sample *s)
{
	unsigned int seen[8], nr_seen = 0, j;
	uint64_t i;

	for (i = 0; i < s->nr_branches && nr_seen < 8; i++) {
		const struct rvctr_map *m = rvctr_maps__find(c->maps, s->pid, s->branches[i].to);
		struct xlate_ctx x = { c->maps, s->pid, 0 };
		struct rvctr_afdo *a;

		if (!m)
			continue;
		for (j = 0; j < nr_seen && seen[j] != m->dso; j++)
			;
		if (j < nr_seen)
			continue;
		seen[nr_seen++] = m->dso;
		x.dso = m->dso;
		a = afdo_for(c, m->dso);
		if (!a || rvctr_afdo__add(a, s->ip, s->branches, s->nr_branches, xlate, &x))
			return -1;
		c->afdo_branches[m->dso] += s->nr_branches;
	}
	return 0;
}

static int on_sample(struct convert *c, const struct rvctr_sample *s)
{
	struct rvctr_sample o = *s;

	c->samples++;
	if (!s->nr_branches)
		c->no_branches++;
	switch (c->fmt) {
	case FMT_PERF:
		o.attr = 0;
		return rvctr_writer__sample(c->w, &o);
	case FMT_SPE:
		return rvctr_spe__emit(c->w, s);
	case FMT_AUTOFDO:
		return afdo_sample(c, s);
	case FMT_PERFSCRIPT:
		return s->nr_branches ? rvctr_perfscript__sample(c->out, s) : 0;
	}
	return 0;
}

static int on_event(struct convert *c, const struct rvctr_event *ev)
{
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(c, &ev->sample);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(c, &ev->mmap);
	case PERF_RECORD_COMM:
		if (c->fmt == FMT_PERF || c->fmt == FMT_SPE)
			return rvctr_writer__comm(c->w, &ev->comm, 0);
		return 0;
	default:
		return 0;
	}
}

static int name_matches(const char *dso, const char *want)
{
	const char *base = strrchr(dso, '/');

	return !strcmp(dso, want) || (base && !strcmp(base + 1, want)) ||
	       (strrchr(want, '/') && !strcmp(base ? base + 1 : dso, strrchr(want, '/') + 1));
}

static int pick_binary(const struct convert *c)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < c->nr_afdo; i++) {
		if (!c->afdo[i])
			continue;
		if (c->binary) {
			if (name_matches(rvctr_maps__dso_name(c->maps, i), c->binary))
				return i;
		} else if (best < 0 || c->afdo_branches[i] > c->afdo_branches[best]) {
			best = i;
		}
	}
	return best;
}

static int write_autofdo(struct convert *c)
{
	int dso = pick_binary(c);
	FILE *f;
	int ret;

	if (dso < 0) {
		snprintf(c->err, sizeof(c->err), "no branches fall in %s%s",
			 c->binary ? "binary " : "any mapped binary",
			 c->binary ? c->binary : " (is the input missing MMAP records?)");
		return -1;
	}
	f = fopen(c->output, "w");
	if (!f) {
		snprintf(c->err, sizeof(c->err), "%s: %m", c->output);
		return -1;
	}
	ret = rvctr_afdo__write(c->afdo[dso], f);
	if (fclose(f) || ret) {
		snprintf(c->err, sizeof(c->err), "%s: write error", c->output);
		return -1;
	}
	fprintf(stderr, "rvctr: autofdo profile of %s: %llu ranges, %llu branches\n",
		rvctr_maps__dso_name(c->maps, dso),
		(unsigned long long)rvctr_afdo__nr_ranges(c->afdo[dso]),
		(unsigned long long)rvctr_afdo__nr_branches(c->afdo[dso]));
	return 0;
}

static int finish(struct convert *c)
{
	int ret = 0;

	if (c->w) {
		ret = rvctr_writer__close(c->w, c->err, sizeof(c->err));
		c->w = NULL;
	}
	if (c->out) {
		if (fclose(c->out)) {
			snprintf(c->err, sizeof(c->err), "%s: write error", c->output);
			ret = -1;
		}
		c->out = NULL;
	}
	if (c->fmt == FMT_AUTOFDO && !ret)
		ret = write_autofdo(c);
	return ret;
}

static void cleanup(struct convert *c)
{
	unsigned int i;
	char err[256];

	if (c->w)
		rvctr_writer__close(c->w, err, sizeof(err));
	if (c->out)
		fclose(c->out);
	for (i = 0; i < c->nr_afdo; i++)
		rvctr_afdo__delete(c->afdo[i]);
	free(c->afdo);
	free(c->afdo_branches);
	rvctr_maps__delete(c->maps);
}

static int run(struct convert *c, struct source *src, int force_progress)
{
	struct rvctr_event ev;
	struct progress p;
	int ret;

	c->local_build_ids = source__is_snapshot(src);
	if (open_output(c, src))
		return error("%s", c->err);
	progress__init(&p, "converting", force_progress);
	while ((ret = source__next(src, &ev)) > 0) {
		if (on_event(c, &ev)) {
			snprintf(c->err, sizeof(c->err), "%s", "output failed (write error or out of memory)");
			return error("%s", c->err);
		}
		if (!(c->samples & 0xfff))
			progress__update(&p, source__progress(src));
	}
	progress__done(&p);
	if (ret < 0)
		return error("%s", source__error(src));
	if (finish(c))
		return error("%s", c->err);
	if (c->no_branches)
		fprintf(stderr, "rvctr: %llu of %llu samples had no branch stack\n",
			(unsigned long long)c->no_branches, (unsigned long long)c->samples);
	return 0;
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "binary", required_argument, NULL, 'b' },
		{ "pid", required_argument, NULL, 'p' },
		{ "misp", no_argument, NULL, 'm' },
		{ "arch", required_argument, NULL, 'a' },
		{ "progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct source_opts so = { .pid = 1 };
	struct convert c = { .fmt = -1 };
	int opt, progress = 0, ret, have_fmt = 0;
	struct source *src;
	char err[512];

	while ((opt = getopt_long(argc, argv, "f:o:b:p:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (parse_format(optarg, &c.fmt))
				return error("unknown format '%s' (perf, spe, autofdo, perfscript)",
					     optarg);
			have_fmt = 1;
			break;
		case 'o': c.output = optarg; break;
		case 'b': c.binary = so.binary = optarg; break;
		case 'p': so.pid = strtoul(optarg, NULL, 0); break;
		case 'm': so.has_misp = 1; break;
		case 'a': c.arch = optarg; break;
		case 'P': progress = 1; break;
		case 'h': fputs(convert_usage, stdout); return 0;
		default: fputs(convert_usage, stderr); return 2;
		}
	}
	if (!have_fmt || !c.output || argc - optind > 1) {
		fputs(convert_usage, stderr);
		return 2;
	}
	src = source__open(optind < argc ? argv[optind] : "perf.data", &so, err, sizeof(err));
	if (!src)
		return error("%s", err);
	ret = run(&c, src, progress);
	cleanup(&c);
	source__close(src);
	return ret;
}
