#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The demo on the emulated board (make demo): profile a small program with
# Debian's perf, using branch stacks when the rvctr PMU offers them, and
# show the result.  Output files land in build/demo on the host.
set -u
out=${RVCTR_OUT:-/tmp}
cd /tmp
cpu=/sys/bus/event_source/devices/cpu
echo "== board: $(uname -r), $(nproc) harts; $(grep -m1 isa /proc/cpuinfo)"
dmesg | grep rvctr


if [ -e $cpu/caps/branches ]; then
	echo "== perf record -b (branch stacks, $(cat $cpu/caps/branches) entries)"
	perf record -q -b -e cycles:u -c 20000 -o "$out/perf.data" -- \
		bash -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' || exit 1
	echo "== perf report -b (hottest branches)"
	perf report -i "$out/perf.data" -b --stdio --sort symbol_from,symbol_to 2>/dev/null |
		grep -v '^#' | grep -v '^$' | head -15
	echo "== perf script -F ip,brstack (first sample)"
	perf script -i "$out/perf.data" -F ip,brstack 2>/dev/null | head -1 | cut -c1-400
	if command -v rvctr >/dev/null; then
		echo "== rvctr report"
		rvctr report "$out/perf.data" | head -30
	fi
elif [ -e $cpu ]; then
	echo "== perf record -e cycles:u (no branch stacks on this PMU)"
	perf record -q -e cycles:u -c 20000 -o "$out/perf.data" -- \
		bash -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' || exit 1
	perf report -i "$out/perf.data" --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' | head -15
else
	echo "== no hardware PMU registered yet: sampling the cpu-clock software event"
	perf record -q -e cpu-clock -F 2000 -o "$out/perf.data" -- \
		bash -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' || exit 1
	perf report -i "$out/perf.data" --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' | head -15
fi
echo "== perf.data is in build/demo/perf.data on the host"
