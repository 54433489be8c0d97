// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbols of mapped files through elfutils (libdwfl, libelf); see
 * rvctr/symtab.h for the lookup order and the address translation.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdarg.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/symtab.h>

#define MAX_SEGS	64
#define MAX_KALLSYMS	(64u << 20)	/* bytes of a kallsyms file */
/*
 * The paths looked at: a directory (--symfs, --buildid-dir: less than
 * PATH_MAX, rvctr_symtab__check_find()) and a recorded name or a build-id
 * path under it.  One that does not fit is an error, never cut short.
 */
#define PATH_BUF	(2 * PATH_MAX)

struct sym {
	uint64_t addr, size;
	const char *name;
	const char *module;		/* kallsyms: the [module] it is in, or NULL */
};

struct rvctr_symtab {
	Dwfl_Callbacks cb;		/* dwfl keeps a pointer to it */
	char *debug_path;		/* and to this */
	Dwfl *dwfl;			/* owns the ELF files and symbol names */
	Dwfl_Module *mod;
	uint16_t machine, type;
	int kallsyms;
	struct rvctr_segment segs[MAX_SEGS];
	unsigned int nr_segs, exec_seg;
	int has_exec;
	struct sym *syms;
	size_t nr;
	char *names;			/* kallsyms: the names */
	uint8_t build_id[20];
	unsigned int build_id_len;
	char *symbols_file;
	Elf *elf;			/* a kernel module's (load_kmodule()) */
	int fd;				/* elf's */
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void rvctr_symtab__delete(struct rvctr_symtab *t)
{
	if (!t)
		return;
	if (t->dwfl)
		dwfl_end(t->dwfl);
	if (t->elf) {
		elf_end(t->elf);
		close(t->fd);
	}
	free(t->syms);
	free(t->names);
	free(t->debug_path);
	free(t->symbols_file);
	free(t);
}

/* parse(): an image from memory has no debug file to look for */
static int no_debuginfo(Dwfl_Module *mod, void **user, const char *modname, Dwarf_Addr base,
			const char *file, const char *debuglink, GElf_Word crc, char **name)
{
	(void)mod, (void)user, (void)modname, (void)base, (void)file, (void)debuglink;
	(void)crc, (void)name;
	return -1;
}

static int read_segments(struct rvctr_symtab *t, Elf *elf)
{
	size_t n, i;

	if (elf_getphdrnum(elf, &n))
		return 0;	/* no program headers: no segments */
	for (i = 0; i < n && t->nr_segs < MAX_SEGS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if ((ph.p_flags & PF_X) && !t->has_exec) {
			t->has_exec = 1;
			t->exec_seg = t->nr_segs;
		}
		t->segs[t->nr_segs++] = (struct rvctr_segment){
			.vaddr = ph.p_vaddr, .offset = ph.p_offset,
			.filesz = ph.p_filesz, .memsz = ph.p_memsz,
		};
	}
	return 0;
}

static int read_symbols(struct rvctr_symtab *t, Dwfl_Module *mod, Elf *main_elf)
{
	int n = dwfl_module_getsymtab(mod), i;
	const char *debugfile = NULL, *mainfile = NULL;
	Elf *from = NULL;

	if (n <= 0)
		return 0;	/* no symbols at all: addresses are shown */
	t->syms = calloc(n, sizeof(*t->syms));
	if (!t->syms)
		return -1;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf, NULL);

		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !addr ||
		    shndx == SHN_UNDEF)
			continue;
		t->syms[t->nr++] = (struct sym){ .addr = addr, .size = sym.st_size, .name = name };
		from = elf;
	}
	qsort(t->syms, t->nr, sizeof(*t->syms), cmp_sym);
	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
	if (from && from != main_elf && debugfile)
		t->symbols_file = strdup(debugfile);
	return 0;
}

/*
 * Samples are looked up at load addresses, which only executables and
 * shared objects have.  elfutils places and relocates a relocatable
 * object's (.o, .ko) sections as soon as the module's ELF is asked for
 * (dwfl_module_getelf()), so the type is checked on the bare ELF first.
 * 0 to go on (elfutils reports what is not ELF), or -1 with the reason.
 */
static int check_type(int fd, const char *path, char *err, size_t errlen)
{
	GElf_Ehdr eh;
	Elf *elf;
	int ret = 0;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	    eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		snprintf(err, errlen, "%s: %s, not an executable or shared object", path,
			 eh.e_type == ET_REL ? "a relocatable object" :
			 eh.e_type == ET_CORE ? "a core file" : "an ELF file of an unknown type");
		ret = -1;
	}
	elf_end(elf);
	return ret;
}

/*
 * Report @fd (consumed) as the module; its ELF virtual addresses are kept.
 * @find_debug: look for a separate debug file (elfutils' standard search,
 * debuginfod included) when the file's own symbols do not do; @symbols:
 * read the function symbols (rvctr_symtab__lookup()).
 */
static struct rvctr_symtab *load_fd(int fd, const char *path, const char *debug_path,
				    int find_debug, int symbols, char *err, size_t errlen)
{
	struct rvctr_symtab *t = calloc(1, sizeof(*t));
	const unsigned char *bits;
	Dwfl_Module *mod;
	GElf_Addr bias, vaddr;
	GElf_Ehdr eh;
	Elf *elf;
	int len;

	if (!t || (debug_path && !(t->debug_path = strdup(debug_path)))) {
		close(fd);
		free(t);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (check_type(fd, path, err, errlen)) {
		close(fd);
		rvctr_symtab__delete(t);
		return NULL;
	}
	t->cb.find_elf = dwfl_build_id_find_elf;
	t->cb.find_debuginfo = find_debug ? dwfl_standard_find_debuginfo : no_debuginfo;
	t->cb.debuginfo_path = t->debug_path ? &t->debug_path : NULL;
	/* elfutils calls it, unchecked, to place an ET_REL section (check_type()) */
	t->cb.section_address = dwfl_offline_section_address;
	t->dwfl = dwfl_begin(&t->cb);
	if (!t->dwfl) {
		close(fd);
		goto fail_dwfl;
	}
	/* ET_DYN at base 0 relative to its p_vaddr: module addresses are ELF vaddrs */
	mod = dwfl_report_elf(t->dwfl, path, path, fd, 0, true);
	if (!mod) {
		close(fd);
		goto fail_dwfl;
	}
	dwfl_report_end(t->dwfl, NULL, NULL);
	t->mod = mod;
	elf = dwfl_module_getelf(mod, &bias);
	if (!elf || !gelf_getehdr(elf, &eh))
		goto fail_dwfl;
	t->machine = eh.e_machine;
	t->type = eh.e_type;
	if (read_segments(t, elf))
		goto fail_dwfl;
	len = dwfl_module_build_id(mod, &bits, &vaddr);
	if (len > 0 && len <= 20) {
		memcpy(t->build_id, bits, len);
		t->build_id_len = len;
	}
	if (symbols && read_symbols(t, mod, elf)) {
		snprintf(err, errlen, "%s: out of memory", path);
		rvctr_symtab__delete(t);
		return NULL;
	}
	return t;
fail_dwfl:
	snprintf(err, errlen, "%s: %s", path, dwfl_errmsg(-1));
	rvctr_symtab__delete(t);
	return NULL;
}

/*
 * @path opened for reading if it is a regular file, else -1 with @err.
 * The open never waits: O_NONBLOCK for a FIFO (or a device) put there
 * after a stat() said it was a file, O_NOCTTY for a terminal; what was
 * opened is then checked on the descriptor, not the name.
 */
static int open_regular(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	return fd;
}

/* The build id of a note section @scn of @elf, into @t. */
static void note_build_id(struct rvctr_symtab *t, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz <= 20) {
			memcpy(t->build_id, (char *)d->d_buf + desc_off, nh.n_descsz);
			t->build_id_len = nh.n_descsz;
			return;
		}
	}
}

/*
 * The functions of a module's .text (.symtab, STT_FUNC in .text), at
 * their offsets in it: a relocatable file has no load addresses, and
 * the module's map starts at its .text, as perf maps a .ko.
 */
static int kmod_symbols(struct rvctr_symtab *t, Elf *elf, Elf_Scn *symtab, size_t text)
{
	Elf_Data *d = elf_getdata(symtab, NULL);
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i, n;

	if (!d || !gelf_getshdr(symtab, &sh) || !sh.sh_entsize)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	t->syms = calloc(n ? n : 1, sizeof(*t->syms));
	if (!t->syms)
		return -1;
	for (i = 1; i < n && gelf_getsym(d, i, &sym); i++) {
		const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);

		if (name && *name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx == text)
			t->syms[t->nr++] = (struct sym){ sym.st_value, sym.st_size, name, NULL };
	}
	qsort(t->syms, t->nr, sizeof(*t->syms), cmp_sym);
	return 0;
}

/* A module's sections: its .text's index, symbols and build id. */
static int kmod_sections(struct rvctr_symtab *t, Elf *elf)
{
	Elf_Scn *scn = NULL, *symtab = NULL;
	size_t shstrndx, text = 0;
	GElf_Shdr sh;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 1;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return 1;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_NOTE)
			note_build_id(t, scn);
		else if (name && !strcmp(name, ".text"))
			text = elf_ndxscn(scn);
	}
	return symtab && text ? kmod_symbols(t, elf, symtab, text) : 1;
}

/*
 * A kernel module's .ko (ET_REL, uncompressed) for its symbols: NULL with
 * @err when it is not one, or has no .text and .symtab.
 */
static struct rvctr_symtab *load_kmodule(const char *path, char *err, size_t errlen)
{
	struct rvctr_symtab *t = calloc(1, sizeof(*t));
	int fd = t ? open_regular(path, err, errlen) : -1, ret = 1;
	Elf *elf = NULL;
	GElf_Ehdr eh;

	elf_version(EV_CURRENT);
	if (fd >= 0 && (elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) && gelf_getehdr(elf, &eh) &&
	    eh.e_type == ET_REL) {
		t->machine = eh.e_machine;
		t->type = ET_REL;
		t->elf = elf;
		t->fd = fd;
		ret = kmod_sections(t, elf);
	}
	if (!ret)
		return t;
	snprintf(err, errlen, ret < 0 ? "%s: out of memory" : "%s: not a kernel module (a "
		 "relocatable ELF file with .text and .symtab)", path);
	if (t && !t->elf) {
		elf_end(elf);
		if (fd >= 0)
			close(fd);
	}
	rvctr_symtab__delete(t);
	return NULL;
}

static struct rvctr_symtab *load_path(const char *path, const char *debug_path, int code_only,
				      char *err, size_t errlen)
{
	int fd = open_regular(path, err, errlen);

	if (fd < 0)
		return NULL;
	return load_fd(fd, path, debug_path, !code_only, !code_only, err, errlen);
}

struct rvctr_symtab *rvctr_symtab__load(const char *path, const char *debug_path,
					char *err, size_t errlen)
{
	return load_path(path, debug_path, 0, err, errlen);
}

struct rvctr_symtab *rvctr_symtab__parse(const void *buf, size_t len, char *err, size_t errlen)
{
	int fd = memfd_create("rvctr-elf", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		return NULL;
	}
	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n <= 0) {
			snprintf(err, errlen, "memfd: %s", strerror(errno));
			close(fd);
			return NULL;
		}
		done += n;
	}
	return load_fd(fd, "[memory]", NULL, 0, 1, err, errlen);
}

struct rvctr_symtab *rvctr_symtab__load_kallsyms(const char *path, char *err, size_t errlen)
{
	struct rvctr_symtab *t = calloc(1, sizeof(*t));
	int fd = t ? open_regular(path, err, errlen) : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	size_t cap = 0, used = 0, names_cap = 0;
	char line[512];

	if (!t || !f) {
		if (!t || fd >= 0)
			snprintf(err, errlen, "%s: %s", path, t ? strerror(errno) : "out of memory");
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	t->kallsyms = 1;
	while (fgets(line, sizeof(line), f)) {
		char type, name[256], mod[256];
		unsigned long long addr;
		size_t n, m = 0;
		int fields = sscanf(line, "%llx %c %255s %255s", &addr, &type, name, mod);

		if (fields < 3) {
			snprintf(err, errlen, "%s: not a kallsyms file", path);
			goto fail;
		}
		if (tolower((unsigned char)type) != 't' || !addr)
			continue;
		n = strlen(name) + 1;
		/* a module's symbol: "name\t[module]", kept as "name\0module\0" */
		if (fields == 4 && mod[0] == '[' && strchr(mod, ']')) {
			*strchr(mod, ']') = 0;
			m = strlen(mod + 1) + 1;
		}
		if (used + n + m > MAX_KALLSYMS) {
			snprintf(err, errlen, "%s: larger than %u MB", path, MAX_KALLSYMS >> 20);
			goto fail;
		}
		if (t->nr == cap) {
			struct sym *s = realloc(t->syms, (cap = cap ? 2 * cap : 4096) * sizeof(*s));

			if (!s)
				goto oom;
			t->syms = s;
		}
		if (used + n + m > names_cap) {
			char *p = realloc(t->names, names_cap = 2 * (used + n + m) + 65536);

			if (!p)
				goto oom;
			t->names = p;
		}
		memcpy(t->names + used, name, n);
		if (m)
			memcpy(t->names + used + n, mod + 1, m);
		/* names are offsets until the pool stops moving (module: + 1) */
		t->syms[t->nr++] = (struct sym){ .addr = addr, .name = (const char *)(uintptr_t)used,
						 .module = (const char *)(uintptr_t)(m ? used + n + 1 : 0) };
		used += n + m;
	}
	for (size_t i = 0; i < t->nr; i++) {
		t->syms[i].name = t->names + (uintptr_t)t->syms[i].name;
		if (t->syms[i].module)
			t->syms[i].module = t->names + (uintptr_t)t->syms[i].module - 1;
	}
	qsort(t->syms, t->nr, sizeof(*t->syms), cmp_sym);
	fclose(f);
	return t;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	if (f)
		fclose(f);
	rvctr_symtab__delete(t);
	return NULL;
}

/* The last symbol of @t at or below @addr, or NULL. */
static const struct sym *sym_below(const struct rvctr_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &t->syms[lo - 1] : NULL;
}

const char *rvctr_symtab__lookup(const struct rvctr_symtab *t, uint64_t addr, uint64_t *off)
{
	const struct sym *s = sym_below(t, addr);

	if (!s)
		return NULL;
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	if (off)
		*off = addr - s->addr;
	return s->name;
}

/* Module names as the kernel keeps them: a file's '-' is '_'. */
static int same_module(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return 0;
	return *a == *b;
}

const char *rvctr_symtab__lookup_module(const struct rvctr_symtab *t, uint64_t addr,
					const char *module, uint64_t *off)
{
	const struct sym *s;

	if (!t->kallsyms || !module)
		return rvctr_symtab__lookup(t, addr, off);
	/* modules do not overlap: the nearest symbol below is @module's, or none is */
	s = sym_below(t, addr);
	if (!s)
		return NULL;
	if (*module ? !s->module || !same_module(s->module, module) : !!s->module)
		return NULL;
	if (off)
		*off = addr - s->addr;
	return s->name;
}

uint64_t rvctr_symtab__symbol(const struct rvctr_symtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, name))
			return t->syms[i].addr;
	return 0;
}

int rvctr_symtab__any_symbol(const struct rvctr_symtab *t, const char *name, uint64_t *addr)
{
	int n, i;

	if (!t->mod) {
		*addr = rvctr_symtab__symbol(t, name);
		return *addr ? 0 : -1;
	}
	n = dwfl_module_getsymtab(t->mod);
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		const char *s = dwfl_module_getsym_info(t->mod, i, &sym, &a, NULL, NULL, NULL);

		if (s && !strcmp(s, name) && sym.st_shndx != SHN_UNDEF) {
			*addr = a;
			return 0;
		}
	}
	return -1;
}

uint16_t rvctr_symtab__arch_machine(const char *arch)
{
	static const struct { const char *arch; uint16_t machine; } machines[] = {
		{ "riscv64", EM_RISCV }, { "x86_64", EM_X86_64 }, { "aarch64", EM_AARCH64 },
		{ "arm64", EM_AARCH64 },
	};
	unsigned int i;

	for (i = 0; arch && i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(arch, machines[i].arch))
			return machines[i].machine;
	return 0;
}

size_t rvctr_symtab__nr_symbols(const struct rvctr_symtab *t)
{
	return t->nr;
}

int rvctr_symtab__is_pie(const struct rvctr_symtab *t)
{
	return t->type == ET_DYN;
}

int rvctr_symtab__is_kallsyms(const struct rvctr_symtab *t)
{
	return t->kallsyms;
}

unsigned int rvctr_symtab__build_id(const struct rvctr_symtab *t, uint8_t *id)
{
	memcpy(id, t->build_id, t->build_id_len);
	return t->build_id_len;
}

int rvctr_symtab__exec_segment(const struct rvctr_symtab *t, struct rvctr_segment *seg)
{
	if (!t->has_exec)
		return -1;
	*seg = t->segs[t->exec_seg];
	return 0;
}

/*
 * A separate debug file keeps the program headers' offsets and addresses
 * but shrinks p_filesz (objcopy --only-keep-debug, eu-strip -f): when no
 * segment's file bytes hold @off, a segment's memory size may.
 */
int rvctr_symtab__offset_to_vaddr(const struct rvctr_symtab *t, uint64_t off, uint64_t *vaddr)
{
	unsigned int i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < t->nr_segs; i++) {
			const struct rvctr_segment *s = &t->segs[i];

			if (off >= s->offset && off - s->offset < (pass ? s->memsz : s->filesz)) {
				*vaddr = off - s->offset + s->vaddr;
				return 0;
			}
		}
	}
	return -1;
}

int rvctr_symtab__read(const struct rvctr_symtab *t, uint64_t vaddr, void *buf, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Addr bias;
	Elf *elf;

	elf = t->mod ? dwfl_module_getelf(t->mod, &bias) : NULL;
	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || vaddr < sh.sh_addr ||
		    vaddr - sh.sh_addr >= sh.sh_size || sh.sh_size - (vaddr - sh.sh_addr) < len)
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || !d->d_buf || vaddr - sh.sh_addr > d->d_size ||
		    d->d_size - (vaddr - sh.sh_addr) < len)
			return -1;
		memcpy(buf, (const char *)d->d_buf + (vaddr - sh.sh_addr), len);
		return 0;
	}
	return -1;
}

uint16_t rvctr_symtab__machine(const struct rvctr_symtab *t)
{
	return t->machine;
}

const char *rvctr_symtab__symbols_file(const struct rvctr_symtab *t)
{
	return t->symbols_file;
}

/* ---- finding the files ---- */

int rvctr_symtab__is_kernel_name(const char *name)
{
	return !strncmp(name, "[kernel.kallsyms]", 17);
}

static void hex_id(char *out, const uint8_t *id, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * len] = 0;
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Load @path if it is there and is the recorded file; else NULL. */
/* A file that is there but cannot be used leaves its reason in @why. */
static struct rvctr_symtab *try_file(const struct rvctr_symfind *f, const char *path,
				     const char *debug_path, const uint8_t *id,
				     unsigned int id_len, int *mismatch, char *why,
				     size_t whylen)
{
	struct rvctr_symtab *t;
	uint8_t have[20];
	unsigned int n;

	if (!is_file(path))
		return NULL;
	t = f->kmodule ? load_kmodule(path, why, whylen) :
			 load_path(path, debug_path, f->code_only, why, whylen);
	if (!t)
		return NULL;
	n = rvctr_symtab__build_id(t, have);
	if ((f->machine && t->machine != f->machine) ||
	    (id_len && (n != id_len || memcmp(have, id, n)))) {
		*mismatch = 1;
		rvctr_symtab__delete(t);
		return NULL;
	}
	return t;
}

/*
 * @buf = the text of @fmt, or -1 when it does not fit: a path cut short
 * is another file's, so it is never looked at.
 */
static int path_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int path_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		buf[0] = 0;
		return -1;
	}
	return 0;
}

static int too_long(const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: a path to look for it at is longer than %d bytes (--symfs, "
		 "--buildid-dir, $PERF_BUILDID_DIR or $HOME too long)", what, PATH_BUF - 1);
	return -1;
}

/* perf's build-id cache in *@dir (NULL: none), or -1 when $HOME is too long */
static int buildid_dir(const struct rvctr_symfind *f, char *buf, size_t len, const char **dir)
{
	const char *home = getenv("HOME");

	*dir = f->buildid_dir;
	if (!*dir)
		*dir = getenv("PERF_BUILDID_DIR");
	if (*dir || !home)
		return 0;
	*dir = buf;
	return path_fmt(buf, len, "%s/.debug", home);
}

int rvctr_symtab__check_find(const struct rvctr_symfind *f, char *err, size_t errlen)
{
	const char *dirs[2] = { f->symfs, f->buildid_dir };
	const char *opts[2] = { "--symfs", "--buildid-dir" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (dirs[i] && strlen(dirs[i]) >= PATH_MAX) {
			snprintf(err, errlen, "%s: %zu bytes, longer than a path can be (%d)",
				 opts[i], strlen(dirs[i]), PATH_MAX - 1);
			return -1;
		}
	}
	return 0;
}

/*
 * @buf = @root, then @name's components under it, "." and ".." taken by
 * name (a recorded name comes from the kernel's d_path(), which has
 * neither): 0, or -1 when a ".." would leave @root (--symfs), -2 when the
 * path does not fit.  What is under @root is not looked at: a symbolic
 * link there is followed wherever it points, as perf does (the user made
 * the symfs; a perf.data only names paths in it).
 */
static int join_under(char *buf, size_t len, const char *root, const char *name)
{
	size_t n, rootlen;
	const char *p = name, *e;

	if (path_fmt(buf, len, "%s", root))
		return -2;
	rootlen = n = strlen(buf);
	while (*p) {
		while (*p == '/')
			p++;
		e = strchrnul(p, '/');
		if (e == p || (e - p == 1 && p[0] == '.')) {
			p = e;
			continue;
		}
		if (e - p == 2 && p[0] == '.' && p[1] == '.') {
			if (n == rootlen)
				return -1;
			while (buf[n - 1] != '/')
				n--;
			buf[--n] = 0;
			p = e;
			continue;
		}
		if ((size_t)(e - p) + 1 >= len - n)
			return -2;
		buf[n++] = '/';
		memcpy(buf + n, p, e - p);
		n += e - p;
		buf[n] = 0;
		p = e;
	}
	return 0;
}

static struct rvctr_symtab *find_kernel(const struct rvctr_symfind *f, const char *cache,
					const char *hex, int modules, char *err, size_t errlen)
{
	struct rvctr_symtab *t = NULL;
	char path[PATH_BUF];

	/* a vmlinux has no module symbols: they come from kallsyms only */
	if (f->vmlinux && !modules)
		return load_path(f->vmlinux, NULL, f->code_only, err, errlen);
	if (f->code_only) {
		/* kallsyms has symbols, no code */
		snprintf(err, errlen, "kernel: no --vmlinux");
		return NULL;
	}
	if (cache && *hex) {
		if (path_fmt(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", cache, hex)) {
			too_long("kernel", err, errlen);
			return NULL;
		}
		if (is_file(path))
			return rvctr_symtab__load_kallsyms(path, err, errlen);
	}
	if (f->kallsyms)
		return rvctr_symtab__load_kallsyms(f->kallsyms, err, errlen);
	if (f->symfs && *f->symfs) {
		if (path_fmt(path, sizeof(path), "%s/proc/kallsyms", f->symfs))
			too_long("kernel", err, errlen);
		else
			t = rvctr_symtab__load_kallsyms(path, err, errlen);
	} else {
		snprintf(err, errlen, "kernel: no --vmlinux, --kallsyms or --symfs");
	}
	return t;
}

struct rvctr_symtab *rvctr_symtab__find(const struct rvctr_symfind *f, const char *name,
					const uint8_t *id, unsigned int id_len, int *mismatch,
					char *err, size_t errlen)
{
	const char *symfs = f->symfs ? f->symfs : "", *cache;
	char hex[41] = "", cache_buf[PATH_BUF], path[PATH_BUF], debug_path[PATH_BUF];
	struct rvctr_symtab *t = NULL;
	char why[512] = "";

	*mismatch = 0;
	if (buildid_dir(f, cache_buf, sizeof(cache_buf), &cache)) {
		too_long(name, err, errlen);
		return NULL;
	}
	if (id_len > 20)
		id_len = 20;
	hex_id(hex, id, id_len);
	if (rvctr_symtab__is_kernel_name(name))
		return find_kernel(f, cache, hex, 0, err, errlen);
	/* debug files: the system's (under symfs), then elfutils' defaults */
	if (path_fmt(debug_path, sizeof(debug_path), "+:.debug:%s/usr/lib/debug", symfs))
		goto too_long;
	if (id_len && cache) {
		if (path_fmt(path, sizeof(path), "%s/.build-id/%.2s/%s/elf", cache, hex, hex + 2))
			goto too_long;
		t = try_file(f, path, debug_path, id, id_len, mismatch, why, sizeof(why));
		if (!t) {
			if (path_fmt(path, sizeof(path), "%s/.build-id/%.2s/%s", cache, hex,
				     hex + 2))
				goto too_long;
			t = try_file(f, path, debug_path, id, id_len, mismatch, why, sizeof(why));
		}
	}
	if (!t && name[0] == '/') {
		int in = join_under(path, sizeof(path), symfs, name);

		if (in == -2)
			goto too_long;
		if (in)
			snprintf(why, sizeof(why), "%s: its \"..\" lead out of %s: not opened", name,
				 *symfs ? "--symfs" : "/");
		else
			t = try_file(f, path, debug_path, id, id_len, mismatch, why, sizeof(why));
	}
	if (!t && id_len) {
		if (path_fmt(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s", symfs, hex,
			     hex + 2))
			goto too_long;
		t = try_file(f, path, debug_path, id, id_len, mismatch, why, sizeof(why));
		/* a debug file alone: symbols, no code */
		if (!t && !f->code_only) {
			if (path_fmt(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
				     symfs, hex, hex + 2))
				goto too_long;
			t = try_file(f, path, debug_path, id, id_len, mismatch, why, sizeof(why));
		}
		if (!t && cache && !f->code_only) {
			if (path_fmt(path, sizeof(path), "%s/.build-id/%.2s/%s/debug", cache, hex,
				     hex + 2))
				goto too_long;
			t = try_file(f, path, debug_path, id, id_len, mismatch, why, sizeof(why));
		}
	}
	if (!t && !*mismatch && why[0])
		snprintf(err, errlen, "%s", why);	/* there, but not usable */
	else if (!t)
		snprintf(err, errlen, "%s: %s", name,
			 *mismatch ? "only files with another build id or machine" : "not found");
	else
		*mismatch = 0;
	return t;
too_long:
	too_long(name, err, errlen);
	*mismatch = 0;
	return NULL;
}

struct rvctr_symtab *rvctr_symtab__find_kallsyms(const struct rvctr_symfind *f,
						 const uint8_t *kernel_id, unsigned int id_len,
						 char *err, size_t errlen)
{
	char hex[41] = "", cache_buf[PATH_BUF];
	const char *cache;

	if (buildid_dir(f, cache_buf, sizeof(cache_buf), &cache)) {
		too_long("kernel", err, errlen);
		return NULL;
	}
	hex_id(hex, kernel_id, id_len > 20 ? 20 : id_len);
	return find_kernel(f, cache, hex, 1, err, errlen);
}
