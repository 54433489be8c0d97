#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Guest half of `make compare` (run by ./compare under -icount shift=0):
# the same perf stat and perf record commands on one fixed workload, RUNS
# times each, with perf and the workload pinned to hart 1 (the stock
# driver loses overflows on hart 0 on this QEMU: Documentation/driver.rst).
# Appends "case<TAB>run<TAB>value" rows to /out/compare-FLAVOR.tsv; value
# is a count, a number of samples, or "-" where perf reports the event as
# not supported or not counted.
#   compare-guest.sh FLAVOR [RUNS] [freq]
# "freq" adds perf record -F, left out by default: its first period of 1
# can stop a two-hart -icount board, on either driver (QEMU's -icount
# round-robin, Documentation/driver.rst, "Explained: under -icount on
# two harts").
set -u
flavor=${1:?flavor}
runs=${2:-3}
freq=${3:-}
iters=${COMPARE_ITERS:-200000}
wl=/host/workload
pin="taskset -c 1"
tsv=/out/compare-$flavor.tsv
: >"$tsv"
cd /tmp

row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$tsv"; }

# Let the previous run's deferred kernel work (freeing perf's buffers and
# the like, run from softirqs on the same hart) finish first: without
# this, a kernel-inclusive count right after a perf record run was now
# and then 20 to 60 million instructions high, on the stock kernel too.
# Under -icount an idle second costs next to no host time.
settle() { sync; sleep 1; }

# count RUN EVENT: perf stat's count of EVENT over the workload
count() {
	local v
	settle
	v=$($pin perf stat -x, -e "$2" -- "$wl" branches "$iters" 2>&1 >/dev/null |
		awk -F, 'NF > 2 { print $1; exit }')
	case $v in
	'' | *[!0-9]*) v=- ;;
	esac
	row "stat $2" "$1" "$v"
}

# rec RUN ARGS...: samples perf record writes with ARGS
rec() {
	local run=$1 n
	shift
	rm -f rec.data
	settle
	if $pin perf record -q -o rec.data "$@" -- "$wl" branches "$iters" \
		>/dev/null 2>rec.err; then
		n=$(perf script -i rec.data -G -F ip 2>/dev/null | wc -l)
	else
		echo "# perf record $*: $(head -c 200 rec.err)"
		n=-
	fi
	row "record $*" "$run" "$n"
}

for run in $(seq "$runs"); do
	for e in instructions:u cycles:u instructions cycles instructions:k \
		 dTLB-load-misses iTLB-load-misses branches; do
		count "$run" "$e"
	done
	rec "$run" -e instructions:u -c 100000
	rec "$run" -e cycles:u -c 100000
	rec "$run" -e cycles -c 100000
	[ -z "$freq" ] || rec "$run" -e instructions:u -F 20000
done
echo "# wrote $(wc -l <"$tsv") rows to $tsv"
