// SPDX-License-Identifier: GPL-2.0-only
/* perf-script-shaped text for llvm-profgen; see rvctr/perfscript.h. */
#include <inttypes.h>

#include <rvctr/perfscript.h>

const char *rvctr_perf_branch_type_name(unsigned int type)
{
	static const char * const names[PERF_BR_MAX] = {
		[PERF_BR_COND] = "COND",
		[PERF_BR_UNCOND] = "UNCOND",
		[PERF_BR_IND] = "IND",
		[PERF_BR_CALL] = "CALL",
		[PERF_BR_IND_CALL] = "IND_CALL",
		[PERF_BR_RET] = "RET",
		[PERF_BR_SYSCALL] = "SYSCALL",
		[PERF_BR_SYSRET] = "SYSRET",
		[PERF_BR_COND_CALL] = "COND_CALL",
		[PERF_BR_COND_RET] = "COND_RET",
		[PERF_BR_ERET] = "ERET",
		[PERF_BR_IRQ] = "IRQ",
		[PERF_BR_SERROR] = "SERROR",
		[PERF_BR_NO_TX] = "NO_TX",
	};

	return type < PERF_BR_MAX && names[type] ? names[type] : "-";
}

int rvctr_perfscript__mmap(FILE *out, const struct rvctr_mmap *m, const char *comm)
{
	/* llvm-profgen matches this with a regular expression: keep the shape */
	/* pids are signed: the kernel's maps belong to pid -1 */
	fprintf(out, "%16s %6d %24s PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#"
		PRIx64 " 00:00 0 0]: r-xp %s\n", comm ? comm : ":-1", (int32_t)m->pid, "0.000000:",
		(int32_t)m->pid, (int32_t)m->tid, m->start, m->len, m->pgoff, m->filename);
	return ferror(out) ? -1 : 0;
}

static char mispred_char(const struct perf_branch_entry *b)
{
	return b->mispred ? 'M' : b->predicted ? 'P' : '-';
}

int rvctr_perfscript__sample(FILE *out, const struct rvctr_sample *s)
{
	uint64_t i;

	fprintf(out, "%16" PRIx64, s->ip);
	for (i = 0; i < s->nr_branches; i++) {
		const struct perf_branch_entry *b = &s->branches[i];

		fprintf(out, " 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/%u/%s/-", (uint64_t)b->from, (uint64_t)b->to,
			mispred_char(b), (unsigned int)b->cycles,
			rvctr_perf_branch_type_name(b->type));
	}
	fputc('\n', out);
	return ferror(out) ? -1 : 0;
}
