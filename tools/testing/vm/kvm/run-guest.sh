#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# On the board (tools/testing/vm/run --kernel series-kvm ... run.sh, from
# build-kvm-guest's output directory): boot the series-kvm Image as a KVM
# guest with minivmm and the initramfs beside this script, and print the
# guest's TAP with the board's own lines around it.  ARGS go to minivmm
# (e.g. -d ssctr: a guest without Ssctr, whose CTR lines must fail;
# -a "... rvctr.event=cycles:u": the guest samples another event).
# --trace puts kprobes on the board's KVM PMU paths and prints them.
# --perftests boots build-kvm-guest --full's initramfs and has the guest
# run perf's own branch-stack tests too (rvctr.perftests=; guest-init):
# all of them, or those of the comma list LIST (sample, brstack, lbr).
#
#   run.sh [--perftests[=LIST]] [--trace] [MINIVMM ARGS...]
cd "$(dirname "$0")" || exit 1
initrd=initramfs.cpio.gz perftests='' limit=1200
case "${1:-}" in
--perftests | --perftests=*)
	t=${1#--perftests}
	initrd=initramfs-full.cpio.gz perftests=" rvctr.perftests=${t#=}" limit=3300
	[ -n "${t#=}" ] || perftests=" rvctr.perftests=all"
	shift ;;
esac
# --trace (first): kprobes on the board's KVM PMU paths, printed after the run.
trace=
if [ "${1:-}" = --trace ]; then
	trace=/sys/kernel/tracing
	shift
	mountpoint -q $trace || mount -t tracefs tracefs $trace
	for p in 'p:ovf kvm_riscv_pmu_overflow' \
		 'p:hovf pmu_sbi_ovf_handler' \
		 'p:setirq kvm_riscv_vcpu_set_interrupt irq=%a1' \
		 'p:start kvm_riscv_vcpu_pmu_ctr_start base=%a1 mask=%a2 flags=%a3 ival=%a4' \
		 'p:stop kvm_riscv_vcpu_pmu_ctr_stop base=%a1 mask=%a2 flags=%a3' \
		 'r:hidx pmu_sbi_ctr_get_idx ret=$retval' \
		 'p:cfg kvm_riscv_vcpu_pmu_ctr_cfg_match base=%a1 mask=%a2 flags=%a3 eidx=%a4 data=%a5'; do
		echo "$p" >>$trace/kprobe_events || echo "# trace: no $p"
	done
	echo 1 >$trace/events/kprobes/enable
fi
log=/out/guest-console.log
[ -d /out ] || log=/tmp/guest-console.log
echo "TAP version 13"
if [ ! -c /dev/kvm ]; then
	echo "not ok 1 - board: /dev/kvm (no KVM in the board's kernel)"
	echo "1..1"
	exit 1
fi
grep -m1 '^isa' /proc/cpuinfo | sed 's/^/# board /'
echo "# host perf_event_max_sample_rate $(cat /proc/sys/kernel/perf_event_max_sample_rate), perf_cpu_time_max_percent $(cat /proc/sys/kernel/perf_cpu_time_max_percent)"
grep -i pmu /proc/interrupts | tr -s ' ' | sed 's/^/# board interrupts before the guest: /'
t0=$(date +%s.%N)
timeout -k 5 "${RVCTR_KVM_GUEST_TIMEOUT:-$limit}" ./minivmm -v -m 384 -k Image -i $initrd -D "${log%.log}.dtb" \
	-a "console=ttyS0 earlycon panic=-1 loglevel=5 printk.devkmsg=on rdinit=/init$perftests" "$@" \
	>"$log" 2>&1
rc=$?
t1=$(date +%s.%N)
grep -i pmu /proc/interrupts | tr -s ' ' | sed 's/^/# board interrupts after the guest: /'
if [ -n "$trace" ]; then
	echo 0 >$trace/events/kprobes/enable
	sed 's/^ *//' $trace/trace | grep -v '^#' | awk '{ $1 = $2 = $3 = ""; print }' >/tmp/trace.txt
	echo "# trace: $(wc -l </tmp/trace.txt) events; the first 60 and the last 20:"
	head -60 /tmp/trace.txt | sed 's/^/# trace /'
	tail -20 /tmp/trace.txt | sed 's/^/# trace /'
fi
dmesg | grep -iE 'perf|kvm|throttl' | tail -5 | sed 's/^/# host dmesg: /'
tr -d '\r' <"$log" | sed 's/^/# guest console: /' | grep -Ev 'console: (not )?ok [0-9]'
# The guest's TAP, renumbered after the board's lines.
n=1
if [ $rc -eq 0 ]; then
	echo "ok 1 - board: minivmm ran the guest to its poweroff ($(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s)"
else
	echo "not ok 1 - board: minivmm exited with status $rc (console: $log)"
fi
fail=$((rc != 0))
tr -d '\r' <"$log" | grep -E '^(not )?ok [0-9]+ - guest:' >"$log.tap"
while IFS= read -r l; do
	n=$((n + 1))
	case "$l" in
	"not ok"*) fail=1; echo "not ok $n ${l#not ok [0-9]* }" ;;
	*) echo "ok $n ${l#ok [0-9]* }" ;;
	esac
done <"$log.tap"
if ! tr -d '\r' <"$log" | grep -q '^1\.\.[0-9]'; then
	n=$((n + 1))
	echo "not ok $n - board: the guest printed no plan (did not finish)"
	fail=1
fi
# A guest that sampled too little: the same recording on the board
# itself, to tell the guest's path from the board's.
if grep -q '^not ok.*samples the workload' "$log.tap"; then
	perf record -q -o /tmp/host-b.data -b -e instructions:u -c 10007 -- \
		./ctr_workload loop 50000 >/dev/null 2>&1
	echo "# board: perf record -b of the guest's workload: $(perf report -i /tmp/host-b.data --stats 2>/dev/null |
		sed -n 's/^ *SAMPLE events: *\([0-9]*\)$/\1/p' | head -1) samples"
fi
echo "1..$n"
exit $fail
