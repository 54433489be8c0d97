// SPDX-License-Identifier: GPL-2.0-only
/* perf-script text for llvm-profgen --perfscript (rvctr/perfscript.h) as a sink. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/perfscript.h>
#include <rvctr/sink.h>

struct ps_sink {
	struct rvctr_sink base;
	FILE *out;
	int own;
	char *iobuf;
};

/* stdio's 4 KiB writes cost as much time as the formatting */
#define IOBUF	(1 << 20)

static struct rvctr_sink *ps_open(const struct rvctr_sink_info *info, char *err, size_t errlen)
{
	struct ps_sink *p = calloc(1, sizeof(*p));

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->own = strcmp(info->path, "-");
	p->out = p->own ? fopen(info->path, "w") : stdout;
	if (!p->out) {
		snprintf(err, errlen, "%s: %s", info->path, strerror(errno));
		free(p);
		return NULL;
	}
	p->iobuf = p->own ? malloc(IOBUF) : NULL;
	if (p->iobuf)
		setvbuf(p->out, p->iobuf, _IOFBF, IOBUF);
	return &p->base;
}

static int ps_mmap(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct ps_sink *p = (struct ps_sink *)s;

	return rvctr_perfscript__mmap(p->out, &ev->mmap, NULL) ?
	       rvctr_sink__fail(s, "write error") : 0;
}

static int ps_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	struct ps_sink *p = (struct ps_sink *)s;

	if (!smp->nr_branches)
		return 0;
	return rvctr_perfscript__sample(p->out, smp) ? rvctr_sink__fail(s, "write error") : 0;
}

static int ps_close(struct rvctr_sink *s)
{
	struct ps_sink *p = (struct ps_sink *)s;
	int ret = p->own ? fclose(p->out) : fflush(p->out);

	free(p->iobuf);
	return ret ? rvctr_sink__fail(s, "write error: %s", strerror(errno)) : 0;
}

static void ps_abort(struct rvctr_sink *s)
{
	struct ps_sink *p = (struct ps_sink *)s;

	if (p->own)
		fclose(p->out);
	free(p->iobuf);
	free(p);
}

const struct rvctr_sink_ops rvctr_sink_perfscript = {
	.name = "perfscript",
	.help = "perf-script text for llvm-profgen --perfscript",
	.ranges = 1,
	.open = ps_open,
	.mmap = ps_mmap,
	.sample = ps_sample,
	.close = ps_close,
	.abort = ps_abort,
};
