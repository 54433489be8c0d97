#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The exact-count pass: run by the host under QEMU -icount shift=0
#   tools/testing/vm/run --icount --out DIR selftests/rvctr/icount/run_tests.sh
# (make guest-test does), where instret and cycle count retired
# instructions.  RVCTR_ICOUNT=1 turns the tests' exact checks from SKIP
# into assertions.  TAP per test in $RVCTR_OUT/icount_NAME.tap.
out=${RVCTR_OUT:-/tmp/rvctr-out}
bins=/opt/rvctr/selftests
export RVCTR_ICOUNT=1
status=0
mkdir -p "$out"
for name in pmu_count_test pmu_period_test pmu_exclude_test pmu_multiplex_test \
	    pmu_hotplug_test.sh; do
	echo "# === icount: $name"
	if [ ! -e "$bins/$name" ]; then
		echo "not ok 1 $name not built" | tee "$out/icount_$name.tap"
		status=1
		continue
	fi
	case $name in
	*.sh) (cd "$bins" && timeout 300 bash "./$name") ;;
	*) (cd /tmp && timeout 300 "$bins/$name") ;;
	esac >"$out/icount_$name.tap" 2>&1
	rc=$?
	cat "$out/icount_$name.tap"
	if [ $rc -ne 0 ] && [ $rc -ne 4 ] && ! grep -q '^not ok' "$out/icount_$name.tap"; then
		echo "not ok - $name exited with status $rc" | tee -a "$out/icount_$name.tap"
	fi
	[ $rc -eq 0 ] || [ $rc -eq 4 ] || status=1
done
exit $status
