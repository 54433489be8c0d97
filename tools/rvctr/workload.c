// SPDX-License-Identifier: GPL-2.0-only
/* The workload of record and topdown; see builtin.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

pid_t workload_start(char **argv, int *go, int stdout_to_stderr)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		/* the recording goes to standard output: the workload's may not */
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "rvctr: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	*go = fds[1];
	return pid;
}
