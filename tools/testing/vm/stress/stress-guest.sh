#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Guest half of `make stress`: SECONDS of abuse with the driver loaded.
# The host runner fails the run on any Oops, BUG, WARNING or lockup in the
# console; this script fails if a phase could not run at all.
#   stress-guest.sh SECONDS
set -u
secs=${1:-120}
ko=/opt/rvctr/rvctr.ko
cpu=/sys/bus/event_source/devices/cpu
fail=0
cd /tmp
phase() { echo "== stress: $* ($(date +%T))"; }

# 1. trinity on perf_event_open and the calls that use its fds, as an
#    unprivileged user and then as root (--dangerous reaches the paths
#    perf_event_paranoid keeps users from), until the time is up.  SIGINT
#    makes trinity stop its children and report the calls it ran.
# fuzz NAME SECONDS trinity-args...
fuzz() {
	local name=$1 t=$2 rc calls
	shift 2
	phase "trinity $name, ${t}s"
	timeout -s INT -k 20 "$t" trinity -q -C 2 -c perf_event_open \
		-c ioctl -c read -c mmap -c close "$@" >/tmp/trinity.log 2>&1
	rc=$?
	calls=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' /tmp/trinity.log | tail -1)
	echo "trinity $name: ${calls:-no} syscalls"
	case $rc in
	0|124|130) ;;
	*) echo "trinity $name exited $rc"; tail -5 /tmp/trinity.log; fail=1 ;;
	esac
	[ "${calls:-0}" -gt 0 ] || { echo "trinity $name made no call"; tail -5 /tmp/trinity.log; fail=1; }
}
chmod 1777 /tmp
fuzz "as nobody" $((secs * 2 / 5)) --dropprivs
fuzz "as root" $((secs * 2 / 5)) --dangerous

# 2. module unload/load loops while another hart is busy, with events
#    opened on the fresh PMU each time, and an unload attempted while an
#    event is open (it must fail with EBUSY, not crash).
t=$((secs / 10 + 1))
phase "module unload/load under load, ${t}s"
yes >/dev/null &
busy=$!
end=$((SECONDS + t))
loads=0
held=0
while [ $SECONDS -lt $end ]; do
	rmmod rvctr && insmod "$ko" || { echo "reload failed"; fail=1; break; }
	loads=$((loads + 1))
	# perf stat's events stay open until its workload ends, and the
	# workload ends only when killed below, so however slow the board
	# is, the unload is tried while they are open.  (A workload of
	# "sleep 1" could end between the refcnt read and rmmod on a busy
	# host, and a correct refusal then looked like an unload under an
	# open event.)
	rm -f /tmp/stress-wl.pid
	perf stat -e cycles,instructions -a -- \
		sh -c 'echo $$ >/tmp/stress-wl.pid; exec sleep 600' >/dev/null 2>&1 &
	stat=$!
	# Under emulation perf takes a while to open its events: wait until
	# they hold the module (perf takes a reference per event), then an
	# unload must fail.  Before that an unload is legitimate.
	for try in $(seq 500); do
		[ "$(cat /sys/module/rvctr/refcnt 2>/dev/null || echo 0)" -gt 0 ] && break
		kill -0 $stat 2>/dev/null || break
		sleep 0.02
	done
	if [ "$(cat /sys/module/rvctr/refcnt 2>/dev/null || echo 0)" -gt 0 ]; then
		held=$((held + 1))
		if rmmod rvctr 2>/dev/null; then
			echo "unloaded under an open event"
			fail=1
			insmod "$ko"
		fi
	fi
	for try in $(seq 500); do
		[ -s /tmp/stress-wl.pid ] && break
		kill -0 $stat 2>/dev/null || break
		sleep 0.02
	done
	kill "$(cat /tmp/stress-wl.pid 2>/dev/null)" 2>/dev/null
	wait $stat
done
kill $busy
grep -q '^rvctr ' /proc/modules || insmod "$ko" || fail=1
echo "reloaded $loads times; $held unloads refused while events were open"
[ $held -gt 0 ] || { echo "no unload was tried with an event open"; fail=1; }
[ $loads -gt 0 ] || { echo "module never reloaded"; fail=1; }

# 3. CPU hotplug while recording system-wide (with branch stacks if the
#    PMU has them).
t=$((secs / 10 + 1))
phase "cpu hotplug during perf record -a, ${t}s"
b=
[ -e $cpu/caps/branches ] && b=-b
# Exact sampling on both harts with full stacks fills memory fast (the
# guest has 1 GiB and /tmp is RAM): a long period, and no build-id pass.
perf record -q $b -a -B -e cycles -c 5000000 -o /tmp/hp.data -- sleep "$t" &
rec=$!
# perf opens one cycles event per online CPU, and each holds a reference
# on the module.  Offlining cpu1 before perf has opened its event there
# makes that open fail, and perf then falls back to cpu-clock, which has
# no branch stacks: start the flips only once every event is open.
ncpu=$(grep -c '^processor' /proc/cpuinfo)
opened=
for try in $(seq 600); do
	[ "$(cat /sys/module/rvctr/refcnt 2>/dev/null || echo 0)" -ge "$ncpu" ] &&
		{ opened=1; break; }
	kill -0 $rec 2>/dev/null || break
	sleep 0.1
done
[ -n "$opened" ] || { echo "perf record -a never opened its $ncpu cycles events"; fail=1; }
# Under emulation a hart can still be "stop pending" in SBI HSM right after
# offline (the kernel then says "CPU1 may not have stopped"), and onlining
# it at once fails: give it time and retry, and fail only if it never
# comes back.
flips=0
online=/sys/devices/system/cpu/cpu1/online
while kill -0 $rec 2>/dev/null; do
	echo 0 >$online || continue
	for try in 1 2 3 4 5 6 7 8 9 10; do
		sleep 0.1
		echo 1 >$online 2>/dev/null && break
	done
	[ "$(cat $online)" = 1 ] || { echo "cpu1 did not come back"; fail=1; break; }
	flips=$((flips + 1))
done
wait $rec || { echo "perf record across hotplug failed"; fail=1; }
echo "cpu1 offlined and onlined $flips times"
[ $flips -gt 0 ] || fail=1
# The recording is of the cpu PMU's cycles, not a software fallback.
ev=$(perf evlist -i /tmp/hp.data 2>/dev/null | head -1)
echo "perf record across hotplug recorded: ${ev:-nothing}"
[ "$ev" = cycles ] || { echo "expected cycles on the cpu PMU"; fail=1; }
perf report -i /tmp/hp.data --stats 2>/dev/null | grep -i 'sample' | head -2
exit $fail
