// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr: /sys/kernel/debug/rvctr/ctr, a read-only raw snapshot of the CTR
 * of the CPU that reads it (Documentation/ctr.rst, "Raw snapshot"), for
 * the selftests and the tool's converter.  Module only: the upstream
 * series has no such file.
 *
 * The entries show where the CPU branched, kernel addresses included:
 * the file is root's alone (0400), and refused when the kernel is locked
 * down, as perf refuses what would show kernel internals
 * (LOCKDOWN_PERF).
 */
#define pr_fmt(fmt) "rvctr: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <asm/csr.h>

#include "../riscv_ctr_rec.h"
#include "rvctr.h"

struct rvctr_raw_snapshot {
	u64 sctrstatus, sctrctl;
	unsigned int depth;
	struct riscv_ctr_raw e[RISCV_CTR_DEPTH_MAX];
};

/*
 * Freeze first, so that reading does not record the reader's own
 * branches, and put FROZEN back as it was.  Interrupts are off: siselect
 * is shared with the sample path and counter delegation.
 */
static void rvctr_raw_read(struct rvctr_raw_snapshot *s)
{
	unsigned long flags;
	unsigned int i;
	bool was_frozen;

	local_irq_save(flags);
	was_frozen = csr_read_set(CSR_SCTRSTATUS, SCTRSTATUS_FROZEN) &
		     SCTRSTATUS_FROZEN;
	s->sctrstatus = csr_read(CSR_SCTRSTATUS) & ~SCTRSTATUS_FROZEN;
	if (was_frozen)
		s->sctrstatus |= SCTRSTATUS_FROZEN;
	s->sctrctl = csr_read(CSR_SCTRCTL);
	s->depth = riscv_ctr_depth_decode(csr_read(CSR_SCTRDEPTH));
	for (i = 0; i < s->depth; i++) {
		csr_write(CSR_SISELECT, CTR_ENTRIES_FIRST + i);
		s->e[i].source = csr_read(CSR_SIREG);
		s->e[i].target = csr_read(CSR_SIREG2);
		s->e[i].data = csr_read(CSR_SIREG3);
	}
	if (!was_frozen)
		csr_clear(CSR_SCTRSTATUS, SCTRSTATUS_FROZEN);
	local_irq_restore(flags);
}

static int rvctr_raw_show(struct seq_file *m, void *unused)
{
	struct rvctr_raw_snapshot *s;
	unsigned int i;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	rvctr_raw_read(s);
	seq_printf(m, "sctrstatus 0x%llx depth %u sctrctl 0x%llx\n",
		   s->sctrstatus, s->depth, s->sctrctl);
	for (i = 0; i < s->depth; i++)
		seq_printf(m, "%u 0x%llx 0x%llx 0x%llx\n", i, s->e[i].source,
			   s->e[i].target, s->e[i].data);
	kfree(s);
	return 0;
}

static int rvctr_raw_open(struct inode *inode, struct file *file)
{
	int ret = security_locked_down(LOCKDOWN_PERF);

	if (ret)
		return ret;
	return single_open(file, rvctr_raw_show, inode->i_private);
}

static const struct file_operations rvctr_raw_fops = {
	.owner = THIS_MODULE,
	.open = rvctr_raw_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

void rvctr_debugfs_init(struct rvctr_pmu *rp)
{
	rp->debugfs = debugfs_create_dir("rvctr", NULL);
	debugfs_create_file("ctr", 0400, rp->debugfs, NULL, &rvctr_raw_fops);
}

void rvctr_debugfs_exit(struct rvctr_pmu *rp)
{
	debugfs_remove_recursive(rp->debugfs);
	rp->debugfs = NULL;
}
