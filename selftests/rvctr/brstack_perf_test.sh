#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Branch stacks through stock perf: caps/branches and how much of the
# buffer an event keeps (kernel.perf_event_max_stack), the
# debugfs raw snapshot, perf record -b / report -b / script on a workload
# with symbols, --call-graph lbr, and the filters perf's test_brstack.sh
# checks.  perf's own shell tests are in brstack_perfsuite_test.sh.
. ./lib.sh
bins=/opt/rvctr/selftests
pmu=/sys/bus/event_source/devices/cpu
snap=/sys/kernel/debug/rvctr/ctr
tmp=$(mktemp -d /tmp/brstack.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [ ! -f $pmu/caps/branches ]; then
	skip "branch stacks" "no $pmu/caps/branches: no CTR on this board"
	tap_done
fi

# --- sysfs -----------------------------------------------------------
depth=$(cat $pmu/caps/branches)
check "caps/branches is a CTR depth ($depth)" \
	bash -c "case $depth in 16|32|64|128|256) true;; *) false;; esac"
# The depth is programmed once per hart at probe: no file changes it.
# An event keeps at most attr.sample_max_stack entries, which perf sets to
# kernel.perf_event_max_stack: at 12, below every CTR depth, the deepest
# stack has 12 entries on every kernel (7.x's core cuts it, the backend
# copies no more on any).
check "no writable ctr_depth" test ! -e $pmu/ctr_depth
maxstack=/proc/sys/kernel/perf_event_max_stack
max0=$(cat $maxstack)
echo 12 >$maxstack
perf record -q -o $tmp/d.data -b -e instructions:u -c 10007 -- \
	$bins/ctr_workload loop 100000 >/dev/null 2>&1
echo "$max0" >$maxstack
# One entry per field of perf script's brstack: the deepest stack.
maxnr=$(perf script -i $tmp/d.data -F brstack 2>/dev/null | awk 'NF > m { m = NF } END { print m + 0 }')
check "perf_event_max_stack 12: stacks hold at most 12 entries (max $maxnr)" \
	bash -c "[ -n '$maxnr' ] && [ '$maxnr' -le 12 ] && [ '$maxnr' -gt 6 ]"

# --- debugfs raw snapshot ----------------------------------------------
if [ -r $snap ]; then
	# One read: the file shows the reading CPU's buffer, and the harts'
	# depths can differ.
	cat $snap >$tmp/snap
	head -1 $tmp/snap >$tmp/snap.head
	head -3 $tmp/snap | sed 's/^/# /'
	check "snapshot header: sctrstatus, depth, sctrctl" \
		grep -Eq '^sctrstatus 0x[0-9a-f]+ depth (16|32|64|128|256) sctrctl 0x[0-9a-f]+$' $tmp/snap.head
	n=$(sed -n 's/.* depth \([0-9]*\) .*/\1/p' $tmp/snap.head)
	lines=$(grep -Ec '^[0-9]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+$' $tmp/snap)
	check "snapshot has depth ($n) entry lines ($lines)" test "$lines" = "$n"
else
	skip "debugfs snapshot" "$snap missing (debugfs not mounted?)"
fi

# --- perf record -b / report -b / script on known code -------------------
perf record -o $tmp/b.data -b -e instructions:u -c 10007 -- \
	$bins/ctr_workload loop 100000 >/dev/null 2>$tmp/rec.err
check "perf record -b" grep -q 'samples' $tmp/rec.err
perf script -i $tmp/b.data -F brstacksym 2>/dev/null | tr -s ' ' '\n' >$tmp/b.sym
head -4 $tmp/b.sym | sed 's/^/# /'
for want in 'ct_loop\+[^ ]*/ct_leaf\+0x0/P/-/-/0/CALL' \
	    'ct_leaf\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/RET' \
	    'ct_loop\+[^ ]*/ct_ind\+0x0/P/-/-/0/IND_CALL' \
	    'ct_ind\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/RET' \
	    'ct_loop\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/COND' \
	    'ct_loop\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/UNCOND' \
	    'ct_loop\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/IND'; do
	check "perf script brstacksym has $want" grep -Eq "^$want" $tmp/b.sym
done
perf script -i $tmp/b.data -F brstack 2>/dev/null >$tmp/b.txt
check "perf script brstack has records" test -s $tmp/b.txt
check "no kernel address in a user-only record" \
	bash -c "! grep -Eq '0x[89a-f][0-9a-f]{15}' $tmp/b.txt"
perf report -b -i $tmp/b.data --stdio --sort symbol_from,symbol_to 2>/dev/null >$tmp/b.rep
sed -n '/^#.*Overhead/,+6p' $tmp/b.rep | sed 's/^/# /'
check "perf report -b pairs ct_loop -> ct_leaf" grep -Eq 'ct_loop +\[\.\] ct_leaf' $tmp/b.rep

# --- call stacks: perf record --call-graph lbr --------------------------
# The workload opens no event of its own (see ctr_workload.c: on QEMU a
# second instructions:u event on the hart would count nothing).
perf record -o $tmp/c.data --call-graph lbr -e instructions:u -c 10007 -- \
	$bins/ctr_workload chain 3000000 >/dev/null 2>&1
perf script -i $tmp/c.data -F ip,sym 2>/dev/null >$tmp/c.txt
[ -d /out ] && cp $tmp/c.txt /out/callgraph-lbr.txt
# All samples, those in wl_c, and how many of those show wl_c <- wl_b <-
# wl_a <- main.  wl_c retires about 15 million of the run's instructions
# and start-up about 0.2 million, so nine samples in ten or more land
# there.  That holds where samples follow retired instructions: this
# test runs on an -icount board (without it they follow host time, and a
# run once had 4 of 300 in wl_c, the rest where TCG translated start-up
# code).
awk '
	/^$/ { if (n) { all++; if (s[0] == "wl_c") { inc++; if (n >= 4 && s[1] == "wl_b" && s[2] == "wl_a" && s[3] == "main") good++ } } n = 0; next }
	{ s[n++] = $NF }
	END { print all + 0, inc + 0, good + 0 }' $tmp/c.txt >$tmp/c.good
read -r all inc good <$tmp/c.good
check "--call-graph lbr: $inc of $all samples in wl_c, at least 9 in 10" \
	test "$inc" -gt 100 -a $((inc * 10)) -ge $((all * 9))
check "--call-graph lbr: all of them show wl_c <- wl_b <- wl_a <- main ($good)" \
	test "$good" -eq "$inc"

# --- the filters perf's test_brstack.sh checks, on perf's own workload ---
# perf's test matches "/TYPE/" anywhere in an entry, and every entry has
# "/-/" fields, so it cannot fail; here the type field (the 7th of
# from/to/P/-/-/cycles/TYPE/spec) must be one the filter allows, and a
# control run without a filter must fail the same check.  Shallow stacks
# and sparse samples keep these fast on an emulated board.
echo 16 >$maxstack
w="perf test -w brstack 2000"
# types FILE ERE: "entries bad first-bad" of perf script brstack lines
types() {
	awk -v want="^($2)$" '
		{ for (i = 1; i <= NF; i++) { n++; split($i, f, "/")
			if (f[7] !~ want) { bad++; if (!first) first = $i } } }
		END { print n + 0, bad + 0, first }' "$1"
}
filt() {
	local f=$1 want=$2 n bad first
	perf record -o $tmp/f.data -c 2000003 --branch-filter "$f,save_type,u" -- $w >/dev/null 2>&1
	perf script -i $tmp/f.data -F brstack >$tmp/f.txt 2>/dev/null
	read -r n bad first <<<"$(types $tmp/f.txt "$want")"
	if [ "${n:-0}" -eq 0 ]; then
		fail "filter $f: no branches"
	elif [ "${bad:-1}" -ne 0 ]; then
		fail "filter $f: $bad of $n records are not $want, e.g. $first"
	else
		ok "filter $f yields only $want ($n records)"
	fi
}
perf record -o $tmp/f.data -c 2000003 --branch-filter any,save_type,u -- $w >/dev/null 2>&1
perf script -i $tmp/f.data -F brstack >$tmp/f.txt 2>/dev/null
read -r n bad first <<<"$(types $tmp/f.txt "COND")"
check "control: with filter any, $bad of $n records are not COND" \
	test "${bad:-0}" -gt 0
filt any_call "CALL|IND_CALL|SYSCALL|IRQ"
filt call "CALL"
filt cond "COND"
filt any_ret "RET|ERET"
filt call,cond "CALL|COND"
filt ind_call "IND_CALL"

perf record -o $tmp/s.data --branch-filter any_call,save_type,u,k -c 100003 -- \
	perf bench syscall basic --loop 3000 >/dev/null 2>&1
perf script -i $tmp/s.data -F brstack 2>/dev/null | tr -s ' ' '\n' >$tmp/s.txt
check "any_call,u,k records the ecall as SYSCALL from user to kernel" \
	grep -Eqm1 '^0x[0-7][0-9a-f]{0,15}/0x[89a-f][0-9a-f]{15}/P/-/-/0/SYSCALL' $tmp/s.txt
perf record -o $tmp/k.data -c 1000003 --branch-filter any,save_type,k -- \
	perf bench syscall basic --loop 3000 >/dev/null 2>&1
perf script -i $tmp/k.data -F brstack 2>/dev/null >$tmp/k.txt
# Kernel addresses have 16 hex digits, the top one 8-f.  CTR records the
# half of a transfer it may see: a trap from user space into the kernel
# has source 0, a trap return to user space has target 0 (as BRBE's
# source-only and target-only records).  Every other address is a kernel
# one.  Prints "entries, zero sources, zero targets, user addresses,
# first bad entry".
read -r n zsrc ztgt bad first <<<"$(awk '
	function kaddr(a) { return length(a) == 18 && a ~ /^0x[89a-f]/ }
	{ for (i = 1; i <= NF; i++) { n++; split($i, f, "/")
		if (f[1] == "0x0" && (f[7] == "SYSCALL" || f[7] == "IRQ")) zs++
		else if (f[2] == "0x0" && f[7] == "ERET") zt++
		else if (!kaddr(f[1]) || !kaddr(f[2])) { b++; if (!first) first = $i } } }
	END { print n + 0, zs + 0, zt + 0, b + 0, first ? first : "-" }' $tmp/k.txt)"
check "any,k: kernel addresses only ($n entries; $zsrc traps from and $ztgt returns to user space as half records; $bad others, e.g. $first)" \
	test "${n:-0}" -gt 0 -a "${bad:-1}" -eq 0

echo "$max0" >$maxstack

tap_done
