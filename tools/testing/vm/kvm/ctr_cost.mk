# SPDX-License-Identifier: GPL-2.0-only
# ctr_cost.c (Documentation/kvm-ctr.rst, "Cost") built as one more KVM
# selftest: read after the kernel's tools/testing/selftests/kvm/Makefile,
# whose flags and library it uses, with the source left here.
#
#   make -C SRC/tools/testing/selftests/kvm -f Makefile -f THIS OUTPUT=OUT ... OUT/riscv/ctr_cost
CTR_COST_DIR := $(dir $(lastword $(MAKEFILE_LIST)))

$(OUTPUT)/riscv/ctr_cost.o: $(CTR_COST_DIR)ctr_cost.c $(GEN_HDRS)
	$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c $< -o $@

$(OUTPUT)/riscv/ctr_cost: $(OUTPUT)/riscv/ctr_cost.o $(LIBKVM_OBJS)
	$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $< $(LIBKVM_OBJS) $(LDLIBS) -o $@

-include $(OUTPUT)/riscv/ctr_cost.d
