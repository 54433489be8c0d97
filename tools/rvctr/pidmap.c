// SPDX-License-Identifier: GPL-2.0-only
/* Pids of merged recordings kept apart; see pidmap.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/hash.h>
#include "pidmap.h"

/* pid_max can be at most this (include/linux/threads.h, 64-bit) */
#define PID_MAX_LIMIT	4194304u
#define COMM_LEN	32
#define NO_PID		((uint32_t)-1)

/* An output id: who has it (input, id there) and its last COMM. */
struct out_id {
	unsigned int input;
	uint32_t in_id;
	uint32_t pid;			/* its process's output pid */
	int has_maps;			/* it had an MMAP */
	char comm[COMM_LEN];		/* its last COMM, "" before any */
};

/* An id of the current input: its output id, or still undecided. */
struct cur_id {
	uint32_t out;
	int pending;			/* a COMM agreed: its map or sample decides */
};

struct pidmap {
	/* rvctr/hash.h: a key, then the value */
	struct rvctr_hash out;		/* output id + 1 -> struct out_id */
	struct rvctr_hash cur;		/* input id + 1 -> struct cur_id */
	struct rvctr_hash latest;	/* input id + 1 -> its latest output id */
	struct rvctr_hash maps;		/* hash of (output pid, map) -> nothing */
	struct rvctr_event *held;	/* records of pending processes */
	size_t nr_held, held_cap;
	unsigned int input;
	const char *path;
	uint32_t next;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ull;
	return h ^ (h >> 29);
}

static void *table_find(const struct rvctr_hash *t, uint64_t key)
{
	void *e = rvctr_hash__find(t, key, 0);

	return e ? (struct rvctr_hash_key *)e + 1 : NULL;
}

/* The value of @key, added zeroed if new; NULL when out of memory. */
static void *table_add(struct rvctr_hash *t, uint64_t key)
{
	void *e = rvctr_hash__get(t, key, 0);

	return e ? (struct rvctr_hash_key *)e + 1 : NULL;
}

struct pidmap *pidmap__new(void)
{
	struct pidmap *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	rvctr_hash__init(&pm->out, sizeof(struct rvctr_hash_key) + sizeof(struct out_id));
	rvctr_hash__init(&pm->cur, sizeof(struct rvctr_hash_key) + sizeof(struct cur_id));
	rvctr_hash__init(&pm->latest, sizeof(struct rvctr_hash_key) + sizeof(uint64_t));
	rvctr_hash__init(&pm->maps, sizeof(struct rvctr_hash_key));
	pm->next = PID_MAX_LIMIT;
	return pm;
}

void pidmap__delete(struct pidmap *pm)
{
	if (!pm)
		return;
	rvctr_hash__exit(&pm->out);
	rvctr_hash__exit(&pm->cur);
	rvctr_hash__exit(&pm->latest);
	rvctr_hash__exit(&pm->maps);
	free(pm->held);
	free(pm);
}

/*
 * A map of output pid @pid: its file (the build id when the MMAP2 has
 * one, else the name) at its start and offset.  Not its length: the next
 * file's (synthesized from /proc, or a vma split or grown) may differ.
 */
static uint64_t map_key(uint32_t pid, const struct rvctr_mmap *m)
{
	uint64_t h = mix(mix(mix(0xcbf29ce484222325ull, pid), m->start), m->pgoff);
	const unsigned char *s;
	unsigned int i;

	if (m->build_id_size) {
		h = mix(h, 1);
		for (i = 0; i < m->build_id_size && i < sizeof(m->build_id); i++)
			h = mix(h, m->build_id[i]);
	} else {
		for (s = (const unsigned char *)m->filename; *s; s++)
			h = mix(h, *s);
	}
	return h | 1;
}

/* The swapper (0) and the kernel's maps (-1) are every recording's own. */
static int fixed(uint32_t id)
{
	return id == 0 || id == NO_PID;
}

static struct cur_id *cur(struct pidmap *pm, uint32_t id)
{
	return table_find(&pm->cur, (uint64_t)id + 1);
}

static struct out_id *out(struct pidmap *pm, uint32_t id)
{
	return table_find(&pm->out, (uint64_t)id + 1);
}

/*
 * The output id that input id @id was written as last (by the latest
 * input that had it), or NO_PID.  A later input's @id is that process or
 * thread going on, or another one; never an earlier one than that.
 */
static uint32_t latest(struct pidmap *pm, uint32_t id)
{
	uint32_t *l = table_find(&pm->latest, (uint64_t)id + 1);

	return l ? *l : NO_PID;
}

/* @in_id of this input is output id @o (of process @pid). */
static int assign(struct pidmap *pm, uint32_t in_id, uint32_t o, uint32_t pid)
{
	struct cur_id *c = table_add(&pm->cur, (uint64_t)in_id + 1);
	struct out_id *e = table_add(&pm->out, (uint64_t)o + 1);
	uint32_t *l = table_add(&pm->latest, (uint64_t)in_id + 1);

	if (!c || !e || !l)
		return -1;
	*l = o;
	c->out = o;
	c->pending = 0;
	e->input = pm->input;
	e->in_id = in_id;
	e->pid = pid == NO_PID ? o : pid;
	return 0;
}

/* @in_id is another process or thread than the earlier inputs' one. */
static int remap(struct pidmap *pm, uint32_t in_id, uint32_t pid, int thread, const char *why)
{
	uint32_t o;

	/*
	 * Ids in use (an input's own pids from PID_MAX_LIMIT up) are skipped.
	 * next only grows from PID_MAX_LIMIT: it would reach NO_PID (0 is
	 * below) only after 2^32 - PID_MAX_LIMIT ids, each one in memory.
	 */
	while (out(pm, pm->next))
		pm->next++;
	o = pm->next++;
	fprintf(stderr, "rvctr: warning: %s: %s %u is not the earlier input's %s %u (%s); "
		"written as %s %u\n", pm->path, thread ? "tid" : "pid", in_id,
		thread ? "thread" : "process", in_id, why, thread ? "tid" : "pid", o);
	return assign(pm, in_id, o, thread ? pid : o);
}

/*
 * @in_id goes on as the output id it was written as last, or, new, as
 * itself (of process @pid; NO_PID: it is a process).
 */
static int go_on(struct pidmap *pm, uint32_t in_id, uint32_t pid)
{
	uint32_t o = latest(pm, in_id);

	return assign(pm, in_id, o == NO_PID ? in_id : o, pid);
}

enum kind { K_OTHER, K_COMM, K_MMAP, K_FORK };

/*
 * Decide process @p of the current input at its first record: 1 if
 * decided (cur(p) set), 0 if it is pending now, -1 out of memory.
 */
static int decide_process(struct pidmap *pm, uint32_t p, enum kind k, const struct rvctr_event *ev)
{
	uint32_t o = latest(pm, p);
	struct out_id *e;
	struct cur_id *c;

	if (fixed(p))
		return go_on(pm, p, NO_PID) ? -1 : 1;
	if (o == NO_PID) {
		/* new: its own pid, unless that was handed out to another */
		if (out(pm, p))
			return remap(pm, p, p, 0, "its pid is taken") ? -1 : 1;
		return go_on(pm, p, NO_PID) ? -1 : 1;
	}
	/* the latest input's process (this input's would be decided) */
	e = out(pm, o);
	switch (k) {
	case K_FORK:
		return remap(pm, p, p, 0, "a new process (FORK)") ? -1 : 1;
	case K_MMAP:
		if (!e->has_maps || table_find(&pm->maps, map_key(o, &ev->mmap)))
			return go_on(pm, p, NO_PID) ? -1 : 1;
		return remap(pm, p, p, 0, "another first map") ? -1 : 1;
	case K_COMM:
		if (ev->comm.tid == p && e->comm[0] &&
		    strncmp(e->comm, ev->comm.comm, COMM_LEN - 1)) {
			char why[COMM_LEN * 2 + 32];

			snprintf(why, sizeof(why), "comm '%.20s', was '%.20s'", ev->comm.comm, e->comm);
			return remap(pm, p, p, 0, why) ? -1 : 1;
		}
		c = table_add(&pm->cur, (uint64_t)p + 1);
		if (!c)
			return -1;
		c->pending = 1;
		return 0;
	default:
		/* a sample or an exec first: the same recording goes on */
		return go_on(pm, p, NO_PID) ? -1 : 1;
	}
}

/* Thread @t of process @p, whose output pid is decided. */
static int decide_thread(struct pidmap *pm, uint32_t p, uint32_t t, int fork)
{
	uint32_t op = cur(pm, p)->out;
	struct cur_id *c;
	struct out_id *e;
	uint32_t o;

	if (t == p || fixed(t))
		return 0;
	c = cur(pm, t);
	if (c && !c->pending)
		return 0;
	o = latest(pm, t);
	if (o == NO_PID)
		return out(pm, t) ? remap(pm, t, op, 1, "its tid is taken") : go_on(pm, t, op);
	e = out(pm, o);
	if (fork)
		return remap(pm, t, op, 1, "a new thread (FORK)");
	if (e->pid != op)
		return remap(pm, t, op, 1, "of another process");
	return go_on(pm, t, op);
}

static uint32_t tr(struct pidmap *pm, uint32_t id)
{
	struct cur_id *c = cur(pm, id);

	return c && !c->pending ? c->out : id;
}

/* Emit @ev (its pids decided) with the output's pids; remember its history. */
static int emit_one(struct pidmap *pm, const struct rvctr_event *ev, pidmap_emit_fn emit, void *arg)
{
	struct rvctr_event o = *ev;
	struct out_id *e;

	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		o.sample.pid = tr(pm, ev->sample.pid);
		o.sample.tid = tr(pm, ev->sample.tid);
		break;
	case PERF_RECORD_COMM:
		o.comm.pid = tr(pm, ev->comm.pid);
		o.comm.tid = tr(pm, ev->comm.tid);
		if (o.comm.pid == o.comm.tid && (e = out(pm, o.comm.pid)))
			snprintf(e->comm, sizeof(e->comm), "%.*s", COMM_LEN - 1, ev->comm.comm);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		o.mmap.pid = tr(pm, ev->mmap.pid);
		o.mmap.tid = tr(pm, ev->mmap.tid);
		if (!table_add(&pm->maps, map_key(o.mmap.pid, &ev->mmap)))
			return -1;
		e = out(pm, o.mmap.pid);
		if (e)
			e->has_maps = 1;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		o.task.pid = tr(pm, ev->task.pid);
		o.task.tid = tr(pm, ev->task.tid);
		o.task.ppid = tr(pm, ev->task.ppid);
		o.task.ptid = tr(pm, ev->task.ptid);
		break;
	}
	return emit(arg, &o);
}

static uint32_t owner(const struct rvctr_event *ev)
{
	switch (ev->type) {
	case PERF_RECORD_COMM: return ev->comm.pid;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: return ev->mmap.pid;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: return ev->task.pid;
	default: return ev->sample.pid;
	}
}

static int decide_threads(struct pidmap *pm, const struct rvctr_event *ev);

/*
 * Pending process @p is decided (@why: it is another process, why): emit
 * its held records in order.
 */
static int release(struct pidmap *pm, uint32_t p, const char *why, pidmap_emit_fn emit, void *arg)
{
	size_t i, j = 0;
	int ret = 0;

	if (why ? remap(pm, p, p, 0, why) : go_on(pm, p, NO_PID))
		return -1;
	for (i = 0; i < pm->nr_held; i++) {
		struct rvctr_event *h = &pm->held[i];

		if (owner(h) != p) {
			pm->held[j++] = *h;
			continue;
		}
		if (!ret)
			ret = decide_threads(pm, h);
		if (!ret)
			ret = emit_one(pm, h, emit, arg);
	}
	pm->nr_held = j;
	return ret;
}

static int release_all(struct pidmap *pm, pidmap_emit_fn emit, void *arg)
{
	int ret = 0;

	while (!ret && pm->nr_held)
		ret = release(pm, owner(&pm->held[0]), NULL, emit, arg);
	return ret;
}

static int hold(struct pidmap *pm, const struct rvctr_event *ev)
{
	if (pm->nr_held == pm->held_cap) {
		size_t cap = pm->held_cap ? pm->held_cap * 2 : 16;
		struct rvctr_event *h = realloc(pm->held, cap * sizeof(*h));

		if (!h)
			return -1;
		pm->held = h;
		pm->held_cap = cap;
	}
	pm->held[pm->nr_held] = *ev;
	pm->held[pm->nr_held++].raw = NULL;
	return 0;
}

/* The record's threads (and a FORK's parent), once its process is decided. */
static int decide_threads(struct pidmap *pm, const struct rvctr_event *ev)
{
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		return decide_thread(pm, ev->sample.pid, ev->sample.tid, 0);
	case PERF_RECORD_COMM:
		return decide_thread(pm, ev->comm.pid, ev->comm.tid, 0);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decide_thread(pm, ev->mmap.pid, ev->mmap.tid, 0);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct cur_id *c = cur(pm, ev->task.ppid);

		if (c && !c->pending && decide_thread(pm, ev->task.ppid, ev->task.ptid, 0))
			return -1;
		return decide_thread(pm, ev->task.pid, ev->task.tid,
				     ev->type == PERF_RECORD_FORK);
	}
	}
	return 0;
}

int pidmap__event(struct pidmap *pm, const struct rvctr_event *ev, pidmap_emit_fn emit, void *arg)
{
	enum kind k = K_OTHER;
	struct cur_id *c;
	uint32_t p;
	int ret;

	switch (ev->type) {
	case PERF_RECORD_COMM:
		k = ev->comm.misc & PERF_RECORD_MISC_COMM_EXEC ? K_OTHER : K_COMM;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		k = K_MMAP;
		break;
	case PERF_RECORD_FORK:
		/* a new thread of a known process is decided by its process */
		k = ev->task.pid == ev->task.ppid ? K_OTHER : K_FORK;
		/* fall through */
	case PERF_RECORD_EXIT:
		/* the parent: known, or another record of this recording */
		p = ev->task.ppid;
		c = cur(pm, p);
		if (c && c->pending && p != ev->task.pid &&
		    (ret = release(pm, p, NULL, emit, arg)))
			return ret;
		if (!cur(pm, p) && decide_process(pm, p, K_OTHER, ev) < 0)
			return -1;
		break;
	case PERF_RECORD_SAMPLE:
		break;
	case PERF_RECORD_FINISHED_ROUND:
		/* held records stay in their round */
		if ((ret = release_all(pm, emit, arg)))
			return ret;
		return emit(arg, ev);
	default:
		return emit(arg, ev);
	}
	p = owner(ev);
	c = cur(pm, p);
	if (c && c->pending) {
		uint32_t o = latest(pm, p);
		struct out_id *e = out(pm, o);

		/* a COMM agreed: the first map or a sample decides */
		if (k == K_COMM || ev->type == PERF_RECORD_FORK)
			return hold(pm, ev);
		ret = release(pm, p, k == K_MMAP && e && e->has_maps &&
			      !table_find(&pm->maps, map_key(o, &ev->mmap)) ?
			      "another first map" : NULL, emit, arg);
		if (ret)
			return ret;
	} else if (!c) {
		ret = decide_process(pm, p, k, ev);
		if (ret < 0)
			return -1;
		if (!ret)
			return hold(pm, ev);
	}
	if (decide_threads(pm, ev))
		return -1;
	return emit_one(pm, ev, emit, arg);
}

int pidmap__flush(struct pidmap *pm, pidmap_emit_fn emit, void *arg)
{
	return release_all(pm, emit, arg);
}

int pidmap__input(struct pidmap *pm, const char *path, pidmap_emit_fn emit, void *arg)
{
	int ret = release_all(pm, emit, arg);

	rvctr_hash__exit(&pm->cur);
	pm->input++;
	pm->path = path;
	return ret;
}
