// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF64 symbol table reader.  The whole image is checked before use: every
 * header, section and name offset is bounded by the image size.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/symtab.h>

#define MAX_ELF_SIZE	(512u << 20)

struct sym {
	uint64_t addr, size;
	const char *name;
};

struct rvctr_symtab {
	unsigned char *img;
	size_t len;
	const Elf64_Ehdr *eh;
	struct sym *syms;
	size_t nr;
	uint8_t build_id[20];
	unsigned int build_id_len;
};

static int in_image(const struct rvctr_symtab *t, uint64_t off, uint64_t len)
{
	return off <= t->len && len <= t->len - off;
}

static const Elf64_Shdr *shdr(const struct rvctr_symtab *t, unsigned int i)
{
	return (const Elf64_Shdr *)(t->img + t->eh->e_shoff) + i;
}

static int check_ehdr(struct rvctr_symtab *t, char *err, size_t errlen)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)t->img;

	if (t->len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
		snprintf(err, errlen, "not an ELF file");
		return -1;
	}
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(err, errlen, "only 64-bit little-endian ELF is supported");
		return -1;
	}
	t->eh = eh;
	if ((eh->e_shnum && (eh->e_shentsize != sizeof(Elf64_Shdr) ||
			     !in_image(t, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))) ||
	    (eh->e_phnum && (eh->e_phentsize != sizeof(Elf64_Phdr) ||
			     !in_image(t, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr))))) {
		snprintf(err, errlen, "corrupt ELF: section or program headers outside the file");
		return -1;
	}
	if (eh->e_shoff % 8 || eh->e_phoff % 8) {
		snprintf(err, errlen, "corrupt ELF: misaligned headers");
		return -1;
	}
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_symbols(struct rvctr_symtab *t, const Elf64_Shdr *sh)
{
	const Elf64_Shdr *strs;
	size_t n, i;

	if (sh->sh_link >= t->eh->e_shnum || sh->sh_entsize != sizeof(Elf64_Sym) ||
	    !in_image(t, sh->sh_offset, sh->sh_size) || sh->sh_offset % 8)
		return -1;
	strs = shdr(t, sh->sh_link);
	if (!in_image(t, strs->sh_offset, strs->sh_size) || !strs->sh_size ||
	    t->img[strs->sh_offset + strs->sh_size - 1])
		return -1;
	n = sh->sh_size / sizeof(Elf64_Sym);
	t->syms = calloc(n ? n : 1, sizeof(*t->syms));
	if (!t->syms)
		return -1;
	for (i = 0; i < n; i++) {
		const Elf64_Sym *s = (const Elf64_Sym *)(t->img + sh->sh_offset) + i;

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_value ||
		    s->st_name >= strs->sh_size)
			continue;
		t->syms[t->nr].addr = s->st_value;
		t->syms[t->nr].size = s->st_size;
		t->syms[t->nr].name = (const char *)t->img + strs->sh_offset + s->st_name;
		t->nr++;
	}
	qsort(t->syms, t->nr, sizeof(*t->syms), cmp_sym);
	return 0;
}

static void find_build_id(struct rvctr_symtab *t, const Elf64_Shdr *sh)
{
	uint64_t off = sh->sh_offset, end;

	if (!in_image(t, sh->sh_offset, sh->sh_size))
		return;
	end = sh->sh_offset + sh->sh_size;
	while (end - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		uint64_t name = (off + sizeof(nh)), desc;

		memcpy(&nh, t->img + off, sizeof(nh));
		desc = name + ((nh.n_namesz + 3ULL) & ~3ULL);
		if (desc > end || nh.n_descsz > end - desc)
			return;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(t->img + name, "GNU", 4) && nh.n_descsz <= 20) {
			memcpy(t->build_id, t->img + desc, nh.n_descsz);
			t->build_id_len = nh.n_descsz;
			return;
		}
		off = desc + ((nh.n_descsz + 3ULL) & ~3ULL);
	}
}

static int scan_sections(struct rvctr_symtab *t)
{
	const Elf64_Shdr *symtab = NULL, *dynsym = NULL;
	unsigned int i;

	for (i = 0; i < t->eh->e_shnum; i++) {
		const Elf64_Shdr *sh = shdr(t, i);

		if (sh->sh_type == SHT_SYMTAB)
			symtab = sh;
		else if (sh->sh_type == SHT_DYNSYM)
			dynsym = sh;
		else if (sh->sh_type == SHT_NOTE && !t->build_id_len)
			find_build_id(t, sh);
	}
	if (symtab || dynsym)
		return load_symbols(t, symtab ? symtab : dynsym);
	return 0;
}

struct rvctr_symtab *rvctr_symtab__parse(const void *buf, size_t len, char *err, size_t errlen)
{
	struct rvctr_symtab *t = calloc(1, sizeof(*t));

	if (!t || !(t->img = malloc(len ? len : 1))) {
		free(t);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(t->img, buf, len);
	t->len = len;
	if (check_ehdr(t, err, errlen))
		goto fail;
	if (scan_sections(t)) {
		snprintf(err, errlen, "corrupt ELF symbol table");
		goto fail;
	}
	return t;
fail:
	rvctr_symtab__delete(t);
	return NULL;
}

struct rvctr_symtab *rvctr_symtab__load(const char *path, char *err, size_t errlen)
{
	struct rvctr_symtab *t = NULL;
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long len;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || (unsigned long)len > MAX_ELF_SIZE ||
	    fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot size the file (or larger than %u MB)", path,
			 MAX_ELF_SIZE >> 20);
		goto out;
	}
	buf = malloc(len ? len : 1);
	if (!buf || fread(buf, 1, len, f) != (size_t)len) {
		snprintf(err, errlen, "%s: read error", path);
		goto out;
	}
	t = rvctr_symtab__parse(buf, len, err, errlen);
out:
	free(buf);
	fclose(f);
	return t;
}

void rvctr_symtab__delete(struct rvctr_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->img);
	free(t);
}

const char *rvctr_symtab__lookup(const struct rvctr_symtab *t, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = t->nr;
	const struct sym *s;

	/* last symbol with s->addr <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->syms[lo - 1];
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	if (off)
		*off = addr - s->addr;
	return s->name;
}

size_t rvctr_symtab__nr_symbols(const struct rvctr_symtab *t)
{
	return t->nr;
}

int rvctr_symtab__is_pie(const struct rvctr_symtab *t)
{
	return t->eh->e_type == ET_DYN;
}

unsigned int rvctr_symtab__build_id(const struct rvctr_symtab *t, uint8_t *id)
{
	memcpy(id, t->build_id, t->build_id_len);
	return t->build_id_len;
}

int rvctr_symtab__exec_segment(const struct rvctr_symtab *t, struct rvctr_segment *seg)
{
	unsigned int i;

	for (i = 0; i < t->eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(t->img + t->eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			seg->vaddr = ph->p_vaddr;
			seg->offset = ph->p_offset;
			seg->filesz = ph->p_filesz;
			seg->memsz = ph->p_memsz;
			return 0;
		}
	}
	return -1;
}

uint16_t rvctr_symtab__machine(const struct rvctr_symtab *t)
{
	return t->eh->e_machine;
}
