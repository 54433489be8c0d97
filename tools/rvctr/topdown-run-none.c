// SPDX-License-Identifier: GPL-2.0-only
/* rvctr topdown -- COMMAND when built without libperf. */
#include <rvctr/topdown.h>
#include "builtin.h"

int topdown_run(char **argv, struct rvctr_topdown *td, unsigned int level)
{
	(void)argv;
	(void)td;
	(void)level;
	return error("counting a command needs libperf, and this rvctr was built without it; "
		     "give counts from perf stat -x, instead");
}
