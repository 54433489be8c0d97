// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel and module maps as rvctr record writes them (rvctr/kmaps.h), from
 * a fake /proc, /sys and /lib/modules: the MMAP2 records read back (type,
 * cpumode, pid, start, len, pgoff, name), their build ids, the map's end
 * as perf chooses it, and restricted or missing files.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rvctr/kmaps.h>
#include <rvctr/perf_data.h>

#include "tests.h"

#define TEXT	0xffffffff81200000ULL	/* _text of a KASLR boot */
#define STEXT	(TEXT + 0x2000)
#define ETEXT	(TEXT + 0xa00000)
#define EDATA	(TEXT + 0x1400000)

static char root[] = "/tmp/rvctr-kmaps-XXXXXX";
static char data[sizeof(root) + 16];

/* Write ROOT/REL (making its directories) with @len bytes, or a string. */
static void put_file(const char *rel, const void *buf, long len)
{
	char path[4096], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "wb");
	if (!f) {
		printf("# cannot write %s\n", path);
		return;
	}
	fwrite(buf, 1, len < 0 ? strlen(buf) : (size_t)len, f);
	fclose(f);
}

static void put_text(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put_text(const char *rel, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put_file(rel, buf, -1);
}

/* ELF notes: an unrelated one first, then the GNU build id */
static void put_notes(const char *rel, uint8_t seed)
{
	unsigned char b[128] = { 0 };
	uint32_t h[3] = { 6, 4, 1 };	/* "Linux", 4 bytes, type 1 */
	size_t off = 0;
	unsigned int i;

	memcpy(b, h, 12);
	memcpy(b + 12, "Linux", 6);
	off = 12 + 8 + 4;
	h[0] = 4;
	h[1] = 20;
	h[2] = 3;
	memcpy(b + off, h, 12);
	memcpy(b + off + 12, "GNU", 4);
	for (i = 0; i < 20; i++)
		b[off + 16 + i] = seed + i;
	put_file(rel, b, off + 36);
}

static void kallsyms(int with_text, int with_etext, int with_edata, uint64_t base)
{
	put_text("proc/kallsyms",
		 "%s%016llx T _stext\n"
		 "%016llx T do_syscall\n"
		 "%016llx t handle_thing\n"
		 "%s%s"
		 "ffffffff01000100 t ctr_read\t[rvctr]\n",
		 with_text ? (base ? "ffffffff81200000 T _text\n" : "0000000000000000 T _text\n") : "",
		 (unsigned long long)(base ? STEXT : 0), (unsigned long long)(base ? STEXT + 0x100 : 0),
		 (unsigned long long)(base ? STEXT + 0x400 : 0),
		 with_etext ? (base ? "ffffffff81c00000 T _etext\n" : "0000000000000000 T _etext\n") : "",
		 with_edata ? (base ? "ffffffff82600000 D _edata\n" : "0000000000000000 D _edata\n") : "");
}

static void modules(int restricted)
{
	put_text("proc/modules",
		 "rvctr 32768 0 - Live 0x%s\n"
		 "rvctr_x 16384 1 rvctr, Live 0x%s (O)\n"
		 "decoy 4096 0 - Live 0x%s\n",
		 restricted ? "0000000000000000" : "ffffffff01000000",
		 restricted ? "0000000000000000" : "ffffffff01010000",
		 restricted ? "0000000000000000" : "ffffffff01020000");
}

/* A recording of the maps alone. */
static int synthesize(struct rvctr_kmaps *k)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 1000, .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY,
	};
	const char *name = "cycles";
	char err[256];
	struct rvctr_writer *w = rvctr_writer__open(data, &a, &name, 1, err, sizeof(err));
	int ret;

	if (!w) {
		printf("# %s\n", err);
		return -1;
	}
	ret = rvctr_kmaps__synthesize(w, root, k);
	/* a sample after them (a file without records reads as unfinished) */
	rvctr_writer__sample(w, &(struct rvctr_sample){ .ip = TEXT + 0x10, .pid = 7, .tid = 7,
							.time = 1, .period = 1000 });
	if (rvctr_writer__close(w, err, sizeof(err))) {
		printf("# %s\n", err);
		return -1;
	}
	return ret;
}

#define MAX_READ 8

struct readback {
	unsigned int nr, others, late;	/* late: MMAP2 after a sample */
	struct rvctr_event ev[MAX_READ];
	unsigned int nr_ids;
	struct rvctr_build_id ids[MAX_READ];
};

static int read_back(struct readback *rb)
{
	char err[256];
	struct rvctr_reader *r = rvctr_reader__open(data, err, sizeof(err));
	struct rvctr_event ev;
	unsigned int i;
	int ret;

	memset(rb, 0, sizeof(*rb));
	if (!r) {
		printf("# %s\n", err);
		return -1;
	}
	while ((ret = rvctr_reader__next(r, &ev)) > 0) {
		if (ev.type == PERF_RECORD_MMAP2 && rb->others)
			rb->late++;
		if (ev.type == PERF_RECORD_MMAP2 && rb->nr < MAX_READ)
			rb->ev[rb->nr++] = ev;
		else if (ev.type != PERF_RECORD_FINISHED_ROUND)
			rb->others++;
	}
	for (i = 0; i < rvctr_reader__nr_build_ids(r) && i < MAX_READ; i++)
		rb->ids[rb->nr_ids++] = *rvctr_reader__build_id(r, i);
	if (ret < 0)
		printf("# %s\n", rvctr_reader__error(r));
	rvctr_reader__close(r);
	return ret;
}

static const struct rvctr_build_id *find_id(const struct readback *rb, const char *name)
{
	unsigned int i;

	for (i = 0; i < rb->nr_ids; i++)
		if (!strcmp(rb->ids[i].filename, name))
			return &rb->ids[i];
	return NULL;
}

static void check_map(const struct rvctr_event *ev, uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *name, const char *what)
{
	const struct rvctr_mmap *m = &ev->mmap;

	printf("# %s\n", what);
	T_EQ(ev->type, PERF_RECORD_MMAP2, "MMAP2 record");
	T_EQ(ev->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_KERNEL, "cpumode kernel");
	T_EQ(m->pid, (uint32_t)-1, "pid -1");
	T_EQ(m->start, start, "start");
	T_EQ(m->len, len, "len");
	T_EQ(m->pgoff, pgoff, "pgoff");
	T_STREQ(m->filename, name, "filename");
	T_EQ(ev->time, 0, "time 0: before every sample");
}

static void test_full(void)
{
	const struct rvctr_build_id *b;
	struct rvctr_kmaps k;
	struct readback rb;

	kallsyms(1, 1, 1, 1);
	modules(0);
	put_text("proc/sys/kernel/osrelease", "6.12.0-test\n");
	put_file("lib/modules/6.12.0-test/kernel/drivers/perf/rvctr-x.ko.xz", "", 0);
	put_file("lib/modules/6.12.0-test/kernel/drivers/perf/readme.txt", "", 0);
	/* perf skips the top-level source and build links */
	put_file("lib/modules/6.12.0-test/build/decoy.ko", "", 0);
	put_notes("sys/kernel/notes", 0x10);
	put_notes("sys/module/rvctr_x/notes/.note.gnu.build-id", 0x40);

	T_EQ(synthesize(&k), 0, "synthesize");
	T_STREQ(k.warning, "", "no warning");
	T_EQ(k.kernel, 1, "kernel map written");
	T_EQ(k.modules, 3, "three module maps");
	T_EQ(k.ko_paths, 1, "one named by its file");
	T_EQ(k.build_ids, 2, "two build ids");
	if (read_back(&rb) < 0 || rb.nr != 4) {
		T_EQ(rb.nr, 4, "four MMAP2 records read back");
		return;
	}
	T_EQ(rb.others, 1, "nothing else written (but the test's sample)");
	T_EQ(rb.late, 0, "the maps come before the sample");
	check_map(&rb.ev[0], TEXT, EDATA - TEXT, TEXT, "[kernel.kallsyms]_text",
		  "kernel: _text to _edata, pgoff = _text");
	check_map(&rb.ev[1], 0xffffffff01000000ULL, 32768, 0, "[rvctr]", "module without a file");
	check_map(&rb.ev[2], 0xffffffff01010000ULL, 16384, 0,
		  "/lib/modules/6.12.0-test/kernel/drivers/perf/rvctr-x.ko.xz",
		  "module by its file ('-' is '_'), the root not in the name");
	check_map(&rb.ev[3], 0xffffffff01020000ULL, 4096, 0, "[decoy]",
		  "module whose only file is under build/");
	b = find_id(&rb, "[kernel.kallsyms]");
	T_OK(b && b->size == 20 && b->id[0] == 0x10 && b->id[19] == 0x10 + 19,
	     "kernel build id from sys/kernel/notes");
	T_EQ(b ? b->misc & PERF_RECORD_MISC_CPUMODE_MASK : 0, PERF_RECORD_MISC_KERNEL,
	     "kernel build id: cpumode kernel");
	b = find_id(&rb, "/lib/modules/6.12.0-test/kernel/drivers/perf/rvctr-x.ko.xz");
	T_OK(b && b->size == 20 && b->id[0] == 0x40, "module build id under its map's name");
}

/* The map's end: _edata, else _etext, else the next module up, else the top. */
static void test_end(void)
{
	struct rvctr_kmaps k;
	struct readback rb;

	put_text("proc/modules", "up 8192 0 - Live 0xffffffff90000000\n"
		 "down 8192 0 - Live 0xffffffff01000000\n");
	kallsyms(1, 1, 0, 1);
	T_OK(!synthesize(&k) && read_back(&rb) >= 0 && rb.nr == 3, "without _edata");
	T_EQ(rb.ev[0].mmap.len, ETEXT - TEXT, "the kernel map ends at _etext");
	kallsyms(1, 0, 0, 1);
	T_OK(!synthesize(&k) && read_back(&rb) >= 0 && rb.nr == 3, "without _etext");
	T_EQ(rb.ev[0].mmap.len, 0xffffffff90000000ULL - TEXT, "... at the next module up");
	put_text("proc/modules", "down 8192 0 - Live 0xffffffff01000000\n");
	T_OK(!synthesize(&k) && read_back(&rb) >= 0 && rb.nr == 2, "no module above it");
	T_EQ(rb.ev[0].mmap.len, ~0ULL - TEXT, "... at the top of the address space");
	T_EQ(rb.ev[0].mmap.start + rb.ev[0].mmap.len, ~0ULL, "(start + len does not wrap)");

	/* no _text: perf's second reference symbol */
	kallsyms(0, 1, 1, 1);
	T_OK(!synthesize(&k) && read_back(&rb) >= 0 && rb.nr == 2, "without _text");
	check_map(&rb.ev[0], STEXT, EDATA - STEXT, STEXT, "[kernel.kallsyms]_stext",
		  "kernel map by _stext");
}

static void test_restricted(void)
{
	char path[sizeof(root) + 32];
	struct rvctr_kmaps k;
	struct readback rb;

	/* kptr_restrict: every address reads 0 */
	kallsyms(1, 1, 1, 0);
	modules(1);
	T_EQ(synthesize(&k), 0, "restricted: synthesize succeeds");
	T_EQ(k.kernel + k.modules, 0, "restricted: no map written");
	T_OK(strstr(k.warning, "kptr_restrict") && strstr(k.warning, "no kernel map") &&
	     strstr(k.warning, "3 modules at address 0"), "restricted: the warning says why");
	printf("# %s\n", k.warning);
	T_OK(read_back(&rb) >= 0 && rb.nr == 0, "restricted: no MMAP2 in the file");
	T_EQ(rb.nr_ids, 0, "restricted: no build ids");

	/* nothing there at all */
	put_text("proc/kallsyms", "ffffffff81200000 T other\n");
	snprintf(path, sizeof(path), "%s/proc/modules", root);
	unlink(path);
	T_EQ(synthesize(&k), 0, "no _text/_stext, no modules: synthesize succeeds");
	T_OK(strstr(k.warning, "no _text or _stext") && !strstr(k.warning, "modules"),
	     "the warning names kallsyms (no /proc/modules: a kernel without modules)");
	T_OK(read_back(&rb) >= 0 && rb.nr == 0, "and no map is written");
	mkdir(path, 0755);	/* unreadable */
	T_EQ(synthesize(&k), 0, "unreadable /proc/modules: synthesize succeeds");
	T_OK(strstr(k.warning, "/proc/modules") != NULL, "the warning names it");
	rmdir(path);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	unlink(path);
	mkdir(path, 0755);	/* opens, does not read */
	T_EQ(synthesize(&k), 0, "unreadable /proc/kallsyms: synthesize succeeds");
	T_OK(strstr(k.warning, "kallsyms: Is a directory") && strstr(k.warning, "no kernel map"),
	     "the warning says why");
	rmdir(path);
	T_EQ(synthesize(&k), 0, "no /proc/kallsyms: synthesize succeeds");
	T_OK(strstr(k.warning, "kallsyms: No such file") && strstr(k.warning, "no kernel map"),
	     "the warning says why");
	printf("# %s\n", k.warning);
	snprintf(path, sizeof(path), "%s/proc/modules", root);
	put_text("proc/modules", "garbage\nx 0 0 - Live 0xffffffff01000000\n");
	T_EQ(synthesize(&k), 0, "malformed /proc/modules");
	T_OK(strstr(k.warning, "2 lines not understood") != NULL, "malformed lines are counted");
}

int main(void)
{
	char cmd[sizeof(root) + 16];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(data, sizeof(data), "%s/perf.data", root);
	test_full();
	test_end();
	test_restricted();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		printf("# cannot remove %s\n", root);
	return tests_done();
}
