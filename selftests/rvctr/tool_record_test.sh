#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# rvctr record end to end on the board: libperf opens a branch-stack event
# on the driver's PMU, the tool drains the ring buffers into perf.data, and
# stock perf, rvctr report and rvctr convert read the result.
. ./lib.sh
rvctr=/opt/rvctr/bin/rvctr
caps=/sys/bus/event_source/devices/cpu/caps/branches
out=${RVCTR_OUT:-/tmp}
d=$(mktemp -d)
# a shell loop runs thousands of instructions per iteration: keep the
# sample count in the hundreds, or at ctr_depth=256 (6 KB a sample) the
# guest's tmpfs fills up
work='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
period=4000000

if [ ! -x "$rvctr" ]; then
	skip "rvctr record" "no $rvctr in the guest image"
	tap_done
fi
if [ ! -e "$caps" ]; then
	skip "rvctr record" "$caps is absent: the cpu PMU has no branch stacks (driver without CTR support, or not loaded)"
	tap_done
fi
diag "branch stack depth: $(cat $caps)"

if $rvctr record -c $period -o "$d/r.data" -- sh -c "$work" 2>"$d/log"; then
	ok "rvctr record -- workload"
else
	fail "rvctr record -- workload"
	sed 's/^/# /' "$d/log"
fi
diag "$(cat "$d/log")"
n=$(grep -o '[0-9]* samples' "$d/log" | grep -o '^[0-9]*' || echo 0)
[ "${n:-0}" -gt 0 ] && ok "samples recorded ($n)" || fail "no samples recorded"
cp "$d/r.data" "$out/tool-record.data" 2>/dev/null

check "rvctr report reads it" sh -c "$rvctr report '$d/r.data' >'$d/report.txt' 2>&1"
sed 's/^/# /' "$d/report.txt" | head -20
if command -v perf >/dev/null; then
	check "perf script shows branch stacks" sh -c \
		"perf script -i '$d/r.data' -F ip,brstack 2>/dev/null | grep -q '0x[0-9a-f]*/0x[0-9a-f]*/'"
	check "perf report reads it in branch mode" sh -c \
		"perf report -i '$d/r.data' --stdio 2>/dev/null | grep -q 'Source Symbol'"
else
	skip "stock perf reads it" "no perf in the guest image"
fi

# -j any_call must never yield returns or conditional branches
if $rvctr record -j any_call,u -c $period -o "$d/c.data" -- sh -c "$work" 2>"$d/log"; then
	$rvctr report "$d/c.data" >"$d/c.txt" 2>&1
	if grep -qE '^(RET|COND) ' "$d/c.txt"; then
		fail "-j any_call: returns or conditional branches recorded"
		sed 's/^/# /' "$d/c.txt" | head
	else
		ok "-j any_call records calls only"
	fi
else
	fail "rvctr record -j any_call,u"
	sed 's/^/# /' "$d/log"
fi

# -a: system-wide, every sample says which CPU it came from (as perf
# record -a), and convert keeps it
if $rvctr record -a -c $period -o "$d/a.data" -- sh -c "$work" 2>"$d/log"; then
	ok "rvctr record -a -- workload"
	if command -v perf >/dev/null; then
		check "rvctr record -a: samples carry their CPU (perf script -F cpu)" sh -c \
			"perf script -i '$d/a.data' -F cpu,ip 2>/dev/null | grep -qE '^ *\[[0-9]+\] '"
		check "rvctr record -a: convert -f perf keeps the CPU" sh -c \
			"$rvctr convert -f perf -o '$d/ac.data' '$d/a.data' 2>/dev/null &&
			 perf script -i '$d/ac.data' -F cpu,ip 2>/dev/null | grep -qE '^ *\[[0-9]+\] '"
	fi
else
	fail "rvctr record -a -- workload"
	sed 's/^/# /' "$d/log"
fi

check "convert to SPE-like samples" $rvctr convert -f spe -o "$d/s.data" "$d/r.data"
if command -v perf >/dev/null; then
	check "perf script reads SPE-like samples" sh -c \
		"perf script -i '$d/s.data' -F event,ip,addr,weight 2>/dev/null | grep -q 'branch:'"
fi
check "convert to AutoFDO text" $rvctr convert -f autofdo -o "$d/a.afdo" "$d/r.data"
cp "$d/a.afdo" "$out/" 2>/dev/null
rm -rf "$d"
tap_done
