// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's and its modules' maps; see rvctr/kmaps.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rvctr/kmaps.h>

#define MAX_MODULES	4096
#define MODULE_NAME_LEN	64	/* the kernel's MODULE_NAME_LEN is 56 */
#define MAX_WALK_DEPTH	8

struct kmod {
	char name[MODULE_NAME_LEN];	/* as /proc/modules has it */
	uint64_t start, size;
	char *path;			/* its file, as the recorded system names it */
};

struct synth {
	struct rvctr_writer *w;
	struct rvctr_kmaps *out;
	char root[4096];		/* without a trailing '/' */
	struct kmod *mods;
	unsigned int nr_mods;
};

static void warn(struct synth *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct synth *s, const char *fmt, ...)
{
	size_t n = strlen(s->out->warning);
	va_list ap;

	if (n && n + 2 < sizeof(s->out->warning)) {
		strcpy(s->out->warning + n, "; ");
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->out->warning + n, sizeof(s->out->warning) - n, fmt, ap);
	va_end(ap);
}

static FILE *open_in_root(const struct synth *s, const char *rel, char *path, size_t len)
{
	if ((size_t)snprintf(path, len, "%s%s", s->root, rel) >= len) {
		errno = ENAMETOOLONG;	/* never a path cut short */
		return NULL;
	}
	return fopen(path, "r");
}

/*
 * A build id from a file of ELF notes (/sys/kernel/notes, a module's
 * notes/.note.gnu.build-id), as perf's sysfs__read_build_id reads it:
 * 4-byte aligned Elf_Nhdr entries; the NT_GNU_BUILD_ID of "GNU".
 */
static unsigned int read_build_id(const char *path, uint8_t id[20])
{
	unsigned char buf[8192];
	size_t n, off = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t h[3];
		size_t name, desc;

		memcpy(h, buf + off, sizeof(h));
		name = off + 12;
		desc = name + (((size_t)h[0] + 3) & ~(size_t)3);
		if (h[0] > n || h[1] > n || desc > n || desc + h[1] > n)
			break;
		if (h[2] == 3 /* NT_GNU_BUILD_ID */ && h[0] == 4 &&
		    !memcmp(buf + name, "GNU", 4) && h[1] && h[1] <= 20) {
			memcpy(id, buf + desc, h[1]);
			return h[1];
		}
		off = desc + (((size_t)h[1] + 3) & ~(size_t)3);
	}
	return 0;
}

static void add_build_id(struct synth *s, const char *notes_rel, const char *filename)
{
	char path[8192];
	uint8_t id[20];
	unsigned int n;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", s->root, notes_rel) >= sizeof(path))
		return;
	n = read_build_id(path, id);
	if (n && !rvctr_writer__add_build_id(s->w, -1, PERF_RECORD_MISC_KERNEL, filename, id, n))
		s->out->build_ids++;
}

/*
 * /proc/modules: "name size refcount deps state address [taint]".  As
 * perf's modules__parse: the address is the hex number after the line's
 * last 'x', the size the second field.
 */
static void read_modules(struct synth *s)
{
	char path[8192], *line = NULL, *x, *end;
	unsigned int zero = 0, bad = 0;
	size_t cap = 0;
	ssize_t len;
	FILE *f = open_in_root(s, "/proc/modules", path, sizeof(path));

	if (!f) {
		/* absent: a kernel without modules (CONFIG_MODULES=n) */
		if (errno != ENOENT)
			warn(s, "%s: %s: no module maps", path, strerror(errno));
		return;
	}
	s->mods = calloc(MAX_MODULES, sizeof(*s->mods));
	if (!s->mods) {
		fclose(f);
		warn(s, "out of memory: no module maps");
		return;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		struct kmod *m = &s->mods[s->nr_mods];
		size_t nl = strcspn(line, " \t\n");

		if (s->nr_mods == MAX_MODULES) {
			warn(s, "more than %d modules: the rest have no maps", MAX_MODULES);
			break;
		}
		line[strcspn(line, "\n")] = 0;
		x = strrchr(line, 'x');
		if (!nl || nl >= sizeof(m->name) || !x || !isxdigit((unsigned char)x[1])) {
			bad++;
			continue;
		}
		m->start = strtoull(x + 1, NULL, 16);
		m->size = strtoull(line + nl, &end, 0);
		if (end == line + nl || (*end != ' ' && *end != '\t') || !m->size) {
			bad++;
			continue;
		}
		if (!m->start) {
			zero++;
			continue;
		}
		memcpy(m->name, line, nl);
		m->name[nl] = 0;
		s->nr_mods++;
	}
	if (ferror(f))
		warn(s, "%s: %s: module maps missing", path, strerror(errno));
	free(line);
	fclose(f);
	if (zero)
		warn(s, "%u modules at address 0 in %s (kernel pointers restricted: "
		     "/proc/sys/kernel/kptr_restrict): no maps for them", zero, path);
	if (bad)
		warn(s, "%s: %u lines not understood", path, bad);
}

/* "foo-bar.ko.xz" -> "foo_bar", as the kernel names the module; 0 if no module. */
static int module_file_name(const char *file, char *name, size_t len)
{
	static const char * const exts[] = { ".ko", ".ko.gz", ".ko.xz", ".ko.zst" };
	size_t n = strlen(file), i, e;

	for (e = 0; e < sizeof(exts) / sizeof(exts[0]); e++) {
		size_t k = strlen(exts[e]);

		if (n > k && !strcmp(file + n - k, exts[e]))
			break;
	}
	if (e == sizeof(exts) / sizeof(exts[0]))
		return 0;
	n -= strlen(exts[e]);
	if (n >= len)
		return 0;
	for (i = 0; i < n; i++)
		name[i] = file[i] == '-' ? '_' : file[i];
	name[n] = 0;
	return 1;
}

/*
 * Name loaded modules by their files, as perf's machine__set_modules_path:
 * every directory under /lib/modules/RELEASE except the top-level source
 * and build links.
 */
static void walk_modules(struct synth *s, char *path, size_t cap, int depth)
{
	size_t len = strlen(path), rootlen = strlen(s->root);
	char name[MODULE_NAME_LEN];
	struct dirent *d;
	struct stat st;
	unsigned int i;
	DIR *dp;

	if (depth > MAX_WALK_DEPTH)
		return;
	dp = opendir(path);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		int is_dir;

		if (d->d_name[0] == '.' || len + 1 + strlen(d->d_name) >= cap)
			continue;
		if (!depth && (!strcmp(d->d_name, "source") || !strcmp(d->d_name, "build")))
			continue;
		snprintf(path + len, cap - len, "/%s", d->d_name);
		is_dir = d->d_type == DT_DIR ||
			 (d->d_type == DT_UNKNOWN && !lstat(path, &st) && S_ISDIR(st.st_mode));
		if (is_dir) {
			walk_modules(s, path, cap, depth + 1);
		} else if (module_file_name(d->d_name, name, sizeof(name))) {
			for (i = 0; i < s->nr_mods; i++)
				if (!s->mods[i].path && !strcmp(s->mods[i].name, name))
					s->mods[i].path = strdup(path + rootlen);
		}
		path[len] = 0;
	}
	closedir(dp);
}

static void name_modules(struct synth *s)
{
	char path[8192], release[256];
	FILE *f;

	if (!s->nr_mods)
		return;
	f = open_in_root(s, "/proc/sys/kernel/osrelease", path, sizeof(path));
	if (!f)
		return;
	if (!fgets(release, sizeof(release), f) || !release[0] || release[0] == '\n' ||
	    strchr(release, '/')) {
		fclose(f);
		return;
	}
	fclose(f);
	release[strcspn(release, "\n")] = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/lib/modules/%s", s->root, release) >=
	    sizeof(path))
		return;
	walk_modules(s, path, sizeof(path), 0);
}

struct kernel_syms {
	uint64_t text, stext, edata, etext;
	int have_text, have_stext, have_edata, have_etext;
};

/* perf's ref_reloc_sym is a function (or an absolute alias, as on PARISC). */
static int is_function_type(char t)
{
	t = toupper((unsigned char)t);
	return t == 'T' || t == 'W' || t == 'A';
}

static int read_kallsyms(struct synth *s, struct kernel_syms *k, char *path, size_t pathlen)
{
	char *line = NULL, *p, type, *name;
	size_t cap = 0;
	uint64_t addr;
	int err;
	FILE *f = open_in_root(s, "/proc/kallsyms", path, pathlen);

	memset(k, 0, sizeof(*k));
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		addr = strtoull(line, &p, 16);
		if (p == line || *p != ' ' || !p[1] || p[2] != ' ')
			continue;
		type = p[1];
		name = p + 3;
		name[strcspn(name, " \t\n")] = 0;
		/* the first of each, as perf's kallsyms__parse callbacks take it */
		if (!strcmp(name, "_text") && !k->have_text && is_function_type(type)) {
			k->text = addr;
			k->have_text = 1;
		} else if (!strcmp(name, "_stext") && !k->have_stext && is_function_type(type)) {
			k->stext = addr;
			k->have_stext = 1;
		} else if (!strcmp(name, "_edata") && !k->have_edata) {
			k->edata = addr;
			k->have_edata = 1;
		} else if (!strcmp(name, "_etext") && !k->have_etext) {
			k->etext = addr;
			k->have_etext = 1;
		}
		if (k->have_text && k->have_edata)
			break;
	}
	err = ferror(f) ? errno : 0;
	free(line);
	fclose(f);
	errno = err;
	return err ? -1 : 0;
}

static int write_kernel(struct synth *s)
{
	struct rvctr_mmap m = { .pid = -1, .tid = 0, .misc = PERF_RECORD_MISC_KERNEL };
	struct rvctr_kmaps *out = s->out;
	struct kernel_syms k;
	char path[8192];
	uint64_t end = ~0ULL;
	unsigned int i;

	if (read_kallsyms(s, &k, path, sizeof(path))) {
		warn(s, "%s: %s: no kernel map", path, strerror(errno));
		return 0;
	}
	if (!k.have_text && !k.have_stext) {
		warn(s, "%s: no _text or _stext: no kernel map", path);
		return 0;
	}
	snprintf(out->kernel_ref, sizeof(out->kernel_ref), "%s", k.have_text ? "_text" : "_stext");
	out->kernel_start = k.have_text ? k.text : k.stext;
	if (!out->kernel_start) {
		warn(s, "%s shows %s at 0 (kernel pointers restricted: "
		     "/proc/sys/kernel/kptr_restrict): no kernel map", path, out->kernel_ref);
		return 0;
	}
	/* machine__get_running_kernel_start, then the next module up */
	if (k.have_edata && k.edata > out->kernel_start) {
		end = k.edata;
	} else if (k.have_etext && k.etext > out->kernel_start) {
		end = k.etext;
	} else {
		for (i = 0; i < s->nr_mods; i++)
			if (s->mods[i].start > out->kernel_start && s->mods[i].start < end)
				end = s->mods[i].start;
	}
	out->kernel_len = end - out->kernel_start;
	m.start = m.pgoff = out->kernel_start;
	m.len = out->kernel_len;
	snprintf(m.filename, sizeof(m.filename), "[kernel.kallsyms]%s", out->kernel_ref);
	if (rvctr_writer__mmap2(s->w, &m, 0, 0))
		return -1;
	out->kernel = 1;
	add_build_id(s, "/sys/kernel/notes", "[kernel.kallsyms]");
	return 0;
}

static int write_modules(struct synth *s)
{
	struct rvctr_mmap m = { .pid = -1, .tid = 0, .misc = PERF_RECORD_MISC_KERNEL };
	char notes[256];
	unsigned int i;
	int ko;

	for (i = 0; i < s->nr_mods; i++) {
		const struct kmod *k = &s->mods[i];

		m.start = k->start;
		m.len = k->size;
		/* a .ko path too long for a map's name: named as one without a file */
		ko = k->path && (size_t)snprintf(m.filename, sizeof(m.filename), "%s", k->path) <
				sizeof(m.filename);
		if (!ko)
			snprintf(m.filename, sizeof(m.filename), "[%.*s]",
				 (int)sizeof(m.filename) - 3, k->name);
		if (rvctr_writer__mmap2(s->w, &m, 0, 0))
			return -1;
		s->out->modules++;
		s->out->ko_paths += ko;
		if ((size_t)snprintf(notes, sizeof(notes), "/sys/module/%s/notes/.note.gnu.build-id",
				     k->name) < sizeof(notes))
			add_build_id(s, notes, m.filename);
	}
	return 0;
}

int rvctr_kmaps__synthesize(struct rvctr_writer *w, const char *root, struct rvctr_kmaps *out)
{
	struct synth s = { .w = w, .out = out };
	size_t n;
	int ret;

	memset(out, 0, sizeof(*out));
	if ((size_t)snprintf(s.root, sizeof(s.root), "%s", root ? root : "") >= sizeof(s.root)) {
		warn(&s, "%.64s...: too long a root: no kernel maps", root);
		return 0;
	}
	n = strlen(s.root);
	while (n && s.root[n - 1] == '/')
		s.root[--n] = 0;
	/* perf reads the modules first: the kernel's map may end at one */
	read_modules(&s);
	name_modules(&s);
	ret = write_kernel(&s);
	if (!ret)
		ret = write_modules(&s);
	while (s.nr_mods)
		free(s.mods[--s.nr_mods].path);
	free(s.mods);
	return ret;
}
