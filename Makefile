# SPDX-License-Identifier: GPL-2.0-only
#
# rvctr: RISC-V CTR branch-stack profiling.  See README.md.
#
#   make          build the module (against the cached bench kernel), the
#                 tool (host and riscv64) and the guest selftests
#   make demo     boot the emulated board, record branch stacks, show them
#   make check    host unit tests + guest tests (and a smoke test of the
#                 other kernel), one summary line at the end
#   make bench    benchmarks on the board (instructions, under -icount)
#   make bench-kvm  what guest CTR use adds to a KVM vcpu switch (the
#                 kvm-riscv series' board, under -icount)
#   make compare  counts and samples against the stock riscv_pmu_sbi kernel
#   make stress   trinity fuzzing, reload and hotplug loops, tool fuzzers
#   make profile-bench  CTR profiles of real programs (bzip2, zlib, lua5.4)
#                 through AutoFDO, llvm-profgen and BOLT, against instrumentation
#   make series   the upstream patch series for Linux 7.3 in build/series
#   make parity   perf's whole test suite, the perf_events and BPF branch
#                 selftests: stock riscv_pmu_sbi kernel against rvctr
#
#   make guest-test-vlen512-73  the vector tests (vlenb, DWARF unwinding
#                 through RVV frames) on Linux 7.3 at VLEN 512
#
# KERNEL=6.12 (default) or 7.3 picks the bench kernel.  W=1 and C=1 pass
# through to Kbuild for the module.

KERNEL ?= 6.12
CROSS_COMPILE ?= riscv64-linux-gnu-
VM := tools/testing/vm
NPROC := $(shell nproc)
BUILD := $(CURDIR)/build
SUMMARY := tools/testing/tap-summary
export KERNEL

# The kernel build directory; building it the first time takes minutes.
KDIR_CMD = $(VM)/build-kernel $(KERNEL)
# C=1 runs sparse through a wrapper for bookworm's sparse 0.6.4 (see the script).
KMAKE = $(MAKE) ARCH=riscv CROSS_COMPILE=$(CROSS_COMPILE) M=$(CURDIR) \
	CHECK=$(CURDIR)/tools/testing/sparse-riscv

.PHONY: all setup kernel rootfs module tools selftests unit guest-test \
	guest-test-icount guest-test-acpi guest-test-other other-module \
	guest-test-sample run-guest-main run-guest-sample run-guest-icount \
	run-guest-icount1 run-guest-icount2 run-guest-acpi run-guest-other check \
	guest-test-profiles run-guest-profiles run-guest-nosscofpmf \
	run-guest-noctr run-guest-nodeleg run-guest-smp4 run-guest-smstateen \
	run-guest-smstateen-ctr guest-test-vector run-guest-vector run-guest-vlen128 \
	run-guest-vlen512 guest-test-vlen512-73 run-guest-vlen512-73 \
	check-slow demo bench bench-kvm compare stress profile-bench profile-check \
	profile-check-build run-profile-check profgen-patched clean help \
	series series-check series-kernel series-steps run-guest-series series-kunit \
	series-sparse series-steps-quick \
	run-guest-series-smp2 run-guest-series-smp4 run-guest-series-smstateen \
	series-kvm-kernel run-guest-series-kvm run-guest-kvm-linux run-guest-kvm-linux-full \
	perf peer-selftests parity libdw

all: module tools selftests

setup:
	@$(VM)/setup

# The build steps print no paths: make's output stays that of the builds.
kernel: setup
	@$(KDIR_CMD) >/dev/null

rootfs: setup
	@$(VM)/build-rootfs >/dev/null

module: setup
	@kdir=$$($(KDIR_CMD)) && $(KMAKE) --no-print-directory -C "$$kdir" modules

tools: setup kernel
	@$(MAKE) --no-print-directory -C tools/rvctr
	@$(MAKE) --no-print-directory -C tools/rvctr guest

selftests: setup
	@kdir=$$($(KDIR_CMD)) && \
		$(MAKE) --no-print-directory -C selftests/rvctr CROSS_COMPILE=$(CROSS_COMPILE) KSRC="$$kdir/../src" OUT=$(BUILD)/selftests

# perf built from the bench kernel's source for the board (with symbols,
# its shell tests and workloads; tools/testing/vm/build-perf, cached):
# the runner shares build/guest/perf at /opt/rvctr/perf.  The kernel's
# perf_events selftests are built against the same sysroot.
perf: setup
	@d=$$($(VM)/build-perf $(KERNEL)) && mkdir -p $(BUILD)/guest && \
		ln -sfn "$$d" $(BUILD)/guest/perf

# libdw.so.1 from Debian's elfutils with kernel/elfutils/*.patch (DWARF
# unwinding through RISC-V frames whose CFA reads vlenb), cross-built
# for the board (tools/testing/vm/build-libdw, cached) into
# build/selftests/libdw, where perf_vlenb_perf_test finds it.
libdw: perf
	@d=$$($(VM)/build-libdw) && mkdir -p $(BUILD)/selftests/libdw && \
		cp "$$d/libdw.so.1" $(BUILD)/selftests/libdw/

peer-selftests: perf
	@$(VM)/build-peer-selftests $(KERNEL) >/dev/null

# Host unit tests (include/ and tools/), under ASan and UBSan.
# make check fuzzes each target for UNIT_FUZZ_TIME seconds; make stress
# for longer.
UNIT_FUZZ_TIME ?= 3
unit: setup
	@mkdir -p $(BUILD)
	@$(MAKE) -s -C tools/rvctr check FUZZ_TIME=$(UNIT_FUZZ_TIME) | tee $(BUILD)/unit.tap

# Guest tests on the emulated board; TAP files land in build/guest-test.
# Counters are delegated (Smcdeleg/Ssccfg), as the driver prefers; the
# SBI-call path is tested in the other kernel's pass below.  The run-*
# targets only run (make check builds everything first, then runs them
# side by side); the guest-test* targets build, then run.
#
# Without -icount QEMU derives instret and cycle from host time, and
# interrupts land where TCG spends host time (translating start-up code,
# say), so how many samples a run gets, and where, depends on the host's
# speed and load.  Every test that counts or places samples therefore
# runs on an -icount board, where counters and overflows follow retired
# instructions.  Those boards have one hart: on two, QEMU 10.0.2's
# -icount round-robin can starve the second hart for good when a
# mode-filtered sampling counter sits at all-ones (Documentation/bench.rst).
#   SAMPLE_TESTS  branch stacks and sampling, on an -icount board (with
#                 perf's own test_brstack.sh and mmap tests, run by the
#                 perf built from the kernel source: perf_src_test)
#   ICOUNT_TESTS  exact counts and periods, on an -icount board (RVCTR_ICOUNT=1)
#   MAIN_TESTS    two harts without -icount: what holds for any host
#                 speed (probe, module life cycle, hotplug, counts > 0,
#                 perf's counting tests, unload right after call-stack
#                 events close, which needs a second hart)
#   PROFILE_TESTS on boards that lack something rvctr uses (below)
# pmu_hotplug_test also runs on a two-hart -icount board of its own, where
# it samples (all modes, which keeps it clear of the starvation).
# tools/testing/check-passes fails make check if a test is in no pass.
SAMPLE_TESTS := ctr_brstack_test ctr_callstack_test ctr_isolation_test \
	ctr_syswide_test ctr_bpf_test ctr_spurious_test brstack_perf_test \
	tool_record_test perf_src_test ctr_isolation_raw_test ctr_bpf_rmmod_test
ICOUNT_TESTS := pmu_count_test pmu_period_test pmu_exclude_test \
	pmu_multiplex_test pmu_freq_test pmu_throttle_test pmu_user_access_test \
	pmu_user_isolation_test \
	pmu_perf_mmap_test
MAIN_TESTS := board_test module_test pmu_module_test pmu_hotplug_test \
	pmu_perf_test ctr_unload_test ctr_hotplug_test ctr_migration_test \
	ctr_syswide_test
PROFILE_TESTS := profile_test
# VECTOR_TESTS  vlenb in perf samples, raw (perf_vlenb_test) and through
#               perf with DWARF unwinding through RVV spills
#               (perf_vlenb_perf_test), and the same unwinding of
#               rvctr record --call-graph dwarf and its convert -f perf
#               (tool_dwarf_test), on boards with RVV (QEMU v=true)
#               of two vector lengths, -icount, one hart.  All also run
#               in the main pass, whose board has no V, where the
#               register must be refused (and record goes without it)
VECTOR_TESTS := perf_vlenb_test perf_vlenb_perf_test tool_dwarf_test
# make check runs tool_dwarf_test at VLEN 512 and, without V, on the
# no-delegation board (-icount: off it, how many samples it unwinds
# follows the host's speed, 72 to 212 were seen), not at 128 too: the
# vector boards of their own run it on both.
VECTOR_CHECK_TESTS := $(filter-out tool_dwarf_test,$(VECTOR_TESTS))
MAIN_TESTS += perf_vlenb_test perf_vlenb_perf_test
export SAMPLE_TESTS ICOUNT_TESTS MAIN_TESTS PROFILE_TESTS VECTOR_TESTS

guest-test: all rootfs perf
	@rm -rf $(BUILD)/guest-test
	@rc=0; for t in run-guest-sample run-guest-main run-guest-icount; do \
		$(MAKE) --no-print-directory $$t || rc=1; done; exit $$rc

# RUN_PASS,NAME,TITLE,RUNNER ARGS: one board, its status as a TAP line in
# build/guest-test/NAME/run.tap.
define RUN_PASS
	@rm -rf $(BUILD)/guest-test/$(1); mkdir -p $(BUILD)/guest-test/$(1)
	@t0=$$(date +%s); \
	$(3) --out $(BUILD)/guest-test/$(1) $(4); rc=$$?; \
	echo "# pass $(1): $$(($$(date +%s) - t0)) s, status $$rc"; \
	if [ $$rc -eq 0 ]; then echo "ok 1 - $(2) completed"; \
	else echo "not ok 1 - $(2) exited with status $$rc"; fi \
		>$(BUILD)/guest-test/$(1)/run.tap; exit $$rc
endef

MAIN_RUN = $(VM)/run --kernel $(KERNEL) --cpu-extra smcdeleg=true,ssccfg=true
ICOUNT_RUN = $(VM)/run --kernel $(KERNEL) --icount --cpu-extra smcdeleg=true,ssccfg=true

run-guest-main:
	$(call RUN_PASS,main,guest run,$(MAIN_RUN),selftests/rvctr/run_tests.sh $(MAIN_TESTS))

# The sampling pass: TAP in build/guest-test/sample.
guest-test-sample: all rootfs perf
	@$(MAKE) --no-print-directory run-guest-sample

run-guest-sample:
	$(call RUN_PASS,sample,sampling run,$(ICOUNT_RUN) --smp 1,selftests/rvctr/icount/run_tests.sh $(SAMPLE_TESTS))

# The exact-count pass (selftests/rvctr/icount/run_tests.sh; TAP in
# build/guest-test/icount and, for the hotplug test, icount-smp2).
guest-test-icount: all rootfs
	@$(MAKE) --no-print-directory run-guest-icount

run-guest-icount:
	@$(MAKE) --no-print-directory run-guest-icount1; rc=$$?; \
	$(MAKE) --no-print-directory run-guest-icount2 || rc=1; exit $$rc

# Its board has RVV at VLEN 512 and runs VECTOR_TESTS too (the vector
# boards below, without a boot of their own): counts of user code do not
# depend on V.
run-guest-icount1:
	$(call RUN_PASS,icount,icount run,$(VECTOR_RUN)512,selftests/rvctr/icount/run_tests.sh $(ICOUNT_TESTS) $(VECTOR_TESTS))

run-guest-icount2:
	$(call RUN_PASS,icount-smp2,two-hart icount run,$(ICOUNT_RUN) --smp 2,selftests/rvctr/icount/run_tests.sh pmu_hotplug_test)

# The ACPI pass: the board boots through EDK II with ACPI tables and no
# device tree; the driver must find the extensions in the RHCT
# (selftests/rvctr/acpi/run_tests.sh; TAP in build/guest-test/acpi).  It
# samples, so its board runs under -icount with one hart.
guest-test-acpi: all rootfs
	@$(MAKE) --no-print-directory run-guest-acpi

run-guest-acpi:
	$(call RUN_PASS,acpi,ACPI run,RVCTR_VM_ACPI=1 $(ICOUNT_RUN) --smp 1,selftests/rvctr/acpi/run_tests.sh)

# Board profiles: boards without some of what rvctr uses, one short pass
# each running PROFILE_TESTS, which read the profile from the board and
# assert what the driver must do there (TAP in build/guest-test/NAME).
# --cpu-extra is appended to the runner's -cpu, and QEMU takes the last
# value of a property, so "smctr=false" turns the bench's smctr=true off.
#   nosscofpmf  no Sscofpmf: no overflow interrupt, counting only.  It
#               samples nothing, so no -icount.
#   noctr       Sscofpmf and delegated counters without Smctr/Ssctr:
#               samples but no branch stacks (-icount, one hart).  It
#               has RVV at VLEN 128 and runs VECTOR_CHECK_TESTS too (the
#               vector boards below, without a boot of their own).
#   nodeleg     no Smcdeleg/Ssccfg: counters and overflows through SBI
#               calls (-icount, one hart: it counts samples).
#   smp4        four harts, delegated, without -icount: every hart counts,
#               perf stat -a goes on across CPU hotplug; system-wide
#               branch stacks stay with their tasks across hotplug
#               (ctr_syswide_test).
#   smstateen   Smstateen on, with the host's OpenSBI (1.5.1), which does
#               not set mstateen0.CTR: the first S-mode CTR access traps,
#               the probe must say so and refuse branch stacks, the
#               counters must work (-icount, one hart).
#   smstateen-ctr  the same with Debian sid's OpenSBI 1.9
#               (tools/testing/vm/opensbi-1.9.pin), which sets it: branch
#               stacks work.
NOSSCOFPMF_RUN = $(VM)/run --kernel $(KERNEL) --smp 1 --cpu-extra sscofpmf=false
NOCTR_RUN = $(VM)/run --kernel $(KERNEL) --icount --smp 1 \
	--cpu-extra smcdeleg=true,ssccfg=true,smctr=false,ssctr=false,v=true,vlen=128
NODELEG_RUN = $(VM)/run --kernel $(KERNEL) --icount --smp 1
SMSTATEEN_RUN = $(VM)/run --kernel $(KERNEL) --icount --smp 1 \
	--cpu-extra smcdeleg=true,ssccfg=true,smstateen=true

# make check runs the Smstateen boards after these, in the same lane.
guest-test-profiles: all rootfs
	@rc=0; for t in run-guest-profiles run-guest-smstateen run-guest-smstateen-ctr; do \
		$(MAKE) --no-print-directory $$t || rc=1; done; exit $$rc

run-guest-profiles:
	@rc=0; for t in run-guest-nosscofpmf run-guest-noctr run-guest-nodeleg \
		run-guest-smp4; do \
		$(MAKE) --no-print-directory $$t || rc=1; done; exit $$rc

run-guest-nosscofpmf:
	$(call RUN_PASS,nosscofpmf,no-Sscofpmf board run,$(NOSSCOFPMF_RUN),selftests/rvctr/run_tests.sh $(PROFILE_TESTS))

run-guest-noctr:
	$(call RUN_PASS,noctr,no-CTR board run,$(NOCTR_RUN),selftests/rvctr/icount/run_tests.sh $(PROFILE_TESTS) $(VECTOR_CHECK_TESTS))

run-guest-nodeleg:
	$(call RUN_PASS,nodeleg,no-delegation board run,$(NODELEG_RUN),selftests/rvctr/icount/run_tests.sh $(PROFILE_TESTS) tool_dwarf_test)

run-guest-smp4:
	$(call RUN_PASS,smp4,four-hart board run,$(MAIN_RUN) --smp 4,selftests/rvctr/run_tests.sh $(PROFILE_TESTS) ctr_syswide_test)

run-guest-smstateen:
	$(call RUN_PASS,smstateen,Smstateen board run (OpenSBI 1.5.1),$(SMSTATEEN_RUN),selftests/rvctr/icount/run_tests.sh $(PROFILE_TESTS))

run-guest-smstateen-ctr:
	$(call RUN_PASS,smstateen-ctr,Smstateen board run (OpenSBI 1.9),RVCTR_VM_OPENSBI=1.9 $(SMSTATEEN_RUN),selftests/rvctr/icount/run_tests.sh $(PROFILE_TESTS))

# The vector boards: RVV with VLEN 128 and 512 bits (vlenb 16 and 64), so
# that a test which passes with a wrong vlenb on one fails on the other.
# make check runs VECTOR_TESTS on the no-CTR board (VLEN 128) and the
# exact-count board (VLEN 512) instead, saving two boots; these targets
# run them alone.  The main pass's board has no V (QEMU's rv64 leaves it
# off), where the register must be refused.
VECTOR_RUN = $(VM)/run --kernel $(KERNEL) --icount --smp 1 \
	--cpu-extra smcdeleg=true,ssccfg=true,v=true,vlen=
guest-test-vector: all rootfs perf libdw
	@$(MAKE) --no-print-directory run-guest-vector

run-guest-vector:
	@rc=0; for t in run-guest-vlen128 run-guest-vlen512; do \
		$(MAKE) --no-print-directory $$t || rc=1; done; exit $$rc

run-guest-vlen128:
	$(call RUN_PASS,vlen128,VLEN 128 board run,$(VECTOR_RUN)128,selftests/rvctr/icount/run_tests.sh $(VECTOR_TESTS))

run-guest-vlen512:
	$(call RUN_PASS,vlen512,VLEN 512 board run,$(VECTOR_RUN)512,selftests/rvctr/icount/run_tests.sh $(VECTOR_TESTS))

# The same on Linux 7.3 (the module other-module builds, unless KERNEL
# is 7.3): vlenb through 7.3's perf_regs with the same perf and libdw.
# Not part of make check, whose vector boards boot 6.12.  With 7.3's own
# perf and the perf series' vlenb patch (kernel/perf-patches/7.3):
#   RVCTR_VM_PERF=$(tools/testing/vm/build-perf 7.3) make run-guest-vlen512-73
VECTOR_RUN_73 = $(if $(filter 7.3,$(KERNEL)),,RVCTR_VM_MODULE=$(OTHER)/drivers/perf/rvctr/rvctr.ko) \
	$(VM)/run --kernel 7.3 --icount --smp 1 \
	--cpu-extra smcdeleg=true,ssccfg=true,v=true,vlen=
guest-test-vlen512-73: all rootfs perf libdw $(if $(filter 7.3,$(KERNEL)),,other-module)
	@$(MAKE) --no-print-directory run-guest-vlen512-73

run-guest-vlen512-73:
	$(call RUN_PASS,vlen512-73,VLEN 512 board run on Linux 7.3,$(VECTOR_RUN_73)512,selftests/rvctr/icount/run_tests.sh $(VECTOR_TESTS))

# The upstream series: riscv_pmu_sbi hooks and the CTR backend for Debian's
# linux-source-7.3, as git format-patch output with a cover letter in
# build/series, generated from kernel/series and the files the module
# builds (tools/series/mkseries); the perf tool's patch is a series of its
# own for the perf tools tree, from kernel/series-perf into
# build/series-perf.  series-check: each applies with git am,
# carries those files byte for byte as they are here, and passes
# checkpatch --strict (TAP in build/guest-test/series-check.tap and
# series-perf-check.tap).
# series-kernel builds 7.3 with it (RISCV_PMU_SBI=y, RISCV_PMU_CTR=y, no
# module; cached by the series' content); series-steps builds the
# pristine tree and then the series patch by patch, W=1 on the
# directories it changes, and fails on a patch that does not build or
# adds a warning (build/series-steps.log; kept by the series' content).
# It costs two full 7.3 builds when the series changes, so make check
# does not run it: run it before posting.  run-guest-series boots it on an -icount board and runs the
# selftests the series carries (UAPI only; the module's own, which read
# its debugfs or unload it, stay in selftests/rvctr), perf's,
# ctr_spurious_test, and ctr_kunit_test, which turns the report of the
# series' KUnit suite (riscv_ctr_rec, run at boot) into a TAP line.
# series-kunit runs that suite as upstream does, kunit.py with the
# series' drivers/perf/.kunitconfig (tools/series/kunit; TAP in
# build/guest-test/series-kunit.tap), cached by the series' content.
# The exact user/kernel counts, direct counter reads and counts across
# throttling are checked on the series kernel too (pmu_count_test,
# pmu_exclude_test, pmu_user_access_test, pmu_throttle_test; rvctr's own
# rules skip).  pmu_multiplex_test,
# pmu_freq_test and pmu_perf_mmap_test pass there as well but would add
# two minutes to make check: run them with
#   tools/testing/vm/run --kernel series --icount --smp 1 \
#	selftests/rvctr/icount/run_tests.sh pmu_multiplex_test ...
# Not pmu_period_test: stock's max_period of 2^63 - 1 leaves QEMU's
# overflow-timer excess on a counter (Documentation/driver.rst), and a
# later sampling event there loses overflows (196 samples of 200).
# pmu_throttle_test failed there until series patch 1 (the handler
# restarted a group perf had throttled, whose unthrottling start then met
# running counters: the sibling kept 1756216 of 1e8 instructions).
SERIES_TESTS := ctr_brstack_test ctr_callstack_test ctr_isolation_test \
	ctr_syswide_test ctr_bpf_test ctr_spurious_test brstack_perf_test \
	ctr_kunit_test pmu_count_test pmu_exclude_test pmu_user_access_test \
	pmu_throttle_test
export SERIES_TESTS
SERIES_RUN = $(VM)/run --kernel series --icount --smp 1
# The series kernel on more than one hart, without -icount (QEMU's
# -icount can starve a second hart): branch stacks on every hart, across
# CPU hotplug with recordings open, system-wide stacks that stay with
# their tasks, and call stacks of a task moved from hart to hart.  make
# check runs it on two harts (run-guest-series-smp2); four harts take
# twice as long on two host cores (run-guest-series-smp4, not in make
# check).
SERIES_SMP_TESTS := ctr_hotplug_test ctr_migration_test ctr_syswide_test
SERIES_SMP_RUN = $(VM)/run --kernel series

# The VMM patches for the kvm-riscv series (kernel/vmm-*, Documentation/
# kvm-ctr.rst, "The VMM patches"): kvmtool's, QEMU's PMU timer fix (the
# one build-qemu applies) and QEMU's KVM CPU model, each into
# build/series-NAME (tools/series/mkseries-vmm).  series-check checks
# that they are well-formed and applies QEMU's to the cached QEMU tarball;
# kvmtool's only with RVCTR_KVMTOOL_SRC (a kvmtool checkout: CI reaches
# Debian's mirrors only, and Debian has no kvmtool), else that test is
# skipped.
VMM_SERIES = kvmtool qemu qemu-kvm
series: setup
	@tools/series/mkseries >/dev/null
	@tools/series/mkseries $(BUILD)/series-perf kernel/series-perf >/dev/null
	@tools/series/mkseries $(BUILD)/series-vlenb kernel/series-vlenb >/dev/null
	@tools/series/mkseries $(BUILD)/series-kvm kernel/series-kvm >/dev/null
	@for v in $(VMM_SERIES); do \
		tools/series/mkseries-vmm $(BUILD)/series-$$v kernel/vmm-$$v >/dev/null || exit 1; done
	@echo "build/series: $$(ls $(BUILD)/series | wc -l) files;" \
		"build/series-perf (perf tools tree): $$(ls $(BUILD)/series-perf | wc -l) files;" \
		"build/series-vlenb (riscv tree): $$(ls $(BUILD)/series-vlenb | wc -l) files;" \
		"build/series-kvm (kvm-riscv tree, after build/series): $$(ls $(BUILD)/series-kvm | wc -l) files;" \
		"build/series-kvmtool (kvmtool): $$(ls $(BUILD)/series-kvmtool | wc -l) files;" \
		"build/series-qemu (QEMU, the PMU timer fix): $$(ls $(BUILD)/series-qemu | wc -l) files;" \
		"build/series-qemu-kvm (QEMU, RFC): $$(ls $(BUILD)/series-qemu-kvm | wc -l) files"
	@[ -n "$$RVCTR_SERIES_AUTHOR" ] || echo "note: signed off by a placeholder;" \
		"RVCTR_SERIES_AUTHOR='Name <address>' make series signs it as you"

# The CTR series' check (the longest) runs beside the other three, one
# after another: checkpatch is one process, and a machine like CI's has
# two cores.
series-check: series
	@mkdir -p $(BUILD)/guest-test
	@tools/series/check-series >$(BUILD)/guest-test/series-check.tap & ctr=$$!; \
	rc=0; \
	tools/series/check-series $(BUILD)/series-perf kernel/series-perf \
		>$(BUILD)/guest-test/series-perf-check.tap || rc=1; \
	tools/series/check-series $(BUILD)/series-vlenb kernel/series-vlenb \
		>$(BUILD)/guest-test/series-vlenb-check.tap || rc=1; \
	tools/series/check-series $(BUILD)/series-kvm kernel/series-kvm \
		>$(BUILD)/guest-test/series-kvm-check.tap || rc=1; \
	for v in $(VMM_SERIES); do \
		tools/series/check-vmm-series $(BUILD)/series-$$v kernel/vmm-$$v \
			>$(BUILD)/guest-test/series-$$v-check.tap || rc=1; done; \
	wait $$ctr || rc=1; \
	for t in series series-perf series-vlenb series-kvm $(addprefix series-,$(VMM_SERIES)); do \
		cat $(BUILD)/guest-test/$$t-check.tap; done; exit $$rc

series-kernel: series
	@$(VM)/build-kernel-series >/dev/null

# The kvm-riscv series (kernel/series-kvm, Documentation/kvm-ctr.rst): the
# series kernel's KVM variant (KVM built in, its own cache key and work
# tree; build-kernel-series --kvm), and its KVM selftest (ctr_test) run on
# a board with the H extension, Smstateen and OpenSBI 1.9 (which sets
# mstateen0.CTR, so hstateen0.CTR can trap the guest's first CTR access)
# and AIA (KVM offers Sscsrind, and so Ssctr, only with the host's AIA).
# Both KVM passes run in make check.  The variant's first build reuses
# the series kernel's objects (the KVM series changes no header every
# file includes): minutes, not a kernel build.
SERIES_KVM_RUN = RVCTR_VM_OPENSBI=1.9 $(VM)/run --kernel series-kvm --smp 1 --aia \
	--cpu-extra smstateen=true
series-kvm-kernel: series
	@$(VM)/build-kernel-series --kvm >/dev/null

# Two harts: ctr_test's migrate cases move the vcpu between them (between
# runs and inside KVM_RUN) and skip on one.
run-guest-series-kvm: series
	@$(VM)/build-kvm-selftest >/dev/null
	$(call RUN_PASS,series-kvm,KVM selftests of the kvm-riscv series,$(SERIES_KVM_RUN) --smp 2,$(BUILD)/kvm-selftest/run.sh)

# A Linux guest with Ssctr under KVM on the series-kvm board
# (Documentation/kvm-ctr.rst, "A Linux guest on the board"): our own
# VMM (tools/testing/vm/kvm/minivmm.c; no packaged VMM lists Ssctr) boots
# the series-kvm Image as the guest, whose /init runs perf record -b on a
# known call pattern and prints TAP.  The board has AIA (--aia): KVM
# offers a guest Sscofpmf only on a host with Ssaia.  -icount: without
# it QEMU's mode-filtered instruction counts follow wall time (the same
# guest perf stat read 27 to 166 million instructions; 513519 under
# -icount, every run).  The board's QEMU is build-qemu's: QEMU 10.0.2
# swallows a guest's overflow interrupts after the first (its patch in
# tools/testing/vm/qemu/patches; the stock QEMU gives the guest 1 sample).
KVM_GUEST_RUN = RVCTR_VM_QEMU=$$($(VM)/build-qemu) $(SERIES_KVM_RUN) --icount
run-guest-kvm-linux: series
	@$(VM)/build-kvm-guest >/dev/null
	$(call RUN_PASS,kvm-linux,Linux guest with branch stacks under KVM,$(KVM_GUEST_RUN),$(BUILD)/kvm-guest/run.sh)

# The cost of the KVM CTR switch (Documentation/kvm-ctr.rst, "The cost"):
# ctr_cost (tools/testing/vm/kvm/ctr_cost.c, built by build-kvm-selftest
# with the KVM selftests) on the series-kvm board under -icount, where a
# nanosecond is one instruction: ns per exit to the VMM and back for an
# idle vcpu, one that stopped recording (CTR released), one recording at
# depth 16/64/256, and idle and recording with a host branch-stack event
# on the vcpu thread; the added instructions against idle, and the spread
# over BENCH_KVM_RUNS boots (tools/testing/vm/kvm/bench-cost).  About 45 s
# (17 s a boot); builds no kernel if the series-kvm kernel is cached.
BENCH_KVM_RUNS ?= 2
bench-kvm: series
	@$(VM)/kvm/bench-cost $(BENCH_KVM_RUNS) env $(SERIES_KVM_RUN) --icount

# The same guest, then perf's own branch-stack tests in it (guest-init
# lists them: Debian's perf's and those of the perf built from the 7.3
# source, build-perf 7.3, which has symbols), a TAP line each with perf's
# verdict (a perf Skip is a SKIP).  Its initramfs is build-kvm-guest
# --full's (23.5 MB; the default's 20.8 MB is as it was).  Slow, so not
# the default pass: 10 to 18 minutes on the shared two-core machine,
# three quarters of it perf's record_lbr.sh (kvm-ctr.rst, "perf's own
# branch tests in the guest").  run.sh --perftests=LIST runs some.
run-guest-kvm-linux-full: series
	@$(VM)/build-kvm-guest --full >/dev/null
	$(call RUN_PASS,kvm-linux-full,Linux guest with perf's branch tests under KVM,RVCTR_VM_TIMEOUT=3600 $(KVM_GUEST_RUN),$(BUILD)/kvm-guest/run.sh --perftests)

series-steps: series
	@mkdir -p $(BUILD)/guest-test
	@rm -f $(BUILD)/series-steps.log; \
	$(VM)/build-kernel-series --steps >/dev/null 2>$(BUILD)/series-steps.err; rc=$$?; \
	{ echo "TAP version 13"; cat $(BUILD)/series-steps.log 2>/dev/null; \
	  [ $$rc -eq 0 ] || echo "not ok - series-steps: $$(tail -1 $(BUILD)/series-steps.err)"; \
	} >$(BUILD)/guest-test/series-steps.tap; \
	echo "1..$$(grep -c -E '^(not )?ok' $(BUILD)/guest-test/series-steps.tap)" \
		>>$(BUILD)/guest-test/series-steps.tap; \
	cat $(BUILD)/guest-test/series-steps.tap; exit $$rc

# series-sparse: sparse on the series' kernel C files against 7.3, as far
# as bookworm's sparse 0.6.4 goes (tools/series/sparse says how; TAP in
# build/guest-test/series-sparse.tap).  About a minute; not in make check.
series-sparse: series
	@tools/series/sparse $(BUILD)/guest-test/series-sparse.tap

# series-steps-quick: each patch in order, the series' kernel C files
# compiled with W=1 against the 7.3 bench kernel (tools/series/steps-quick
# says what it leaves to series-steps); under a minute.
series-steps-quick: series
	@tools/series/steps-quick $(BUILD)/guest-test/series-steps-quick.tap

series-kunit: series
	@tap=$(BUILD)/guest-test/series-kunit.tap; rm -f $$tap; \
	tools/series/kunit $$tap >/dev/null; rc=$$?; \
	if [ $$rc -ne 0 ] && ! grep -q '^not ok' $$tap 2>/dev/null; then mkdir -p $(BUILD)/guest-test; \
		echo "not ok 1 - series-kunit exited with status $$rc" >$$tap; fi; cat $$tap; exit $$rc

run-guest-series:
	$(call RUN_PASS,series,series kernel run,$(SERIES_RUN),selftests/rvctr/icount/run_tests.sh $(SERIES_TESTS))

run-guest-series-smp2:
	$(call RUN_PASS,series-smp2,two-hart series kernel run,$(SERIES_SMP_RUN) --smp 2,selftests/rvctr/run_tests.sh $(SERIES_SMP_TESTS))

run-guest-series-smp4:
	$(call RUN_PASS,series-smp4,four-hart series kernel run,$(SERIES_SMP_RUN) --smp 4,selftests/rvctr/run_tests.sh $(SERIES_SMP_TESTS))

# The series kernel on the Smstateen board with the host's OpenSBI 1.5.1,
# which leaves mstateen0.CTR clear (see the smstateen profile above).
run-guest-series-smstateen:
	$(call RUN_PASS,series-smstateen,series kernel on the Smstateen board,$(SERIES_RUN) --cpu-extra smstateen=true,selftests/rvctr/icount/run_tests.sh $(PROFILE_TESTS))

# perf's own record_lbr.sh and test_brstack.sh: over 10 minutes on the
# emulated board, so not part of make check.  They sample user-only
# perf's own record_lbr.sh and test_brstack.sh, run by the perf built from
# the kernel source (Debian's has no symbols, and test_brstack.sh skips
# there): over 10 minutes on the emulated board, so not part of make
# check (perf_src_test runs test_brstack.sh alone there).  They sample user-only
# events: one hart, as every -icount board that samples.
check-slow: all rootfs perf
	@rm -rf $(BUILD)/guest-test-slow
	@RVCTR_VM_TIMEOUT=3600 $(ICOUNT_RUN) --smp 1 --out $(BUILD)/guest-test-slow \
		selftests/rvctr/run_tests_slow.sh; \
	$(SUMMARY) $(BUILD)/guest-test-slow

# The peer suites (perf test, perf_events and BPF branch selftests) on the
# stock riscv_pmu_sbi kernel, on rvctr through SBI calls and with
# delegated counters, and on the series kernel (shown, not judged), one
# table, test by test (tools/testing/vm/parity; results in build/parity;
# -icount sleep=off boards, perf in tmpfs).  An hour or more on two cores: not
# part of make check.
parity: all rootfs peer-selftests
	@$(VM)/parity

# The other kernel: the module builds for it (in a copy of the sources, so
# the two builds' objects do not mix) and an -icount board boots it and
# passes the board, module and exact counting tests, on the SBI-call
# counter path (perf's own counting tests run in the main pass; here they
# would add a minute to make check).
OTHER_KERNEL := $(if $(filter 7.3,$(KERNEL)),6.12,7.3)
OTHER := $(BUILD)/kernel-$(OTHER_KERNEL)
other-module: setup
	@mkdir -p $(OTHER)
	@rsync -a --delete Kbuild include drivers $(OTHER)/
	@kdir=$$($(VM)/build-kernel $(OTHER_KERNEL)) && \
		$(MAKE) -s ARCH=riscv CROSS_COMPILE=$(CROSS_COMPILE) M=$(OTHER) -C "$$kdir" modules

guest-test-other: other-module rootfs selftests
	@$(MAKE) --no-print-directory run-guest-other

run-guest-other:
	@rm -rf $(OTHER)/guest-test; mkdir -p $(OTHER)/guest-test
	@RVCTR_VM_MODULE=$(OTHER)/drivers/perf/rvctr/rvctr.ko $(VM)/run \
		--kernel $(OTHER_KERNEL) --icount --smp 1 --out $(OTHER)/guest-test \
		selftests/rvctr/icount/run_tests.sh board_test module_test pmu_count_test \
		pmu_throttle_test pmu_user_access_test pmu_user_isolation_test; \
	rc=$$?; \
	if [ $$rc -eq 0 ]; then echo "ok 1 - Linux $(OTHER_KERNEL) boots and passes the smoke tests"; \
	else echo "not ok 1 - Linux $(OTHER_KERNEL) run exited with status $$rc"; fi \
		>$(OTHER)/guest-test/run.tap; exit $$rc

# Build everything first (module, tool, selftests, rootfs, the unit tests
# and fuzzers, the other kernel's module, the series kernels, the KVM
# selftests, the KVM guest and build-qemu's QEMU, the EDK II firmware for
# the ACPI pass), then run two lanes side by side
# (tools/testing/check): a CI machine has 2 cores and a board keeps about
# one busy.
check: setup
	@rm -rf $(BUILD)/unit.tap $(BUILD)/guest-test $(OTHER)/guest-test $(BUILD)/check
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@$(MAKE) --no-print-directory rootfs other-module perf libdw
	@$(MAKE) --no-print-directory series-check >/dev/null || true
	@$(MAKE) --no-print-directory series-kernel
	@$(MAKE) --no-print-directory series-kunit >/dev/null || true
	@$(VM)/build-kvm-selftest >/dev/null
	@$(VM)/build-kvm-guest >/dev/null
	@$(VM)/build-qemu >/dev/null
	@$(VM)/edk2 >/dev/null
	@$(MAKE) --no-print-directory profile-check-build
	@$(MAKE) -s --no-print-directory -j$(NPROC) -C tools/rvctr check-build
	@OTHER=$(OTHER) tools/testing/check

demo: all rootfs
	@$(VM)/demo/run

# Instruction counts per sample, branch-stack and context-switch cost, this
# driver against the stock riscv_pmu_sbi kernel, and the upstream series
# (series-kernel) against this driver on the same kernel, 7.3, whose
# module other-module builds when KERNEL is 6.12 (BENCH_RUNS runs per
# case; BENCH_BOARDS picks boards, see the script).
BENCH_RUNS ?= 5
bench: all rootfs $(if $(filter 7.3,$(KERNEL)),,other-module) series-kernel
	@BENCH_MODULE_73=$(OTHER)/drivers/perf/rvctr/rvctr.ko $(VM)/bench/bench $(BENCH_RUNS)

# perf stat counts and perf record sample counts, this driver (both
# counter paths) against the stock riscv_pmu_sbi kernel, with a verdict
# per row (tools/testing/vm/bench/compare).
COMPARE_RUNS ?= 3
compare: all rootfs
	@$(VM)/bench/compare $(COMPARE_RUNS)

# trinity on perf_event_open, reload loops, hotplug; then the tool fuzzers.
# STRESS_SECONDS=1800 is the full run; CI uses a shorter bound.
STRESS_SECONDS ?= 1800
stress: all rootfs
	@$(VM)/stress/stress $(STRESS_SECONDS)

# Real programs from Debian sources (one recipe each, tools/testing/
# profile-bench/recipes), profiled on the board with branch
# stacks, through AutoFDO, llvm-profgen and BOLT, against an instrumented
# build's exact counts (tools/testing/profile-bench/profile-bench; the
# report is build/profile-bench/summary.txt).  12 to 19 minutes on two
# cores; PB_QUICK=1: bzip2 only, no BOLT, no converter timing.
profile-bench: all rootfs
	@tools/testing/profile-bench/profile-bench $(if $(PB_QUICK),--quick)

# make check's short run of that chain (tools/testing/profile-bench/
# profile-check): bzip2's sample1 test recorded on an -icount board, its
# AutoFDO and llvm-profgen profiles against the instrumented build's exact
# counts, thresholds on the overlap (TAP in build/guest-test/profile-check).
# The builds are profile-bench's, cached under ~/.cache/rvctr/profile-bench.
profile-check-build: setup
	@tools/testing/profile-bench/profile-check build

profile-check: all rootfs profile-check-build
	@$(MAKE) --no-print-directory run-profile-check

run-profile-check:
	@tap=$(BUILD)/guest-test/profile-check/profile.tap; \
	tools/testing/profile-bench/profile-check run; rc=$$?; \
	if [ $$rc -ne 0 ] && ! grep -q '^not ok' $$tap 2>/dev/null; then \
		mkdir -p $$(dirname $$tap); \
		echo "not ok 1 - profile-check exited with status $$rc" >>$$tap; fi; exit $$rc

# llvm-profgen 19 with the RISC-V fixes of tools/testing/profile-bench/
# llvm/0*.patch, rebuilt against Debian's llvm-19-dev (its own sources only,
# cached under ~/.cache/rvctr/llvm-profgen), then LLVM's own llvm-profgen
# tests against it (Documentation/profile-bench.rst, "llvm-profgen 19 on
# RISC-V").  About 4 minutes cold, on two cores.
profgen-patched:
	@tools/testing/profile-bench/llvm/build-profgen
	@tools/testing/profile-bench/llvm/build-profgen test

clean:
	@$(MAKE) -C tools/rvctr clean
	@$(MAKE) -C selftests/rvctr clean OUT=$(BUILD)/selftests
	git clean -fdXq drivers include
	rm -rf $(BUILD)

help:
	@sed -n '3,25p' Makefile
