// SPDX-License-Identifier: GPL-2.0-only
/* Top-down levels 1-3 (XiangShan Kunminghu formulas); see rvctr/topdown.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/topdown.h>

#define EV(e)	(1u << TD_##e)

static const char * const event_names[TD_NR_EVENTS] = {
	[TD_CPU_CYCLES] = "CPU_CYCLES",
	[TD_INST_RETIRED] = "INST_RETIRED",
	[TD_INST_SPEC] = "INST_SPEC",
	[TD_IF_FETCH_BUBBLE] = "IF_FETCH_BUBBLE",
	[TD_IF_FETCH_BUBBLE_EQ_MAX] = "IF_FETCH_BUBBLE_EQ_MAX",
	[TD_BR_MIS_PRED] = "BR_MIS_PRED",
	[TD_TOTAL_FLUSH] = "TOTAL_FLUSH",
	[TD_RECOVERY_BUBBLE] = "RECOVERY_BUBBLE",
	[TD_EXEC_STALL_CYCLE] = "EXEC_STALL_CYCLE",
	[TD_MEMSTALL_ANYLOAD] = "MEMSTALL_ANYLOAD",
	[TD_MEMSTALL_STORE] = "MEMSTALL_STORE",
	[TD_MEMSTALL_L1MISS] = "MEMSTALL_L1MISS",
	[TD_MEMSTALL_L2MISS] = "MEMSTALL_L2MISS",
	[TD_MEMSTALL_L3MISS] = "MEMSTALL_L3MISS",
};

/* Other spellings: perf's generic names and the Kunminghu event table's. */
static const struct {
	const char *alias;
	enum rvctr_td_event ev;
} aliases[] = {
	{ "cycles", TD_CPU_CYCLES },
	{ "cpu-cycles", TD_CPU_CYCLES },
	{ "CPU_CYCLE", TD_CPU_CYCLES },
	{ "instructions", TD_INST_RETIRED },
	{ "rob_commitInstr", TD_INST_RETIRED },
	{ "Front_Bubble", TD_IF_FETCH_BUBBLE },
	{ "Fetch_Latency_Bound", TD_IF_FETCH_BUBBLE_EQ_MAX },
	{ "branch-misses", TD_BR_MIS_PRED },
	{ "MEMSTALL_ANY_LOAD", TD_MEMSTALL_ANYLOAD },
};

void rvctr_topdown__init(struct rvctr_topdown *td, unsigned int issue_width)
{
	memset(td, 0, sizeof(*td));
	td->issue_width = issue_width ? issue_width : 6;
}

const char *rvctr_topdown__event_name(unsigned int ev)
{
	return ev < TD_NR_EVENTS ? event_names[ev] : NULL;
}

static int lookup(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < TD_NR_EVENTS; i++)
		if (strlen(event_names[i]) == len && !strncasecmp(name, event_names[i], len))
			return i;
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strlen(aliases[i].alias) == len && !strncmp(name, aliases[i].alias, len))
			return aliases[i].ev;
	return -1;
}

int rvctr_topdown__set(struct rvctr_topdown *td, const char *name, double value)
{
	/* "cycles:u" counts as cycles: drop perf's modifiers */
	size_t len = strcspn(name, ":");
	int ev = lookup(name, len);

	if (ev < 0)
		return 1;
	td->count[ev] = value;
	td->have |= 1u << ev;
	return 0;
}

static int parse_value(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	*v = strtod(buf, &end);
	return *end || *v < 0 || *v != *v ? -1 : 0;
}

static int parse_csv(struct rvctr_topdown *td, const char *line)
{
	const char *c1 = strchr(line, ','), *c2, *name;
	char ev[128];
	size_t n;
	double v;

	c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	if (!c2)
		return -1;
	if (line[0] == '<')		/* <not counted>, <not supported> */
		return 1;
	if (parse_value(line, c1 - line, &v))
		return -1;
	name = c2 + 1;
	n = strcspn(name, ",\n");
	if (n >= sizeof(ev))
		return -1;
	memcpy(ev, name, n);
	ev[n] = 0;
	return rvctr_topdown__set(td, ev, v);
}

static int parse_pair(struct rvctr_topdown *td, const char *line)
{
	char name[128];
	size_t n = strcspn(line, " \t=");
	const char *p = line + n;
	double v;

	if (!n || n >= sizeof(name))
		return -1;
	memcpy(name, line, n);
	name[n] = 0;
	p += strspn(p, " \t=");
	if (parse_value(p, strcspn(p, " \t\r\n"), &v))
		return -1;
	return rvctr_topdown__set(td, name, v);
}

int rvctr_topdown__parse_line(struct rvctr_topdown *td, const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	if (!*line || *line == '#')
		return 1;
	return strchr(line, ',') ? parse_csv(td, line) : parse_pair(td, line);
}

/* ---- the metrics ---- */

static double c(const struct rvctr_topdown *td, enum rvctr_td_event e)
{
	return td->count[e];
}

static double slots(const struct rvctr_topdown *td)
{
	return td->issue_width * c(td, TD_CPU_CYCLES);
}

static double retiring(const struct rvctr_topdown *td)
{
	return c(td, TD_INST_RETIRED) / slots(td);
}

static double frontend(const struct rvctr_topdown *td)
{
	return c(td, TD_IF_FETCH_BUBBLE) / slots(td);
}

static double fetch_latency(const struct rvctr_topdown *td)
{
	return c(td, TD_IF_FETCH_BUBBLE_EQ_MAX) / c(td, TD_CPU_CYCLES);
}

static double fetch_bandwidth(const struct rvctr_topdown *td)
{
	return frontend(td) - fetch_latency(td);
}

static double bad_spec(const struct rvctr_topdown *td)
{
	return (c(td, TD_INST_SPEC) - c(td, TD_INST_RETIRED) + c(td, TD_RECOVERY_BUBBLE)) /
	       slots(td);
}

static double branch_mispredict(const struct rvctr_topdown *td)
{
	return bad_spec(td) * c(td, TD_BR_MIS_PRED) / c(td, TD_TOTAL_FLUSH);
}

static double machine_clears(const struct rvctr_topdown *td)
{
	return bad_spec(td) - branch_mispredict(td);
}

static double backend(const struct rvctr_topdown *td)
{
	return 1 - (frontend(td) + bad_spec(td) + retiring(td));
}

static double core_bound(const struct rvctr_topdown *td)
{
	return (c(td, TD_EXEC_STALL_CYCLE) - c(td, TD_MEMSTALL_ANYLOAD) -
		c(td, TD_MEMSTALL_STORE)) / c(td, TD_CPU_CYCLES);
}

static double memory_bound(const struct rvctr_topdown *td)
{
	return (c(td, TD_MEMSTALL_ANYLOAD) + c(td, TD_MEMSTALL_STORE)) / c(td, TD_CPU_CYCLES);
}

static double l1_bound(const struct rvctr_topdown *td)
{
	return (c(td, TD_MEMSTALL_ANYLOAD) - c(td, TD_MEMSTALL_L1MISS)) / c(td, TD_CPU_CYCLES);
}

static double l2_bound(const struct rvctr_topdown *td)
{
	return (c(td, TD_MEMSTALL_L1MISS) - c(td, TD_MEMSTALL_L2MISS)) / c(td, TD_CPU_CYCLES);
}

static double l3_bound(const struct rvctr_topdown *td)
{
	return (c(td, TD_MEMSTALL_L2MISS) - c(td, TD_MEMSTALL_L3MISS)) / c(td, TD_CPU_CYCLES);
}

static double mem_bound(const struct rvctr_topdown *td)
{
	return c(td, TD_MEMSTALL_L3MISS) / c(td, TD_CPU_CYCLES);
}

static double store_bound(const struct rvctr_topdown *td)
{
	return c(td, TD_MEMSTALL_STORE) / c(td, TD_CPU_CYCLES);
}

#define RET_EVENTS	(EV(CPU_CYCLES) | EV(INST_RETIRED))
#define FE_EVENTS	(EV(CPU_CYCLES) | EV(IF_FETCH_BUBBLE))
#define BS_EVENTS	(EV(CPU_CYCLES) | EV(INST_SPEC) | EV(INST_RETIRED) | EV(RECOVERY_BUBBLE))

static const struct metric {
	const char *name;
	unsigned int level;
	unsigned int needs;
	double (*fn)(const struct rvctr_topdown *td);
} metrics[] = {
	{ "Retiring", 1, RET_EVENTS, retiring },
	{ "Frontend Bound", 1, FE_EVENTS, frontend },
	{ "Fetch Latency Bound", 2, EV(CPU_CYCLES) | EV(IF_FETCH_BUBBLE_EQ_MAX), fetch_latency },
	{ "Fetch Bandwidth Bound", 2, FE_EVENTS | EV(IF_FETCH_BUBBLE_EQ_MAX), fetch_bandwidth },
	{ "Bad Speculation", 1, BS_EVENTS, bad_spec },
	{ "Branch Mispredict", 2, BS_EVENTS | EV(BR_MIS_PRED) | EV(TOTAL_FLUSH), branch_mispredict },
	{ "Machine Clears", 2, BS_EVENTS | EV(BR_MIS_PRED) | EV(TOTAL_FLUSH), machine_clears },
	{ "Backend Bound", 1, RET_EVENTS | FE_EVENTS | BS_EVENTS, backend },
	{ "Core Bound", 2, EV(CPU_CYCLES) | EV(EXEC_STALL_CYCLE) | EV(MEMSTALL_ANYLOAD) |
			   EV(MEMSTALL_STORE), core_bound },
	{ "Memory Bound", 2, EV(CPU_CYCLES) | EV(MEMSTALL_ANYLOAD) | EV(MEMSTALL_STORE),
	  memory_bound },
	{ "L1 Bound", 3, EV(CPU_CYCLES) | EV(MEMSTALL_ANYLOAD) | EV(MEMSTALL_L1MISS), l1_bound },
	{ "L2 Bound", 3, EV(CPU_CYCLES) | EV(MEMSTALL_L1MISS) | EV(MEMSTALL_L2MISS), l2_bound },
	{ "L3 Bound", 3, EV(CPU_CYCLES) | EV(MEMSTALL_L2MISS) | EV(MEMSTALL_L3MISS), l3_bound },
	{ "Mem Bound", 3, EV(CPU_CYCLES) | EV(MEMSTALL_L3MISS), mem_bound },
	{ "Store Bound", 3, EV(CPU_CYCLES) | EV(MEMSTALL_STORE), store_bound },
};

double rvctr_topdown__metric(const struct rvctr_topdown *td, unsigned int i,
			     const char **name, unsigned int *level, unsigned int *missing)
{
	const struct metric *m;

	if (i >= sizeof(metrics) / sizeof(metrics[0]))
		return -2;
	m = &metrics[i];
	*name = m->name;
	*level = m->level;
	*missing = m->needs & ~td->have;
	/* a zero divisor is as unusable as a missing count */
	if (!*missing && (td->count[TD_CPU_CYCLES] == 0 ||
			  (m->needs & EV(TOTAL_FLUSH) && td->count[TD_TOTAL_FLUSH] == 0)))
		*missing = m->needs & (EV(CPU_CYCLES) | EV(TOTAL_FLUSH));
	return *missing ? -1 : m->fn(td);
}

static void print_missing(FILE *out, unsigned int missing)
{
	const char *sep = "";
	unsigned int e;

	fprintf(out, "n/a (needs ");
	for (e = 0; e < TD_NR_EVENTS; e++)
		if (missing & (1u << e)) {
			fprintf(out, "%s%s", sep, event_names[e]);
			sep = ", ";
		}
	fprintf(out, ")\n");
}

void rvctr_topdown__print(const struct rvctr_topdown *td, FILE *out, unsigned int max_level)
{
	unsigned int i, level, missing, shown = 0;
	const char *name;
	double v;

	fprintf(out, "# top-down analysis (IssueBW %u), levels 1-%u\n", td->issue_width,
		max_level);
	for (i = 0; (v = rvctr_topdown__metric(td, i, &name, &level, &missing)) != -2; i++) {
		if (level > max_level)
			continue;
		fprintf(out, "%*s%-*s ", 2 * (level - 1), "", 26 - 2 * (level - 1), name);
		if (missing) {
			print_missing(out, missing);
			continue;
		}
		fprintf(out, "%6.2f%%\n", 100 * v);
		shown++;
	}
	if (!shown)
		fprintf(out, "no metric could be computed: this PMU exposes none of the "
			"top-down event groups (see rvctr(1), TOPDOWN)\n");
}
