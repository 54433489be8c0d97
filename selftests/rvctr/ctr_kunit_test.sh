#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The series kernel's KUnit suite of the CTR record conversion
# (drivers/perf/riscv_ctr_rec_kunit.c, CONFIG_RISCV_PMU_CTR_KUNIT_TEST=y)
# runs at boot.  Its KTAP report is read from KUnit's debugfs file
# (CONFIG_KUNIT_DEBUGFS, lib/kunit/debugfs.c), else from the kernel log;
# its cases are shown, and the suite's own result line becomes this
# test's.  A suite that left no report fails: the series pass (make
# run-guest-series) boots a kernel built with it.
. ./lib.sh
suite=riscv_ctr_rec
results=/sys/kernel/debug/kunit/$suite/results

if [ -r "$results" ]; then
	body=$(cat "$results")
	from=$results
else
	# The kernel log: an optional "[ time]" prefix (CONFIG_PRINTK_TIME),
	# then the suite's lines from its "# Subtest:" header to its result.
	body=$(dmesg | sed 's/^\[[ 0-9.]*\] //' |
		sed -n "/^    # Subtest: $suite\$/,/^\(not \)\?ok [0-9]* $suite\( #.*\)\?\$/p")
	from="the kernel log"
fi
if [ -z "$body" ]; then
	fail "KUnit suite $suite: no report in $results or the kernel log (CONFIG_RISCV_PMU_CTR_KUNIT_TEST=y?)"
	tap_done
fi
printf '%s\n' "$body" | sed 's/^/# /'
diag "read from $from"
passed=$(printf '%s\n' "$body" | grep -c '^    ok [0-9]')
failed=$(printf '%s\n' "$body" | grep -c '^    not ok [0-9]')
result=$(printf '%s\n' "$body" | grep -E "^(not )?ok [0-9]+ $suite( #.*)?\$" | tail -1)
case $result in
*" # SKIP"*)
	skip "KUnit suite $suite" "${result#* # SKIP }" ;;
"ok "*)
	ok "KUnit suite $suite: $passed cases passed, $failed failed" ;;
"not ok "*)
	fail "KUnit suite $suite: $failed of $((passed + failed)) cases failed" ;;
*)
	fail "KUnit suite $suite: no result line in $from" ;;
esac
tap_done
