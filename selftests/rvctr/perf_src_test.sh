#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perf's own branch-stack and user-page tests, run by the perf built from
# the bench kernel's source (tools/testing/vm/build-perf, at
# /opt/rvctr/perf): unlike Debian's perf it has symbols, so test_brstack.sh
# ("Check branch stack sampling") runs instead of skipping.  Each (sub)test
# named here must say Ok: a Skip is a missing feature.  Under -icount, one
# hart (the make check sampling pass): the user-space reads require each
# doubled loop to count more than the last, which host-time counters do
# not promise.  perf's record_lbr.sh takes over ten minutes on the board:
# it runs in make check-slow and make parity.
. ./lib.sh
perfdir=/opt/rvctr/perf
pmu=/sys/bus/event_source/devices/cpu
tmp=$(mktemp -d /tmp/perfsrc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x $perfdir/bin/perf ]; then
	fail "no perf at $perfdir/bin/perf: build it with 'make perf'"
	tap_done
fi
# Its shell tests call `perf`: this one.
export PATH=$perfdir/bin:$PATH
diag "$(perf version)"

# perf test -v PATTERN...; every description in WANT must end in Ok.
run_perf_test() {
	local sub line
	timeout 240 perf test -S -v "$@" >$tmp/pt.txt 2>&1
	for sub in "${want[@]}"; do
		line=$(sed -e 's/\x1b\[[0-9;]*m//g' $tmp/pt.txt | grep -F "$sub" |
			grep -E ': (Ok|FAILED!|Skip)' | tail -1)
		diag "$line"
		if [[ "$line" == *": Ok" ]]; then
			ok "source-built perf test: $sub"
		else
			fail "source-built perf test: $sub: ${line:-no result}"
			sed 's/^/# /' $tmp/pt.txt | tail -25
		fi
	done
}

want=("Read samples using the mmap interface"
      "User space counter reading of instructions"
      "User space counter reading of cycles")
run_perf_test "mmap interface" "User space counter reading"

if [ ! -f $pmu/caps/branches ]; then
	skip "source-built perf test: Check branch stack sampling" "no CTR on this board"
	tap_done
fi
# Short stacks keep it quick: it checks types and filters, not depth.  An
# event keeps at most kernel.perf_event_max_stack entries.
max0=$(cat /proc/sys/kernel/perf_event_max_stack)
echo 16 >/proc/sys/kernel/perf_event_max_stack
want=("Check branch stack sampling")
run_perf_test "Check branch stack sampling"
echo "$max0" >/proc/sys/kernel/perf_event_max_stack
tap_done
