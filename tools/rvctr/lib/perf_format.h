/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * On-disk layout of perf.data shared by the reader and the writer
 * (tools/perf/Documentation/perf.data-file-format.txt).  Private header.
 */
#ifndef RVCTR_PERF_FORMAT_H
#define RVCTR_PERF_FORMAT_H

#include <stdint.h>

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define PERF_FEAT_BITS		256
#define PERF_NAME_ALIGN		64
#define PERF_ALIGN(x, a)	(((x) + (a) - 1) & ~((uint64_t)(a) - 1))

struct perf_section {
	uint64_t offset;
	uint64_t size;
};

struct perf_file_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct perf_section attrs;
	struct perf_section data;
	struct perf_section event_types;
	uint64_t features[PERF_FEAT_BITS / 64];
};

/* The build-id record inside HEADER_BUILD_ID; the filename follows. */
struct perf_build_id_rec {
	struct perf_event_header header;
	int32_t pid;
	uint8_t data[20];
	uint8_t size;
	uint8_t reserved[3];
};

#define PERF_MISC_BUILD_ID_SIZE	(1 << 15)

/* perf's own record types (tools/lib/perf/include/perf/event.h) */
#define PERF_RECORD_COMPRESSED_V1	81
#define PERF_RECORD_COMPRESSED_V2	83

#endif /* RVCTR_PERF_FORMAT_H */
