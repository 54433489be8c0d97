#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The tests shipped with Debian's perf that exercise hardware counting and
# sampling, run against the rvctr PMU.  perf's own verdict is kept: "Ok"
# passes, "Skip" skips (with perf's reason), anything else fails.
. ./lib.sh
# Not listed: "mmap interface" runs on an -icount board
# (pmu_perf_mmap_test.sh); "Parse event definition
# strings" needs more than the 150 s per test the bench allows; "Object
# code reading" takes its samples but compares them with objdump output,
# which is empty in the guest (buf2 all zeros).
tests=(
	"PMU events"
	"Event times"
	"Sample parsing"
	"perf stat tests"
)
# perf stat's output linters check perf's formatting of the same counts
# "perf stat tests" reads (40 s of the board's time): make check-slow and
# make parity run them.
if [ -n "${RVCTR_SLOW:-}" ]; then
	tests+=("perf stat CSV output linter" "perf stat STD output linter")
fi
for t in "${tests[@]}"; do
	res=$(timeout 150 perf test -v "$t" 2>&1 | tail -20)
	diag "$(echo "$res" | grep -E ': .*(Ok|FAILED|Skip)' | head -5 | tr '\n' ' ')"
	if ! echo "$res" | grep -q ': '; then
		fail "perf test '$t': no result (timed out or unknown)"
	elif echo "$res" | grep -q 'FAILED'; then
		fail "perf test '$t'"
		echo "$res" | sed 's/^/# /'
	elif echo "$res" | grep -q ': Ok'; then
		ok "perf test '$t'"
	else
		skip "perf test '$t'" "$(echo "$res" | grep -o 'Skip.*' | head -1)"
	fi
done
tap_done
