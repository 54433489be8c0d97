// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test helper: write a branch-stack perf.data from a text description, so
 * the integration tests can place binaries at the bases a real process
 * would have.  Lines (numbers in C syntax, 0x for hex):
 *
 *   buildid FILENAME HEX             HEADER_BUILD_ID entry
 *   comm PID NAME
 *   exec PID NAME                    the COMM of an exec (COMM_EXEC)
 *   mmap PID START LEN PGOFF FILENAME [HEX]  an executable MMAP2 (with HEX: one
 *                                    carrying that build id, as perf >= 6.17
 *                                    writes them)
 *   fork PID PPID                    FORK of a new process (or thread, PID ==
 *                                    PPID; then TID is PID + 1)
 *   exit PID                         EXIT of the process PID
 *   kmaps ROOT                       the kernel's and modules' maps as rvctr
 *                                    record writes them, from ROOT/proc etc.
 *   sample PID IP FROM/TO/TYPE/M/CYCLES ...   entries newest first (hex);
 *                                    cpumode kernel for an upper-half IP
 *                                    TYPE a PERF_BR_* number, M 1 mispredicted
 *   cpu N                            later records come from CPU N (-C)
 *   time T                           the next record's time (then +1 each)
 *   round                            a FINISHED_ROUND
 *   event N                          later samples are of event N (-n)
 *
 * usage: synth-perf [-C] [-n] OUTPUT < description
 * -C: samples carry PERF_SAMPLE_CPU, as perf record -a / rvctr record -a
 * write them.  -n: two events, the second (event 1) recorded with ctr_ntbr
 * (config2 bit 0: not-taken branches too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/kmaps.h>
#include <rvctr/perf_data.h>

static int die(unsigned int line, const char *what)
{
	fprintf(stderr, "synth-perf: line %u: %s\n", line, what);
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_event_attr a[2] = { {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 10000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY,
		.sample_id_all = 1, .mmap = 1, .mmap2 = 1, .comm = 1,
	} };
	static struct perf_branch_entry br[RVCTR_MAX_BRANCHES];
	static char line[65536];
	const char *names[2] = { "cycles", "cycles-ntbr" };
	unsigned int nr_attrs = 1, attr = 0;
	struct rvctr_writer *w;
	unsigned int n = 0;
	uint64_t time = 1;
	uint32_t cpu = 0;
	char err[256];

	if (argc >= 3 && !strcmp(argv[1], "-C")) {
		a[0].sample_type |= PERF_SAMPLE_CPU;
		argv++;
		argc--;
	}
	if (argc >= 3 && !strcmp(argv[1], "-n")) {
		a[0].sample_type |= PERF_SAMPLE_IDENTIFIER;
		a[1] = a[0];
		a[1].config2 = 1;	/* ctr_ntbr */
		nr_attrs = 2;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: synth-perf [-C] [-n] OUTPUT < description\n");
		return 2;
	}
	w = rvctr_writer__open(argv[1], a, names, nr_attrs, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "synth-perf: %s\n", err);
		return 1;
	}
	rvctr_writer__set_arch(w, "riscv64");
	while (fgets(line, sizeof(line), stdin)) {
		char *save, *tok = strtok_r(line, " \t\n", &save);

		n++;
		if (!tok || *tok == '#')
			continue;
		if (!strcmp(tok, "buildid")) {
			char *file = strtok_r(NULL, " \t\n", &save);
			char *hex = strtok_r(NULL, " \t\n", &save);
			uint8_t id[20];
			unsigned int i, len = hex ? strlen(hex) / 2 : 0;

			if (!file || !len || len > 20)
				return die(n, "buildid FILENAME HEX");
			for (i = 0; i < len; i++)
				sscanf(hex + 2 * i, "%2hhx", &id[i]);
			rvctr_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, file, id, len);
		} else if (!strcmp(tok, "comm") || !strcmp(tok, "exec")) {
			struct rvctr_comm c = { 0 };
			char *pid = strtok_r(NULL, " \t\n", &save), *comm = strtok_r(NULL, " \t\n", &save);

			if (!pid || !comm)
				return die(n, "comm PID NAME, exec PID NAME");
			if (tok[0] == 'e')
				c.misc = PERF_RECORD_MISC_COMM_EXEC;
			c.pid = c.tid = strtoul(pid, NULL, 0);
			snprintf(c.comm, sizeof(c.comm), "%s", comm);
			rvctr_writer__comm(w, &c, time++, cpu);
		} else if (!strcmp(tok, "mmap")) {
			struct rvctr_mmap m = { .prot = 5, .flags = 2 };
			char *f[5];
			int i;

			for (i = 0; i < 5; i++)
				if (!(f[i] = strtok_r(NULL, " \t\n", &save)))
					return die(n, "mmap PID START LEN PGOFF FILENAME");
			m.pid = m.tid = strtoul(f[0], NULL, 0);
			m.start = strtoull(f[1], NULL, 0);
			m.len = strtoull(f[2], NULL, 0);
			m.pgoff = strtoull(f[3], NULL, 0);
			snprintf(m.filename, sizeof(m.filename), "%s", f[4]);
			f[0] = strtok_r(NULL, " \t\n", &save);
			if (f[0]) {
				unsigned int len = strlen(f[0]) / 2;

				if (!len || len > sizeof(m.build_id))
					return die(n, "mmap ... FILENAME HEX: a build id of 1 to 20 bytes");
				for (i = 0; i < (int)len; i++)
					sscanf(f[0] + 2 * i, "%2hhx", &m.build_id[i]);
				m.build_id_size = len;
			}
			rvctr_writer__mmap2(w, &m, time++, cpu);
		} else if (!strcmp(tok, "fork") || !strcmp(tok, "exit")) {
			char *pid = strtok_r(NULL, " \t\n", &save), *ppid = strtok_r(NULL, " \t\n", &save);
			struct rvctr_task t = { 0 };
			int fork = tok[0] == 'f';

			if (!pid || (fork && !ppid))
				return die(n, "fork PID PPID, exit PID");
			t.pid = t.tid = strtoul(pid, NULL, 0);
			t.ppid = t.ptid = fork ? strtoul(ppid, NULL, 0) : 1;
			if (fork && t.pid == t.ppid)
				t.tid = t.pid + 1;
			t.time = time++;
			rvctr_writer__task(w, fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT, &t, cpu);
		} else if (!strcmp(tok, "kmaps")) {
			char *root = strtok_r(NULL, " \t\n", &save);
			struct rvctr_kmaps k;

			if (!root)
				return die(n, "kmaps ROOT");
			rvctr_kmaps__synthesize(w, root, &k);
			if (k.warning[0])
				fprintf(stderr, "synth-perf: %s\n", k.warning);
		} else if (!strcmp(tok, "sample")) {
			char *pid = strtok_r(NULL, " \t\n", &save), *ip = strtok_r(NULL, " \t\n", &save);
			struct rvctr_sample s = { .attr = attr, .period = 10000, .branches = br };

			if (!pid || !ip)
				return die(n, "sample PID IP ENTRIES...");
			s.pid = s.tid = strtoul(pid, NULL, 0);
			s.ip = strtoull(ip, NULL, 0);
			s.misc = (int64_t)s.ip < 0 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
			s.time = time++;
			s.cpu = cpu;
			while ((tok = strtok_r(NULL, " \t\n", &save))) {
				struct perf_branch_entry *b = &br[s.nr_branches];
				unsigned long long from, to;
				unsigned int type, misp, cycles;

				if (s.nr_branches == RVCTR_MAX_BRANCHES ||
				    sscanf(tok, "%llx/%llx/%u/%u/%u", &from, &to, &type, &misp, &cycles) != 5)
					return die(n, "entry FROM/TO/TYPE/M/CYCLES");
				memset(b, 0, sizeof(*b));
				b->from = from;
				b->to = to;
				b->type = type;
				b->mispred = misp;
				b->predicted = !misp;
				b->cycles = cycles;
				s.nr_branches++;
			}
			rvctr_writer__sample(w, &s);
		} else if (!strcmp(tok, "cpu") || !strcmp(tok, "time")) {
			char *v = strtok_r(NULL, " \t\n", &save);

			if (!v)
				return die(n, "cpu N, time T");
			if (*tok == 'c')
				cpu = strtoul(v, NULL, 0);
			else
				time = strtoull(v, NULL, 0);
		} else if (!strcmp(tok, "event")) {
			char *v = strtok_r(NULL, " \t\n", &save);

			if (!v || strtoul(v, NULL, 0) >= nr_attrs)
				return die(n, "event N: N an event of the file (-n: 0 or 1)");
			attr = strtoul(v, NULL, 0);
		} else if (!strcmp(tok, "round")) {
			rvctr_writer__finished_round(w);
		} else {
			return die(n, "unknown line");
		}
	}
	if (rvctr_writer__close(w, err, sizeof(err))) {
		fprintf(stderr, "synth-perf: %s\n", err);
		return 1;
	}
	return 0;
}
