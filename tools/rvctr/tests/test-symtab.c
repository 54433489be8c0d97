// SPDX-License-Identifier: GPL-2.0-only
/* The ELF symbol table reader, on an image built in memory. */
#include <elf.h>
#include <stdlib.h>

#include <rvctr/symtab.h>

#include "tests.h"

/* ehdr | phdr | note | symbols | strtab | shstr | shdrs(null, note, symtab, strtab) */
struct image {
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf64_Nhdr nh;
	char note_name[4];
	uint8_t build_id[20];
	Elf64_Sym syms[4];
	char strtab[32];
	Elf64_Shdr sh[4];
};

static void build(struct image *im, uint16_t type)
{
	static const char strs[32] = "\0work\0main\0data";

	memset(im, 0, sizeof(*im));
	memcpy(im->eh.e_ident, ELFMAG, SELFMAG);
	im->eh.e_ident[EI_CLASS] = ELFCLASS64;
	im->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	im->eh.e_type = type;
	im->eh.e_machine = EM_RISCV;
	im->eh.e_phoff = offsetof(struct image, ph);
	im->eh.e_phentsize = sizeof(Elf64_Phdr);
	im->eh.e_phnum = 1;
	im->eh.e_shoff = offsetof(struct image, sh);
	im->eh.e_shentsize = sizeof(Elf64_Shdr);
	im->eh.e_shnum = 4;
	im->ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_vaddr = 0x10000,
			       .p_offset = 0, .p_filesz = 0x2000, .p_memsz = 0x2000 };
	im->nh = (Elf64_Nhdr){ .n_namesz = 4, .n_descsz = 20, .n_type = NT_GNU_BUILD_ID };
	memcpy(im->note_name, "GNU", 4);
	for (int i = 0; i < 20; i++)
		im->build_id[i] = 0xa0 + i;
	im->syms[1] = (Elf64_Sym){ .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				   .st_value = 0x10632, .st_size = 0x26 };
	im->syms[2] = (Elf64_Sym){ .st_name = 6, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				   .st_value = 0x10658, .st_size = 0x10 };
	im->syms[3] = (Elf64_Sym){ .st_name = 11, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
				   .st_value = 0x10660, .st_size = 8 };
	memcpy(im->strtab, strs, sizeof(strs));
	im->sh[1] = (Elf64_Shdr){ .sh_type = SHT_NOTE, .sh_offset = offsetof(struct image, nh),
				  .sh_size = sizeof(Elf64_Nhdr) + 4 + 20 };
	im->sh[2] = (Elf64_Shdr){ .sh_type = SHT_SYMTAB, .sh_offset = offsetof(struct image, syms),
				  .sh_size = sizeof(im->syms), .sh_link = 3,
				  .sh_entsize = sizeof(Elf64_Sym) };
	im->sh[3] = (Elf64_Shdr){ .sh_type = SHT_STRTAB, .sh_offset = offsetof(struct image, strtab),
				  .sh_size = sizeof(im->strtab) };
}

static void test_lookup(void)
{
	struct image im;
	struct rvctr_symtab *t;
	struct rvctr_segment seg;
	uint8_t id[20];
	uint64_t off = 0;
	char err[256];

	build(&im, ET_EXEC);
	t = rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err));
	T_OK(t != NULL, "parses a small ELF");
	if (!t)
		return;
	T_EQ(rvctr_symtab__nr_symbols(t), 2, "two functions (objects ignored)");
	T_STREQ(rvctr_symtab__lookup(t, 0x1064c, &off), "work", "address inside work");
	T_EQ(off, 0x1a, "offset into work");
	T_STREQ(rvctr_symtab__lookup(t, 0x10658, NULL), "main", "first byte of main");
	T_OK(rvctr_symtab__lookup(t, 0x10668, NULL) == NULL, "past main's size");
	T_OK(rvctr_symtab__lookup(t, 0x100, NULL) == NULL, "below every symbol");
	T_EQ(rvctr_symtab__build_id(t, id), 20, "build id length");
	T_EQ(id[19], 0xa0 + 19, "build id bytes");
	T_EQ(rvctr_symtab__exec_segment(t, &seg), 0, "executable segment");
	T_EQ(seg.vaddr, 0x10000, "its address");
	T_OK(!rvctr_symtab__is_pie(t), "ET_EXEC is not PIE");
	T_EQ(rvctr_symtab__machine(t), EM_RISCV, "machine");
	rvctr_symtab__delete(t);
}

static void test_corrupt(void)
{
	struct image im;
	struct rvctr_symtab *t;
	char err[256];
	size_t cut, bad = 0;

	build(&im, ET_DYN);
	im.sh[3].sh_offset = 1 << 30;
	t = rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err));
	T_OK(!t, "string table outside the file is an error");
	build(&im, ET_DYN);
	im.eh.e_shnum = 5000;
	T_OK(!rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err)),
	     "section headers past the end are an error");
	T_OK(strstr(err, "outside the file") != NULL, "with a reason");
	build(&im, ET_DYN);
	im.syms[1].st_name = 4000;
	t = rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err));
	T_EQ(t ? rvctr_symtab__nr_symbols(t) : 99, 1, "symbol with a name past the table dropped");
	rvctr_symtab__delete(t);
	/* every truncation: an error or a smaller table, never a read past the end */
	build(&im, ET_DYN);
	for (cut = 0; cut < sizeof(im); cut++) {
		t = rvctr_symtab__parse(&im, cut, err, sizeof(err));
		if (t && cut < offsetof(struct image, sh))
			bad++;
		rvctr_symtab__delete(t);
	}
	T_EQ(bad, 0, "truncated images without section headers are rejected");
}

int main(void)
{
	test_lookup();
	test_corrupt();
	return tests_done();
}
