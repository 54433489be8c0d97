// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-script text for llvm-profgen --perfscript (rvctr/perfscript.h) as a
 * sink.  The text is formatted straight into one buffer, written out with
 * write(2) when it fills: no stdio (its copy of every byte cost a tenth of
 * the conversion), and a flat memory footprint.
 */
#include <errno.h>
#include <fcntl.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rvctr/output.h>
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

/*
 * With filtered samples, a process's MMAP2 lines wait here until a sample
 * of it is kept.  llvm-profgen reads no pid from a sample line: it moves
 * the binary's base to any MMAP2 of that file name (updateBinaryAddress;
 * only its own --pid filters them), so another process's map of the
 * binary (an ASLR'd PIE) would shift the kept samples.
 */
struct ps_proc {
	uint32_t pid;
	int shown;			/* a sample was kept: its maps go straight out */
	int exited;			/* the next one with the pid starts afresh */
	char *held;
	size_t len, cap;
};

struct ps_sink {
	struct rvctr_sink base;
	int fd;
	int own;
	int filtered;
	struct rvctr_perfscript *ps;
	char *buf;
	size_t len;
	void *procs;			/* struct ps_proc, by pid */
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
	int fd;

	if (!p || !(p->buf = malloc(PS_BUF)) || !(p->ps = rvctr_perfscript__new())) {
		if (p)
			free(p->buf);
		free(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->filtered = info->filtered;
	p->own = strcmp(info->path, "-");
	fd = info->out ? rvctr_output__fd(info->out) : -1;
	if (p->own) {
		p->fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) :
				  open(info->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
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

static int cmp_proc(const void *a, const void *b)
{
	const struct ps_proc *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void free_proc(void *v)
{
	struct ps_proc *pr = v;

	free(pr->held);
	free(pr);
}

static struct ps_proc *ps_proc(struct ps_sink *p, uint32_t pid)
{
	struct ps_proc key = { .pid = pid }, *pr, **found = tfind(&key, &p->procs, cmp_proc);

	if (found)
		return *found;
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return NULL;
	pr->pid = pid;
	if (!tsearch(pr, &p->procs, cmp_proc)) {
		free(pr);
		return NULL;
	}
	return pr;
}

/* A new process has the pid: nothing of the last one's is shown for it. */
static void ps_proc_reset(struct ps_proc *pr)
{
	pr->shown = pr->exited = 0;
	pr->len = 0;
}

/* Hold an MMAP2 line of a process none of whose samples was kept yet. */
static int ps_hold(struct ps_sink *p, struct ps_proc *pr, const struct rvctr_mmap *m)
{
	int n;

	if (pr->cap - pr->len < PS_MMAP_MAX) {
		size_t cap = pr->cap ? 2 * pr->cap : 4 * PS_MMAP_MAX;
		char *h = realloc(pr->held, cap);

		if (!h)
			return rvctr_sink__fail(&p->base, "out of memory");
		pr->held = h;
		pr->cap = cap;
	}
	n = rvctr_perfscript__format_mmap(pr->held + pr->len, PS_MMAP_MAX, m, NULL);
	if (n < 0)
		return rvctr_sink__fail(&p->base, "MMAP line of %s too long", m->filename);
	pr->len += n;
	return 0;
}

/* A sample of @pid is kept: the lines held for its process go out first. */
static int ps_show(struct ps_sink *p, uint32_t pid)
{
	struct ps_proc *pr = ps_proc(p, pid);
	size_t off;

	if (!pr)
		return rvctr_sink__fail(&p->base, "out of memory");
	if (pr->shown)
		return 0;
	for (off = 0; off < pr->len;) {
		size_t n = pr->len - off < PS_BUF ? pr->len - off : PS_BUF;

		if (ps_room(p, n))
			return -1;
		memcpy(p->buf + p->len, pr->held + off, n);
		p->len += n;
		off += n;
	}
	free(pr->held);
	pr->held = NULL;
	pr->len = pr->cap = 0;
	pr->shown = 1;
	return 0;
}

static int ps_mmap(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct ps_sink *p = (struct ps_sink *)s;
	int n;

	/* the kernel's maps (pid -1) are every process's */
	if (p->filtered && ev->mmap.pid != (uint32_t)-1) {
		struct ps_proc *pr = ps_proc(p, ev->mmap.pid);

		if (!pr)
			return rvctr_sink__fail(s, "out of memory");
		if (pr->exited)
			ps_proc_reset(pr);
		if (!pr->shown)
			return ps_hold(p, pr, &ev->mmap);
	}
	if (ps_room(p, PS_MMAP_MAX))
		return -1;
	n = rvctr_perfscript__format_mmap(p->buf + p->len, PS_MMAP_MAX, &ev->mmap, NULL);
	if (n < 0)
		return rvctr_sink__fail(s, "MMAP line of %s too long", ev->mmap.filename);
	p->len += n;
	return 0;
}

/*
 * FORK, EXIT, COMM (filtered only): when a pid is another process, or
 * another program (exec): its maps are held again until a sample of it is
 * kept (under --comm, one of its new name).
 */
static int ps_task(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct ps_sink *p = (struct ps_sink *)s;
	struct ps_proc key, **found;

	if (!p->filtered)
		return 0;
	key.pid = ev->type == PERF_RECORD_COMM ? ev->comm.pid : ev->task.pid;
	found = tfind(&key, &p->procs, cmp_proc);
	if (!found)
		return 0;
	if (ev->type == PERF_RECORD_EXIT)
		(*found)->exited |= ev->task.pid == ev->task.tid;
	else if ((ev->type == PERF_RECORD_FORK && ev->task.pid != ev->task.ppid) ||
		 (ev->type == PERF_RECORD_COMM &&
		  ((ev->misc | ev->comm.misc) & PERF_RECORD_MISC_COMM_EXEC)) ||
		 (*found)->exited)
		ps_proc_reset(*found);	/* another process, or another image (exec) */
	return 0;
}

/* Another input: none of its processes is one of the last one's. */
static int ps_input(struct rvctr_sink *s)
{
	struct ps_sink *p = (struct ps_sink *)s;

	tdestroy(p->procs, free_proc);
	p->procs = NULL;
	return 0;
}

static int ps_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	struct ps_sink *p = (struct ps_sink *)s;

	/*
	 * A sample with no branch record (right after exec or a switch-in)
	 * adds nothing to a branch-stack profile, and perf script prints it
	 * as its IP alone, which llvm-profgen 19 takes for a call stack: when
	 * one comes first, it reads every sample after it as a broken
	 * call-stack sample (tests/perfscript-empty.sh).
	 */
	if (!smp->nr_branches)
		return 0;
	if (p->filtered && ps_show(p, smp->pid))
		return -1;
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
	tdestroy(p->procs, free_proc);
	p->procs = NULL;
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
	.input = ps_input,
	.mmap = ps_mmap,
	.comm = ps_task,
	.task = ps_task,
	.sample = ps_sample,
	.close = ps_close,
	.abort = ps_abort,
};
