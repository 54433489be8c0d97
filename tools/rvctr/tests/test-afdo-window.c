// SPDX-License-Identifier: GPL-2.0-only
/*
 * AutoFDO counting in a window of the last N instructions (--window), on
 * a binary built in memory: its code is read through elfutils, so this is
 * not among the MemorySanitizer tests (elfutils is not instrumented).
 */
#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/autofdo.h>
#include <rvctr/symtab.h>

#include "afdo-tests.h"
#include "elf-image.h"
#include "tests.h"

/*
 * A RISC-V ET_EXEC whose one R+X PT_LOAD maps offset 0 at 0x10000, with a
 * .text at 0x11000: 16 4-byte instructions (addi x0, x0, 0), then 2-byte
 * ones (c.nop), for the window's instruction count.
 */
struct code_image {
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf64_Shdr sh[3];
	char shstrtab[16];
	uint8_t pad[0x1000 - sizeof(Elf64_Ehdr) - sizeof(Elf64_Phdr) - 3 * sizeof(Elf64_Shdr) - 16];
	uint8_t text[0x100];
};

static void code_image(struct code_image *im)
{
	static const char shstrs[16] = "\0.text\0.shstrtab";
	int i;

	memset(im, 0, sizeof(*im));
	elf_image_header(&im->eh, ET_EXEC, offsetof(struct code_image, ph),
			 offsetof(struct code_image, sh), 3, 2);
	im->ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_vaddr = 0x10000,
			       .p_offset = 0, .p_filesz = sizeof(*im), .p_memsz = sizeof(*im) };
	im->sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_PROGBITS,
				  .sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addr = 0x11000,
				  .sh_offset = offsetof(struct code_image, text),
				  .sh_size = sizeof(im->text) };
	im->sh[2] = (Elf64_Shdr){ .sh_name = 7, .sh_type = SHT_STRTAB,
				  .sh_offset = offsetof(struct code_image, shstrtab),
				  .sh_size = sizeof(im->shstrtab) };
	memcpy(im->shstrtab, shstrs, sizeof(shstrs));
	for (i = 0; i < 0x40; i += 4) {		/* addi x0, x0, 0 */
		im->text[i] = 0x13;
	}
	for (i = 0x40; i < 0x100; i += 2)	/* c.nop */
		im->text[i] = 0x01;
}

/*
 * --window: only the last N instructions before the sample point count,
 * the sample's own range [to_0, ip) first, the oldest range cut to what
 * is left, a branch only when the window reaches back over it; 4-byte and
 * 2-byte instructions told apart by their low bits.
 */
static void test_window(void)
{
	static struct code_image im;
	struct perf_branch_entry s[3];
	struct rvctr_symtab *t;
	struct rvctr_afdo *a;
	uint64_t n = 0, short_stacks = 0;
	char err[256], *got;

	code_image(&im);
	t = rvctr_symtab__parse(&im, sizeof(im), err, sizeof(err));
	T_OK(t != NULL, "the code image parses");
	if (!t)
		return;

	/* 8 instructions of 4 bytes fill a window of 8: no branch counts */
	a = rvctr_afdo__new();
	rvctr_afdo__set_symtab(a, t);
	T_EQ(rvctr_afdo__set_window(a, 8), 0, "window of 8");
	br(&s[0], 0x10f00, 0x11000);
	rvctr_afdo__add(a, 0x11020, s, 1, xlate, NULL);
	got = text_of(a);
	T_STREQ(got, "1\n1000-101c:1\n1\n1020:1\n0\n", "window 8: [to_0, ip) of 4-byte instructions");
	free(got);
	rvctr_afdo__delete(a);

	/* a loop of 9 c.nop: 2 before the ip, 9, and the last 1 of the next */
	a = rvctr_afdo__new();
	rvctr_afdo__set_symtab(a, t);
	T_EQ(rvctr_afdo__set_window(a, 12), 0, "window of 12");
	br(&s[0], 0x11090, 0x11080);
	s[2] = s[1] = s[0];
	rvctr_afdo__add(a, 0x11084, s, 3, xlate, NULL);
	got = text_of(a);
	T_STREQ(got, "3\n1080-1082:1\n1080-1090:1\n1090-1090:1\n1\n1084:1\n1\n1090->1080:2\n",
		"window 12: 2 + 9 + the last 1");
	free(got);

	/*
	 * The ip right at the last branch's target (the sample taken on the
	 * branch): nothing ran since, and the window goes on back
	 */
	rvctr_afdo__add(a, 0x11080, s, 3, xlate, NULL);
	got = text_of(a);
	T_STREQ(got, "4\n1080-1082:1\n1080-1090:2\n108c-1090:1\n1090-1090:1\n2\n1080:1\n1084:1\n"
		"1\n1090->1080:4\n", "a sample at a branch target counts the 12 before it");
	/* a stack of one loop body, 9 of 12: short */
	rvctr_afdo__add(a, 0x11080, s, 1, xlate, NULL);
	rvctr_afdo__window_stats(a, &n, &short_stacks);
	T_EQ(n, 3, "three samples");
	T_EQ(short_stacks, 1, "one stack reaches back less than the window");
	free(got);
	rvctr_afdo__delete(a);
	a = rvctr_afdo__new();
	T_EQ(rvctr_afdo__set_window(a, RVCTR_AFDO_MAX_WINDOW + 1), -1, "a window too long is refused");
	rvctr_afdo__delete(a);
	rvctr_symtab__delete(t);
}

int main(void)
{
	test_window();
	return tests_done();
}
