// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost of the KVM CTR switch (Documentation/kvm-ctr.rst, "Cost"): the
 * time of one exit to the VMM and back (a put and a load) for a vcpu
 * that never touched CTR, one that owns it with MODE's entries valid and
 * recording off, and one recording with a full buffer.  Built as a KVM
 * selftest (copy into tools/testing/selftests/kvm/riscv/); on an
 * -icount board one nanosecond is one instruction of the L1 host.
 *
 *   ctr_cost MODE DEPTH N    MODE: idle | owned | recording
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kvm_util.h"
#include "processor.h"
#include "ucall_common.h"

#define CSR_SCTRCTL		0x14e
#define CSR_SCTRSTATUS		0x14f

asm(".pushsection .text\n"
	".option push\n"
	".option norvc\n"
	"cost_leaf:\n"
	"	jr	t0\n"
	".option pop\n"
	".popsection\n");

static void guest_code(unsigned long mode, unsigned long n)
{
	unsigned long i;

	if (mode) {
		asm volatile(".word 0x10400073" ::: "memory");	/* SCTRCLR */
		csr_write(CSR_SCTRSTATUS, 0);
		csr_write(CSR_SCTRCTL, 2);
		for (i = 0; i < n; i++)
			asm volatile("jal t0, cost_leaf" ::: "t0", "memory");
		if (mode == 1)
			csr_write(CSR_SCTRCTL, 0);
	}
	for (;;)
		GUEST_SYNC(0);
}

static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char *argv[])
{
	unsigned long mode, depth, n, i;
	unsigned long long t0;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	struct ucall uc;

	TEST_ASSERT(argc == 4, "usage: ctr_cost idle|owned|recording DEPTH N");
	mode = !strcmp(argv[1], "owned") ? 1 : !strcmp(argv[1], "recording") ? 2 : 0;
	depth = strtoul(argv[2], NULL, 0);
	n = strtoul(argv[3], NULL, 0);
	vm = vm_create_with_one_vcpu(&vcpu, guest_code);
	vcpu_set_reg(vcpu, __kvm_reg_id(KVM_REG_RISCV_CSR, KVM_REG_RISCV_CSR_SSCTR,
					KVM_REG_RISCV_CSR_SSCTR_REG(sctrdepth),
					KVM_REG_SIZE_ULONG), depth);
	/* half the depth in calls and returns: depth valid entries */
	vcpu_args_set(vcpu, 2, mode, 8UL << depth);
	for (i = 0; i < 10; i++) {
		vcpu_run(vcpu);
		TEST_ASSERT_EQ(get_ucall(vcpu, &uc), UCALL_SYNC);
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		vcpu_run(vcpu);
		TEST_ASSERT_EQ(get_ucall(vcpu, &uc), UCALL_SYNC);
	}
	printf("ctr_cost %s depth %lu: %llu ns per exit and entry (%lu)\n", argv[1],
	       16UL << depth, (now() - t0) / n, n);
	kvm_vm_free(vm);
	return 0;
}
