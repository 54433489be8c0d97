// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-script text for llvm-profgen --perfscript (rvctr/perfscript.h) as a
 * sink.  The text is formatted straight into one buffer, written out with
 * write(2) when it fills: no stdio (its copy of every byte cost a tenth of
 * the conversion), and a flat memory footprint.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rvctr/perfscript.h>
#include <rvctr/sink.h>

/*
 * Large enough that the system calls do not count (55 of them for
 * profile-bench's 55 MB bzip2 text), and a largest sample (256 records)
 * is far below it.
 */
#define PS_BUF		(256 << 10)
#define PS_MMAP_MAX	(2 * RVCTR_NAME_MAX * 4)

_Static_assert(RVCTR_PERFSCRIPT_SAMPLE_MAX(RVCTR_MAX_BRANCHES) < PS_BUF, "a sample fits");

struct ps_sink {
	struct rvctr_sink base;
	int fd;
	int own;
	struct rvctr_perfscript *ps;
	char *buf;
	size_t len;
};

static int ps_flush(struct ps_sink *p)
{
	const char *b = p->buf;
	size_t left = p->len;

	while (left) {
		ssize_t n = write(p->fd, b, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return rvctr_sink__fail(&p->base, "write error: %s",
						n < 0 ? strerror(errno) : "nothing written");
		b += n;
		left -= n;
	}
	p->len = 0;
	return 0;
}

/* Room for @n more bytes in the buffer. */
static inline int ps_room(struct ps_sink *p, size_t n)
{
	return PS_BUF - p->len >= n ? 0 : ps_flush(p);
}

static struct rvctr_sink *ps_open(const struct rvctr_sink_info *info, char *err, size_t errlen)
{
	struct ps_sink *p = calloc(1, sizeof(*p));

	if (!p || !(p->buf = malloc(PS_BUF)) || !(p->ps = rvctr_perfscript__new())) {
		if (p)
			free(p->buf);
		free(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->own = strcmp(info->path, "-");
	if (p->own) {
		p->fd = open(info->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (p->fd < 0) {
			snprintf(err, errlen, "%s: %s", info->path, strerror(errno));
			rvctr_perfscript__delete(p->ps);
			free(p->buf);
			free(p);
			return NULL;
		}
	} else {
		fflush(stdout);	/* nothing of stdio's may come after this text */
		p->fd = STDOUT_FILENO;
	}
	return &p->base;
}

static int ps_mmap(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct ps_sink *p = (struct ps_sink *)s;
	int n;

	if (ps_room(p, PS_MMAP_MAX))
		return -1;
	n = rvctr_perfscript__format_mmap(p->buf + p->len, PS_MMAP_MAX, &ev->mmap, NULL);
	if (n < 0)
		return rvctr_sink__fail(s, "MMAP line of %s too long", ev->mmap.filename);
	p->len += n;
	return 0;
}

static int ps_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	struct ps_sink *p = (struct ps_sink *)s;

	if (!smp->nr_branches)
		return 0;
	/* the reader delivers at most RVCTR_MAX_BRANCHES */
	if (smp->nr_branches > RVCTR_MAX_BRANCHES)
		return rvctr_sink__fail(s, "sample of %llu branches",
					(unsigned long long)smp->nr_branches);
	if (ps_room(p, RVCTR_PERFSCRIPT_SAMPLE_MAX(smp->nr_branches)))
		return -1;
	p->len = rvctr_perfscript__format_sample(p->ps, p->buf + p->len, smp) - p->buf;
	return 0;
}

static void ps_free(struct ps_sink *p)
{
	if (p->own && p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	free(p->buf);
	p->buf = NULL;
	rvctr_perfscript__delete(p->ps);
	p->ps = NULL;
}

static int ps_close(struct rvctr_sink *s)
{
	struct ps_sink *p = (struct ps_sink *)s;
	int ret = ps_flush(p);

	if (p->own && close(p->fd) && !ret)
		ret = rvctr_sink__fail(s, "write error: %s", strerror(errno));
	p->own = 0;
	ps_free(p);
	return ret;
}

static void ps_abort(struct rvctr_sink *s)
{
	struct ps_sink *p = (struct ps_sink *)s;

	ps_free(p);
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
