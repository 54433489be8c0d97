// SPDX-License-Identifier: GPL-2.0-only
/*
 * The board is what the bench claims: every hart's device tree node lists
 * the extensions rvctr is built on.  A real board without them fails here
 * on purpose; the driver tests SKIP in that case instead.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#define CPUS "/proc/device-tree/cpus"

/* Does the cpu node's NUL-separated riscv,isa-extensions list hold @ext? */
static int node_has_ext(const char *node, const char *ext)
{
	char path[512], buf[4096];
	size_t n, off;
	FILE *f;

	snprintf(path, sizeof(path), CPUS "/%s/riscv,isa-extensions", node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	for (off = 0; off < n; off += strlen(buf + off) + 1)
		if (!strcmp(buf + off, ext))
			return 1;
	return 0;
}

/* Check @ext on every cpu node; returns the number of cpu nodes seen. */
static int all_harts_have(struct __test_metadata *_metadata, const char *ext)
{
	struct dirent *d;
	DIR *dir = opendir(CPUS);
	int harts = 0;

	ASSERT_NE(NULL, dir);
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "cpu@", 4))
			continue;
		harts++;
		EXPECT_EQ(1, node_has_ext(d->d_name, ext)) {
			TH_LOG("%s lacks %s", d->d_name, ext);
		}
	}
	closedir(dir);
	return harts;
}

TEST(dt_lists_sscofpmf) { ASSERT_LT(0, all_harts_have(_metadata, "sscofpmf")); }
TEST(dt_lists_smcsrind) { ASSERT_LT(0, all_harts_have(_metadata, "smcsrind")); }
TEST(dt_lists_sscsrind) { ASSERT_LT(0, all_harts_have(_metadata, "sscsrind")); }
TEST(dt_lists_smctr) { ASSERT_LT(0, all_harts_have(_metadata, "smctr")); }
TEST(dt_lists_ssctr) { ASSERT_LT(0, all_harts_have(_metadata, "ssctr")); }

TEST_HARNESS_MAIN
