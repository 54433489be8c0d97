/* SPDX-License-Identifier: GPL-2.0-only */
/* The ELF header of a RISC-V image built in memory by a test. */
#ifndef RVCTR_TESTS_ELF_IMAGE_H
#define RVCTR_TESTS_ELF_IMAGE_H

#include <elf.h>
#include <stddef.h>
#include <string.h>

/* One program header at PHOFF, SHNUM section headers at SHOFF. */
static inline void elf_image_header(Elf64_Ehdr *eh, uint16_t type, size_t phoff,
				    size_t shoff, uint16_t shnum, uint16_t shstrndx)
{
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_type = type;
	eh->e_machine = EM_RISCV;
	eh->e_phoff = phoff;
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = 1;
	eh->e_shoff = shoff;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = shnum;
	eh->e_shstrndx = shstrndx;
}

#endif
