#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Guest half of `make bench` (run by ./bench under -icount shift=0 on one
# hart): time a fixed workload without perf and under each perf mode, RUNS
# times each, and append "case<TAB>run<TAB>ns<TAB>samples" rows to
# /out/bench-BOARD.tsv.  BOARD names the board in the tables (./bench):
# "stock" (Debian's riscv_pmu_sbi, no branch stacks), "rvctr" and
# "rvctr73" (this driver, SBI calls), "deleg" (delegated counters),
# "series" (riscv_pmu_sbi with the upstream series, built in).  The
# branch-stack cases run where the cpu PMU has caps/branches; the stack
# depth of an event is set the same way for every driver, through
# kernel.perf_event_max_stack (attr.sample_max_stack), up to the depth the
# driver programmed at probe (caps/branches; riscv_ctr.c).  Everything
# runs pinned to hart BENCH_CPU
# (default 1: see ./bench).
set -u
board=${1:?board}
runs=${2:-5}
# PERIOD (third argument): cycles per sample
iters=${BENCH_ITERS:-200000}
period=${3:-20000}
pp=${BENCH_PINGPONG:-2000}
cpu=${BENCH_CPU:-1}
pin="taskset -c $cpu"
wl=/host/workload
tsv=/out/bench-$board.tsv
data=/tmp/bench.data
: >"$tsv"
cd /tmp
rate0=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
# The kernel lowers perf_event_max_sample_rate when samples take longer
# than perf_cpu_time_max_percent of the time (perf_sample_event_took()),
# and the throttling that follows changes what a sample costs (fewer
# samples share the unthrottling work).  The cost per sample is measured
# with the policy off, for every driver alike; its effect is shown apart,
# at the end.
pct0=$(cat /proc/sys/kernel/perf_cpu_time_max_percent)
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent

samples() {
	perf script -i "$data" -G -F ip 2>/dev/null | wc -l
}

# one CASE RUN perf-record-args... (no args: the workload alone)
one() {
	local name=$1 run=$2 ns n=0
	shift 2
	if [ $# -eq 0 ]; then
		ns=$($pin "$wl" branches "$iters") || return 1
	else
		rm -f "$data"
		# Each case from the default rate (see the policy runs below).
		echo "$rate0" >/proc/sys/kernel/perf_event_max_sample_rate
		ns=$($pin perf record -q -o "$data" "$@" -- "$wl" branches "$iters" 2>/tmp/perf.err) || {
			echo "# $name: perf record failed: $(head -c 300 /tmp/perf.err)"
			return 0
		}
		n=$(samples)
		rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
		[ "$rate" = "$rate0" ] ||
			echo "# $name run $run: the kernel lowered perf_event_max_sample_rate to $rate"
	fi
	printf '%s\t%s\t%s\t%s\n' "$name" "$run" "$ns" "$n" >>"$tsv"
}

# ctxsw CASE RUN perf-record-args...: pingpong round trips
ctxsw() {
	local name=$1 run=$2 ns
	shift 2
	if [ $# -eq 0 ]; then
		ns=$($pin "$wl" pingpong "$pp")
	else
		ns=$($pin perf record -q -o "$data" "$@" -- "$wl" pingpong "$pp" 2>/dev/null)
	fi
	[ -n "$ns" ] && printf '%s\t%s\t%s\t%s\n' "$name" "$run" "$ns" "$((2 * pp))" >>"$tsv"
}

# The entries an event keeps: kernel.perf_event_max_stack, which perf
# makes each event's attr.sample_max_stack, the same for the module and
# the series (both are riscv_ctr.c's), which copy min(hardware depth,
# sample_max_stack) entries per sample.  The hardware depth is what the
# driver programmed into the harts at probe (caps/branches): ./bench
# loads the module with ctr_depth=256; the series has 64.  perf's default
# keeps 127 (PERF_MAX_STACK_DEPTH).
pmu=/sys/bus/event_source/devices/cpu
brstack=
[ -r $pmu/caps/branches ] && brstack=1
max_stack0=$(cat /proc/sys/kernel/perf_event_max_stack)
set_depth() {
	[ "$(cat $pmu/caps/branches)" -ge "$1" ] &&
		echo "$1" >/proc/sys/kernel/perf_event_max_stack 2>/dev/null
}
echo "# $board: $(uname -r), branch stacks: $([ -n "$brstack" ] && echo "yes, hardware depth $(cat $pmu/caps/branches)" || echo no), perf_event_max_stack $max_stack0"

for run in $(seq "$runs"); do
	one base "$run"
	one cycles "$run" -e cycles -c "$period"
	ctxsw ctxsw-base "$run"
	# A per-task event without a branch stack: what -b adds is the
	# difference to this one.
	ctxsw ctxsw-task "$run" -e cycles:u -c 1000000
	[ -n "$brstack" ] || continue
	for d in 16 64 127 256; do
		set_depth "$d" || { [ "$run" = 1 ] && echo "# depth $d: deeper than caps/branches"; continue; }
		one "brstack-$d" "$run" -b -e cycles -c "$period"
		[ "$d" = 64 ] || [ "$d" = 256 ] && continue
		one "brstack-any_call-$d" "$run" -j any_call -e cycles -c "$period"
	done
	# perf's default at the hardware depth: keeps 127 entries of 256.
	echo "$max_stack0" >/proc/sys/kernel/perf_event_max_stack
	one brstack-default "$run" -b -e cycles -c "$period"
	# Call stacks at the largest depth the driver records.
	set_depth "$(cat $pmu/caps/branches)"
	one callstack "$run" -e cycles:u -c "$period" --call-graph lbr
	ctxsw ctxsw-brstack "$run" -b -e cycles:u -c 1000000
	echo "$max_stack0" >/proc/sys/kernel/perf_event_max_stack
done
# The policy on: where each driver's samples bring the rate.
echo "$pct0" >/proc/sys/kernel/perf_cpu_time_max_percent
policy() {
	echo "$rate0" >/proc/sys/kernel/perf_event_max_sample_rate
	rm -f "$data"
	$pin perf record -q -o "$data" "$@" -- "$wl" branches "$iters" >/dev/null 2>&1
	echo "# policy $board $*: $(samples) samples, perf_event_max_sample_rate $rate0 -> $(cat /proc/sys/kernel/perf_event_max_sample_rate)"
}
policy -e cycles -c "$period"
if [ -n "$brstack" ]; then
	policy -b -e cycles -c "$period"
fi
echo "# wrote $(wc -l <"$tsv") rows to $tsv"
