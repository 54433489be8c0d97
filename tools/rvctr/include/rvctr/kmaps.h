/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's and its modules' maps for a perf.data file, as perf record
 * synthesizes them (tools/perf/util/synthetic-events.c,
 * perf_event__synthesize_kernel_mmap and perf_event__synthesize_modules,
 * with the addresses machine__create_kernel_maps finds):
 *
 *   kernel   MMAP2, misc PERF_RECORD_MISC_KERNEL, pid -1, named
 *            "[kernel.kallsyms]" + the reference symbol (_text, else
 *            _stext: perf's ref_reloc_sym), start = pgoff = its address in
 *            /proc/kallsyms, up to _edata, else _etext, else the next
 *            module above it, else the top of the address space.  perf
 *            report relocates a vmlinux (KASLR) by pgoff minus the
 *            symbol's link address.
 *   modules  MMAP2 per /proc/modules line, misc PERF_RECORD_MISC_KERNEL,
 *            pid -1, pgoff 0, the module's base and size, named by its
 *            file under /lib/modules/RELEASE (.ko, .ko.gz/.xz/.zst) where
 *            there is one, else "[name]".
 *   build ids  HEADER_BUILD_ID entries, misc PERF_RECORD_MISC_KERNEL:
 *            "[kernel.kallsyms]" from /sys/kernel/notes, each module's
 *            from /sys/module/NAME/notes/.note.gnu.build-id.
 *
 * Restricted kernel pointers (kptr_restrict: /proc/kallsyms and
 * /proc/modules show zero addresses) write no map, with a warning: a map
 * at zero would be wrong, and perf likewise writes none.
 */
#ifndef RVCTR_KMAPS_H
#define RVCTR_KMAPS_H

#include <rvctr/perf_data.h>

struct rvctr_kmaps {
	int kernel;			/* 1: the kernel's map was written */
	uint64_t kernel_start, kernel_len;
	char kernel_ref[16];		/* "_text" or "_stext" */
	unsigned int modules;		/* module maps written */
	unsigned int ko_paths;		/* of which named by their file */
	unsigned int build_ids;		/* build ids added */
	char warning[512];		/* why maps are missing, or "" */
};

/*
 * Write the kernel's and the modules' MMAP2 records (time 0) and add their
 * build ids to @w, from the files under @root: "" (or "/") for the running
 * system's /proc/kallsyms, /proc/modules, /proc/sys/kernel/osrelease,
 * /sys/kernel/notes, /sys/module and /lib/modules; a directory holding
 * copies for tests.  Names never include @root.  Missing or restricted
 * files fill @out->warning and write what they can.  Returns 0, or -1
 * when @w failed (its error comes with rvctr_writer__close).
 */
int rvctr_kmaps__synthesize(struct rvctr_writer *w, const char *root, struct rvctr_kmaps *out);

#endif /* RVCTR_KMAPS_H */
