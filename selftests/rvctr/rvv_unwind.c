// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload for DWARF unwinding through a frame with RVV spills
 * (perf_vlenb_perf_test.sh): main -> vmid -> hot, where hot is the hot
 * leaf and vmid keeps two LMUL=8 vector groups live across the call to
 * it.  Every vector register is caller-saved, so vmid spills them to
 * scalable stack slots and its CFA becomes sp + c + k * vlenb: clang
 * emits a DW_CFA_def_cfa_expression reading DWARF register 7202 (vlenb).
 * An unwinder without vlenb stops at vmid; one with a wrong vlenb
 * computes a wrong CFA and a wrong return address.
 * Built with clang (-march=rv64gcv -O2 -g): see the Makefile.
 */
#include <riscv_vector.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) long hot(long n)
{
	volatile long s = 0;

	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) long vmid(const long *a, long iters)
{
	size_t vl = __riscv_vsetvlmax_e64m8();
	vint64m8_t v = __riscv_vle64_v_i64m8(a, vl);
	vint64m8_t w = __riscv_vmul_vv_i64m8(v, v, vl);
	long t = hot(iters);
	vint64m1_t z = __riscv_vmv_v_x_i64m1(0, 1);

	v = __riscv_vadd_vx_i64m8(v, t, vl);
	w = __riscv_vadd_vv_i64m8(v, w, vl);
	return __riscv_vmv_x_s_i64m1_i64(__riscv_vredsum_vs_i64m8_i64m1(w, z, vl));
}

int main(int argc, char **argv)
{
	long n;

	/* "vlenb": what the vlenb CSR reads, for the test to compare */
	if (argc > 1 && !strcmp(argv[1], "vlenb")) {
		long vlenb;

		asm volatile("csrr %0, vlenb" : "=r"(vlenb));
		printf("%ld\n", vlenb);
		return 0;
	}
	n = argc > 1 ? atol(argv[1]) : 20;
	static long a[1024];
	long r = 0;

	for (int i = 0; i < 1024; i++)
		a[i] = i;
	for (long i = 0; i < n; i++)
		r += vmid(a, 1000000);
	printf("%ld\n", r);
	return 0;
}
