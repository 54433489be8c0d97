// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the ELF symbol table reader. */
#include <rvctr/symtab.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rvctr_segment seg;
	struct rvctr_symtab *t;
	uint8_t id[20];
	char err[256];
	uint64_t off;

	t = rvctr_symtab__parse(data, size, err, sizeof(err));
	if (!t)
		return 0;
	rvctr_symtab__lookup(t, size > 8 ? *(const uint64_t *)data : 0, &off);
	rvctr_symtab__lookup(t, 0x10000, &off);
	rvctr_symtab__build_id(t, id);
	if (!rvctr_symtab__exec_segment(t, &seg))
		rvctr_symtab__read(t, seg.vaddr, id, 4);	/* a section's bytes */
	rvctr_symtab__read(t, size > 16 ? *(const uint64_t *)(data + 8) : 0, id, 2);
	rvctr_symtab__delete(t);
	return 0;
}
