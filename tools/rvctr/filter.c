// SPDX-License-Identifier: GPL-2.0-only
/* Sample filters; see filter.h. */
#include <stdlib.h>
#include <string.h>

#include <rvctr/maps.h>
#include "filter.h"

#define MAX_ITEMS	64

struct comm_slot {
	uint32_t tid;
	int used;
	char comm[16];
};

struct filter {
	uint32_t pids[MAX_ITEMS], tids[MAX_ITEMS];
	unsigned int nr_pids, nr_tids, nr_comms, nr_dsos;
	char *comms[MAX_ITEMS], *dsos[MAX_ITEMS];
	struct comm_slot *threads;	/* tid -> comm, open addressing */
	unsigned int cap, nr_threads;
	struct rvctr_maps *maps;
	int maps_full;
	uint64_t dropped;
};

struct filter *filter__new(void)
{
	return calloc(1, sizeof(struct filter));
}

void filter__delete(struct filter *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	for (i = 0; i < f->nr_dsos; i++)
		free(f->dsos[i]);
	free(f->threads);
	rvctr_maps__delete(f->maps);
	free(f);
}

int filter__add(struct filter *f, const char *what, const char *list, char *err, size_t errlen)
{
	char *copy = strdup(list), *tok, *save, *end;
	int ret = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int num = !strcmp(what, "pid") || !strcmp(what, "tid");
		unsigned int *nr = !strcmp(what, "pid") ? &f->nr_pids :
				   !strcmp(what, "tid") ? &f->nr_tids :
				   !strcmp(what, "comm") ? &f->nr_comms : &f->nr_dsos;
		unsigned long v;

		if (*nr >= MAX_ITEMS) {
			snprintf(err, errlen, "--%s: more than %d items", what, MAX_ITEMS);
			ret = -1;
		} else if (num) {
			v = strtoul(tok, &end, 0);
			if (*end || end == tok || v > UINT32_MAX) {
				snprintf(err, errlen, "--%s: '%s' is not a number", what, tok);
				ret = -1;
			} else {
				(!strcmp(what, "pid") ? f->pids : f->tids)[(*nr)++] = v;
			}
		} else {
			char **slot = !strcmp(what, "comm") ? &f->comms[*nr] : &f->dsos[*nr];

			*slot = strdup(tok);
			if (!*slot) {
				snprintf(err, errlen, "out of memory");
				ret = -1;
			} else {
				(*nr)++;
			}
		}
	}
	free(copy);
	if (!ret && !strcmp(what, "dso") && !f->maps && !(f->maps = rvctr_maps__new())) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	}
	return ret;
}

int filter__active(const struct filter *f)
{
	return f->nr_pids || f->nr_tids || f->nr_comms || f->nr_dsos;
}

static struct comm_slot *thread_slot(struct filter *f, uint32_t tid, int add)
{
	unsigned int i, mask;

	if (add && (f->nr_threads + 1) * 2 > f->cap) {
		unsigned int cap = f->cap ? f->cap * 2 : 256, j;
		struct comm_slot *n = calloc(cap, sizeof(*n)), *old = f->threads;

		if (!n)
			return NULL;
		f->threads = n;
		f->cap = cap;
		f->nr_threads = 0;
		for (j = 0; old && j < cap / 2; j++)
			if (old[j].used)
				*thread_slot(f, old[j].tid, 1) = old[j];
		free(old);
	}
	if (!f->cap)
		return NULL;
	mask = f->cap - 1;
	for (i = (tid * 2654435761u) & mask; f->threads[i].used; i = (i + 1) & mask)
		if (f->threads[i].tid == tid)
			return &f->threads[i];
	if (!add)
		return NULL;
	f->threads[i].used = 1;
	f->threads[i].tid = tid;
	f->nr_threads++;
	return &f->threads[i];
}

void filter__event(struct filter *f, const struct rvctr_event *ev)
{
	struct comm_slot *t;

	if (ev->type == PERF_RECORD_COMM && f->nr_comms) {
		t = thread_slot(f, ev->comm.tid, 1);
		if (t)
			snprintf(t->comm, sizeof(t->comm), "%.15s", ev->comm.comm);
	} else if (ev->type == PERF_RECORD_FORK && f->nr_comms) {
		/* a new thread has its parent's name until it sets or execs its own */
		struct comm_slot *p = thread_slot(f, ev->task.ptid, 0);
		char name[16];

		if (p) {
			memcpy(name, p->comm, sizeof(name));
			t = thread_slot(f, ev->task.tid, 1);
			if (t)
				memcpy(t->comm, name, sizeof(name));
		}
	}
	if (f->maps && rvctr_maps__event(f->maps, ev) && !f->maps_full) {
		f->maps_full = 1;
		fprintf(stderr, "rvctr: warning: --dso: some maps were not kept (too many maps "
			"or binaries, or out of memory): samples in them are dropped\n");
	}
}

void filter__input(struct filter *f)
{
	if (f->maps)
		rvctr_maps__reset(f->maps);
	if (f->threads)
		memset(f->threads, 0, f->cap * sizeof(*f->threads));
	f->nr_threads = 0;
}

static int in_list(const uint32_t *v, unsigned int n, uint32_t x)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static int dso_matches(const char *dso, const char *want)
{
	const char *base = strrchr(dso, '/');

	return !strcmp(dso, want) || (base && !strcmp(base + 1, want));
}

static int keep(struct filter *f, const struct rvctr_sample *s)
{
	unsigned int i;

	if (f->nr_pids && !in_list(f->pids, f->nr_pids, s->pid))
		return 0;
	if (f->nr_tids && !in_list(f->tids, f->nr_tids, s->tid))
		return 0;
	if (f->nr_comms) {
		const struct comm_slot *t = thread_slot(f, s->tid, 0);

		if (!t)
			return 0;
		for (i = 0; i < f->nr_comms && strcmp(f->comms[i], t->comm); i++)
			;
		if (i == f->nr_comms)
			return 0;
	}
	if (f->nr_dsos) {
		const struct rvctr_map *m = rvctr_maps__find(f->maps, s->pid, s->ip);
		const char *name = m ? rvctr_maps__dso_name(f->maps, m->dso) : NULL;

		if (!name)
			return 0;
		for (i = 0; i < f->nr_dsos && !dso_matches(name, f->dsos[i]); i++)
			;
		if (i == f->nr_dsos)
			return 0;
	}
	return 1;
}

int filter__keep(struct filter *f, const struct rvctr_sample *s)
{
	if (keep(f, s))
		return 1;
	f->dropped++;
	return 0;
}

uint64_t filter__dropped(const struct filter *f)
{
	return f->dropped;
}
