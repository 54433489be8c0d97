// SPDX-License-Identifier: GPL-2.0-only
/* Address maps from MMAP records; see rvctr/maps.h. */
#include <stdlib.h>
#include <string.h>

#include <rvctr/maps.h>

#define MAX_MAPS	65536
#define MAX_DSOS	4096

struct rvctr_maps {
	struct rvctr_map *maps;
	unsigned int nr, cap;
	char *dsos[MAX_DSOS];
	unsigned int nr_dsos;
	const struct rvctr_map *last;	/* lookup cache */
};

struct rvctr_maps *rvctr_maps__new(void)
{
	return calloc(1, sizeof(struct rvctr_maps));
}

void rvctr_maps__delete(struct rvctr_maps *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < m->nr_dsos; i++)
		free(m->dsos[i]);
	free(m->maps);
	free(m);
}

static int dso_index(struct rvctr_maps *m, const char *name)
{
	unsigned int i;

	for (i = 0; i < m->nr_dsos; i++)
		if (!strcmp(m->dsos[i], name))
			return i;
	if (m->nr_dsos >= MAX_DSOS)
		return -1;
	m->dsos[m->nr_dsos] = strdup(name);
	return m->dsos[m->nr_dsos] ? (int)m->nr_dsos++ : -1;
}

int rvctr_maps__add(struct rvctr_maps *m, const struct rvctr_mmap *mm)
{
	int dso;

	if (m->nr == m->cap) {
		unsigned int cap = m->cap ? m->cap * 2 : 64;
		struct rvctr_map *n;

		if (cap > MAX_MAPS)
			return -1;
		n = realloc(m->maps, cap * sizeof(*n));
		if (!n)
			return -1;
		m->maps = n;
		m->cap = cap;
	}
	dso = dso_index(m, mm->filename);
	if (dso < 0)
		return -1;
	m->maps[m->nr++] = (struct rvctr_map){
		.pid = mm->pid, .start = mm->start, .len = mm->len,
		.pgoff = mm->pgoff, .dso = dso,
	};
	m->last = NULL;
	return 0;
}

static int holds(const struct rvctr_map *map, uint64_t addr)
{
	return addr >= map->start && addr - map->start < map->len;
}

const struct rvctr_map *rvctr_maps__find(struct rvctr_maps *m, uint32_t pid, uint64_t addr)
{
	const struct rvctr_map *any = NULL;
	unsigned int i;

	if (m->last && m->last->pid == pid && holds(m->last, addr))
		return m->last;
	for (i = m->nr; i-- > 0;) {
		if (!holds(&m->maps[i], addr))
			continue;
		if (m->maps[i].pid == pid)
			return m->last = &m->maps[i];
		if (!any)
			any = &m->maps[i];
	}
	return any;
}

unsigned int rvctr_maps__nr_dsos(const struct rvctr_maps *m)
{
	return m->nr_dsos;
}

const char *rvctr_maps__dso_name(const struct rvctr_maps *m, unsigned int dso)
{
	return dso < m->nr_dsos ? m->dsos[dso] : NULL;
}

uint64_t rvctr_map__file_addr(const struct rvctr_map *map, uint64_t addr, int pie)
{
	return pie ? addr - map->start + map->pgoff : addr;
}
