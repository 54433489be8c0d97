// SPDX-License-Identifier: GPL-2.0-only
/* The ELF symbol table reader, on an image built in memory. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rvctr/symtab.h>

#include "elf-image.h"
#include "tests.h"

/* ehdr | phdr | note | symbols | strtab | shstrtab | shdrs(null, note, symtab, strtab, shstrtab) */
struct image {
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf64_Nhdr nh;
	char note_name[4];
	uint8_t build_id[20];
	Elf64_Sym syms[4];
	char strtab[32];
	char shstrtab[48];
	Elf64_Shdr sh[5];
};

static void build(struct image *im, uint16_t type)
{
	static const char strs[32] = "\0work\0main\0data";
	static const char shstrs[48] = "\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";

	memset(im, 0, sizeof(*im));
	elf_image_header(&im->eh, type, offsetof(struct image, ph),
			 offsetof(struct image, sh), 5, 4);
	im->ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_vaddr = 0x10000,
			       .p_offset = 0, .p_filesz = 0x2000, .p_memsz = 0x2000 };
	im->nh = (Elf64_Nhdr){ .n_namesz = 4, .n_descsz = 20, .n_type = NT_GNU_BUILD_ID };
	memcpy(im->note_name, "GNU", 4);
	for (int i = 0; i < 20; i++)
		im->build_id[i] = 0xa0 + i;
	im->syms[1] = (Elf64_Sym){ .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1,
				   .st_value = 0x10632, .st_size = 0x26 };
	im->syms[2] = (Elf64_Sym){ .st_name = 6, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1,
				   .st_value = 0x10658, .st_size = 0x10 };
	im->syms[3] = (Elf64_Sym){ .st_name = 11, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
				   .st_value = 0x10660, .st_size = 8 };
	memcpy(im->strtab, strs, sizeof(strs));
	memcpy(im->shstrtab, shstrs, sizeof(shstrs));
	im->sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_NOTE, .sh_flags = SHF_ALLOC, .sh_offset = offsetof(struct image, nh),
				  .sh_size = sizeof(Elf64_Nhdr) + 4 + 20 };
	im->sh[2] = (Elf64_Shdr){ .sh_name = 20, .sh_type = SHT_SYMTAB, .sh_info = 1, .sh_offset = offsetof(struct image, syms),
				  .sh_size = sizeof(im->syms), .sh_link = 3,
				  .sh_entsize = sizeof(Elf64_Sym) };
	im->sh[3] = (Elf64_Shdr){ .sh_name = 28, .sh_type = SHT_STRTAB,
				  .sh_offset = offsetof(struct image, strtab),
				  .sh_size = sizeof(im->strtab) };
	im->sh[4] = (Elf64_Shdr){ .sh_name = 36, .sh_type = SHT_STRTAB,
				  .sh_offset = offsetof(struct image, shstrtab),
				  .sh_size = sizeof(im->shstrtab) };
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
		printf("# %s\n", err);
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

/* Bytes at an ELF address: a section's with file bytes, not a NOBITS one's. */
static void test_read(void)
{
	const uint64_t at = 0x10000 + offsetof(struct image, nh);
	struct image im;
	struct rvctr_symtab *t;
	char err[256], buf[4] = "";

	build(&im, ET_EXEC);
	im.sh[1].sh_type = SHT_PROGBITS;
	im.sh[1].sh_addr = at;
	t = rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err));
	T_OK(t != NULL, "parses the image with a PROGBITS section");
	if (!t)
		return;
	T_EQ(rvctr_symtab__read(t, at + sizeof(Elf64_Nhdr), buf, 4), 0, "reads its bytes");
	T_STREQ(buf, "GNU", "the bytes at that address");
	T_EQ(rvctr_symtab__read(t, at + im.sh[1].sh_size - 2, buf, 4), -1,
	     "not past the section's end");
	T_EQ(rvctr_symtab__read(t, at - 2, buf, 1), -1, "not below it");
	rvctr_symtab__delete(t);
	im.sh[1].sh_type = SHT_NOBITS;
	t = rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err));
	T_OK(t && rvctr_symtab__read(t, at, buf, 1) == -1, "a NOBITS section has no bytes");
	rvctr_symtab__delete(t);
}

/* Symbols parsed from a damaged image: NULL, or how many were read. */
static size_t nr_parsed(const struct image *im, size_t len)
{
	char err[256];
	struct rvctr_symtab *t = rvctr_symtab__parse(im, len, err, sizeof(err));
	size_t n = t ? rvctr_symtab__nr_symbols(t) : 0;

	if (!t && !err[0])
		n = 1000;	/* an error without a reason */
	rvctr_symtab__delete(t);
	return n;
}

/*
 * Damaged images (elfutils reads them): an error with a reason, or a table
 * without the damaged parts; never a crash or a read past the end (ASan).
 */
static void test_corrupt(void)
{
	struct rvctr_symtab *t;
	struct image im;
	char err[256];
	size_t cut, bad = 0;

	build(&im, ET_DYN);
	im.sh[3].sh_offset = 1 << 30;
	T_EQ(nr_parsed(&im, sizeof(im)), 0, "string table outside the file: no symbols");
	build(&im, ET_DYN);
	im.eh.e_shnum = 5000;
	T_EQ(nr_parsed(&im, sizeof(im)), 0, "section headers past the end: no symbols");
	build(&im, ET_DYN);
	memcpy(im.eh.e_ident, "\177ELG", 4);
	err[0] = 0;
	T_OK(!rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err)) && strstr(err, "ELF"),
	     "not an ELF file: an error that says so");
	build(&im, ET_DYN);
	im.syms[1].st_name = 4000;
	t = rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err));
	T_OK(!t || !rvctr_symtab__lookup(t, 0x1064c, NULL),
	     "symbol with a name past the table never returned");
	rvctr_symtab__delete(t);
	/* every truncation: an error or fewer symbols, never a read past the end */
	build(&im, ET_DYN);
	for (cut = 0; cut < sizeof(im); cut++)
		if (nr_parsed(&im, cut) > (cut < offsetof(struct image, sh) + sizeof(im.sh) ? 0 : 2))
			bad++;
	T_EQ(bad, 0, "truncated images: no symbols read from bytes that are not there");
}

/* The image as a relocatable object whose note has a relocation against it. */
struct rel_image {
	struct image im;
	Elf64_Shdr rela_sh;	/* sh[5], right after im.sh[4] */
	Elf64_Rela rela;
};

static void build_rel(struct rel_image *r)
{
	build(&r->im, ET_REL);
	r->im.ph = (Elf64_Phdr){ 0 };
	r->im.eh.e_phoff = 0;
	r->im.eh.e_phnum = 0;
	r->im.eh.e_shnum = 6;
	r->rela = (Elf64_Rela){ .r_offset = 4, .r_info = ELF64_R_INFO(1, R_RISCV_64) };
	r->rela_sh = (Elf64_Shdr){ .sh_type = SHT_RELA, .sh_flags = SHF_INFO_LINK,
				   .sh_offset = offsetof(struct rel_image, rela),
				   .sh_size = sizeof(r->rela), .sh_entsize = sizeof(r->rela),
				   .sh_link = 2, .sh_info = 1 };
}

/*
 * Only executables and shared objects have load addresses.  A relocatable
 * object (a .o, a .ko) is refused by type before elfutils sees it: elfutils
 * would place and relocate its sections as soon as it is opened.
 */
static void test_type(void)
{
	static const uint16_t types[] = { ET_REL, ET_CORE, ET_NONE, 0xfe00 };
	struct rel_image r;
	char err[256];
	unsigned int i, ok = 0;

	_Static_assert(offsetof(struct rel_image, rela_sh) == sizeof(struct image),
		       "section headers contiguous");
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct rvctr_symtab *t;

		build(&r.im, types[i]);
		err[0] = 0;
		t = rvctr_symtab__parse(&r.im, sizeof(r.im), err, sizeof(err));
		if (!t && strstr(err, "not an executable or shared object"))
			ok++;
		else
			printf("# type %#x: %s\n", types[i], t ? "parsed" : err);
		rvctr_symtab__delete(t);
	}
	T_EQ(ok, i, "relocatable, core and unknown ELF types: refused with a reason");
	build_rel(&r);
	err[0] = 0;
	T_OK(!rvctr_symtab__parse(&r, sizeof(r), err, sizeof(err)) &&
	     strstr(err, "relocatable object"),
	     "a relocatable object with relocations: refused, and named as such");
}

/* kallsyms' module symbols ("name\t[module]") belong to their module only. */
static void test_kallsyms_modules(void)
{
	char path[] = "/tmp/rvctr-test-kallsyms.XXXXXX";
	struct rvctr_symtab *t;
	uint64_t off = 0;
	char err[256];
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	T_OK(f, "temporary kallsyms file");
	if (!f)
		return;
	fputs("ffffffff80000000 T _text\nffffffff80000100 T do_syscall\n"
	      "ffffffff01000100 t ctr_read\t[rvctr]\nffffffff01000200 t ctr_write\t[rvctr]\n"
	      "ffffffff01010200 t x_func\t[rvctr_x]\n", f);
	fclose(f);
	t = rvctr_symtab__load_kallsyms(path, err, sizeof(err));
	unlink(path);
	T_OK(t, "kallsyms with module symbols loads");
	if (!t)
		return;
	T_STREQ(rvctr_symtab__lookup(t, 0xffffffff01000110, &off), "ctr_read",
		"plain lookup: the name without its [module]");
	T_STREQ(rvctr_symtab__lookup_module(t, 0xffffffff01000210, "rvctr", &off), "ctr_write",
		"lookup in module rvctr");
	T_EQ(off, 0x10, "offset in the module's function");
	T_STREQ(rvctr_symtab__lookup_module(t, 0xffffffff01010300, "rvctr-x", NULL), "x_func",
		"a module file's '-' is the kernel's '_'");
	T_OK(!rvctr_symtab__lookup_module(t, 0xffffffff01010300, "rvctr", NULL),
	     "an address past the module's symbols, in the next module: not the module's");
	T_OK(!rvctr_symtab__lookup_module(t, 0xffffffff01000110, "", NULL),
	     "the kernel's own symbols only: not a module's");
	T_STREQ(rvctr_symtab__lookup_module(t, 0xffffffff80000110, "", NULL), "do_syscall",
		"the kernel's own symbol");
	T_OK(!rvctr_symtab__lookup_module(t, 0xffffffff80000110, "rvctr", NULL),
	     "a module's lookup: never a symbol of the kernel");
	rvctr_symtab__delete(t);
}

/*
 * A --symfs so long that a path under it does not fit: an error naming
 * it, never a path cut short or written past its buffer (ASan).
 */
static void test_long_symfs(void)
{
	static char symfs[8201];
	struct rvctr_symfind f = { .symfs = symfs, .buildid_dir = "/nonexistent" };
	struct rvctr_symtab *t;
	uint8_t id[20] = { 0xab, 0xcd };
	char err[512] = "";
	int mismatch = -1;

	memset(symfs, 'a', sizeof(symfs) - 1);
	symfs[0] = '/';
	t = rvctr_symtab__find(&f, "/usr/bin/x", id, sizeof(id), &mismatch, err, sizeof(err));
	T_OK(!t && strstr(err, "longer than") && !mismatch,
	     "--symfs of 8200 bytes: no file, an error that says the path is too long");
	if (!strstr(err, "longer than"))
		printf("# err: %s\n", err);
	err[0] = 0;
	t = rvctr_symtab__find(&f, "[kernel.kallsyms]", id, sizeof(id), &mismatch, err,
			       sizeof(err));
	T_OK(!t && strstr(err, "longer than"), "--symfs of 8200 bytes: the kernel's, too");
	T_OK(rvctr_symtab__check_find(&f, err, sizeof(err)) && strstr(err, "--symfs: 8200 bytes"),
	     "--symfs of 8200 bytes: refused as an option");
	symfs[4000] = 0;
	T_OK(!rvctr_symtab__check_find(&f, err, sizeof(err)), "--symfs of 4000 bytes: taken");
}

int main(void)
{
	test_lookup();
	test_read();
	test_corrupt();
	test_type();
	test_kallsyms_modules();
	test_long_symfs();
	return tests_done();
}
