#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perf's own branch-stack shell tests: record_lbr.sh ("perf record LBR
# tests") and test_brstack.sh ("Check branch stack sampling"), run by the
# perf built from the kernel source (/opt/rvctr/perf, make perf): Debian's
# perf has no symbols, and test_brstack.sh skips itself there.  They run at CTR depth 16 to stay fast on an
# emulated board (they check filters and types, not depth).  make
# check-slow boots with --icount: record_lbr.sh fails a recording with
# over 2% empty stacks, and without -icount QEMU's host-time cycle counter
# leaves ~10% of samples where the task has not branched since its buffer
# was cleared (Documentation/ctr.rst).
. ./lib.sh
pmu=/sys/bus/event_source/devices/cpu
if [ ! -x /opt/rvctr/perf/bin/perf ]; then
	fail "no perf at /opt/rvctr/perf/bin/perf: build it with 'make perf'"
	tap_done
fi
# The shell tests call `perf`: this one.
export PATH=/opt/rvctr/perf/bin:$PATH
tmp=$(mktemp -d /tmp/perfsuite.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f $pmu/caps/branches ]; then
	skip "perf branch-stack tests" "no $pmu/caps/branches: no CTR on this board"
	tap_done
fi
# Short stacks keep it quick: an event keeps at most
# kernel.perf_event_max_stack entries.
max0=$(cat /proc/sys/kernel/perf_event_max_stack)
echo 16 >/proc/sys/kernel/perf_event_max_stack

run_perf_test() {
	local name=$1 pattern=$2
	timeout 1500 perf test -v "$pattern" >$tmp/pt.txt 2>&1
	sed 's/^/# /' $tmp/pt.txt | tail -25
	if grep -q ': Ok' $tmp/pt.txt; then
		ok "perf test $name"
	elif grep -q ': Skip' $tmp/pt.txt; then
		skip "perf test $name" "$(grep -m1 -i 'skip' $tmp/pt.txt)"
	else
		fail "perf test $name"
	fi
}
run_perf_test record_lbr.sh "perf record LBR tests"
run_perf_test test_brstack.sh "Check branch stack sampling"

echo "$max0" >/proc/sys/kernel/perf_event_max_stack
tap_done
