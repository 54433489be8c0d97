// SPDX-License-Identifier: GPL-2.0-only
/* A recording's processes, maps, binaries and symbols; see rvctr/machine.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/hash.h>
#include <rvctr/machine.h>

/* A binary's files: for symbols and for code, each loaded once. */
struct dso_files {
	struct rvctr_dso_file syms, code;
	struct rvctr_symtab *syms_tab, *code_tab;	/* owned (syms_tab NULL: shared) */
	uint8_t syms_tried, code_tried;
	uint8_t module;			/* a kernel module's map: pid -1 or kernel cpumode */
	uint64_t base;			/* a module's: where its map starts */
	char mod[64];			/* a module's name, as kallsyms has it */
	char syms_why[320], code_why[320];
};

struct thread {
	struct rvctr_hash_key key;	/* (tid, 0) */
	char comm[16];
};

struct rvctr_machine {
	struct rvctr_symfind syms_find, code_find;
	uint16_t syms_machine, code_machine;	/* the callers' (0: the input's arch) */
	struct rvctr_maps *maps;
	int maps_full;
	struct rvctr_hash threads;	/* of struct thread */
	struct dso_files *dsos;		/* indexed like the maps' binaries */
	unsigned int nr_dsos;
	struct dso_files kernel;	/* RVCTR_KERNEL_DSO */
	struct rvctr_symtab *kallsyms;	/* every module's symbols, when no .ko */
	int kallsyms_tried;
	uint64_t kernel_text;		/* runtime address of kernel_ref, from its MMAP */
	char kernel_ref[64];		/* perf's ref_reloc_sym: _text, or _stext */
	unsigned int mismatched;	/* files found but not used for symbols */
	uint64_t generation;		/* of the maps: counts their changes */
};

struct rvctr_machine *rvctr_machine__new(const struct rvctr_symfind *syms,
					 const struct rvctr_symfind *code)
{
	struct rvctr_machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->maps = rvctr_maps__new();
	if (!m->maps) {
		free(m);
		return NULL;
	}
	if (syms)
		m->syms_find = *syms;
	if (code)
		m->code_find = *code;
	/* code bytes are in the binaries themselves: no debug files */
	m->code_find.code_only = 1;
	m->syms_machine = m->syms_find.machine;
	m->code_machine = m->code_find.machine;
	rvctr_hash__init(&m->threads, sizeof(struct thread));
	return m;
}

static void unload(struct dso_files *d)
{
	rvctr_symtab__delete(d->syms_tab);
	rvctr_symtab__delete(d->code_tab);
	d->syms_tab = d->code_tab = NULL;
	d->syms_tried = d->code_tried = 0;
}

void rvctr_machine__delete(struct rvctr_machine *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < m->nr_dsos; i++)
		unload(&m->dsos[i]);
	unload(&m->kernel);
	rvctr_symtab__delete(m->kallsyms);
	free(m->dsos);
	rvctr_maps__delete(m->maps);
	rvctr_hash__exit(&m->threads);
	free(m);
}

void rvctr_machine__set_arch(struct rvctr_machine *m, const char *arch)
{
	uint16_t machine = rvctr_symtab__arch_machine(arch);

	if (!m->syms_machine)
		m->syms_find.machine = machine;
	if (!m->code_machine)
		m->code_find.machine = machine;
}

const char *rvctr_machine__vmlinux(const struct rvctr_machine *m)
{
	return m->code_find.vmlinux;
}

int rvctr_machine__build_id(struct rvctr_machine *m, const struct rvctr_build_id *b)
{
	return rvctr_maps__header_build_id(m->maps, b);
}

struct rvctr_maps *rvctr_machine__maps(const struct rvctr_machine *m)
{
	return m->maps;
}

int rvctr_machine__maps_full(const struct rvctr_machine *m)
{
	return m->maps_full;
}

uint64_t rvctr_machine__generation(const struct rvctr_machine *m)
{
	return m->generation;
}

unsigned int rvctr_machine__mismatched(const struct rvctr_machine *m)
{
	return m->mismatched;
}

/* Room for binary @dso's files: NULL out of memory. */
static struct dso_files *dso_files(struct rvctr_machine *m, unsigned int dso)
{
	unsigned int n = rvctr_maps__nr_dsos(m->maps);
	struct dso_files *d;

	if (dso == RVCTR_KERNEL_DSO)
		return &m->kernel;
	if (dso >= m->nr_dsos) {
		d = realloc(m->dsos, n * sizeof(*d));
		if (!d)
			return NULL;
		memset(d + m->nr_dsos, 0, (n - m->nr_dsos) * sizeof(*d));
		m->dsos = d;
		m->nr_dsos = n;
	}
	return &m->dsos[dso];
}

int rvctr_machine__is_module(const struct rvctr_machine *m, unsigned int dso)
{
	return dso < m->nr_dsos && m->dsos[dso].module;
}

/*
 * The kernel's map is "[kernel.kallsyms]" + the name of perf's reference
 * symbol (ref_reloc_sym: _text, else _stext), with pgoff = that symbol's
 * runtime address: with a vmlinux's link address it gives the KASLR
 * offset.
 */
static void kernel_map(struct rvctr_machine *m, const struct rvctr_mmap *mm)
{
	if (!mm->pgoff)
		return;
	/* a reference symbol's name too long to keep: no relocation by it */
	m->kernel_text = (size_t)snprintf(m->kernel_ref, sizeof(m->kernel_ref), "%s",
					  mm->filename[17] ? mm->filename + 17 : "_text") <
			 sizeof(m->kernel_ref) ? mm->pgoff : 0;
}

/*
 * Other kernel maps (pid -1, or kernel cpumode) are modules, as perf
 * synthesizes them from /proc/modules: "[name]" or the .ko's path.
 */
static int module_map(struct rvctr_machine *m, const struct rvctr_event *ev)
{
	uint16_t mode = ev->mmap.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct rvctr_map *map;
	struct dso_files *d;

	if (ev->mmap.pid != (uint32_t)-1 && mode != PERF_RECORD_MISC_KERNEL &&
	    mode != PERF_RECORD_MISC_GUEST_KERNEL)
		return 0;
	map = rvctr_maps__find(m->maps, ev->mmap.pid, ev->mmap.start);
	d = map ? dso_files(m, map->dso) : NULL;
	if (!d)
		return -1;
	d->module = 1;
	d->base = ev->mmap.start;
	return 0;
}

static int mmap_event(struct rvctr_machine *m, const struct rvctr_event *ev)
{
	int ret;

	if (rvctr_symtab__is_kernel_name(ev->mmap.filename)) {
		kernel_map(m, &ev->mmap);
		return rvctr_maps__add(m->maps, &ev->mmap);
	}
	ret = rvctr_maps__add(m->maps, &ev->mmap);
	if (ret < 0)
		return -1;	/* not kept */
	return module_map(m, ev) ? -1 : ret;
}

/*
 * A thread's name; a new thread has its parent's until it sets or execs
 * its own.  Out of memory, a thread has none (filters then drop it).
 */
static void thread_event(struct rvctr_machine *m, const struct rvctr_event *ev)
{
	const struct thread *p;
	struct thread *t;
	char name[16];

	if (ev->type == PERF_RECORD_COMM) {
		t = rvctr_hash__get(&m->threads, ev->comm.tid, 0);
		if (t)
			snprintf(t->comm, sizeof(t->comm), "%.15s", ev->comm.comm);
		return;
	}
	p = rvctr_hash__find(&m->threads, ev->task.ptid, 0);
	if (!p)
		return;
	memcpy(name, p->comm, sizeof(name));
	t = rvctr_hash__get(&m->threads, ev->task.tid, 0);
	if (t)
		memcpy(t->comm, name, sizeof(name));
}

const char *rvctr_machine__comm(const struct rvctr_machine *m, uint32_t tid)
{
	const struct thread *t = rvctr_hash__find(&m->threads, tid, 0);

	return t ? t->comm : NULL;
}

int rvctr_machine__event(struct rvctr_machine *m, const struct rvctr_event *ev)
{
	int ret = 0;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		ret = mmap_event(m, ev) ? -1 : 0;
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		thread_event(m, ev);
		/* fall through */
	case PERF_RECORD_EXIT:
		ret = rvctr_maps__event(m->maps, ev) ? -1 : 0;
		break;
	default:
		return 0;
	}
	m->generation++;
	if (!ret || m->maps_full)
		return 0;
	m->maps_full = 1;
	return 1;
}

/*
 * Another recording: its pids are its own, and its kernel may have run at
 * another address, its modules elsewhere: their files are relocated again.
 */
void rvctr_machine__input(struct rvctr_machine *m)
{
	unsigned int i;

	rvctr_maps__reset(m->maps);
	m->maps_full = 0;
	m->generation++;
	rvctr_hash__clear(&m->threads);
	for (i = 0; i < m->nr_dsos; i++)
		if (m->dsos[i].module || m->dsos[i].syms.runtime || m->dsos[i].code.runtime)
			unload(&m->dsos[i]);
	unload(&m->kernel);
	rvctr_symtab__delete(m->kallsyms);
	m->kallsyms = NULL;
	m->kallsyms_tried = 0;
	m->kernel_text = 0;
}

/*
 * The kernel's name of the module mapped as @map: "[name]", or its file
 * (.../name.ko, .ko.gz, .ko.xz, .ko.zst).
 */
static void module_name(const char *map, char *buf, size_t len)
{
	const char *b = strrchr(map, '/') ? strrchr(map, '/') + 1 : map;
	size_t n = strlen(b);

	if (*b == '[' && n > 1 && b[n - 1] == ']') {
		b++;
		n -= 2;
	} else if (strstr(b, ".ko")) {
		n = strstr(b, ".ko") - b;
	}
	snprintf(buf, len, "%.*s", (int)n, b);
}

static const char *dso_name(const struct rvctr_machine *m, unsigned int dso)
{
	return dso == RVCTR_KERNEL_DSO ? "[kernel.kallsyms]" : rvctr_maps__dso_name(m->maps, dso);
}

/* The build id binary @dso was recorded with, if any. */
static const uint8_t *dso_build_id(const struct rvctr_machine *m, unsigned int dso,
				   unsigned int *size)
{
	const struct rvctr_build_id *b;

	if (dso != RVCTR_KERNEL_DSO)
		return rvctr_maps__dso_build_id(m->maps, dso, size);
	b = rvctr_maps__find_header_build_id(m->maps, "[kernel.kallsyms]");
	*size = b ? b->size : 0;
	return b ? b->id : NULL;
}

/* Every module's symbols are in the one kallsyms: the module's own, by name. */
static void module_kallsyms(struct rvctr_machine *m, struct dso_files *d, unsigned int dso)
{
	const uint8_t *id;
	unsigned int size;

	if (!m->kallsyms_tried) {
		id = dso_build_id(m, RVCTR_KERNEL_DSO, &size);
		m->kallsyms_tried = 1;
		m->kallsyms = rvctr_symtab__find_kallsyms(&m->syms_find, id, size, d->syms_why,
							  sizeof(d->syms_why));
	}
	d->syms.tab = m->kallsyms;
	d->syms.runtime = 1;
	module_name(dso_name(m, dso), d->mod, sizeof(d->mod));
	d->syms.module = d->mod;
}

/*
 * A module mapped by its file: the .ko's own symbols, as perf reads them,
 * when the file there is the recorded one (its build id); its .text at
 * the map's start.  0 if it was not found or not usable (kallsyms then).
 */
static int module_file(struct rvctr_machine *m, struct dso_files *d, unsigned int dso)
{
	struct rvctr_symfind find = m->syms_find;
	const char *name = dso_name(m, dso);
	unsigned int size;
	const uint8_t *id = dso_build_id(m, dso, &size);
	int mismatch;

	if (name[0] != '/' || !strstr(name, ".ko"))
		return 0;
	find.kmodule = 1;
	d->syms_tab = rvctr_symtab__find(&find, name, id, size, &mismatch, d->syms_why,
					 sizeof(d->syms_why));
	if (!d->syms_tab)
		return 0;
	d->syms.tab = d->syms_tab;
	d->syms.runtime = 1;
	d->syms.reloc = d->base;
	return 1;
}

/* A vmlinux holds link addresses: relocated by the map's reference symbol. */
static void relocate_vmlinux(const struct rvctr_machine *m, struct rvctr_dso_file *f)
{
	uint64_t ref;

	if (m->kernel_text && !rvctr_symtab__is_kallsyms(f->tab) &&
	    !rvctr_symtab__any_symbol(f->tab, m->kernel_ref, &ref))
		f->reloc = m->kernel_text - ref;
}

/* Find and load binary @dso's symbols (see rvctr_symtab__find for the order). */
static void load_syms(struct rvctr_machine *m, struct dso_files *d, unsigned int dso)
{
	const char *name = dso_name(m, dso);
	unsigned int size;
	const uint8_t *id = dso_build_id(m, dso, &size);
	int mismatch = 0, kernel = rvctr_symtab__is_kernel_name(name);

	d->syms_tried = 1;
	d->syms = (struct rvctr_dso_file){ .why = d->syms_why };
	if (d->module) {
		if (!module_file(m, d, dso))
			module_kallsyms(m, d, dso);
		return;
	}
	d->syms_tab = rvctr_symtab__find(&m->syms_find, name, id, size, &mismatch, d->syms_why,
					 sizeof(d->syms_why));
	m->mismatched += mismatch;
	d->syms.tab = d->syms_tab;
	d->syms.runtime = kernel;
	if (d->syms_tab && kernel)
		relocate_vmlinux(m, &d->syms);
}

/*
 * The strings of a binary's files are in its entry, which moves when
 * dsos[] grows: they are pointed at when the file is handed out.
 */
const struct rvctr_dso_file *rvctr_machine__syms(struct rvctr_machine *m, unsigned int dso)
{
	struct dso_files *d = dso_files(m, dso);

	if (!d)
		return NULL;
	if (!d->syms_tried)
		load_syms(m, d, dso);
	d->syms.why = d->syms_why;
	d->syms.module = d->syms.module ? d->mod : NULL;
	return &d->syms;
}

static void hex(char *out, const uint8_t *id, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * len] = 0;
}

/*
 * A vmlinux is whatever --vmlinux names: it must be the recording's
 * kernel (its machine, and its build id when both have one), and
 * relocatable to where it ran.
 */
static int check_vmlinux(const struct rvctr_machine *m, struct dso_files *d, const uint8_t *id,
			 unsigned int id_size)
{
	const char *path = m->code_find.vmlinux;
	char want[41], have_hex[41];
	uint8_t have[20];
	unsigned int n = rvctr_symtab__build_id(d->code_tab, have);
	uint64_t ref;

	if (m->code_find.machine && rvctr_symtab__machine(d->code_tab) != m->code_find.machine) {
		snprintf(d->code_why, sizeof(d->code_why), "%s: another machine's, not used", path);
		return -1;
	}
	if (id_size > 20)
		id_size = 20;
	if (n && id_size && (n != id_size || memcmp(have, id, n))) {
		hex(have_hex, have, n);
		hex(want, id, id_size);
		snprintf(d->code_why, sizeof(d->code_why), "%s has build id %s, the recording's "
			 "kernel %s: another kernel's, not used", path, have_hex, want);
		return -1;
	}
	if (!m->kernel_text)
		return 0;	/* no runtime address known: as linked */
	if (rvctr_symtab__any_symbol(d->code_tab, m->kernel_ref, &ref)) {
		snprintf(d->code_why, sizeof(d->code_why), "%s has no %s symbol, and the recording's "
			 "kernel had it at %#llx: cannot relocate it", path, m->kernel_ref,
			 (unsigned long long)m->kernel_text);
		return -1;
	}
	d->code.reloc = m->kernel_text - ref;
	return 0;
}

/* Why binary @dso's code cannot be read before looking: NULL if it may be. */
static const char *code_unread(const struct rvctr_machine *m, const struct dso_files *d,
			       int kernel)
{
	if (d->module)
		return "a kernel module (its .ko is not read)";
	if (kernel && !m->code_find.vmlinux)
		return "no vmlinux (--vmlinux) to read the kernel's code from";
	return NULL;
}

/*
 * Find and open the file of binary @dso for its code, once: only the
 * binary itself, no debug file (code_only), and only the recorded build.
 */
static void load_code(struct rvctr_machine *m, struct dso_files *d, unsigned int dso)
{
	const char *name = dso_name(m, dso), *unread;
	unsigned int size;
	const uint8_t *id = dso_build_id(m, dso, &size);
	int mismatch = 0, kernel = rvctr_symtab__is_kernel_name(name);

	d->code_tried = 1;
	d->code = (struct rvctr_dso_file){ .why = d->code_why, .runtime = kernel };
	unread = code_unread(m, d, kernel);
	if (unread) {
		snprintf(d->code_why, sizeof(d->code_why), "%s: %s", name, unread);
		return;
	}
	d->code_tab = rvctr_symtab__find(&m->code_find, name, id, size, &mismatch, d->code_why,
					 sizeof(d->code_why));
	if (mismatch || (d->code_tab && kernel && check_vmlinux(m, d, id, size))) {
		/* the file there is another build's: its code says nothing of this one */
		if (mismatch)
			snprintf(d->code_why, sizeof(d->code_why), "%s: the file there has another "
				 "build id (or machine) than the recorded one: not used", name);
		rvctr_symtab__delete(d->code_tab);
		d->code_tab = NULL;
		return;
	}
	if (d->code_tab)
		snprintf(d->code_why, sizeof(d->code_why), "%s: no code bytes at the address", name);
	d->code.tab = d->code_tab;
}

const struct rvctr_dso_file *rvctr_machine__code(struct rvctr_machine *m, unsigned int dso)
{
	struct dso_files *d = dso_files(m, dso);

	if (!d)
		return NULL;
	if (!d->code_tried)
		load_code(m, d, dso);
	d->code.why = d->code_why;
	return &d->code;
}

int rvctr_machine__vaddr(const struct rvctr_dso_file *f, const struct rvctr_map *map,
			 uint64_t addr, uint64_t *vaddr)
{
	if (f->runtime) {
		*vaddr = addr - f->reloc;
		return 0;
	}
	return rvctr_symtab__offset_to_vaddr(f->tab, addr - map->start + map->pgoff, vaddr);
}

const char *rvctr_machine__symbol(const struct rvctr_dso_file *f, uint64_t vaddr, uint64_t *off)
{
	return f->tab ? rvctr_symtab__lookup_module(f->tab, vaddr, f->module, off) : NULL;
}
