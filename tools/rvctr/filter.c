// SPDX-License-Identifier: GPL-2.0-only
/* Sample filters; see filter.h. */
#include <stdlib.h>
#include <string.h>

#include <rvctr/machine.h>
#include "filter.h"

#define MAX_ITEMS	64

struct filter {
	uint32_t pids[MAX_ITEMS], tids[MAX_ITEMS];
	unsigned int nr_pids, nr_tids, nr_comms, nr_dsos;
	char *comms[MAX_ITEMS], *dsos[MAX_ITEMS];
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
	return ret;
}

int filter__active(const struct filter *f)
{
	return f->nr_pids || f->nr_tids || f->nr_comms || f->nr_dsos;
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

static int keep(struct filter *f, const struct rvctr_machine *m, const struct rvctr_sample *s)
{
	unsigned int i;

	if (f->nr_pids && !in_list(f->pids, f->nr_pids, s->pid))
		return 0;
	if (f->nr_tids && !in_list(f->tids, f->nr_tids, s->tid))
		return 0;
	if (f->nr_comms) {
		const char *comm = rvctr_machine__comm(m, s->tid);

		if (!comm)
			return 0;
		for (i = 0; i < f->nr_comms && strcmp(f->comms[i], comm); i++)
			;
		if (i == f->nr_comms)
			return 0;
	}
	if (f->nr_dsos) {
		struct rvctr_maps *maps = rvctr_machine__maps(m);
		const struct rvctr_map *map = rvctr_maps__find(maps, s->pid, s->ip);
		const char *name = map ? rvctr_maps__dso_name(maps, map->dso) : NULL;

		if (!name)
			return 0;
		for (i = 0; i < f->nr_dsos && !dso_matches(name, f->dsos[i]); i++)
			;
		if (i == f->nr_dsos)
			return 0;
	}
	return 1;
}

int filter__keep(struct filter *f, const struct rvctr_machine *m, const struct rvctr_sample *s)
{
	if (keep(f, m, s))
		return 1;
	f->dropped++;
	return 0;
}

uint64_t filter__dropped(const struct filter *f)
{
	return f->dropped;
}
