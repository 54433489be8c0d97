#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What the driver must do on the board it finds, when that board lacks
# some of what rvctr can use.  The profile is read from the board (the
# harts' riscv,isa-extensions, or /proc/cpuinfo's isa lines on an ACPI
# boot, and nproc), then each shortfall found is asserted:
#   no Sscofpmf     no overflow interrupt: the module loads, counting works,
#                   sampling events are refused with EOPNOTSUPP and the
#                   probe says sampling is unavailable
#   no Smctr/Ssctr  sampling works, branch stacks are refused with
#                   EOPNOTSUPP, the PMU has no caps/branches
#   no Smcdeleg     the probe delegates 0 counters; counting and sampling
#                   go through SBI calls
#   over two harts  every hart counts, and a system-wide perf stat goes on
#                   across CPU hotplug
#   Smstateen       S-mode reaches CTR only once M-mode firmware sets
#                   mstateen0.CTR (CTR v1.0 "State Enable Access
#                   Control"), which OpenSBI does from v1.7: with older
#                   firmware the probe says so, branch stacks are refused
#                   and the counters work; with newer, branch stacks work
# Checks that count samples need -icount (RVCTR_ICOUNT=1) and SKIP
# without it.  make check boots one board per profile (Makefile,
# PROFILE_TESTS); on the full two-hart board nothing here applies: SKIP.
. ./lib.sh
bins=/opt/rvctr/selftests
pmu=/sys/bus/event_source/devices/cpu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Extensions on every hart, one per line.
board_exts() {
	local nodes=(/proc/device-tree/cpus/cpu@*/"riscv,isa-extensions")

	if [ -e "${nodes[0]}" ]; then
		for f in "${nodes[@]}"; do tr '\0' '\n' <"$f" | sort -u; done |
			sort | uniq -c | awk -v n=${#nodes[@]} '$1 == n { print $2 }'
		return
	fi
	# ACPI: the isa lines list only the extensions this kernel knows.
	awk -F': *' '/^isa/ { sub(/^rv(32|64)[a-z]*/, "", $2); print $2 }' /proc/cpuinfo |
		tr '_' '\n' | grep . | sort | uniq -c |
		awk -v n="$(grep -c '^isa' /proc/cpuinfo)" '$1 == n { print $2 }'
}
exts=" $(board_exts | tr '\n' ' ') "
has() { [[ "$exts" == *" $1 "* ]]; }
harts=$(nproc)
icount=${RVCTR_ICOUNT:-}

nosscofpmf=; noctr=; nodeleg=; many=; stateen=; sbi=
has sscofpmf || nosscofpmf=1
# The firmware: "SBI implementation ID=0x1 Version=0x10005" is OpenSBI 1.5.
sbi=$(dmesg | sed -n 's/.*SBI implementation ID=0x1 Version=\(0x[0-9a-f]*\).*/\1/p' | tail -1)
has smstateen && has ssctr && stateen=1
has sscofpmf && ! has smctr && ! has ssctr && noctr=1
has smcdeleg && has ssccfg || nodeleg=1
[ "$harts" -gt 2 ] && many=1
diag "board: $harts harts${nosscofpmf:+, no Sscofpmf}${noctr:+, no Smctr/Ssctr}${nodeleg:+, no Smcdeleg/Ssccfg}${stateen:+, Smstateen}, OpenSBI ${sbi:-?}${icount:+; -icount}"
diag "extensions on every hart:$exts"
dmesg | grep rvctr | sed 's/^/# /'
if [ -z "$nosscofpmf$noctr$nodeleg$many$stateen" ]; then
	skip "board profile" "every extension rvctr uses and at most two harts: the other passes cover this board"
	tap_done
fi

# The series kernel's riscv_pmu_sbi has the same CTR backend, and no
# module or probe report of its own: the module's checks skip there.
module=
[ -f /opt/rvctr/rvctr.ko ] && module=1
if [ -n "$module" ]; then
	check "rvctr.ko is loaded" grep -q '^rvctr ' /proc/modules
else
	skip "rvctr.ko is loaded" "no module: the built-in driver"
fi
check "the cpu PMU is registered" test -e "$pmu/type"
if [ -n "$module" ] && [ -e /proc/device-tree/cpus ]; then
	# The probe read what the board has (rvctr_report()).
	probe=" $(dmesg | sed -n 's/.*rvctr.*extensions on all harts ([^)]*)://p' | tail -1) "
	agree=1
	for e in sscofpmf smctr ssctr smcdeleg ssccfg; do
		[[ "$probe" == *" $e "* ]] && p=1 || p=
		has "$e" && b=1 || b=
		[ "$p" = "$b" ] || { diag "$e: board ${b:-no} probe ${p:-no}"; agree=; }
	done
	check "the probe's extensions agree with the board's" test -n "$agree"
fi

# Counting works on every profile.
perf stat -x, -e cycles,instructions -o "$tmp/stat" -- \
	"$bins/ctr_workload" loop 100000 >/dev/null 2>&1
grep -E 'cycles|instructions' "$tmp/stat" | sed 's/^/# /'
cyc=$(awk -F, '$3 ~ /cycles/ { print $1 }' "$tmp/stat")
ins=$(awk -F, '$3 ~ /instructions/ { print $1 }' "$tmp/stat")
check "perf stat counts cycles ($cyc) and instructions ($ins)" \
	bash -c "[[ '$cyc' =~ ^[0-9]+\$ && '$ins' =~ ^[0-9]+\$ ]] && [ $cyc -gt 0 ] && [ $ins -gt 0 ]"

# perf record -e cycles -c 100000 of the workload: prints the sample count.
record_samples() {
	perf record -q -e cycles -c 100000 -o "$tmp/rec.data" -- \
		"$bins/ctr_workload" loop 100000 >/dev/null 2>&1
	perf script -i "$tmp/rec.data" -F ip 2>/dev/null | wc -l
}
# try_open WANT NAME ARGS...: pmu_try_open ARGS answers WANT ("opened" or
# "errno N ").
try_open() {
	local want=$1 name=$2 got
	shift 2
	got=$("$bins/pmu_try_open" "$@" 2>&1)
	if [[ "$got" == "$want"* ]]; then ok "$name"; else fail "$name: $got"; fi
}

if [ -n "$nosscofpmf" ]; then
	diag "profile: no Sscofpmf"
	check "the probe says sampling is unavailable" bash -c \
		"dmesg | grep rvctr | grep -v 'not loading' | grep -E -i -q 'overflow interrupt|sampling'"
	try_open opened "a counting event opens" instructions
	# Sscofpmf's xINH bits are the privilege filter: without them a
	# user-only event is refused, not counted in every mode.
	try_open "errno 95 " "a user-only counting event is refused (EOPNOTSUPP)" -u instructions
	try_open "errno 95 " "perf_event_open of a sampling event: EOPNOTSUPP" -p 100000 cycles
	perf record -e cycles -c 100000 -o "$tmp/rec.data" -- \
		"$bins/ctr_workload" loop 1000 >/dev/null 2>"$tmp/rec.err"
	rc=$?
	sed 's/^/# /' "$tmp/rec.err" | head -5
	check "perf record -e cycles fails, saying sampling is not supported" bash -c \
		"[ $rc -ne 0 ] && grep -E -i -q 'sampling|not supported' '$tmp/rec.err'"
fi

if [ -n "$noctr" ]; then
	diag "profile: Sscofpmf without Smctr/Ssctr"
	check "no caps/branches" test ! -e "$pmu/caps/branches"
	try_open opened "a sampling event opens" -p 100000 cycles
	try_open "errno 95 " "perf_event_open of a branch-stack event: EOPNOTSUPP" -b -p 100000 instructions
	# config3 bits other than the CTR options are reserved: refused
	# without CTR as with it (ctr_brstack_test checks a CTR board).
	try_open "errno 22 " "a reserved config3 bit: EINVAL" -p 100000 -c 0x4 instructions
	try_open "errno 22 " "a reserved config3 bit on a branch-stack event: EINVAL" \
		-b -p 100000 -c 0x4 instructions
	try_open "errno 22 " "ctr_ntbr without a branch stack: EINVAL" -p 100000 -c 0x1 instructions
	perf record -b -e instructions:u -c 100000 -o "$tmp/rec.data" -- \
		"$bins/ctr_workload" loop 1000 >/dev/null 2>"$tmp/rec.err"
	rc=$?
	sed 's/^/# /' "$tmp/rec.err" | head -5
	check "perf record -b fails, saying branch stacks are not supported" bash -c \
		"[ $rc -ne 0 ] && grep -E -i -q 'branch|not supported' '$tmp/rec.err'"
	if [ -n "$icount" ]; then
		n=$(record_samples)
		check "perf record -e cycles gives samples ($n)" test "$n" -gt 0
	else
		skip "perf record -e cycles gives samples" "sample counts need -icount"
	fi
fi

if [ -n "$nodeleg" ]; then
	diag "profile: no counter delegation"
	if [ -n "$module" ]; then
		check "the probe delegates 0 counters" bash -c \
			"dmesg | grep rvctr | grep -q '(0 delegated)'"
	fi
	if [ -n "$nosscofpmf" ]; then
		: # no sampling at all, checked above
	elif [ -n "$icount" ]; then
		n=$(record_samples)
		check "perf record -e cycles through SBI calls gives samples ($n)" test "$n" -gt 0
	else
		skip "perf record through SBI calls gives samples" "sample counts need -icount"
	fi
fi

# Smstateen: mstateen0.CTR is OpenSBI's from v1.7 (0x10007).
if [ -n "$stateen" ] && [ -n "$sbi" ] && [ $((sbi)) -lt $((0x10007)) ]; then
	diag "profile: Smstateen, firmware that leaves mstateen0.CTR clear"
	check "the probe says the firmware has not enabled CTR" bash -c \
		"dmesg | grep -q 'CTR CSRs trap: the firmware has not enabled CTR for S-mode (mstateen0.CTR)'"
	check "no caps/branches" test ! -e "$pmu/caps/branches"
	try_open "errno 95 " "perf_event_open of a branch-stack event: EOPNOTSUPP" -b -p 100000 instructions
	try_open opened "a sampling event opens" -p 100000 cycles
elif [ -n "$stateen" ]; then
	diag "profile: Smstateen, firmware that sets mstateen0.CTR"
	check "the probe does not say CTR traps" bash -c "! dmesg | grep -q 'CTR CSRs trap'"
	check "caps/branches is there" test -s "$pmu/caps/branches"
	perf record -b -e instructions:u -c 100000 -o "$tmp/rec.data" -- \
		"$bins/ctr_workload" loop 100000 >/dev/null 2>"$tmp/rec.err"
	rc=$?
	sed 's/^/# /' "$tmp/rec.err" | head -5
	n=$(perf script -i "$tmp/rec.data" -F brstack 2>/dev/null | grep -o '0x[0-9a-f]*/0x' | wc -l)
	check "perf record -b records branch stacks (status $rc, $n entries)" \
		bash -c "[ $rc -eq 0 ] && [ $n -gt 0 ]"
fi

# cpus_counting FILE: how many CPU rows of a perf stat -A -x, file count > 0.
cpus_counting() {
	awk -F, '$1 ~ /^CPU[0-9]+$/ && $2 ~ /^[0-9]+$/ && $2 > 0 { n++ } END { print n + 0 }' "$1"
}
# Every hart runs the workload under perf stat -a -A.
stat_all_cpus() {
	perf stat -a -A -x, -e instructions -o "$1" -- sh -c "
		for c in \$(seq 0 $((harts - 1))); do
			taskset -c \$c $bins/ctr_workload loop 20000 >/dev/null &
		done
		wait" >/dev/null 2>&1
	sed 's/^/# /' "$1" | grep CPU
}

if [ -n "$many" ]; then
	diag "profile: $harts harts"
	stat_all_cpus "$tmp/percpu"
	n=$(cpus_counting "$tmp/percpu")
	check "perf stat -a -A: all $harts CPUs count ($n)" test "$n" -eq "$harts"
	# cpu1..cpuN-1 offline and back, one at a time, under perf stat -a.
	perf stat -a -x, -e instructions -o "$tmp/hp" -- \
		sh -c "while [ ! -e $tmp/hp-done ]; do sleep 0.2; done" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	good=0
	for c in $(seq 1 $((harts - 1))); do
		if set_online "$c" 0 && set_online "$c" 1; then
			good=$((good + 1))
		fi
	done
	diag "online after the hotplug: $(cat /sys/devices/system/cpu/online)"
	touch "$tmp/hp-done"
	wait $pid
	rc=$?
	check "cpu1..cpu$((harts - 1)) go offline and online while counting ($good)" \
		test "$good" -eq $((harts - 1))
	grep instructions "$tmp/hp" | sed 's/^/# /'
	count=$(awk -F, '$3 ~ /instructions/ { print $1 }' "$tmp/hp")
	check "perf stat -a goes on across the hotplug (status $rc, count $count)" \
		bash -c "[ $rc -eq 0 ] && [[ '$count' =~ ^[0-9]+\$ ]] && [ $count -gt 0 ]"
	stat_all_cpus "$tmp/percpu2"
	n=$(cpus_counting "$tmp/percpu2")
	check "after the hotplug all $harts CPUs count ($n)" test "$n" -eq "$harts"
fi

check "no kernel warnings" bash -c "! dmesg | grep -E -q 'WARNING:|BUG:|Oops'"
tap_done
