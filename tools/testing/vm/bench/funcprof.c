// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU TCG plugin: the instructions each vCPU executes, per translation
 * block start address, inside windows the guest opens and closes itself.
 *
 *   -plugin funcprof.so,out=FILE
 *
 * The guest opens the window with the hint "addi x0, x0, 0x5a1" and
 * closes it with "addi x0, x0, 0x5a2" (workload.c built with
 * -DBENCH_MARKS).  While it is open every vCPU is counted: under -icount
 * the guest's clock, and so the bench's figure, counts them all.  At exit
 * FILE gets "PC INSNS VCPU" lines, PC a block's first instruction, INSNS
 * the instructions its executions retired (a block is counted whole; a
 * trap in its middle is rare enough to ignore here).  ./funcprof maps
 * PCs to the guest's /proc/kallsyms.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARK_OPEN 0x5a100013u	/* addi x0, x0, 0x5a1 */
#define MARK_CLOSE 0x5a200013u	/* addi x0, x0, 0x5a2 */
#define MAX_VCPUS 8

/* One per block start address, shared by every translation of it. */
struct counts {
	uint64_t pc;
	uint64_t insns[MAX_VCPUS];
};

/* One per translation: its length can differ from another's. */
struct block {
	struct counts *c;
	uint32_t ninsns;
};

static GHashTable *blocks;
static GMutex lock;
static bool open_window;
static char *out_path;

static void block_exec(unsigned int vcpu, void *p)
{
	struct block *b = p;

	if (open_window && vcpu < MAX_VCPUS)
		b->c->insns[vcpu] += b->ninsns;
}

static void mark_exec(unsigned int vcpu, void *p)
{
	(void)vcpu;
	open_window = p != NULL;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), k;
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	struct counts *c;
	struct block *b;

	(void)id;
	g_mutex_lock(&lock);
	c = g_hash_table_lookup(blocks, &pc);
	if (!c) {
		c = g_new0(struct counts, 1);
		c->pc = pc;
		g_hash_table_insert(blocks, &c->pc, c);
	}
	g_mutex_unlock(&lock);
	b = g_new0(struct block, 1);
	b->c = c;
	b->ninsns = n;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec,
					     QEMU_PLUGIN_CB_NO_REGS, b);
	for (k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		uint8_t d[4];
		uint32_t w;

		if (qemu_plugin_insn_data(insn, d, sizeof(d)) != 4)
			continue;
		w = d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24;
		if (w == MARK_OPEN || w == MARK_CLOSE)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
				QEMU_PLUGIN_CB_NO_REGS,
				w == MARK_OPEN ? (void *)1 : NULL);
	}
}

static void dump(gpointer key, gpointer value, gpointer file)
{
	struct counts *c = value;
	int i;

	(void)key;
	for (i = 0; i < MAX_VCPUS; i++)
		if (c->insns[i])
			fprintf(file, "%" PRIx64 " %" PRIu64 " %d\n", c->pc,
				c->insns[i], i);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out_path, "w");

	(void)id;
	(void)p;
	if (!f) {
		perror(out_path);
		return;
	}
	g_hash_table_foreach(blocks, dump, f);
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = g_strdup(argv[i] + 4);
	if (!out_path) {
		fprintf(stderr, "funcprof: out=FILE is required\n");
		return -1;
	}
	blocks = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
