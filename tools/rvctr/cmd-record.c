// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr record: run a command with branch-stack sampling through libperf,
 * drain the ring buffers and write perf.data (the kernel's and modules'
 * maps, COMM, MMAP2, SAMPLE records, HEADER_BUILD_ID, HEADER_ARCH and
 * HEADER_NRCPUS) that stock perf reads.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/event.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>

#include <rvctr/kmaps.h>
#include <rvctr/output.h>
#include <rvctr/perf_data.h>
#include <rvctr/symtab.h>
#include "builtin.h"

#define MAX_FILES	1024

static const char record_usage[] =
	"usage: rvctr record [options] -- COMMAND [ARGS...]\n"
	"       rvctr record [options] -p PID | -a | -C CPUS [-- COMMAND [ARGS...]]\n"
	"\n"
	"Run COMMAND and sample it with branch stacks (CTR records through the\n"
	"perf branch-stack interface); write perf.data that perf report/script,\n"
	"rvctr convert and rvctr report read.  With -p, -a or -C, record until\n"
	"COMMAND exits, the process exits, or SIGINT/SIGTERM/SIGHUP (which end the\n"
	"recording and keep it).  The exit status is COMMAND's.  FILE is written\n"
	"as .FILE.XXXXXX next to it and renamed when complete; a failed record\n"
	"removes it and leaves FILE as it was.  Its header is kept current, so\n"
	"after a SIGKILL perf reads the .FILE.XXXXXX left.\n"
	"\n"
	"  -o, --output FILE    output (default perf.data)\n"
	"  -p, --pid PID        attach to a running process (all its threads, and\n"
	"                       the threads and processes it starts)\n"
	"  -a, --all-cpus       system-wide, every online CPU\n"
	"  -C, --cpu LIST       system-wide on these CPUs (0,2-3)\n"
	"  -F, --freq N         sample at N Hz instead of every -c events\n"
	"  -e, --event EVENT    cycles (default), instructions, or task-clock (a\n"
	"                       software event without branch stacks, for testing\n"
	"                       the collection path on machines without them)\n"
	"  -c, --count N        sample period (default 100000)\n"
	"  -j, --branch-filter  comma list: any (default), call, any_call, any_ret,\n"
	"                       ind_call, ind_jump, cond, u, k\n"
	"  -g                   also record callchains (perf report --branch-history\n"
	"                       needs them): --call-graph fp\n"
	"      --call-graph MODE[,SIZE]\n"
	"                       fp: callchains by frame pointer, as -g; dwarf:\n"
	"                       the user registers and SIZE bytes of user stack\n"
	"                       (default 8192, at most 65528) with each sample,\n"
	"                       which perf report and perf script unwind with the\n"
	"                       binaries' DWARF call frame information\n"
	"  -m, --mmap-pages N   ring buffer pages per CPU (default 64, 128 with\n"
	"                       --call-graph dwarf; a power of two)\n"
	"      --progress       show progress even when stderr is not a terminal\n"
	"  -h, --help           this text\n"
	"\n"
	"Needs a PMU with branch stacks: /sys/bus/event_source/devices/cpu/caps/branches.\n"
	"The file starts with the kernel's and modules' maps (from /proc/kallsyms\n"
	"and /proc/modules, as perf record writes them), unless kernel pointers are\n"
	"hidden (kptr_restrict).\n";

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct target {
	pid_t pid;		/* -p */
	const char *cpus;	/* -C, or "" for -a */
};

struct recorder {
	struct rvctr_writer *w;
	struct perf_evlist *evlist;
	uint64_t samples, lost, records;
	char *files[MAX_FILES];
	unsigned int nr_files;
};

static const struct {
	const char *name;
	uint64_t bits;
} branch_filters[] = {
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "ind_jump", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
};

static int parse_filter(const char *s, uint64_t *out)
{
	char buf[256], *tok, *save;
	unsigned int i;

	*out = 0;
	if ((size_t)snprintf(buf, sizeof(buf), "%s", s) >= sizeof(buf))
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(branch_filters) / sizeof(branch_filters[0]); i++)
			if (!strcmp(tok, branch_filters[i].name))
				break;
		if (i == sizeof(branch_filters) / sizeof(branch_filters[0]))
			return -1;
		*out |= branch_filters[i].bits;
	}
	/* a privilege-only filter means every branch type at that level */
	if (!(*out & ~(uint64_t)(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL)))
		*out |= PERF_SAMPLE_BRANCH_ANY;
	if (!(*out & (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL)))
		*out |= PERF_SAMPLE_BRANCH_USER;
	return 0;
}

static int libperf_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	return level <= LIBPERF_ERR ? vfprintf(stderr, fmt, ap) : 0;
}

/* Remember executable mappings: their build ids go in the header. */
static void note_file(struct recorder *r, const char *name)
{
	unsigned int i;

	if (name[0] != '/' || r->nr_files == MAX_FILES)
		return;
	for (i = 0; i < r->nr_files; i++)
		if (!strcmp(r->files[i], name))
			return;
	r->files[r->nr_files] = strdup(name);
	if (r->files[r->nr_files])
		r->nr_files++;
}

static void note_mmap2(struct recorder *r, const union perf_event *ev)
{
	const struct perf_record_mmap2 *m = &ev->mmap2;
	char name[4096];

	if (!(m->prot & 4))
		return;
	snprintf(name, sizeof(name), "%.*s", (int)(m->header.size - sizeof(*m)), m->filename);
	note_file(r, name);
}

static int drain(struct recorder *r)
{
	uint64_t before = r->records;
	struct perf_mmap *map;
	union perf_event *ev;

	perf_evlist__for_each_mmap(r->evlist, map, false) {
		if (perf_mmap__read_init(map) < 0)
			continue;
		while ((ev = perf_mmap__read_event(map))) {
			r->records++;
			if (ev->header.type == PERF_RECORD_SAMPLE)
				r->samples++;
			else if (ev->header.type == PERF_RECORD_LOST)
				r->lost += ev->lost.lost;
			else if (ev->header.type == PERF_RECORD_MMAP2)
				note_mmap2(r, ev);
			if (rvctr_writer__raw(r->w, ev, ev->header.size)) {
				perf_mmap__consume(map);
				return -1;
			}
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
	}
	/* records of different buffers interleave: tell readers a round ended */
	if (r->records != before && rvctr_writer__finished_round(r->w))
		return -1;
	return rvctr_writer__checkpoint(r->w);
}

static void add_build_ids(struct recorder *r)
{
	unsigned int i, n;
	uint8_t id[20];
	char err[256];

	for (i = 0; i < r->nr_files; i++) {
		struct rvctr_symtab *t = rvctr_symtab__load(r->files[i], NULL, err, sizeof(err));

		if (!t)
			continue;
		n = rvctr_symtab__build_id(t, id);
		if (n)
			rvctr_writer__add_build_id(r->w, -1, PERF_RECORD_MISC_USER, r->files[i], id, n);
		rvctr_symtab__delete(t);
	}
}

/*
 * -C: "N" or "N-M", comma-separated, every CPU online.  libperf's parser
 * reads "0,x" and "0-" as CPU 0 and an offline CPU fails only at open, so
 * the list is checked here, before anything runs.
 */
static int check_cpus(const char *list)
{
	struct perf_cpu_map *online;
	unsigned long first, last, cpu;
	struct perf_cpu c;
	const char *p = list;
	char *end;
	int ret = 0;

	if (!*list)
		return error("-C: empty CPU list ''");
	online = perf_cpu_map__new_online_cpus();
	if (!online)
		return error("-C: cannot read the online CPUs");
	while (!ret) {
		if (!isdigit((unsigned char)*p)) {
			ret = error("-C: bad CPU list '%s' (want N or N-M, comma-separated)", list);
			break;
		}
		first = last = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			last = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
			if (!isdigit((unsigned char)*p) || last < first) {
				ret = error("-C: bad CPU range in '%s'", list);
				break;
			}
		}
		if (*end && *end != ',') {
			ret = error("-C: bad CPU list '%s' (want N or N-M, comma-separated)", list);
			break;
		}
		for (cpu = first; cpu <= last && !ret; cpu++) {
			c.cpu = cpu < INT_MAX ? (int)cpu : -1;
			if (c.cpu < 0 || !perf_cpu_map__has(online, c))
				ret = error("-C: CPU %lu of '%s' is not online", cpu, list);
		}
		if (!*end)
			break;
		p = end + 1;
	}
	perf_cpu_map__put(online);
	return ret;
}

/*
 * --call-graph MODE[,SIZE], perf record's (tools/perf/util/callchain.c,
 * parse_callchain_record()): fp, or dwarf with a stack copy of SIZE
 * bytes, 8192 by default, rounded up to whole u64s and at most
 * round_down(USHRT_MAX, 8): a sample is one record of at most 64 KiB.
 */
enum callgraph { CG_NONE, CG_FP, CG_DWARF };

#define DWARF_STACK_DEFAULT	8192
#define DWARF_STACK_MAX		(65535 & ~7UL)

static int parse_callgraph(const char *arg, enum callgraph *cg, uint64_t *stack)
{
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
	unsigned long long size;
	char *end;

	if (n == 2 && !strncmp(arg, "fp", 2) && !comma) {
		*cg = CG_FP;
		return 0;
	}
	if (n != 5 || strncmp(arg, "dwarf", 5))
		return error("--call-graph: unknown mode '%s' (fp, dwarf[,SIZE])", arg);
	*cg = CG_DWARF;
	*stack = DWARF_STACK_DEFAULT;
	if (!comma)
		return 0;
	errno = 0;
	size = strtoull(comma + 1, &end, 0);
	if (!isdigit((unsigned char)comma[1]) || *end || errno || !size ||
	    size > DWARF_STACK_MAX)
		return error("--call-graph: bad stack dump size '%s' (1..%lu bytes)", comma + 1,
			     DWARF_STACK_MAX);
	*stack = (size + 7) & ~7ULL;
	return 0;
}

/*
 * The user registers --call-graph dwarf samples: all the general
 * registers, the mask perf record takes (arch__user_reg_mask(),
 * PERF_REGS_MASK of tools/perf/arch/ARCH/include/perf_regs.h).  On
 * RISC-V also vlenb (PERF_REG_RISCV_VLENB, bit 32), which the CFA of a
 * frame that spills vector registers reads as DWARF register 7202; a
 * kernel that does not know it, or a hart without V, refuses the bit
 * with -EINVAL.  Probed as perf probes it (tools/perf/arch/riscv
 * /util/perf_regs.c): a software event that samples the mask opens, or
 * the mask goes without it.
 */
#if defined(__riscv) && __riscv_xlen == 64
#define USER_REGS_MASK		0xffffffffULL		/* x1..x31 and pc */
#define USER_REGS_EXTRA		(1ULL << 32)		/* vlenb */
#elif defined(__x86_64__)
/* PERF_REG_X86_64_MAX (24) registers but the segment registers DS, ES, FS, GS */
#define USER_REGS_MASK		(0xffffffULL & ~(0xfULL << 12))
#define USER_REGS_EXTRA		0ULL
#else
#define USER_REGS_MASK		0ULL
#define USER_REGS_EXTRA		0ULL
#endif

static int regs_open(uint64_t mask)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_REGS_USER,
		.sample_regs_user = mask,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static uint64_t user_regs_mask(void)
{
	if (USER_REGS_EXTRA && regs_open(USER_REGS_MASK | USER_REGS_EXTRA))
		return USER_REGS_MASK | USER_REGS_EXTRA;
	return USER_REGS_MASK;
}

/*
 * --call-graph dwarf, as perf record sets it (tools/perf/util/evsel.c,
 * __evsel__config_callchain()): the kernel's callchain only, the user
 * registers and the user stack, which perf report unwinds.  And the
 * maps of data too (perf record turns on data address sampling for
 * DWARF unwinding, which sets mmap_data): the unwinder reads
 * .eh_frame_hdr through the mapping that holds it, a read-only segment
 * apart from the code where the linker separates code (-z separate-code).
 */
static int config_dwarf(struct perf_event_attr *a, uint64_t stack)
{
	a->sample_regs_user = user_regs_mask();
	if (!a->sample_regs_user)
		return error("--call-graph dwarf: no user register set known for this "
			     "architecture");
	a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = stack;
	a->exclude_callchain_user = 1;
	a->mmap_data = 1;
	return 0;
}

enum rec_event { EV_CYCLES, EV_INSTRUCTIONS, EV_TASK_CLOCK };

static const char * const event_names[] = { "cycles", "instructions", "task-clock" };

static void fill_attr(struct perf_event_attr *a, enum rec_event ev, uint64_t period,
		      uint64_t filter)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = ev == EV_TASK_CLOCK ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE;
	a->config = ev == EV_TASK_CLOCK ? PERF_COUNT_SW_TASK_CLOCK :
		    ev == EV_INSTRUCTIONS ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES;
	a->sample_period = period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (ev != EV_TASK_CLOCK) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = filter;
	}
	a->exclude_kernel = !(filter & PERF_SAMPLE_BRANCH_KERNEL);
	a->exclude_hv = 1;
	a->disabled = 1;
	a->enable_on_exec = 1;
	a->inherit = 1;
	a->mmap = a->mmap2 = a->comm = a->task = 1;
	a->sample_id_all = 1;
}

/* The threads of @pid, from /proc/PID/task. */
static struct perf_thread_map *threads_of(pid_t pid)
{
	pid_t tids[4096];
	struct dirent *d;
	char dir[64];
	int n = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	dp = opendir(dir);
	if (!dp)
		return NULL;
	while ((d = readdir(dp)) && n < 4096)
		if (d->d_name[0] != '.')
			tids[n++] = atoi(d->d_name);
	closedir(dp);
	return n ? perf_thread_map__new_array(n, tids) : NULL;
}

static int open_events(struct recorder *r, struct perf_event_attr *a, pid_t pid,
		       const struct target *t, int pages)
{
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct perf_evsel *evsel = perf_evsel__new(a);
	int err;

	if (t->pid) {
		/*
		 * Each thread on every CPU, as perf record -p: events that are
		 * inherited (threads and children started after the attach)
		 * need per-CPU ring buffers, the kernel maps no per-thread
		 * buffer of an inherited event.
		 */
		cpus = perf_cpu_map__new_online_cpus();
		threads = threads_of(t->pid);
		if (!threads) {
			perf_cpu_map__put(cpus);
			return error("no process %d", t->pid);
		}
	} else {
		cpus = t->cpus && *t->cpus ? perf_cpu_map__new(t->cpus) :
		       perf_cpu_map__new_online_cpus();
		if (!cpus)
			return error("-C: bad CPU list '%s'", t->cpus);
		threads = perf_thread_map__new_dummy();
		if (threads && !t->cpus)
			perf_thread_map__set_pid(threads, 0, pid);
	}
	r->evlist = perf_evlist__new();
	if (!cpus || !threads || !evsel || !r->evlist) {
		perf_cpu_map__put(cpus);
		perf_thread_map__put(threads);
		return error("out of memory");
	}
	perf_evlist__add(r->evlist, evsel);
	perf_evlist__set_maps(r->evlist, cpus, threads);
	perf_cpu_map__put(cpus);
	perf_thread_map__put(threads);
	err = perf_evlist__open(r->evlist);
	if (err) {
		if (err == -EOPNOTSUPP || err == -ENOENT || err == -EINVAL)
			return error("cannot open a branch-stack event (%s): does this PMU support "
				     "branch stacks? (see /sys/bus/event_source/devices/cpu/caps/branches)",
				     strerror(-err));
		return error("cannot open the event: %s", strerror(-err));
	}
	if (perf_evlist__mmap(r->evlist, pages))
		return error("cannot map the ring buffers (%d pages): %m", pages);
	return 0;
}

/*
 * What a process that is already running has mapped (perf's synthesized
 * events): COMM of each thread and MMAP2 of its executable file mappings
 * (with @data, attr.mmap_data, of all its file mappings), from /proc, at
 * time 0.
 */
static void synth_process(struct recorder *r, pid_t pid, int data)
{
	char path[64], line[4096 + 256], perm[8];
	struct rvctr_comm c = { .pid = pid };
	struct dirent *d;
	FILE *f;
	DIR *dp;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dp = opendir(path);
	while (dp && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		c.tid = atoi(d->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, c.tid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(c.comm, 16, f)) {
			c.comm[strcspn(c.comm, "\n")] = 0;
			rvctr_writer__comm(r->w, &c, 0, 0);
		}
		fclose(f);
	}
	if (dp)
		closedir(dp);
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		struct rvctr_mmap m = { .pid = pid, .tid = pid, .misc = PERF_RECORD_MISC_USER,
					.flags = 2 /* MAP_PRIVATE */ };
		unsigned long long start, end, off;
		int name_at = 0;

		/* the files' code, and with attr.mmap_data their other maps too */
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perm, &off,
			   &name_at) < 4 || !name_at || (perm[2] != 'x' && !data) ||
		    line[name_at] != '/')
			continue;
		m.prot = (perm[0] == 'r') | (perm[1] == 'w') << 1 | (perm[2] == 'x') << 2;
		line[strcspn(line, "\n")] = 0;
		m.start = start;
		m.len = end - start;
		m.pgoff = off;
		/* a name too long for the record is left out, never cut short */
		if ((size_t)snprintf(m.filename, sizeof(m.filename), "%s", line + name_at) >=
		    sizeof(m.filename))
			continue;
		rvctr_writer__mmap2(r->w, &m, 0, 0);
		if (m.prot & 4)
			note_file(r, m.filename);
	}
	if (f)
		fclose(f);
}

static void synth_all(struct recorder *r, int data)
{
	struct dirent *d;
	DIR *dp = opendir("/proc");

	while (dp && (d = readdir(dp)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
			synth_process(r, atoi(d->d_name), data);
	if (dp)
		closedir(dp);
}

/*
 * The kernel's and the modules' maps, first as perf record writes them:
 * kernel samples and branches resolve, and perf report relocates a
 * vmlinux by the kernel map (KASLR).  Kernel pointers that are hidden
 * (kptr_restrict) give no map: said when kernel branches were asked for.
 */
static void synth_kernel(struct recorder *r, const struct perf_event_attr *a)
{
	struct rvctr_kmaps k;

	if (rvctr_kmaps__synthesize(r->w, "", &k))
		return;		/* the writer's error comes at close */
	if (k.warning[0] && !a->exclude_kernel)
		fprintf(stderr, "rvctr: warning: %s\n", k.warning);
}

static void write_comm(struct recorder *r, pid_t pid, const char *cmd)
{
	struct rvctr_comm c = { .pid = pid, .tid = pid };
	char tmp[256];

	snprintf(tmp, sizeof(tmp), "%s", cmd);
	snprintf(c.comm, 16, "%s", basename(tmp));
	rvctr_writer__comm(r->w, &c, 0, 0);
}

/*
 * Drain until the workload (if any) exits, the attached process is gone,
 * or a signal asks to stop.  Returns the workload's exit status (0 without
 * one), or -1 on a write error.
 */
static int wait_and_drain(struct recorder *r, pid_t pid, const struct target *t, int force)
{
	struct progress p;
	int status = 0, done = 0, failed = 0;

	progress__init(&p, "recording", force);
	while (!done) {
		if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
			done = 1;
			pid = 0;
		}
		if (t->pid && kill(t->pid, 0) && errno == ESRCH)
			done = 1;
		if (stop)
			done = 1;
		if (drain(r)) {
			failed = 1;
			break;
		}
		if (!done)
			perf_evlist__poll(r->evlist, 100);
		progress__count(&p, r->samples, "samples");
	}
	perf_evlist__disable(r->evlist);
	if (!failed && drain(r))
		failed = 1;
	if (pid > 0) {
		/* stopped by a signal or an error: the workload goes too, as with perf record */
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
	}
	progress__done(&p);
	if (failed)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Is @output this process's standard output (-, /dev/stdout, a
 * /proc/self/fd/1 path, the file fd 1 is open on)?  Then the workload's
 * own output would land in the recording: it gets standard error instead,
 * as perf record gives a workload when it writes a pipe.
 */
static int output_is_stdout(const char *output)
{
	struct stat named, out;

	if (!strcmp(output, "-"))
		return 1;
	return !stat(output, &named) && !fstat(STDOUT_FILENO, &out) &&
	       named.st_dev == out.st_dev && named.st_ino == out.st_ino;
}

static int record(char **argv, const char *output, struct perf_event_attr *a,
		  const char *name, int pages, const struct target *t, int force)
{
	struct recorder r = { 0 };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	struct utsname uts;
	uint32_t nr_avail, nr_online;
	int go = -1, status = -1, ret = 1, fd;
	struct rvctr_output out = { .fd = -1 };	/* nothing to close before begin */
	char err[512];
	pid_t pid = 0;

	libperf_init(libperf_print);
	if (argv[0]) {
		pid = workload_start(argv, &go, output_is_stdout(output));
		if (pid < 0)
			return error("fork: %m");
	}
	if (open_events(&r, a, pid, t, pages))
		goto out;
	/*
	 * ^C, kill: stop, finish the file and keep it (the workload gets its
	 * own ^C).  Caught from before the temporary file exists: none of
	 * them leaves it behind.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/*
	 * Under a temporary name, renamed when complete (rvctr/output.h): a
	 * failed record leaves no partial file under the name, and an
	 * earlier one stays.  On success an earlier recording is kept as
	 * NAME.old, as perf record keeps it.
	 */
	if (rvctr_output__begin(&out, output, RVCTR_OUTPUT_BACKUP | RVCTR_OUTPUT_PRIVATE,
				 err, sizeof(err))) {
		error("%s", err);
		goto out;
	}
	fd = rvctr_output__fd(&out);	/* the file made, not one opened by name */
	r.w = fd >= 0 ? rvctr_writer__fdopen(fd, output, a, &name, 1, err, sizeof(err)) :
			rvctr_writer__open(rvctr_output__path(&out), a, &name, 1, err, sizeof(err));
	if (!r.w) {
		error("%s", err);
		goto out;
	}
	rvctr_writer__set_arch(r.w, uname(&uts) ? "riscv64" : uts.machine);
	rvctr_writer__local_nr_cpus(&nr_avail, &nr_online);
	rvctr_writer__set_nr_cpus(r.w, nr_avail, nr_online);
	synth_kernel(&r, a);
	if (t->pid)
		synth_process(&r, t->pid, a->mmap_data);
	else if (t->cpus)
		synth_all(&r, a->mmap_data);
	if (pid && !t->cpus)
		write_comm(&r, pid, argv[0]);
	if (t->pid || t->cpus)
		perf_evlist__enable(r.evlist);
	if (go >= 0) {
		if (write(go, "g", 1) != 1) {
			error("cannot start the workload");
			goto out;
		}
		close(go);
		go = -1;
	}
	status = wait_and_drain(&r, pid, t, force);
	pid = 0;
	add_build_ids(&r);
	if (status >= 0)
		ret = 0;
out:
	if (go >= 0) {
		close(go);	/* the child exits on EOF */
		waitpid(pid, NULL, 0);
	}
	if (r.w && rvctr_writer__close(r.w, err, sizeof(err)))
		ret = error("%s", err);
	if (!ret && rvctr_output__commit(&out, err, sizeof(err)))
		ret = error("%s", err);
	rvctr_output__abort(&out);
	if (r.evlist) {
		perf_evlist__munmap(r.evlist);
		perf_evlist__close(r.evlist);
		perf_evlist__delete(r.evlist);
	}
	while (r.nr_files)
		free(r.files[--r.nr_files]);
	if (ret)
		return ret;
	fprintf(stderr, "rvctr: %llu samples (%llu lost) written to %s", (unsigned long long)r.samples,
		(unsigned long long)r.lost, output);
	if (argv[0])
		fprintf(stderr, "; workload exit %d\n", status);
	else
		fputc('\n', stderr);
	/* the workload's status is record's, as with perf record */
	return status;
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "freq", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'c' },
		{ "branch-filter", required_argument, NULL, 'j' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *output = "perf.data";
	uint64_t period = 100000, filter = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	int opt, pages = 0, progress = 0;
	enum callgraph cg = CG_NONE;
	uint64_t stack = 0;
	enum rec_event ev = EV_CYCLES;
	struct perf_event_attr attr;
	struct target t = { 0 };
	uint64_t freq = 0;
	char *end;

	while ((opt = getopt_long(argc, argv, "+o:p:aC:F:e:c:j:m:gh", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': output = optarg; break;
		case 'p':
			t.pid = strtol(optarg, &end, 10);
			if (*end || t.pid <= 0)
				return error("-p: '%s' is not a process id", optarg);
			break;
		case 'a': t.cpus = ""; break;
		case 'C':
			if (check_cpus(optarg))
				return 1;
			t.cpus = optarg;
			break;
		case 'F':
			freq = strtoull(optarg, &end, 0);
			if (*end || !freq)
				return error("-F: '%s' is not a frequency", optarg);
			break;
		case 'e':
			for (ev = 0; ev <= EV_TASK_CLOCK && strcmp(optarg, event_names[ev]); ev++)
				;
			if (ev > EV_TASK_CLOCK)
				return error("event must be cycles, instructions or task-clock");
			break;
		case 'c': period = strtoull(optarg, NULL, 0); break;
		case 'j':
			if (parse_filter(optarg, &filter))
				return error("bad branch filter '%s'", optarg);
			break;
		case 'm':
			pages = atoi(optarg);
			if (pages <= 0)
				pages = -1;	/* refused below */
			break;
		case 'g': cg = CG_FP; break;
		case 'G':
			if (parse_callgraph(optarg, &cg, &stack))
				return 1;
			break;
		case 'P': progress = 1; break;
		case 'h': fputs(record_usage, stdout); return 0;
		default: fputs(record_usage, stderr); return 2;
		}
	}
	/*
	 * A sample with a stack copy is 8 KiB or more: 128 pages, perf
	 * record's default (perf_event_mlock_kb, 516), hold twice as many
	 * before the kernel drops one.
	 */
	if (!pages)
		pages = cg == CG_DWARF ? 128 : 64;
	if ((optind >= argc && !t.pid && !t.cpus) || (t.pid && (t.cpus || optind < argc)) ||
	    !period || pages <= 0 || (pages & (pages - 1))) {
		fputs(record_usage, stderr);
		return 2;
	}
	fill_attr(&attr, ev, period, filter);
	if (freq) {
		attr.freq = 1;
		attr.sample_freq = freq;
	}
	/* nothing to exec: enable at once (in record()) */
	if (t.pid || t.cpus)
		attr.enable_on_exec = 0;
	/* system-wide events count every task: nothing to inherit */
	if (t.cpus)
		attr.inherit = 0;
	/* system-wide: which CPU each sample came from, as perf record -a */
	if (t.cpus)
		attr.sample_type |= PERF_SAMPLE_CPU;
	if (cg == CG_FP)
		attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (cg == CG_DWARF && config_dwarf(&attr, stack))
		return 1;
	return record(argv + optind, output, &attr, event_names[ev], pages, &t, progress);
}
