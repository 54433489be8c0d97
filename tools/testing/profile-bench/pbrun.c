// SPDX-License-Identifier: GPL-2.0-only
/*
 * pbrun COMMAND [ARGS...]: run COMMAND inside a counting window of the
 * branches.so QEMU plugin.  The window opens before the fork and closes
 * after the child is reaped, so it holds the child's whole user-mode run
 * (what perf stat -e instructions:u counts, from exec on) plus the few
 * user instructions of pbrun between them.  The exit status is the
 * child's.  Without the plugin the marks are hints, which a RISC-V hart
 * executes as no-ops.  With PBRUN_LOG=FILE, each run appends a line to
 * FILE, so the caller can tell which windows are whose.
 *
 * pbrun --loop N: a window holding only a loop of N iterations of two
 * instructions (addi, bnez), the plugin's known answer: N branches, N - 1
 * of them taken, 2N instructions (give or take the few of the blocks the
 * marks sit in).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *log = getenv("PBRUN_LOG");
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: pbrun COMMAND [ARGS...] | pbrun --loop N\n");
		return 2;
	}
	if (!strcmp(argv[1], "--loop")) {
		unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : 0;

		if (!n) {
			fprintf(stderr, "pbrun --loop: N must be a positive number\n");
			return 2;
		}
		__asm__ volatile("addi x0, x0, 0x5a1\n"
				 "1:\taddi %0, %0, -1\n"
				 "\tbnez %0, 1b\n"
				 "\taddi x0, x0, 0x5a2"
				 : "+r"(n) : : "memory");
		return 0;
	}
	__asm__ volatile("addi x0, x0, 0x5a1" ::: "memory");	/* open */
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		__asm__ volatile("addi x0, x0, 0x5a2" ::: "memory");
		perror("pbrun");
		return 2;
	}
	__asm__ volatile("addi x0, x0, 0x5a2" ::: "memory");	/* close */
	if (log) {
		f = fopen(log, "a");
		if (!f || fputs("window\n", f) < 0 || fclose(f)) {
			perror(log);
			return 2;
		}
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
