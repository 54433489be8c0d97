// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ISA strings and the ACPI RHCT: include/rvctr/isa.h.  Kernel-free: the
 * module and the host unit tests (tools/rvctr/tests/test-isa.c) compile
 * it; userspace gets u8/u32 from tools/include/shim.
 */
#include <linux/errno.h>
#include <linux/types.h>

#include <rvctr/isa.h>

static int rvctr_isa_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int rvctr_isa_digit(int c)
{
	return c >= '0' && c <= '9';
}

int rvctr_isa_has(const char *isa, size_t len, const char *name)
{
	size_t i = 0, n = 0, j;

	while (name[n])
		n++;
	if (!n || len < 4 || rvctr_isa_lower(isa[0]) != 'r' ||
	    rvctr_isa_lower(isa[1]) != 'v')
		return 0;
	/* Skip "rv", the XLEN digits. */
	i = 2;
	while (i < len && rvctr_isa_digit(isa[i]))
		i++;
	/* The single-letter base, up to the first '_'. */
	for (; i < len && isa[i] && isa[i] != '_'; i++) {
		if (rvctr_isa_digit(isa[i]) ||
		    (rvctr_isa_lower(isa[i]) == 'p' && rvctr_isa_digit(isa[i - 1])))
			continue;
		if (n == 1 && rvctr_isa_lower(isa[i]) == rvctr_isa_lower(name[0]))
			return 1;
	}
	if (n == 1)
		return 0;
	/* Multi-letter extensions, one per '_'-separated token. */
	while (i < len && isa[i] == '_') {
		size_t t = ++i;

		while (i < len && isa[i] && isa[i] != '_')
			i++;
		if (i - t < n)
			continue;
		for (j = 0; j < n; j++)
			if (rvctr_isa_lower(isa[t + j]) != rvctr_isa_lower(name[j]))
				break;
		if (j < n)
			continue;
		/* Exact, or a version: digits, optionally "p" and digits. */
		for (j = t + n; j < i; j++)
			if (!rvctr_isa_digit(isa[j]) && rvctr_isa_lower(isa[j]) != 'p')
				break;
		if (j == i && (t + n == i || rvctr_isa_digit(isa[t + n])))
			return 1;
	}
	return 0;
}

unsigned long rvctr_isa_exts(const char *isa, size_t len,
			     const char *const *names, int nr)
{
	unsigned long ext = 0;
	int i;

	for (i = 0; i < nr; i++)
		if (names[i] && rvctr_isa_has(isa, len, names[i]))
			ext |= 1UL << i;
	return ext;
}

static u32 rvctr_le(const u8 *p, int bytes)
{
	u32 v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

int rvctr_rhct_exts(const void *table, size_t len,
		    const char *const *names, int nr,
		    unsigned long *ext, unsigned int *harts)
{
	const u8 *t = table;
	u32 count, off, i, k;

	*ext = ~0UL;
	*harts = 0;
	if (len < RVCTR_RHCT_HDR_LEN || rvctr_le(t + 4, 4) > len)
		return -EINVAL;
	len = rvctr_le(t + 4, 4);
	count = rvctr_le(t + 48, 4);
	off = rvctr_le(t + 52, 4);
	for (i = 0; i < count; i++) {
		u32 type, nlen, noff, isa_node = 0, isas = 0;

		if (off < RVCTR_RHCT_HDR_LEN || off > len || len - off < 6)
			return -EINVAL;
		type = rvctr_le(t + off, 2);
		nlen = rvctr_le(t + off + 2, 2);
		if (nlen < 6 || nlen > len - off)
			return -EINVAL;
		if (type == RVCTR_RHCT_NODE_HART_INFO) {
			if (nlen < 12 || rvctr_le(t + off + 6, 2) > (nlen - 12) / 4)
				return -EINVAL;
			for (k = 0; k < rvctr_le(t + off + 6, 2); k++) {
				noff = rvctr_le(t + off + 12 + 4 * k, 4);
				if (noff < RVCTR_RHCT_HDR_LEN || noff > len ||
				    len - noff < 8 ||
				    rvctr_le(t + noff + 2, 2) > len - noff)
					return -EINVAL;
				if (rvctr_le(t + noff, 2) != RVCTR_RHCT_NODE_ISA)
					continue;
				/* The string must fit in its node. */
				if (rvctr_le(t + noff + 2, 2) < 8 ||
				    rvctr_le(t + noff + 6, 2) >
				    rvctr_le(t + noff + 2, 2) - 8)
					return -EINVAL;
				isa_node = noff;
				isas++;
			}
			if (isas != 1)
				return -EINVAL;
			*ext &= rvctr_isa_exts((const char *)t + isa_node + 8,
					       rvctr_le(t + isa_node + 6, 2),
					       names, nr);
			(*harts)++;
		}
		off += nlen;
	}
	if (!*harts) {
		*ext = 0;
		return -ENOENT;
	}
	return 0;
}
