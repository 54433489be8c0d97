#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The ACPI pass: run by the host on a board booted through EDK II with
# ACPI tables and no device tree
#   RVCTR_VM_ACPI=1 tools/testing/vm/run --icount --smp 1 --out DIR \
#       selftests/rvctr/acpi/run_tests.sh
# (make check does).  It samples, and samples land where instructions
# retire only under -icount, so it expects that board (RVCTR_ICOUNT=1 as
# in the -icount pass).
# The driver has no "riscv,pmu" node to bind to and must find the harts'
# extensions in the RHCT; then perf record -b, the module tests and the
# counting tests run as on a device tree boot.  TAP per test in $RVCTR_OUT/acpi_NAME.tap.
out=${RVCTR_OUT:-/tmp/rvctr-out}
bins=/opt/rvctr/selftests
export RVCTR_ICOUNT=1
status=0
mkdir -p "$out"

(
	cd "$bins" && . ./lib.sh
	check "booted with ACPI: /sys/firmware/acpi/tables/RHCT" \
		test -r /sys/firmware/acpi/tables/RHCT
	check "booted without a device tree" test ! -e /proc/device-tree/cpus
	dmesg | grep -E 'rvctr|ACPI: RHCT' | head -6 | sed 's/^/# /'
	check "the driver read the extensions from the RHCT" \
		bash -c "dmesg | grep -q 'extensions on all harts (ACPI RHCT):.*sscofpmf.*smctr.*ssctr'"
	check "cpu PMU registered" test -d /sys/bus/event_source/devices/cpu/events
	check "caps/branches: CTR branch stacks" test -r /sys/bus/event_source/devices/cpu/caps/branches
	# Branch stacks end to end.
	perf record -q -b -e instructions:u -c 10007 -o /tmp/acpi.data -- \
		"$bins/ctr_workload" loop 100000 >/dev/null 2>&1
	n=$(perf script -i /tmp/acpi.data -F brstack 2>/dev/null | awk 'NF { s++; e += NF } END { print s + 0, e + 0 }')
	diag "perf record -b: samples, entries: $n"
	check "perf record -b gives branch stacks (${n%% *} samples, ${n##* } entries)" \
		test "${n##* }" -gt "${n%% *}"
	tap_done
) >"$out/acpi_boot.tap" 2>&1
rc=$?
cat "$out/acpi_boot.tap"
[ $rc -eq 0 ] || status=1

. "$bins/run_lib.sh"
for name in module_test.sh pmu_count_test; do
	run_selftest acpi "$name"
done
exit $status
