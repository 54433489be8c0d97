#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Frequency mode and throttling, which the perf core drives through the
# driver's start/stop/read callbacks:
#  - perf record -F: the period starts small and the core adapts it, so
#    the samples carry several periods and end far above the first;
#  - a sampling rate far above perf_event_max_sample_rate: the core
#    throttles the event (PERF_RECORD_THROTTLE), unthrottles it at the
#    next tick, and the driver must restart the counter with its period,
#    so samples keep coming after the first unthrottle.
# Exact under -icount (the -icount pass runs it); skipped elsewhere.
. ./lib.sh
bins=/opt/rvctr/selftests
tmp=$(mktemp -d /tmp/freq.XXXXXX)
rate=/proc/sys/kernel/perf_event_max_sample_rate
old_rate=$(cat $rate)
trap 'echo "$old_rate" >$rate; rm -rf "$tmp"' EXIT

if [ -z "${RVCTR_ICOUNT:-}" ]; then
	skip "frequency mode and throttling" "runs in the -icount pass"
	tap_done
fi

# --- frequency mode --------------------------------------------------
perf record -q -o $tmp/f.data -e instructions:u -F 2000 -- \
	$bins/ctr_workload loop 2000000 >/dev/null 2>&1
perf script -i $tmp/f.data -F period 2>/dev/null | awk '{ print $1 }' >$tmp/f.per
n=$(wc -l <$tmp/f.per)
distinct=$(sort -u $tmp/f.per | wc -l)
first=$(head -1 $tmp/f.per)
last=$(tail -1 $tmp/f.per)
diag "-F 2000: $n samples, $distinct periods, first $first, last $last"
check "-F 2000: samples ($n)" test "$n" -gt 10
check "-F 2000: the core adapts the period ($distinct distinct)" test "$distinct" -gt 2
check "-F 2000: the period grows from $first to $last" \
	test "${last:-0}" -gt $((${first:-0} * 100))

# --- throttling ------------------------------------------------------
# 1000 samples/s at most, asked for one every 2000 instructions (about
# 500000/s under -icount): throttled within a tick, every tick.
echo 1000 >$rate
perf record -q -o $tmp/t.data -e instructions:u -c 2000 -- \
	$bins/ctr_workload loop 2000000 >/dev/null 2>&1
echo "$old_rate" >$rate
perf report -D -i $tmp/t.data 2>/dev/null |
	awk '/PERF_RECORD_THROTTLE/ { t++ }
	     /PERF_RECORD_UNTHROTTLE/ { u++ }
	     /PERF_RECORD_SAMPLE/ { s++; if (u) after++ }
	     END { print t + 0, u + 0, s + 0, after + 0 }' >$tmp/t.cnt
read -r thr unthr samples after <$tmp/t.cnt
diag "throttle: $thr throttles, $unthr unthrottles, $samples samples ($after after the first unthrottle)"
check "throttling: the core throttled the event ($thr)" test "$thr" -gt 0
check "throttling: and unthrottled it ($unthr)" test "$unthr" -gt 0
check "throttling: samples after the first unthrottle ($after)" test "$after" -gt 0
# Unthrottled, the run would give about 25000 samples; throttled, a few
# per tick (perf_event_max_sample_rate / HZ) between throttles.
check "throttling: at most 10 samples per throttle ($samples for $thr)" \
	test "$samples" -le $((10 * (thr + 1)))

tap_done
