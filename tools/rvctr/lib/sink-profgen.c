// SPDX-License-Identifier: GPL-2.0-only
/*
 * -f profgen: llvm-profgen's unsymbolized profile (what llvm-profgen
 * --skip-symbolization writes and --unsymbolized-profile reads): the
 * AutoFDO text of one binary without its second section, the address
 * counts, which llvm-profgen does not take ("Invalid raw profile").  The
 * AutoFDO sink makes the profile; this one writes it on.  A few KB
 * instead of perf-script text 10-20 times the input's size: the fast way
 * from a recording to an LLVM sample profile
 * (Documentation/profile-bench.rst, "Converter speed").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rvctr/output.h>
#include <rvctr/sink.h>

struct profgen_sink {
	struct rvctr_sink base;
	struct rvctr_sink *afdo;	/* writes its AutoFDO text into memfd */
	int memfd;
	char *path;			/* the output: "-", or opened at close */
	int fd;				/* the output's descriptor (rvctr_output), or -1 */
	char memfd_path[32];
};

static struct rvctr_sink *afdo_of(struct rvctr_sink *s)
{
	return ((struct profgen_sink *)s)->afdo;
}

static void profgen_free(struct profgen_sink *p)
{
	if (p->memfd >= 0)
		close(p->memfd);
	if (p->fd >= 0)
		close(p->fd);
	free(p->path);
	free(p);
}

static struct rvctr_sink *profgen_open(const struct rvctr_sink_info *info, char *err,
				       size_t errlen)
{
	struct profgen_sink *p = calloc(1, sizeof(*p));
	struct rvctr_sink_info inner;
	int fd;

	if (!p || !(p->path = strdup(info->path))) {
		snprintf(err, errlen, "out of memory");
		free(p);
		return NULL;
	}
	p->memfd = -1;
	/* written at close: through the file's descriptor (a copy), if it has one */
	fd = info->out ? rvctr_output__fd(info->out) : -1;
	p->fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
	p->memfd = memfd_create("rvctr-profgen", MFD_CLOEXEC);
	if (p->memfd < 0 || (fd >= 0 && p->fd < 0)) {
		snprintf(err, errlen, "%s: %s", p->memfd < 0 ? "memfd_create" : p->path,
			 strerror(errno));
		profgen_free(p);
		return NULL;
	}
	snprintf(p->memfd_path, sizeof(p->memfd_path), "/proc/self/fd/%d", p->memfd);
	inner = *info;
	inner.path = p->memfd_path;
	inner.out = NULL;
	p->afdo = rvctr_sink_autofdo.open(&inner, err, errlen);
	if (!p->afdo) {
		profgen_free(p);
		return NULL;
	}
	p->afdo->ops = &rvctr_sink_autofdo;
	return &p->base;
}

static int profgen_build_id(struct rvctr_sink *s, const struct rvctr_build_id *b)
{
	return rvctr_sink_autofdo.build_id(afdo_of(s), b);
}

static int profgen_input(struct rvctr_sink *s)
{
	return rvctr_sink__input(afdo_of(s));
}

static int profgen_event(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	return rvctr_sink__event(afdo_of(s), ev);
}

static int profgen_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	return rvctr_sink_autofdo.sample(afdo_of(s), smp);
}

static int profgen_part(struct rvctr_sink *s, uint32_t pid, uint64_t addr, uint64_t *start,
			uint64_t *len)
{
	return rvctr_sink__part(afdo_of(s), pid, addr, start, len);
}

static int profgen_output_part(struct rvctr_sink *s, const char **name)
{
	return rvctr_sink__output_part(afdo_of(s), name);
}

/* Copy the AutoFDO text from @in to @out, its second section (address counts) left out. */
static int strip_addresses(FILE *in, FILE *out)
{
	char line[256];
	unsigned long long left = 0;
	int section = 0;

	while (fgets(line, sizeof(line), in)) {
		if (!left) {
			section++;
			left = strtoull(line, NULL, 10) + 1;
		}
		left--;
		if (section != 2 && fputs(line, out) == EOF)
			return -1;
	}
	return ferror(in) ? -1 : 0;
}

static FILE *open_output(struct profgen_sink *p)
{
	FILE *f;

	if (!strcmp(p->path, "-"))
		return stdout;
	f = p->fd >= 0 ? fdopen(p->fd, "w") : fopen(p->path, "w");
	if (f && p->fd >= 0)
		p->fd = -1;	/* fclose() closes it */
	return f;
}

static int profgen_write(struct profgen_sink *p)
{
	FILE *in = fdopen(dup(p->memfd), "r"), *out;
	int ret;

	if (!in)
		return rvctr_sink__fail(&p->base, "out of memory");
	out = open_output(p);
	if (!out) {
		fclose(in);
		return rvctr_sink__fail(&p->base, "%s: %s", p->path, strerror(errno));
	}
	errno = 0;
	ret = strip_addresses(in, out);
	fclose(in);
	if ((out == stdout ? fflush(out) : fclose(out)) || ret)
		return rvctr_sink__fail(&p->base, "%s: write error: %s", p->path,
					errno ? strerror(errno) : "short write");
	return 0;
}

static int profgen_close(struct rvctr_sink *s)
{
	struct profgen_sink *p = (struct profgen_sink *)s;
	int ret = rvctr_sink_autofdo.close(p->afdo);

	if (ret)
		snprintf(s->err, sizeof(s->err), "%s", p->afdo->err);
	free(p->afdo);
	p->afdo = NULL;
	if (!ret && lseek(p->memfd, 0, SEEK_SET))
		ret = rvctr_sink__fail(s, "%s", strerror(errno));
	if (!ret)
		ret = profgen_write(p);
	free(p->path);
	p->path = NULL;
	close(p->memfd);
	p->memfd = -1;
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	return ret;
}

static void profgen_abort(struct rvctr_sink *s)
{
	struct profgen_sink *p = (struct profgen_sink *)s;

	rvctr_sink_autofdo.abort(p->afdo);
	profgen_free(p);
}

const struct rvctr_sink_ops rvctr_sink_profgen = {
	.name = "profgen",
	.help = "llvm-profgen --unsymbolized-profile input (one binary)",
	.ranges = 1,
	.open = profgen_open,
	.build_id = profgen_build_id,
	.input = profgen_input,
	.mmap = profgen_event,
	.comm = profgen_event,
	.task = profgen_event,
	.sample = profgen_sample,
	.part = profgen_part,
	.output_part = profgen_output_part,
	.close = profgen_close,
	.abort = profgen_abort,
};
