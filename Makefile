# SPDX-License-Identifier: GPL-2.0-only
#
# rvctr: RISC-V CTR branch-stack profiling.  See README.md.
#
#   make          build the module (against the cached bench kernel), the
#                 tool (host and riscv64) and the guest selftests
#   make demo     boot the emulated board, record branch stacks, show them
#   make check    host unit tests + guest tests, one summary line at the end
#
# KERNEL=6.12 (default) or 7.3 picks the bench kernel.  W=1 and C=1 pass
# through to Kbuild for the module.

KERNEL ?= 6.12
CROSS_COMPILE ?= riscv64-linux-gnu-
VM := tools/testing/vm
BUILD := $(CURDIR)/build
SUMMARY := tools/testing/tap-summary
export KERNEL CROSS_COMPILE

# The kernel build directory; building it the first time takes minutes.
KDIR_CMD = $(VM)/build-kernel $(KERNEL)
KMAKE = $(MAKE) ARCH=riscv CROSS_COMPILE=$(CROSS_COMPILE) M=$(CURDIR)

.PHONY: all setup kernel rootfs module tools selftests unit guest-test guest-test-icount \
	check demo clean help

all: module tools selftests

setup:
	@$(VM)/setup

kernel: setup
	@$(KDIR_CMD)

rootfs: setup
	@$(VM)/build-rootfs

module: setup
	@kdir=$$($(KDIR_CMD)) && $(KMAKE) -C "$$kdir" modules

tools: setup
	@$(MAKE) -C tools/rvctr
	@$(MAKE) -C tools/rvctr guest

selftests: setup
	@kdir=$$($(KDIR_CMD)) && \
		$(MAKE) -C selftests/rvctr KSRC="$$kdir/../src" OUT=$(BUILD)/selftests

# Host unit tests (include/ and tools/), under ASan and UBSan.
unit: setup
	@mkdir -p $(BUILD)
	@$(MAKE) -s -C tools/rvctr check | tee $(BUILD)/unit.tap

# Guest tests on the emulated board; TAP files land in build/guest-test.
guest-test: all rootfs
	@rm -rf $(BUILD)/guest-test; mkdir -p $(BUILD)
	@$(VM)/run --kernel $(KERNEL) --out $(BUILD)/guest-test \
		selftests/rvctr/run_tests.sh; rc=$$?; \
	if [ $$rc -eq 0 ]; then echo "ok 1 - guest run completed"; \
	else echo "not ok 1 - guest run exited with status $$rc"; fi \
		>$(BUILD)/guest-test/run.tap; \
	$(MAKE) --no-print-directory guest-test-icount || rc=1; exit $$rc

# The exact-count pass: -icount shift=0, counters delegated to S-mode
# (selftests/rvctr/icount/run_tests.sh; TAP in build/guest-test/icount).
guest-test-icount: all rootfs
	@rm -rf $(BUILD)/guest-test/icount; mkdir -p $(BUILD)/guest-test
	@$(VM)/run --kernel $(KERNEL) --icount --cpu-extra smcdeleg=true,ssccfg=true \
		--out $(BUILD)/guest-test/icount selftests/rvctr/icount/run_tests.sh; \
	rc=$$?; if [ $$rc -eq 0 ]; then echo "ok 1 - icount run completed"; \
	else echo "not ok 1 - icount run exited with status $$rc"; fi \
		>$(BUILD)/guest-test/icount/run.tap; exit $$rc

check: setup
	@rm -f $(BUILD)/unit.tap; rm -rf $(BUILD)/guest-test
	@$(MAKE) --no-print-directory unit || echo "not ok - unit tests did not finish" >>$(BUILD)/unit.tap
	@$(MAKE) --no-print-directory guest-test || true
	@$(SUMMARY) $(BUILD)/unit.tap $(BUILD)/guest-test

demo: all rootfs
	@$(VM)/run --kernel $(KERNEL) --out $(BUILD)/demo tools/testing/vm/demo.sh

clean:
	@$(MAKE) -C tools/rvctr clean
	@$(MAKE) -C selftests/rvctr clean OUT=$(BUILD)/selftests
	git clean -fdXq drivers include
	rm -rf $(BUILD)

help:
	@sed -n '3,12p' Makefile
