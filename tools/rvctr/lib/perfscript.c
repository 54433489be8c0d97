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

/*
 * Samples are formatted by hand into a buffer written in large pieces:
 * with one fprintf per record, formatting took most of a conversion
 * (Documentation/bench.rst).  The text is the same as
 * " 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/%u/%s/-" per record.
 */
#define PS_BUF		8192
#define PS_RECORD_MAX	96	/* " 0x" 16 "/0x" 16 "/M/-/-/" 10 "/" 9 "/-" < 96 */

static char *put_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_uint(char *p, unsigned int v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static char *put_record(char *p, const struct perf_branch_entry *b)
{
	p = put_str(p, " 0x");
	p = put_hex(p, b->from);
	p = put_str(p, "/0x");
	p = put_hex(p, b->to);
	*p++ = '/';
	*p++ = mispred_char(b);
	p = put_str(p, "/-/-/");
	p = put_uint(p, b->cycles);
	*p++ = '/';
	p = put_str(p, rvctr_perf_branch_type_name(b->type));
	return put_str(p, "/-");
}

int rvctr_perfscript__sample(FILE *out, const struct rvctr_sample *s)
{
	char buf[PS_BUF], *p = buf;
	uint64_t i;

	p += snprintf(buf, sizeof(buf), "%16" PRIx64, s->ip);
	for (i = 0; i < s->nr_branches; i++) {
		if (p - buf > PS_BUF - PS_RECORD_MAX - 1) {
			fwrite(buf, 1, p - buf, out);
			p = buf;
		}
		p = put_record(p, &s->branches[i]);
	}
	*p++ = '\n';
	fwrite(buf, 1, p - buf, out);
	return ferror(out) ? -1 : 0;
}
