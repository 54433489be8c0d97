// SPDX-License-Identifier: GPL-2.0-only
/* rvctr record when the build found no kernel source to build libperf from. */
#include <string.h>

#include "builtin.h"

int cmd_record(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: rvctr record [options] -- COMMAND\n\n"
		     "This rvctr was built without libperf (no kernel source was found\n"
		     "when it was built), so it cannot record; convert, report and\n"
		     "topdown work.  Rebuild with KSRC=<linux source tree>.");
		return 0;
	}
	return error("record is not available: rvctr was built without libperf "
		     "(rebuild with KSRC=<linux source tree>)");
}
