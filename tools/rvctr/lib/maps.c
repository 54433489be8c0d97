// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address maps from MMAP records; see rvctr/maps.h.
 *
 * Each pid has its maps as disjoint intervals in a balanced tree (glibc's
 * tsearch, a red-black tree), so a lookup is O(log maps of the pid) and
 * does not grow with the other processes of a system-wide (-a) recording.
 * A new map replaces what it overlaps, as the kernel's mmap does and as
 * perf's maps__fixup_overlap_and_insert() does: older maps are cut down
 * to the parts it leaves, their file offsets moved along.  One more tree
 * takes every pid's maps that way, so the newest map of any pid holding an
 * address (the fallback) is one O(log n) lookup too.
 */
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/maps.h>

#define MAX_MAPS	65536
#define MAX_DSOS	4096

struct node {
	struct rvctr_map map;
	uint64_t last;			/* map.start + map.len - 1, saturated */
};

struct pid_maps {
	uint32_t pid;
	void *root;			/* tree of struct node */
	unsigned int nr;
};

struct dso_name {
	char *name;
	unsigned int idx;
};

struct rvctr_maps {
	void *pids;			/* tree of struct pid_maps, by pid */
	struct pid_maps **all;		/* the same, to free them */
	struct pid_maps global;		/* every pid's maps in one: newest wins */
	unsigned int nr_pids, cap_pids;
	void *dso_tree;			/* struct dso_name, by name */
	char *dsos[MAX_DSOS];
	unsigned int nr_dsos;
	const struct node *last;	/* lookup cache */
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

static int cmp_dso(const void *a, const void *b)
{
	return strcmp(((const struct dso_name *)a)->name, ((const struct dso_name *)b)->name);
}

struct rvctr_maps *rvctr_maps__new(void)
{
	return calloc(1, sizeof(struct rvctr_maps));
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
	tdestroy(m->global.root, free);
	free(m->all);
	tdestroy(m->dso_tree, free);	/* the names themselves are in dsos[] */
	for (i = 0; i < m->nr_dsos; i++)
		free(m->dsos[i]);
	free(m);
}

static int dso_index(struct rvctr_maps *m, const char *name)
{
	struct dso_name key = { .name = (char *)name }, *d, **found;

	found = tfind(&key, &m->dso_tree, cmp_dso);
	if (found)
		return (*found)->idx;
	if (m->nr_dsos >= MAX_DSOS)
		return -1;
	d = malloc(sizeof(*d));
	m->dsos[m->nr_dsos] = strdup(name);
	if (!d || !m->dsos[m->nr_dsos])
		goto fail;
	d->name = m->dsos[m->nr_dsos];
	d->idx = m->nr_dsos;
	if (!tsearch(d, &m->dso_tree, cmp_dso))
		goto fail;
	return m->nr_dsos++;
fail:
	free(d);
	free(m->dsos[m->nr_dsos]);
	return -1;
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

static int insert(struct pid_maps *p, const struct node *n)
{
	struct node *c = malloc(sizeof(*c));

	if (!c)
		return -1;
	*c = *n;
	if (!tsearch(c, &p->root, cmp_node)) {
		free(c);
		return -1;
	}
	p->nr++;
	return 0;
}

/* Put @n in @p, cutting the older maps it overlaps down to what is left. */
static int place(struct pid_maps *p, const struct node *n)
{
	struct node **hit;

	while ((hit = tfind(n, &p->root, cmp_node))) {
		struct node old = **hit, *gone = *hit;

		tdelete(gone, &p->root, cmp_node);
		free(gone);
		p->nr--;
		if (old.map.start < n->map.start) {
			struct node left = old;

			left.last = n->map.start - 1;
			left.map.len = n->map.start - old.map.start;
			if (insert(p, &left))
				return -1;
		}
		if (old.last > n->last) {
			struct node right = old;
			uint64_t cut = n->last + 1 - old.map.start;

			right.map.start = n->last + 1;
			right.map.len -= cut;
			right.map.pgoff += cut;
			if (insert(p, &right))
				return -1;
		}
	}
	return insert(p, n);
}

int rvctr_maps__add(struct rvctr_maps *m, const struct rvctr_mmap *mm)
{
	struct node n = { .map = { .pid = mm->pid, .start = mm->start, .len = mm->len,
				   .pgoff = mm->pgoff } };
	struct pid_maps *p;
	int dso;

	if (!mm->len)
		return 0;	/* holds nothing */
	if (m->global.nr + 2 > MAX_MAPS)
		return -1;
	dso = dso_index(m, mm->filename);
	p = dso < 0 ? NULL : pid_maps(m, mm->pid, 1);
	if (!p)
		return -1;
	n.map.dso = dso;
	n.last = mm->start + (mm->len - 1) < mm->start ? UINT64_MAX : mm->start + (mm->len - 1);
	m->last = NULL;
	return place(p, &n) || place(&m->global, &n) ? -1 : 0;
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
	/* no map of its own: the newest map of any pid (kernel maps are pid -1) */
	n = find_in(&m->global, addr);
	return n ? &n->map : NULL;
}

unsigned int rvctr_maps__nr_dsos(const struct rvctr_maps *m)
{
	return m->nr_dsos;
}

const char *rvctr_maps__dso_name(const struct rvctr_maps *m, unsigned int dso)
{
	return dso < m->nr_dsos ? m->dsos[dso] : NULL;
}
