#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The ACPI pass: run by the host on a board booted through EDK II with
# ACPI tables and no device tree
#   RVCTR_VM_ACPI=1 tools/testing/vm/run --icount --out DIR \
#       selftests/rvctr/acpi/run_tests.sh
# (make check does; with --icount the counting test's exact checks run).
# The driver has no "riscv,pmu" node to bind to and must find the harts'
# extensions in the RHCT; then the module, counting and branch-stack tests
# run as on a device tree boot.  TAP per test in $RVCTR_OUT/acpi_NAME.tap.
out=${RVCTR_OUT:-/tmp/rvctr-out}
bins=/opt/rvctr/selftests
status=0
mkdir -p "$out"
# The exact-count checks need -icount, as in the icount pass.
export RVCTR_ICOUNT=1

(
	cd "$bins" && . ./lib.sh
	check "booted with ACPI: /sys/firmware/acpi/tables/RHCT" \
		test -r /sys/firmware/acpi/tables/RHCT
	check "booted without a device tree" test ! -e /proc/device-tree/cpus
	dmesg | grep -E 'rvctr|ACPI: RHCT' | head -6 | sed 's/^/# /'
	check "the driver read the extensions from the RHCT" \
		bash -c "dmesg | grep -q 'extensions on all harts (ACPI RHCT):.*sscofpmf.*smctr.*ssctr'"
	check "cpu PMU registered" test -d /sys/bus/event_source/devices/cpu/events
	tap_done
) >"$out/acpi_boot.tap" 2>&1
rc=$?
cat "$out/acpi_boot.tap"
[ $rc -eq 0 ] || status=1

for name in module_test.sh pmu_count_test ctr_brstack_test; do
	echo "# === acpi: $name"
	case $name in
	*.sh) (cd "$bins" && timeout 300 bash "./$name") ;;
	*) (cd /tmp && timeout 300 "$bins/$name") ;;
	esac >"$out/acpi_$name.tap" 2>&1
	rc=$?
	cat "$out/acpi_$name.tap"
	if [ $rc -ne 0 ] && [ $rc -ne 4 ] && ! grep -q '^not ok' "$out/acpi_$name.tap"; then
		echo "not ok - $name exited with status $rc" | tee -a "$out/acpi_$name.tap"
	fi
	[ $rc -eq 0 ] || [ $rc -eq 4 ] || status=1
done
exit $status
