// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the counter-value parser of rvctr topdown and the metrics. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/topdown.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rvctr_topdown td;
	char *text = malloc(size + 1), *line, *save;
	FILE *null = fopen("/dev/null", "w");

	if (!text || !null) {
		free(text);
		if (null)
			fclose(null);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = 0;
	rvctr_topdown__init(&td, size ? data[0] % 9 : 6);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		rvctr_topdown__parse_line(&td, line);
	rvctr_topdown__print(&td, null, 3);
	fclose(null);
	free(text);
	return 0;
}
