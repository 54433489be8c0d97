#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The exact-count pass: run by the host under QEMU -icount shift=0
#   tools/testing/vm/run --icount --smp 1 --out DIR selftests/rvctr/icount/run_tests.sh [NAME...]
# (make guest-test does), where instret and cycle count retired
# instructions.  RVCTR_ICOUNT=1 turns the tests' exact checks from SKIP
# into assertions.  TAP per test in $RVCTR_OUT/icount_NAME.tap.
# Without NAMEs: every test that needs one hart only.  The board for
# those has one hart: with two, QEMU 10.0.2's -icount scheduler can starve
# the second hart for good (Documentation/bench.rst, "One hart under
# -icount"), so pmu_hotplug_test.sh, which needs cpu1, runs on a board of
# its own.
out=${RVCTR_OUT:-/tmp/rvctr-out}
bins=/opt/rvctr/selftests
export RVCTR_ICOUNT=1
status=0
mkdir -p "$out"
. "$bins/run_lib.sh"
[ $# -gt 0 ] || set -- pmu_count_test pmu_period_test pmu_exclude_test \
	pmu_multiplex_test pmu_freq_test.sh
for name in "$@"; do
	run_selftest icount "$name"
done
exit $status
