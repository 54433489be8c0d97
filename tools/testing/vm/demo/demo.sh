#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Guest half of `make demo`: profile ./hot with branch stacks using stock
# perf, show perf's own views, then rvctr's report and conversions.  The
# files land in build/demo on the host, where the host half builds an
# AutoFDO profile from them.
set -u
out=${RVCTR_OUT:-/tmp}
cpu=/sys/bus/event_source/devices/cpu
echo "== board: Linux $(uname -r), $(nproc) harts"
dmesg | grep -E 'rvctr.*(extensions|CTR depths|registered|counters)' | sed 's/^\[[ 0-9.]*\] //'
if [ ! -e $cpu/caps/branches ]; then
	echo "no branch stacks: is the rvctr module loaded?"
	exit 1
fi
echo "== cpu PMU: $(cat $cpu/caps/branches)-entry branch stacks; $(ls $cpu/events | wc -l) named events"
cp ./hot "$out/hot"
echo "== perf record -b -e cycles:u -c 5000 -m 4096 ./hot 3000"
# Written to tmpfs, then copied: perf mmaps its output at the end, which
# the 9p share of /out does not allow.  A 256-entry stack (the default
# before 64) makes a 6 KB sample: perf's default 516 KB ring lost 19% of
# them under QEMU, 4 MB still 6%; 16 MB (-m 4096) lost none.
perf record -b -e cycles:u -c 5000 -m 4096 -o /tmp/perf.data -- ./hot 3000 2>&1 | tail -3
cp /tmp/perf.data "$out/perf.data" || exit 1
[ -s "$out/perf.data" ] || exit 1
echo "== perf report -b --sort symbol_from,symbol_to (hottest edges)"
perf report -i "$out/perf.data" -b --stdio --sort symbol_from,symbol_to 2>/dev/null |
	grep -v '^#' | grep -v '^$' | head -8
# The first samples land in the C library's start-up (ptmalloc_init's
# loop, getenv) before main runs: show the first one whose newest record
# leaves hot.c's own code (main, step, twice), chosen by symbol.
hot='^(main|step|twice)[+]0x'
echo "== perf script -F brstacksym (first sample in main/step/twice, first 6 records)"
perf script -i "$out/perf.data" -F brstacksym 2>/dev/null >/tmp/brstack.txt
awk -v hot="$hot" '$1 ~ hot { print; exit }' /tmp/brstack.txt | tr -s ' ' '\n' | grep . |
	head -6 >/tmp/sample.txt
if ! grep -qE "$hot" /tmp/sample.txt; then
	echo "no sample in main, step or twice: perf script -F brstacksym begins"
	head -3 /tmp/brstack.txt
	exit 1
fi
cat /tmp/sample.txt
echo "== rvctr report"
rvctr report "$out/perf.data" 2>&1 | head -40
echo "== rvctr convert: AutoFDO text, llvm-profgen perf-script text, SPE-like samples"
rvctr convert -f autofdo -b hot -o "$out/hot.afdo.txt" "$out/perf.data" &&
	rvctr convert -f perfscript -o "$out/hot.perfscript" "$out/perf.data" &&
	rvctr convert -f spe -o "$out/spe.data" "$out/perf.data" || exit 1
ls -l "$out"/hot.afdo.txt "$out"/hot.perfscript "$out"/spe.data | awk '{print $5, $9}'
echo "== perf script on the SPE-like samples (first 3 in main/step/twice)"
perf script -i "$out/spe.data" 2>/dev/null | grep -E ' (main|step|twice)[+]0x' | head -3
echo "== rvctr record (libperf, no perf binary needed) -j any,u -c 5000 ./hot 1000"
rvctr record -j any,u -c 5000 -m 256 -o /tmp/rvctr.data -- ./hot 1000 2>&1 | tail -2
cp /tmp/rvctr.data "$out/rvctr.data" || exit 1
echo "== rvctr report on it (summary)"
rvctr report "$out/rvctr.data" 2>&1 | head -8
