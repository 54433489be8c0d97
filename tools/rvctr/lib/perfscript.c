// SPDX-License-Identifier: GPL-2.0-only
/* perf-script-shaped text for llvm-profgen; see rvctr/perfscript.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/*
 * The map's protection as perf script --show-mmap-events prints an MMAP2
 * (rwx, then s or p).  A record that carries none (prot and flags 0: an
 * MMAP record, or a kernel map perf and rvctr record synthesize) is shown
 * as perf shows an MMAP: executable unless the kernel marked it data.
 * llvm-profgen moves a binary's base only on an executable map.
 */
static void mmap_perm(char *p, const struct rvctr_mmap *m)
{
	if (!m->prot && !m->flags) {
		memcpy(p, m->misc & PERF_RECORD_MISC_MMAP_DATA ? "r--p" : "r-xp", 5);
		return;
	}
	p[0] = m->prot & PROT_READ ? 'r' : '-';
	p[1] = m->prot & PROT_WRITE ? 'w' : '-';
	p[2] = m->prot & PROT_EXEC ? 'x' : '-';
	p[3] = m->flags & MAP_SHARED ? 's' : 'p';
	p[4] = 0;
}

int rvctr_perfscript__format_mmap(char *buf, size_t len, const struct rvctr_mmap *m,
				  const char *comm)
{
	char perm[5];
	int n;

	mmap_perm(perm, m);
	/* llvm-profgen matches this with a regular expression: keep the shape */
	/* pids are signed: the kernel's maps belong to pid -1 */
	n = snprintf(buf, len, "%16s %6d %24s PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#"
		     PRIx64 ") @ %#" PRIx64 " 00:00 0 0]: %s %s\n", comm ? comm : ":-1",
		     (int32_t)m->pid, "0.000000:", (int32_t)m->pid, (int32_t)m->tid, m->start,
		     m->len, m->pgoff, perm, m->filename);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

/*
 * Samples are formatted by hand straight into the caller's output buffer:
 * with one fprintf per record, formatting took most of a conversion
 * (Documentation/profile-bench.rst, "Converter speed").  The text is the
 * same as "%16" PRIx64 for the ip, then
 * " 0x%" PRIx64 "/0x%" PRIx64 "/%c/-/-/%u/%s/-" per record.
 *
 *  - A program has few distinct branch records (a few thousand), and a
 *    stack repeats them: a loop's back edge is recorded again and again
 *    (60% of the records of profile-bench's bzip2 recording equal the one
 *    before).  Each record's text is kept in a direct-mapped cache keyed
 *    by all of the record's bits; a record equal to the one before skips
 *    even the lookup.  A hit is one 64-byte copy.
 *  - A miss formats: constant pieces are stored whole, hex digits are made
 *    8 at a time in a register, and each branch type's "/NAME/-" tail and
 *    the mispredict letter come from tables.
 *  - Stores are whole words: each piece may write bytes past its end that
 *    the next piece overwrites, hence the slack in
 *    RVCTR_PERFSCRIPT_SAMPLE_MAX.
 */
#define PS_TEXT_COPY	64	/* a record's text is at most 62 bytes */
#define PS_CACHE_BITS	10

struct ps_entry {
	uint64_t key[3];		/* the perf_branch_entry, all its bits */
	uint32_t len;			/* of text; 0: empty */
	char text[100];			/* with room for put_record's scratch */
};

struct rvctr_perfscript {
	struct ps_entry cache[1 << PS_CACHE_BITS];
};

_Static_assert(RVCTR_PERFSCRIPT_RECORD_MAX >= PS_TEXT_COPY + 16, "room for the copy");

struct rvctr_perfscript *rvctr_perfscript__new(void)
{
	return calloc(1, sizeof(struct rvctr_perfscript));
}

void rvctr_perfscript__delete(struct rvctr_perfscript *ps)
{
	free(ps);
}

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

/*
 * @v in hex without leading zeros; returns the end.  Writes 8 bytes at @p
 * (16 when @v has more than 8 digits), past the end when it is shorter.
 */
static inline __attribute__((always_inline)) char *put_hex(char *p, uint64_t v)
{
	unsigned int n = (67 - __builtin_clzll(v | 1)) >> 2;
	uint64_t w;

	if (__builtin_expect(n <= 8, 1)) {
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

/* @v (a 16-bit cycle count) in decimal. */
static inline char *put_uint(char *p, unsigned int v)
{
	char tmp[10];
	int n = 0;

	if (__builtin_expect(v < 10, 1)) {
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

/* indexed by perf_branch_entry.type, a 4-bit field: every value has one */
static const struct type_tail type_tails[16] = {
	[PERF_BR_UNKNOWN] = TAIL("-"),
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
	[PERF_BR_EXTEND_ABI] = TAIL("-"),	/* perf names it "-" too */
};

static inline char *put_record(char *p, const struct perf_branch_entry *b)
{
	/* indexed by mispred | predicted << 1: M wins */
	static const char flag[4] = { '-', 'M', 'P', 'M' };
	const struct type_tail *tail = &type_tails[b->type];

	memcpy(p, " 0x", 4);
	p = put_hex(p + 3, b->from);
	memcpy(p, "/0x", 4);
	p = put_hex(p + 3, b->to);
	memcpy(p, "/-/-/-/", 8);
	p[1] = flag[b->mispred | b->predicted << 1];
	p = put_uint(p + 7, b->cycles);
	memcpy(p, tail->text, sizeof(tail->text));
	return p + tail->len;
}

static inline unsigned int ps_hash(uint64_t from, uint64_t to)
{
	return (unsigned int)(((from * 0x9e3779b97f4a7c15ULL) ^ to) * 0xbf58476d1ce4e5b9ULL >>
			      (64 - PS_CACHE_BITS));
}

char *rvctr_perfscript__format_sample(struct rvctr_perfscript *ps, char *buf,
				      const struct rvctr_sample *s)
{
	const struct perf_branch_entry *b = s->branches, *end = b + s->nr_branches;
	const struct ps_entry *e = NULL;
	uint64_t from = 0, to = 0, flags = 0;
	unsigned int n = (67 - __builtin_clzll(s->ip | 1)) >> 2;
	char *p;

	_Static_assert(sizeof(*b) == 24, "from, to and the flags' u64");
	/* "%16" PRIx64: right-aligned in 16 columns */
	memcpy(buf, "                ", 16);
	p = put_hex(buf + 16 - n, s->ip);
	for (; b < end; b++) {
		uint64_t f;

		memcpy(&f, (const char *)b + 16, 8);	/* the bitfields */
		if (!e || b->from != from || b->to != to || f != flags) {
			struct ps_entry *c = &ps->cache[ps_hash(b->from, b->to)];

			from = b->from;
			to = b->to;
			flags = f;
			if (!c->len || c->key[0] != from || c->key[1] != to || c->key[2] != flags) {
				c->key[0] = from;
				c->key[1] = to;
				c->key[2] = flags;
				c->len = put_record(c->text, b) - c->text;
			}
			e = c;
		}
		memcpy(p, e->text, PS_TEXT_COPY);
		p += e->len;
	}
	*p++ = '\n';
	return p;
}
