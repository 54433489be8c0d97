// SPDX-License-Identifier: GPL-2.0-only
/* Parser for the driver's raw CTR snapshot text; see rvctr/snapshot.h. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/snapshot.h>

#define LINE_MAX_LEN	256

struct rvctr_snapshot_reader {
	FILE *f;
	unsigned long line;
	int failed;
	char err[256];
};

static int sfail(struct rvctr_snapshot_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int sfail(struct rvctr_snapshot_reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return -1;
	n = snprintf(r->err, sizeof(r->err), "line %lu: ", r->line);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
	va_end(ap);
	r->failed = 1;
	return -1;
}

struct rvctr_snapshot_reader *rvctr_snapshot_reader__new(FILE *f)
{
	struct rvctr_snapshot_reader *r = calloc(1, sizeof(*r));

	if (r)
		r->f = f;
	return r;
}

void rvctr_snapshot_reader__delete(struct rvctr_snapshot_reader *r)
{
	free(r);
}

const char *rvctr_snapshot_reader__error(const struct rvctr_snapshot_reader *r)
{
	return r->failed ? r->err : "no error";
}

static int blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s || *s == '#';
}

/* Next meaningful line into @buf: 1, 0 at EOF, -1 on error. */
static int get_line(struct rvctr_snapshot_reader *r, char *buf)
{
	size_t n;

	for (;;) {
		if (!fgets(buf, LINE_MAX_LEN, r->f))
			return ferror(r->f) ? sfail(r, "read error: %s", strerror(errno)) : 0;
		r->line++;
		n = strlen(buf);
		if (n == LINE_MAX_LEN - 1 && buf[n - 1] != '\n')
			return sfail(r, "line longer than %d characters", LINE_MAX_LEN - 2);
		if (!blank(buf))
			return 1;
	}
}

/* Strict unsigned parse: "0x" hex when @hex, else decimal; whole token. */
static int parse_u64(const char **s, int hex, uint64_t *v)
{
	const char *p = *s;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (hex && !(p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
		return -1;
	if (!isxdigit((unsigned char)p[hex ? 2 : 0]))
		return -1;
	errno = 0;
	*v = strtoull(p, &end, hex ? 16 : 10);
	if (errno || (*end && !isspace((unsigned char)*end)))
		return -1;
	*s = end;
	return 0;
}

static int rest_blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

static int parse_header(struct rvctr_snapshot_reader *r, const char *line,
			struct rvctr_snapshot *s)
{
	const char *p = line;
	uint64_t depth;

	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "sctrstatus", 10))
		return sfail(r, "expected \"sctrstatus 0x<hex> depth <N>\"");
	p += 10;
	if (parse_u64(&p, 1, &s->sctrstatus))
		return sfail(r, "bad sctrstatus value");
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "depth", 5))
		return sfail(r, "expected \"depth <N>\" after sctrstatus");
	p += 5;
	if (parse_u64(&p, 0, &depth))
		return sfail(r, "bad depth");
	/* the driver also prints sctrctl (drivers/perf/rvctr/rvctr_debugfs.c) */
	while (*p == ' ' || *p == '\t')
		p++;
	s->sctrctl = 0;
	if (!strncmp(p, "sctrctl", 7)) {
		p += 7;
		if (parse_u64(&p, 1, &s->sctrctl))
			return sfail(r, "bad sctrctl value");
	}
	if (!rest_blank(p))
		return sfail(r, "unexpected text after the header fields");
	if (riscv_ctr_depth_encode(depth) < 0)
		return sfail(r, "depth %llu is not one of 16, 32, 64, 128, 256",
			     (unsigned long long)depth);
	s->depth = depth;
	s->nr = 0;
	return 0;
}

static int parse_entry(struct rvctr_snapshot_reader *r, const char *line,
		       struct rvctr_snapshot *s)
{
	const char *p = line;
	uint64_t idx, source, target, data;

	if (parse_u64(&p, 0, &idx) || parse_u64(&p, 1, &source) ||
	    parse_u64(&p, 1, &target) || parse_u64(&p, 1, &data) || !rest_blank(p))
		return sfail(r, "expected \"<idx> 0x<ctrsource> 0x<ctrtarget> 0x<ctrdata>\"");
	if (idx != s->nr)
		return sfail(r, "entry %llu out of order (expected %u)",
			     (unsigned long long)idx, s->nr);
	s->entries[s->nr].source = source;
	s->entries[s->nr].target = target;
	s->entries[s->nr].data = data;
	s->nr++;
	return 0;
}

int rvctr_snapshot_reader__next(struct rvctr_snapshot_reader *r, struct rvctr_snapshot *s)
{
	char line[LINE_MAX_LEN];
	int ret;

	if (r->failed)
		return -1;
	ret = get_line(r, line);
	if (ret <= 0)
		return ret;
	if (parse_header(r, line, s))
		return -1;
	while (s->nr < s->depth) {
		ret = get_line(r, line);
		if (ret < 0)
			return -1;
		if (ret == 0)
			return sfail(r, "truncated snapshot: %u of %u entries", s->nr, s->depth);
		if (strstr(line, "sctrstatus"))
			return sfail(r, "snapshot ended after %u of %u entries", s->nr, s->depth);
		if (parse_entry(r, line, s))
			return -1;
	}
	return 1;
}

int rvctr_snapshot__probe(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && (isspace((unsigned char)buf[i]) || buf[i] == '#')) {
		if (buf[i] == '#')
			while (i < len && buf[i] != '\n')
				i++;
		i++;
	}
	return len - (i < len ? i : len) >= 10 && !strncmp(buf + i, "sctrstatus", 10);
}
