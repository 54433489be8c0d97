// SPDX-License-Identifier: GPL-2.0-only
/* perf-script-shaped text for llvm-profgen; see rvctr/perfscript.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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
 * " 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/%u/%s/-" per record.  Constant
 * pieces are copied with their length known (no strlen, no byte loop),
 * hex digits are made 8 at a time in a register, and each branch type's
 * "/NAME/-" tail comes from a table: about 100 instructions a record
 * instead of 360 (callgrind, on profile-bench's bzip2 recording).
 */
#define PS_BUF		8192
#define PS_RECORD_MAX	96	/* " 0x" 16 "/0x" 16 "/M/-/-/" 10 "/" 9 "/-" < 96 */

#define PUT_LIT(p, lit)	(memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The 8 hex digits of @v as 8 bytes, most significant first in memory:
 * the nibbles spread one a byte, made ASCII in parallel (+'0', and +39
 * more where a nibble is 10 or more), then put in text order.
 */
static inline __attribute__((always_inline)) uint64_t hex8(uint32_t v)
{
	uint64_t x = v;

	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;	/* byte k: nibble k */
	x += 0x3030303030303030ULL +
	     (((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL) * ('a' - '9' - 1);
	return __builtin_bswap64(x);
}

/* @v in hex without leading zeros; writes up to 16 bytes at @p */
static inline __attribute__((always_inline)) char *put_hex(char *p, uint64_t v)
{
	unsigned int n = (67 - __builtin_clzll(v | 1)) >> 2;
	uint64_t w;

	if (n <= 8) {
		w = hex8((uint32_t)v) >> (8 * (8 - n));	/* drop the leading zeros */
		memcpy(p, &w, 8);
	} else {
		w = hex8((uint32_t)(v >> 32)) >> (8 * (16 - n));
		memcpy(p, &w, 8);
		w = hex8((uint32_t)v);
		memcpy(p + n - 8, &w, 8);
	}
	return p + n;
}
#else
static char *put_hex(char *p, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1, i;

	for (i = n - 1; i >= 0; i--, v >>= 4)
		p[i] = digits[v & 15];
	return p + n;
}
#endif

static char *put_uint(char *p, unsigned int v)
{
	char tmp[10];
	int n = 0;

	if (v < 10) {
		*p++ = (char)('0' + v);
		return p;
	}
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* "/NAME/-" for each branch type, as rvctr_perf_branch_type_name() names it */
struct type_tail {
	char text[16];
	unsigned char len;
};

#define TAIL(name)	{ "/" name "/-", sizeof(name) + 2 }

/* indexed by perf_branch_entry.type, a 4-bit field */
static const struct type_tail type_tails[16] = {
	[PERF_BR_COND] = TAIL("COND"),
	[PERF_BR_UNCOND] = TAIL("UNCOND"),
	[PERF_BR_IND] = TAIL("IND"),
	[PERF_BR_CALL] = TAIL("CALL"),
	[PERF_BR_IND_CALL] = TAIL("IND_CALL"),
	[PERF_BR_RET] = TAIL("RET"),
	[PERF_BR_SYSCALL] = TAIL("SYSCALL"),
	[PERF_BR_SYSRET] = TAIL("SYSRET"),
	[PERF_BR_COND_CALL] = TAIL("COND_CALL"),
	[PERF_BR_COND_RET] = TAIL("COND_RET"),
	[PERF_BR_ERET] = TAIL("ERET"),
	[PERF_BR_IRQ] = TAIL("IRQ"),
	[PERF_BR_SERROR] = TAIL("SERROR"),
	[PERF_BR_NO_TX] = TAIL("NO_TX"),
};
static const struct type_tail unknown_tail = TAIL("-");

static char *put_record(char *p, const struct perf_branch_entry *b)
{
	const struct type_tail *tail = type_tails[b->type].len ? &type_tails[b->type] :
							       &unknown_tail;

	p = PUT_LIT(p, " 0x");
	p = put_hex(p, b->from);
	p = PUT_LIT(p, "/0x");
	p = put_hex(p, b->to);
	*p++ = '/';
	*p++ = mispred_char(b);
	p = PUT_LIT(p, "/-/-/");
	p = put_uint(p, b->cycles);
	memcpy(p, tail->text, sizeof(tail->text));	/* the buffer has room */
	return p + tail->len;
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
