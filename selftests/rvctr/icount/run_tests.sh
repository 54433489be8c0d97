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
. "$bins/run_lib.sh"
for name in pmu_count_test pmu_period_test pmu_exclude_test pmu_multiplex_test \
	    pmu_freq_test.sh pmu_hotplug_test.sh; do
	run_selftest icount "$name"
done
exit $status
