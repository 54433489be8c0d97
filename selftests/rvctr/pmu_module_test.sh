#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Module load and unload with and without open events: an open event
# pins the module (rmmod fails with "in use"); once it is closed the module
# unloads, and its irq, cpuhp state and PMU are gone each time.
. ./lib.sh
ko=/opt/rvctr/rvctr.ko
pmu=/sys/bus/event_source/devices/cpu

if [ ! -f "$ko" ]; then
	skip "module load/unload" "no rvctr.ko (runner started with --no-module)"
	tap_done
fi
grep -q '^rvctr ' /proc/modules || insmod "$ko"
gone() {
	! grep -q '^rvctr ' /proc/modules &&
	! grep -q rvctr /proc/interrupts &&
	! grep -q 'perf/riscv/rvctr' /sys/devices/system/cpu/hotplug/states &&
	[ ! -e "$pmu" ]
}

loops=5
good=0
for i in $(seq $loops); do
	rm -f /tmp/pmu-started /tmp/pmu-stop
	# The workload runs until told to stop: the event is open for the
	# whole rmmod attempt, however slow the board.
	perf stat -e instructions -- sh -c 'touch /tmp/pmu-started
		while [ ! -e /tmp/pmu-stop ]; do sleep 0.1; done' >/dev/null 2>&1 &
	p=$!
	for w in $(seq 100); do [ -e /tmp/pmu-started ] && break; sleep 0.2; done
	if rmmod rvctr 2>/dev/null; then
		diag "rmmod succeeded with an open event"
		touch /tmp/pmu-stop
		wait $p
		insmod "$ko"
		break
	fi
	touch /tmp/pmu-stop
	wait $p
	rmmod rvctr || break
	gone || { diag "left behind after unload"; insmod "$ko"; break; }
	insmod "$ko" || break
	[ -e "$pmu/format/event" ] || break
	good=$((good + 1))
done
[ $good -eq $loops ] && ok "busy while an event is open, clean unload after, $loops times" ||
	fail "load/unload with open events: $good of $loops"

good=0
for i in $(seq 10); do
	rmmod rvctr && gone && insmod "$ko" && good=$((good + 1))
done
check "unload/reload without events 10 times" test $good -eq 10
n=$(perf stat -x, -e instructions:u -- busybox true 2>&1 | cut -d, -f1)
check "counts after the reloads" test "${n:-0}" -gt 0 2>/dev/null
check "no kernel warnings" bash -c "! dmesg | grep -E -q 'WARNING:|BUG:|Oops'"
tap_done
