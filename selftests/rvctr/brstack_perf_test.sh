#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Branch stacks through stock perf: caps/branches and ctr_depth, the
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
echo 32 >$pmu/ctr_depth
check "ctr_depth 32 shows in caps/branches" test "$(cat $pmu/caps/branches)" = 32
check "ctr_depth refuses 48" bash -c "! echo 48 >$pmu/ctr_depth 2>/dev/null"
perf record -q -o $tmp/d.data -b -e instructions:u -c 10007 -- \
	$bins/ctr_workload loop 100000 >/dev/null 2>&1
maxnr=$(perf report -D -i $tmp/d.data 2>/dev/null | sed -n 's/.*branch stack: nr:\([0-9]*\).*/\1/p' | sort -n | tail -1)
check "stacks at depth 32 hold at most 32 entries (max $maxnr)" \
	bash -c "[ -n '$maxnr' ] && [ '$maxnr' -le 32 ] && [ '$maxnr' -gt 16 ]"
echo "$depth" >$pmu/ctr_depth

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
perf script -i $tmp/b.data -F brstack,brstacksym 2>/dev/null | head -2 | cut -c1-400 | sed 's/^/# /'
for want in 'ct_loop\+[^ ]*/ct_leaf\+0x0/P/-/-/0/CALL' \
	    'ct_leaf\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/RET' \
	    'ct_loop\+[^ ]*/ct_ind\+0x0/P/-/-/0/IND_CALL' \
	    'ct_ind\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/RET' \
	    'ct_loop\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/COND' \
	    'ct_loop\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/UNCOND' \
	    'ct_loop\+[^ ]*/ct_loop\+[^ ]*/P/-/-/0/IND'; do
	check "perf script brstacksym has $want" grep -Eq "^$want" $tmp/b.sym
done
check "no kernel address in a user-only record" \
	bash -c "! perf script -i $tmp/b.data -F brstack | tr -s ' ' '\n' | grep -Eq '0x[89a-f][0-9a-f]{15}'"
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
# Samples in wl_c, and how many of them show wl_c <- wl_b <- wl_a <- main.
awk '
	/^$/ { if (n && s[0] == "wl_c") { inc++; if (n >= 4 && s[1] == "wl_b" && s[2] == "wl_a" && s[3] == "main") good++ } n = 0; next }
	{ s[n++] = $NF }
	END { print inc + 0, good + 0 }' $tmp/c.txt >$tmp/c.good
read -r inc good <$tmp/c.good
check "--call-graph lbr: $inc samples in wl_c" test "$inc" -gt 5
check "--call-graph lbr: all of them show wl_c <- wl_b <- wl_a <- main ($good)" \
	test "$good" -eq "$inc"

# --- the filters perf's test_brstack.sh checks, on perf's own workload ---
# Shallow stacks and sparse samples keep these fast on an emulated board.
echo 16 >$pmu/ctr_depth
w="perf test -w brstack 20000"
filt() {
	local f=$1 want=$2
	perf record -o $tmp/f.data -c 200003 --branch-filter "$f,save_type,u" -- $w >/dev/null 2>&1
	perf script -i $tmp/f.data -F brstack 2>/dev/null | tr -s ' ' '\n' | grep . >$tmp/f.txt
	if [ ! -s $tmp/f.txt ]; then
		fail "filter $f: no branches"
	elif grep -Evq "^[^ ]*/($want|-)/.*$" $tmp/f.txt; then
		fail "filter $f: $(grep -Evm1 "^[^ ]*/($want|-)/.*$" $tmp/f.txt)"
	else
		ok "filter $f yields only $want ($(wc -l <$tmp/f.txt) records)"
	fi
}
filt any_call "CALL|IND_CALL|SYSCALL|IRQ"
filt call "CALL"
filt cond "COND"
filt any_ret "RET|ERET"
filt call,cond "CALL|COND"
filt ind_call "IND_CALL"

perf record -o $tmp/s.data --branch-filter any_call,save_type,u,k -c 10007 -- \
	perf bench syscall basic --loop 3000 >/dev/null 2>&1
check "any_call,u,k records the ecall as SYSCALL from user to kernel" \
	bash -c "perf script -i $tmp/s.data -F brstack | tr -s ' ' '\n' | grep -Eq '^0x[0-7][0-9a-f]{0,15}/0x[89a-f][0-9a-f]{15}/P/-/-/0/SYSCALL'"
perf record -o $tmp/k.data -c 20011 --branch-filter any,k -- \
	perf bench syscall basic --loop 3000 >/dev/null 2>&1
perf script -i $tmp/k.data -F brstack | tr -s ' ' '\n' | grep . >$tmp/k.txt
check "any,k: kernel sources" grep -Eq '^0x[89a-f][0-9a-f]{15}/' $tmp/k.txt
check "any,k: no user target" bash -c "! grep -Eq '^0x[0-9a-f]{0,16}/0x[0-7][0-9a-f]{1,15}/' $tmp/k.txt"

echo "$depth" >$pmu/ctr_depth

tap_done
