// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU TCG plugin: user-mode instructions and taken branches, counted
 * exactly, inside windows the guest opens and closes itself.
 *
 *   -plugin branches.so,out=FILE
 *
 * The guest opens a window by executing the hint "addi x0, x0, 0x5a1" and
 * closes it with "addi x0, x0, 0x5a2" (pbmark.c).  For every closed window
 * FILE gets "window N insns I branches B taken T": the user-mode (lower
 * half of the address space) instructions executed, the control transfer
 * instructions among them (conditional branches, jal, jalr and their
 * compressed forms), and how many of those were taken.
 *
 * How: the RISC-V translator ends a translation block at every control
 * transfer, so a block's last instruction is the only one that can be.
 * When a user block ran right after another user block, the earlier
 * block's control transfer was taken exactly when the later block does
 * not start at the address after it.  A trap in between shows up as a
 * kernel block and is not counted, nor is the transfer it interrupts (one
 * per interrupt: noise of a few per million here).
 *
 *   -plugin branches.so,out=FILE,blocks=BFILE
 *
 * also writes, for every closed window, "window N" and then one line per
 * user block that ran in it: "START LAST NINSNS EXECS TAKEN" (hex
 * addresses of its first and last instruction; TAKEN: the executions
 * whose last instruction transferred control), for per-function counts
 * (the gap script).  A block translated twice has two lines.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARK_ON 0x5a100013u	/* addi x0, x0, 0x5a1 */
#define MARK_OFF 0x5a200013u	/* addi x0, x0, 0x5a2 */
#define MAX_VCPUS 8

struct block {
	struct block *all;	/* every block, for the blocks= report */
	uint64_t execs, taken;	/* in the open window (blocks= only) */
	uint64_t start;		/* first instruction */
	uint64_t last;		/* the last instruction */
	uint64_t next;		/* the address after the last instruction */
	uint32_t ninsns;
	bool cti;		/* the last instruction is a control transfer */
	bool user;
};

struct vcpu {
	struct block *prev;
	bool on;
	uint64_t insns, branches, taken;
};

static struct vcpu vcpus[MAX_VCPUS];
static FILE *out, *bout;
static unsigned int windows;
static struct block *blocks;

/* RV64GC: is this instruction a branch or jump? (The unprivileged ISA,
 * chapters "RV32I Base Integer Instruction Set" and "C" extension.) */
static bool is_cti(const uint8_t *b, size_t len)
{
	uint32_t i;

	if (len == 2) {
		uint16_t c = b[0] | b[1] << 8;
		unsigned int op = c & 3, f3 = c >> 13;

		if (op == 1)	/* c.j 101, c.beqz 110, c.bnez 111 */
			return f3 == 5 || f3 == 6 || f3 == 7;
		/* c.jr / c.jalr: 100 x rs1!=0 rs2==0 10 */
		return op == 2 && f3 == 4 && ((c >> 7) & 31) && !((c >> 2) & 31);
	}
	if (len != 4)
		return false;
	i = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
	switch (i & 0x7f) {
	case 0x63:	/* BRANCH */
	case 0x6f:	/* JAL */
	case 0x67:	/* JALR */
		return true;
	}
	return false;
}

static void block_exec(unsigned int vcpu_index, void *udata)
{
	struct block *b = udata;
	struct vcpu *v = &vcpus[vcpu_index % MAX_VCPUS];

	if (v->on && b->user) {
		v->insns += b->ninsns;
		b->execs++;
		if (v->prev && v->prev->user && v->prev->cti) {
			v->branches++;
			if (b->start != v->prev->next) {
				v->taken++;
				v->prev->taken++;
			}
		}
	}
	v->prev = b;
}

static void mark_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index % MAX_VCPUS];

	if (udata == (void *)1) {
		v->on = true;
		v->insns = v->branches = v->taken = 0;
		v->prev = NULL;
		return;
	}
	if (!v->on)
		return;
	v->on = false;
	fprintf(out, "window %u insns %" PRIu64 " branches %" PRIu64 " taken %" PRIu64 "\n",
		++windows, v->insns, v->branches, v->taken);
	fflush(out);
	if (bout) {
		struct block *b;

		fprintf(bout, "window %u\n", windows);
		for (b = blocks; b; b = b->all) {
			if (b->execs)
				fprintf(bout, "%" PRIx64 " %" PRIx64 " %u %" PRIu64 " %" PRIu64 "\n",
					b->start, b->last, b->ninsns, b->execs, b->taken);
			b->execs = b->taken = 0;
		}
		fflush(bout);
	}
}

static void tb_trans(qemu_plugin_id_t id __attribute__((unused)), struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), k;
	struct qemu_plugin_insn *last;
	struct block *b;
	uint8_t data[4];
	size_t len;

	if (!n)
		return;
	/* blocks are never freed: QEMU keeps no per-TB plugin data */
	b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->start = qemu_plugin_tb_vaddr(tb);
	b->user = !(b->start >> 63);
	b->ninsns = n;
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	b->last = qemu_plugin_insn_vaddr(last);
	b->next = b->last + qemu_plugin_insn_size(last);
	len = qemu_plugin_insn_data(last, data, sizeof(data));
	b->cti = is_cti(data, len);
	if (bout) {
		b->all = blocks;
		blocks = b;
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec, QEMU_PLUGIN_CB_NO_REGS, b);

	for (k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		uint32_t w;

		if (qemu_plugin_insn_data(insn, data, sizeof(data)) != 4)
			continue;
		w = data[0] | data[1] << 8 | data[2] << 16 | (uint32_t)data[3] << 24;
		if (w == MARK_ON || w == MARK_OFF)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)(w == MARK_ON ? 1 : 2));
	}
}

static void at_exit(qemu_plugin_id_t id __attribute__((unused)), void *p __attribute__((unused)))
{
	fclose(out);
	if (bout)
		fclose(bout);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL, *bpath = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strncmp(argv[i], "blocks=", 7))
			bpath = argv[i] + 7;
	}
	if (!path || strcmp(info->target_name, "riscv64")) {
		fprintf(stderr, "branches: needs out=FILE and a riscv64 target\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	if (bpath) {
		bout = fopen(bpath, "w");
		if (!bout) {
			perror(bpath);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
