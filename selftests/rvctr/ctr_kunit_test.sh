#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The series kernel's KUnit suite of the CTR record conversion
# (drivers/perf/riscv_ctr_rec_kunit.c, CONFIG_RISCV_PMU_CTR_KUNIT_TEST=y)
# ran at boot and left its KTAP report in the kernel log: its cases are
# shown, and the suite's own ok/not ok line becomes this test's result.
# A suite that left no report fails: the series pass (make
# run-guest-series) boots a kernel built with it.
. ./lib.sh
suite=riscv_ctr_rec

# The suite's lines, timestamps dropped: "# Subtest: NAME" through its
# result line "ok N NAME" / "not ok N NAME".
log=$(dmesg | sed -n "/^\[[ 0-9.]*\]     # Subtest: $suite\$/,/^\[[ 0-9.]*\] \(not \)\?ok [0-9]* $suite\$/p")
if [ -z "$log" ]; then
	fail "KUnit suite $suite: no report in the kernel log (CONFIG_RISCV_PMU_CTR_KUNIT_TEST=y?)"
	tap_done
fi
printf '%s\n' "$log" | sed 's/^/# /'
first=$(printf '%s\n' "$log" | head -1 | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
last=$(printf '%s\n' "$log" | tail -1 | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
diag "the suite ran in $(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.1f", (b - a) * 1000 }') ms of boot"
body=$(printf '%s\n' "$log" | sed 's/^\[[ 0-9.]*\] //')
passed=$(printf '%s\n' "$body" | grep -c '^    ok [0-9]')
failed=$(printf '%s\n' "$body" | grep -c '^    not ok [0-9]')
result=$(printf '%s\n' "$body" | tail -1)
case $result in
"ok "*)
	ok "KUnit suite $suite: $passed cases passed, $failed failed" ;;
"not ok "*)
	fail "KUnit suite $suite: $failed of $((passed + failed)) cases failed" ;;
*)
	fail "KUnit suite $suite: no result line (the report ends: $result)" ;;
esac
tap_done
