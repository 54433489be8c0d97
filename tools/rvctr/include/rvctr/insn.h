/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The length of the instruction at a runtime address of a recording, read
 * from the binary mapped there: the process's maps and the binary's code
 * as the machine has them (rvctr/machine.h: the file found as
 * rvctr_symtab__find() finds it, the address translated as rvctr/symtab.h
 * says, a vmlinux relocated by its map's reference symbol), then the
 * section bytes there.
 *
 * RISC-V: an instruction whose two low bits are 0b11 is 32 bits long (no
 * longer encoding is a branch), any other is a 16-bit compressed one.
 * That is what tells a ctr_ntbr record that is COND to 4 bytes on apart:
 * a not-taken 32-bit branch, or a taken c.beqz/c.bnez over one 16-bit
 * instruction (rvctr/brstack.h).  Only those can have made it: a 32-bit
 * instruction must be a BRANCH (BEQ, BNE, BLT, BGE, BLTU, BGEU), a 16-bit
 * one a c.beqz/c.bnez whose offset is +4; anything else there (the wrong
 * binary or address) decides nothing.
 *
 * Only the binaries' code is read: no debug file is looked for
 * (rvctr_symfind.code_only).  A file of another build id than the
 * recorded one is not used, nor a vmlinux of another build id than the
 * recording's kernel, or one without the map's reference symbol when
 * the map gives its runtime address (it cannot be relocated).
 *
 * Each binary is found and opened once (by the machine); what is at an
 * address is cached by (binary, file offset), for one input at a time.
 */
#ifndef RVCTR_INSN_H
#define RVCTR_INSN_H

#include <stdint.h>

struct rvctr_insn;
struct rvctr_machine;

/* Lengths of the instructions of @m's processes (@m must outlive it). */
struct rvctr_insn *rvctr_insn__new(struct rvctr_machine *m);
void rvctr_insn__delete(struct rvctr_insn *x);
/* Another input starts (its kernel may have run elsewhere). */
void rvctr_insn__input(struct rvctr_insn *x);
/*
 * The length in bytes (2 or 4) of the instruction at @addr of process
 * @pid: 4, a 32-bit conditional branch; 2, a c.beqz/c.bnez to +4.  0
 * when it cannot be read or is neither, *@why then saying why (the binary
 * not found or not the recorded one, holding no code there, or what it
 * holds there; valid until the next call or @x is deleted).
 */
unsigned int rvctr_insn__length(struct rvctr_insn *x, uint32_t pid, uint64_t addr,
				const char **why);

#endif /* RVCTR_INSN_H */
