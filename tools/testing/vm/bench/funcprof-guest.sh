#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Guest half of ./funcprof: one window of the marked workload on hart 1,
# alone or under perf record (MODE: base, cycles, or bN: -b at depth N),
# after an unmarked warm-up.  Writes /out/kallsyms and /out/result.
set -u
mode=${1:?mode}
period=${2:-20000}
pmu=/sys/bus/event_source/devices/cpu
pin="taskset -c 1"
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 0 >/proc/sys/kernel/kptr_restrict
cat /proc/kallsyms >/out/kallsyms
cd /tmp || exit 1
case "$mode" in
base | cycles) args=(-e cycles -c "$period") ;;
b[0-9]*)
	[ "$(cat $pmu/caps/branches)" -ge "${mode#b}" ] &&
		echo "${mode#b}" >/proc/sys/kernel/perf_event_max_stack ||
		{ echo "depth ${mode#b} refused: caps/branches is $(cat $pmu/caps/branches)"; exit 1; }
	args=(-b -e cycles -c "$period") ;;
*) echo "unknown mode $mode"; exit 2 ;;
esac
$pin /host/workload branches 20000 >/dev/null
$pin perf record -q -o /tmp/warm.data "${args[@]}" -- /host/workload branches 20000 >/dev/null 2>&1
if [ "$mode" = base ]; then
	ns=$($pin /host/workload-marks branches 200000)
	n=0
else
	ns=$($pin perf record -q -o /tmp/d.data "${args[@]}" -- /host/workload-marks branches 200000 2>/tmp/perf.err) ||
		{ cat /tmp/perf.err; exit 1; }
	n=$(perf script -i /tmp/d.data -F ip 2>/dev/null | wc -l)
fi
echo "$(uname -r) $mode ns $ns samples $n" | tee /out/result
