#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Guest half of `make bench` (run by ./bench under -icount shift=0 on one
# hart): time a fixed workload without perf and under each perf mode, RUNS
# times each, and append "case<TAB>run<TAB>ns<TAB>samples" rows to
# /out/bench-FLAVOR.tsv.  FLAVOR is "rvctr" (this driver, SBI calls),
# "deleg" (this driver, delegated counters) or "stock" (Debian's
# riscv_pmu_sbi, no branch stacks).  Everything runs pinned to hart
# BENCH_CPU (default 1: see ./bench).
set -u
flavor=${1:?flavor}
runs=${2:-5}
# PERIOD (third argument): cycles per sample
iters=${BENCH_ITERS:-200000}
period=${3:-20000}
pp=${BENCH_PINGPONG:-2000}
cpu=${BENCH_CPU:-1}
pin="taskset -c $cpu"
wl=/host/workload
tsv=/out/bench-$flavor.tsv
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

# The unload waits for RCU and RCU Tasks Trace grace periods, whose
# kthreads go on for a few ms after: let them finish before measuring
# (without the pause the next case ran 2M instructions long in 3 of 5).
set_depth() {
	rmmod rvctr 2>/dev/null
	insmod /opt/rvctr/rvctr.ko ctr_depth="$1" || return 1
	sleep 1
}

for run in $(seq "$runs"); do
	one base "$run"
	one cycles "$run" -e cycles -c "$period"
	ctxsw ctxsw-base "$run"
	[ "$flavor" != stock ] || continue
	for d in 16 64 256; do
		set_depth "$d" || { echo "# depth $d: insmod failed"; continue; }
		one "brstack-$d" "$run" -b -e cycles -c "$period"
		one "brstack-any_call-$d" "$run" -j any_call -e cycles -c "$period"
	done
	set_depth 0
	one callstack "$run" -e cycles:u -c "$period" --call-graph lbr
	ctxsw ctxsw-brstack "$run" -b -e cycles:u -c 1000000
done
# The policy on: where each driver's samples bring the rate.
echo "$pct0" >/proc/sys/kernel/perf_cpu_time_max_percent
policy() {
	echo "$rate0" >/proc/sys/kernel/perf_event_max_sample_rate
	rm -f "$data"
	$pin perf record -q -o "$data" "$@" -- "$wl" branches "$iters" >/dev/null 2>&1
	echo "# policy $flavor $*: $(samples) samples, perf_event_max_sample_rate $rate0 -> $(cat /proc/sys/kernel/perf_event_max_sample_rate)"
}
policy -e cycles -c "$period"
if [ "$flavor" != stock ]; then
	set_depth 256
	policy -b -e cycles -c "$period"
fi
echo "# wrote $(wc -l <"$tsv") rows to $tsv"
