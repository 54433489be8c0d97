// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address maps from MMAP records; see rvctr/maps.h.
 *
 * Each pid has its maps as disjoint intervals in a balanced tree (glibc's
 * tsearch, a red-black tree), so a lookup is O(log maps of the pid) and
 * does not grow with the other processes of a system-wide (-a) recording.
 * A new map replaces what it overlaps, as the kernel's mmap does and as
 * perf's maps__fixup_overlap_and_insert() does: older maps are cut down
 * to the parts it leaves, their file offsets moved along.  An address not
 * in its process's maps is looked up in the kernel's (pid -1) only: the
 * maps of other processes, or of an earlier process with the same pid or
 * an earlier recording, never place it.
 */
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/maps.h>
#include <rvctr/symtab.h>

#define MAX_DSOS	4096

struct node {
	struct rvctr_map map;
	uint64_t last;			/* map.start + map.len - 1, saturated */
};

struct pid_maps {
	uint32_t pid;
	void *root;			/* tree of struct node */
	unsigned int nr;
	int exited;			/* the next process with the pid starts afresh */
};

/*
 * A binary: its name and, when known, its build id.  Two builds of one
 * path are two binaries, as perf's dsos are (dso_id__cmp): a map whose
 * build id is unknown joins a binary of its name, and gives one whose
 * build id was unknown its own.
 */
struct dso_name {
	char *name;
	unsigned int idx;
	uint8_t id_size, id[20];
	struct dso_name *next;		/* another build of the same name */
};

struct rvctr_maps {
	void *pids;			/* tree of struct pid_maps, by pid */
	struct pid_maps **all;		/* the same, to free them */
	unsigned int nr_pids, cap_pids;
	unsigned int nr_nodes;		/* of every pid */
	unsigned int max_nodes;		/* RVCTR_MAPS_MAX, or a test's smaller limit */
	void *dso_tree;			/* struct dso_name, by name: the first build */
	struct dso_name *dsos[MAX_DSOS];
	unsigned int nr_dsos;
	const struct node *last;	/* lookup cache */
	struct rvctr_build_id *ids;	/* the recording header's build ids */
	unsigned int nr_ids;
	void *id_tree;			/* the same, by file name */
};

static int cmp_node(const void *a, const void *b)
{
	const struct node *x = a, *y = b;

	if (x->last < y->map.start)
		return -1;
	return y->last < x->map.start;	/* 0: they overlap */
}

static int cmp_pid(const void *a, const void *b)
{
	const struct pid_maps *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int cmp_id_name(const void *a, const void *b)
{
	return strcmp(((const struct rvctr_build_id *)a)->filename,
		      ((const struct rvctr_build_id *)b)->filename);
}

static int cmp_dso(const void *a, const void *b)
{
	return strcmp(((const struct dso_name *)a)->name, ((const struct dso_name *)b)->name);
}

struct rvctr_maps *rvctr_maps__new(void)
{
	struct rvctr_maps *m = calloc(1, sizeof(struct rvctr_maps));

	if (m)
		m->max_nodes = RVCTR_MAPS_MAX;
	return m;
}

void rvctr_maps__set_limit(struct rvctr_maps *m, unsigned int max)
{
	m->max_nodes = max < RVCTR_MAPS_MAX ? max : RVCTR_MAPS_MAX;
}

static void free_nothing(void *p)
{
	(void)p;	/* pid entries are freed through all[] */
}

void rvctr_maps__delete(struct rvctr_maps *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < m->nr_pids; i++) {
		tdestroy(m->all[i]->root, free);
		free(m->all[i]);
	}
	tdestroy(m->pids, free_nothing);
	free(m->all);
	tdestroy(m->id_tree, free_nothing);	/* they are in ids[] */
	free(m->ids);
	tdestroy(m->dso_tree, free_nothing);	/* they are all in dsos[] */
	for (i = 0; i < m->nr_dsos; i++) {
		free(m->dsos[i]->name);
		free(m->dsos[i]);
	}
	free(m);
}

/*
 * What dso_index() did, for undo_dso() when the map it was for is not
 * kept: it made a binary, or gave one its build id.
 */
enum dso_change { DSO_FOUND, DSO_NEW, DSO_ID_SET };

static int dso_index(struct rvctr_maps *m, const char *name, const uint8_t *id, uint8_t size,
		     enum dso_change *change)
{
	struct dso_name key = { .name = (char *)name }, *d, *last = NULL, **found;

	*change = DSO_FOUND;
	if (size > sizeof(key.id))
		size = sizeof(key.id);
	found = tfind(&key, &m->dso_tree, cmp_dso);
	/* the same build; else one whose build id is unknown, or any if ours is */
	for (d = found ? *found : NULL; d; d = d->next)
		if (size && d->id_size == size && !memcmp(d->id, id, size))
			return d->idx;
	for (d = found ? *found : NULL; d; last = d, d = d->next) {
		if (size && d->id_size)
			continue;
		if (size) {
			d->id_size = size;	/* now known */
			memcpy(d->id, id, size);
			*change = DSO_ID_SET;
		}
		return d->idx;
	}
	if (m->nr_dsos >= MAX_DSOS || !(d = calloc(1, sizeof(*d))))
		return -1;
	d->name = strdup(name);
	d->idx = m->nr_dsos;
	d->id_size = size;
	if (size)
		memcpy(d->id, id, size);
	if (!d->name || (!last && !tsearch(d, &m->dso_tree, cmp_dso))) {
		free(d->name);
		free(d);
		return -1;
	}
	if (last)
		last->next = d;
	m->dsos[m->nr_dsos] = d;
	*change = DSO_NEW;
	return m->nr_dsos++;
}

/*
 * Take back what dso_index() did for a map that was not kept: a binary it
 * made (the last one, no map refers to it) goes, so that dropped maps do
 * not use up the binaries' slots; a build id it gave one goes too.
 */
static void undo_dso(struct rvctr_maps *m, unsigned int idx, enum dso_change change)
{
	struct dso_name *d = m->dsos[idx], **found, *prev;

	if (change == DSO_ID_SET) {
		d->id_size = 0;
		memset(d->id, 0, sizeof(d->id));
		return;
	}
	if (change != DSO_NEW || idx != m->nr_dsos - 1)
		return;
	found = tfind(d, &m->dso_tree, cmp_dso);
	if (found && *found == d) {
		tdelete(d, &m->dso_tree, cmp_dso);	/* the first of its name: no next */
	} else if (found) {
		for (prev = *found; prev->next != d; prev = prev->next)
			;
		prev->next = NULL;	/* the last of its name's chain */
	}
	m->dsos[idx] = NULL;
	m->nr_dsos--;
	free(d->name);
	free(d);
}

static struct pid_maps *pid_maps(struct rvctr_maps *m, uint32_t pid, int create)
{
	struct pid_maps key = { .pid = pid }, *p, **found;

	found = tfind(&key, &m->pids, cmp_pid);
	if (found || !create)
		return found ? *found : NULL;
	if (m->nr_pids == m->cap_pids) {
		unsigned int cap = m->cap_pids ? 2 * m->cap_pids : 16;
		struct pid_maps **all = realloc(m->all, cap * sizeof(*all));

		if (!all)
			return NULL;
		m->all = all;
		m->cap_pids = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (!tsearch(p, &m->pids, cmp_pid)) {
		free(p);
		return NULL;
	}
	m->all[m->nr_pids++] = p;
	return p;
}

static int insert(struct rvctr_maps *m, struct pid_maps *p, const struct node *n)
{
	struct node *c;

	if (m->nr_nodes >= m->max_nodes || !(c = malloc(sizeof(*c))))
		return -1;
	*c = *n;
	c->map.pid = p->pid;
	if (!tsearch(c, &p->root, cmp_node)) {
		free(c);
		return -1;
	}
	p->nr++;
	m->nr_nodes++;
	return 0;
}

/*
 * Put @n in @p in place of what it overlaps of the older maps, which are
 * cut down to the parts it leaves (one below @n and one above, at most),
 * their file offsets moved along.  The overlapped maps all go first, which
 * makes room in a full table; then @n goes in, as the newest map is where
 * its addresses' samples are; then the part below, then the one above, as
 * room allows.  With @keep 0 (no binary for @n) only the cut is made: its
 * addresses are then in no map rather than in one it replaced.
 * 0; 1, @n kept but a part of an older map did not fit (its addresses are
 * in no map); -1, @n not kept.
 */
static int place(struct rvctr_maps *m, struct pid_maps *p, const struct node *n, int keep)
{
	struct node left = { 0 }, right = { 0 };
	int has_left = 0, has_right = 0, ret = 0;
	struct node **hit;

	while ((hit = tfind(n, &p->root, cmp_node))) {
		struct node *gone = *hit;

		if (gone->map.start < n->map.start) {
			left = *gone;
			left.last = n->map.start - 1;
			left.map.len = n->map.start - gone->map.start;
			has_left = 1;
		}
		if (gone->last > n->last) {
			uint64_t off = n->last + 1 - gone->map.start;

			right = *gone;
			right.map.start = n->last + 1;
			right.map.len -= off;
			right.map.pgoff += off;
			has_right = 1;
		}
		tdelete(gone, &p->root, cmp_node);
		free(gone);
		p->nr--;
		m->nr_nodes--;
	}
	if (!keep || insert(m, p, n))
		ret = -1;
	if (has_left && insert(m, p, &left) && !ret)
		ret = 1;
	if (has_right && insert(m, p, &right) && !ret)
		ret = 1;
	return ret;
}

/* The process @p had is gone: drop its maps. */
static void clear(struct rvctr_maps *m, struct pid_maps *p)
{
	tdestroy(p->root, free);
	p->root = NULL;
	m->nr_nodes -= p->nr;
	p->nr = 0;
	p->exited = 0;
	m->last = NULL;
}

/* @pid's maps, those of an exited process with the pid dropped first. */
static struct pid_maps *live_pid_maps(struct rvctr_maps *m, uint32_t pid)
{
	struct pid_maps *p = pid_maps(m, pid, 1);

	if (p && p->exited)
		clear(m, p);
	return p;
}

int rvctr_maps__header_build_id(struct rvctr_maps *m, const struct rvctr_build_id *b)
{
	struct rvctr_build_id *n;

	if (!b->size || !b->filename[0] || m->nr_ids >= RVCTR_MAPS_MAX_BUILD_IDS)
		return 0;
	if (!m->ids) {
		m->ids = calloc(RVCTR_MAPS_MAX_BUILD_IDS, sizeof(*m->ids));
		if (!m->ids)
			return -1;
	}
	n = &m->ids[m->nr_ids];
	*n = *b;
	if (n->size > sizeof(n->id))
		n->size = sizeof(n->id);
	if (tfind(n, &m->id_tree, cmp_id_name))
		return 0;
	if (!tsearch(n, &m->id_tree, cmp_id_name))
		return -1;
	m->nr_ids++;
	return 0;
}

const struct rvctr_build_id *rvctr_maps__find_header_build_id(const struct rvctr_maps *m,
							      const char *name)
{
	struct rvctr_build_id key;
	struct rvctr_build_id **hit;

	if (!m->id_tree)
		return NULL;
	if (rvctr_symtab__is_kernel_name(name))
		name = "[kernel.kallsyms]";
	/* a name longer than any kept is none of theirs */
	if ((size_t)snprintf(key.filename, sizeof(key.filename), "%s", name) >=
	    sizeof(key.filename))
		return NULL;
	hit = tfind(&key, &m->id_tree, cmp_id_name);
	return hit ? *hit : NULL;
}

int rvctr_maps__add(struct rvctr_maps *m, const struct rvctr_mmap *mm)
{
	struct node n = { .map = { .pid = mm->pid, .start = mm->start, .len = mm->len,
				   .pgoff = mm->pgoff } };
	const uint8_t *id = mm->build_id;
	uint8_t id_size = mm->build_id_size;
	enum dso_change change = DSO_FOUND;
	struct pid_maps *p;
	int dso, ret;

	if (!mm->len)
		return 0;	/* holds nothing */
	if (!id_size) {
		const struct rvctr_build_id *b = rvctr_maps__find_header_build_id(m, mm->filename);

		if (b) {
			id = b->id;
			id_size = b->size;
		}
	}
	dso = dso_index(m, mm->filename, id, id_size, &change);
	p = live_pid_maps(m, mm->pid);
	if (!p) {
		if (dso >= 0)
			undo_dso(m, dso, change);
		return -1;	/* out of memory: @pid had no maps to replace */
	}
	n.last = mm->start + (mm->len - 1) < mm->start ? UINT64_MAX : mm->start + (mm->len - 1);
	m->last = NULL;
	/* no binary for it (MAX_DSOS, out of memory): not kept, yet it replaces */
	n.map.dso = dso < 0 ? 0 : dso;
	ret = place(m, p, &n, dso >= 0);
	if (ret < 0 && dso >= 0)
		undo_dso(m, dso, change);
	return ret;
}

struct copy {
	struct rvctr_maps *m;
	struct pid_maps *to;
	int failed;
};

static void copy_node(const void *nodep, VISIT which, void *closure)
{
	struct copy *c = closure;

	if ((which == postorder || which == leaf) && !c->failed)
		c->failed = insert(c->m, c->to, *(const struct node *const *)nodep);
}

int rvctr_maps__fork(struct rvctr_maps *m, uint32_t pid, uint32_t ppid)
{
	struct pid_maps *parent, *child;
	struct copy c = { .m = m };

	if (pid == ppid)
		return 0;	/* a thread: its process's maps are its maps */
	child = pid_maps(m, pid, 1);
	if (!child)
		return -1;
	clear(m, child);	/* a new process: nothing of an earlier one */
	parent = pid_maps(m, ppid, 0);
	if (!parent || parent->exited)
		return 0;
	c.to = child;
	twalk_r(parent->root, copy_node, &c);
	return c.failed ? -1 : 0;
}

void rvctr_maps__exit(struct rvctr_maps *m, uint32_t pid, uint32_t tid)
{
	struct pid_maps *p = pid == tid ? pid_maps(m, pid, 0) : NULL;

	if (p)
		p->exited = 1;
}

void rvctr_maps__comm(struct rvctr_maps *m, uint32_t pid, int exec)
{
	struct pid_maps *p = pid_maps(m, pid, 0);

	if (p && (exec || p->exited))
		clear(m, p);
}

int rvctr_maps__event(struct rvctr_maps *m, const struct rvctr_event *ev)
{
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return rvctr_maps__add(m, &ev->mmap);
	case PERF_RECORD_FORK:
		return rvctr_maps__fork(m, ev->task.pid, ev->task.ppid);
	case PERF_RECORD_EXIT:
		rvctr_maps__exit(m, ev->task.pid, ev->task.tid);
		return 0;
	case PERF_RECORD_COMM:
		rvctr_maps__comm(m, ev->comm.pid,
				 !!((ev->misc | ev->comm.misc) & PERF_RECORD_MISC_COMM_EXEC));
		return 0;
	default:
		return 0;
	}
}

void rvctr_maps__reset(struct rvctr_maps *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_pids; i++)
		clear(m, m->all[i]);
	tdestroy(m->id_tree, free_nothing);
	m->id_tree = NULL;
	m->nr_ids = 0;
}

static const struct node *find_in(const struct pid_maps *p, uint64_t addr)
{
	struct node key = { .map = { .start = addr }, .last = addr };
	struct node **hit = p ? tfind(&key, &p->root, cmp_node) : NULL;

	return hit ? *hit : NULL;
}

const struct rvctr_map *rvctr_maps__find(struct rvctr_maps *m, uint32_t pid, uint64_t addr)
{
	const struct node *n;

	if (m->last && m->last->map.pid == pid && addr >= m->last->map.start &&
	    addr <= m->last->last)
		return &m->last->map;
	n = find_in(pid_maps(m, pid, 0), addr);
	if (n) {
		m->last = n;
		return &n->map;
	}
	/* the kernel's maps are every process's; no other process's are */
	n = pid != (uint32_t)-1 ? find_in(pid_maps(m, -1, 0), addr) : NULL;
	return n ? &n->map : NULL;
}

unsigned int rvctr_maps__nr_dsos(const struct rvctr_maps *m)
{
	return m->nr_dsos;
}

const char *rvctr_maps__dso_name(const struct rvctr_maps *m, unsigned int dso)
{
	return dso < m->nr_dsos ? m->dsos[dso]->name : NULL;
}

const uint8_t *rvctr_maps__dso_build_id(const struct rvctr_maps *m, unsigned int dso,
					unsigned int *size)
{
	*size = dso < m->nr_dsos ? m->dsos[dso]->id_size : 0;
	return *size ? m->dsos[dso]->id : NULL;
}
