#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# rvctr record --call-graph dwarf and rvctr convert -f perf on the board,
# read by the bench's perf (/opt/rvctr/perf, kernel/perf-patches):
# record samples the user registers perf record --call-graph dwarf
# samples (x1..x31 and pc, and vlenb where the kernel takes it: harts
# with V) and 8192 bytes of user stack; perf unwinds the recording, and
# its convert -f perf output alike, from the hot leaf to main.  On a V
# board the workload is rvv_unwind, whose vmid frame has a CFA that reads
# vlenb (DWARF 7202), unwound with the libdw of kernel/elfutils (make
# libdw), as perf_vlenb_perf_test does with perf's own recording; without
# V it is ctr_workload's chain, and the mask goes without vlenb.
. ./lib.sh
rvctr=/opt/rvctr/bin/rvctr
bins=/opt/rvctr/selftests
tmp=$(mktemp -d /tmp/dwarf.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -x /opt/rvctr/perf/bin/perf ] && export PATH=/opt/rvctr/perf/bin:$PATH

if [ ! -x "$rvctr" ] || ! command -v perf >/dev/null; then
	skip "rvctr record --call-graph dwarf" "needs $rvctr and perf"
	tap_done
fi
diag "perf: $(command -v perf) ($(perf version 2>/dev/null))"
isa=$(sed -n 's/^isa[[:space:]]*: rv64\([a-z]*\).*/\1/p' /proc/cpuinfo | head -1)
libdw=
case "$isa" in
*v*)	mask=0x1ffffffff
	leaf=hot
	work="$bins/rvv_unwind 4"
	if [ -f $bins/libdw/libdw.so.1 ]; then
		libdw=$bins/libdw
	else
		skip "--call-graph dwarf through vmid" "no $bins/libdw/libdw.so.1 (make libdw)"
		tap_done
	fi ;;
*)	mask=0xffffffff
	leaf=wl_c
	# under -icount (RVCTR_ICOUNT=1) about 75 samples; off it the count
	# follows the host's speed
	work="$bins/ctr_workload chain $([ -n "${RVCTR_ICOUNT:-}" ] && echo 1500000 || echo 10000000)" ;;
esac
diag "ISA letters $isa: expecting sample_regs_user $mask, unwinding from $leaf"

if $rvctr record -e instructions -c 100003 -j u --call-graph dwarf -o $tmp/g.data -- \
	$work >/dev/null 2>$tmp/rec.err; then
	ok "rvctr record --call-graph dwarf -- $work"
else
	fail "rvctr record --call-graph dwarf -- $work"
	sed 's/^/# /' $tmp/rec.err
	tap_done
fi
diag "$(cat $tmp/rec.err)"
perf evlist -v -i $tmp/g.data >$tmp/evlist 2>/dev/null
sed 's/^/# /' $tmp/evlist
check "sample_regs_user: $mask" grep -q "sample_regs_user: $mask\b" $tmp/evlist
check "sample_stack_user: 8192, REGS_USER and STACK_USER" bash -c \
	"grep -q 'sample_stack_user: 8192' $tmp/evlist && grep -q 'REGS_USER|STACK_USER' $tmp/evlist"
if [ $leaf = hot ]; then
	want=$($bins/rvv_unwind vlenb)
	# --no-inline: without, perf 6.12 asks the board's missing addr2line
	# for inline frames and prints garbage where the callchain was
	perf script -i $tmp/g.data -F ip,uregs --no-inline 2>$tmp/uregs.err >$tmp/uregs
	grep -m1 -a -o 'ABI.*' $tmp/uregs | sed 's/^/# /'
	n=$(grep -c 'vlenb:' $tmp/uregs)
	# perf's messages only when it printed no register (the runner
	# takes a "WARNING:" on the console for the kernel's: perf 7.3 says
	# "WARNING: perf.data is missing HEADER_NRCPUS")
	[ "$n" -gt 0 ] || head -3 $tmp/uregs.err | sed 's/WARNING:/warning:/; s/^/# /'
	good=$(grep -Ec "vlenb:0x$(printf '%x' "$want")( |$)" $tmp/uregs)
	check "perf script -F uregs: vlenb $want in every sample ($good of $n)" \
		test "$n" -gt 0 -a "$good" = "$n"
fi

check "rvctr convert -f perf" $rvctr convert -f perf -o $tmp/c.data $tmp/g.data 2>$tmp/conv.err
sed 's/^/# /' $tmp/conv.err
perf evlist -v -i $tmp/c.data >$tmp/evlist.c 2>/dev/null
check "convert keeps REGS_USER, STACK_USER, sample_regs_user $mask, 8192 bytes" bash -c \
	"grep -q 'REGS_USER|STACK_USER' $tmp/evlist.c && grep -q 'sample_regs_user: $mask\b' $tmp/evlist.c &&
	 grep -q 'sample_stack_user: 8192' $tmp/evlist.c"

# unwound FILE: "SAMPLES-IN-LEAF UNWOUND-TO-MAIN", one sample a block of
# perf script (its first frame, then its callers).  --no-inline: the
# inline frames come from addr2line, which the board lacks.
unwound() {
	LD_LIBRARY_PATH=$libdw perf script -i $1 -F ip,sym --no-inline 2>/dev/null |
		unwound_to_main $leaf
}
report() {
	LD_LIBRARY_PATH=$libdw perf report -i $1 --stdio --no-children --no-inline \
		--sort sym --call-graph=graph,0.5,caller 2>/dev/null |
		grep -v -e '^$' -e '^#' | head -12 | sed 's/^/#   /'
}
# (the board has no /dev/fd for <(...))
unwound $tmp/g.data >$tmp/n
read -r hot deep <$tmp/n
diag "the recording: samples in $leaf: $hot, unwound to main: $deep"
report $tmp/g.data
check "the recording: samples in $leaf ($hot)" test "$hot" -gt 0
check "the recording: every sample in $leaf unwinds to main ($deep of $hot)" \
	test "$hot" -gt 0 -a "$deep" = "$hot"
unwound $tmp/c.data >$tmp/n
read -r chot cdeep <$tmp/n
diag "convert -f perf: samples in $leaf: $chot, unwound to main: $cdeep"
report $tmp/c.data
check "convert -f perf: every sample in $leaf unwinds to main ($cdeep of $chot)" \
	test "$chot" = "$hot" -a "$cdeep" = "$deep" -a "$hot" -gt 0 -a "$deep" = "$hot"
LD_LIBRARY_PATH=$libdw perf script -i $tmp/g.data -F ip,sym,uregs --no-inline >$tmp/g.txt 2>/dev/null
LD_LIBRARY_PATH=$libdw perf script -i $tmp/c.data -F ip,sym,uregs --no-inline >$tmp/c.txt 2>/dev/null
check "perf script -F ip,sym,uregs: convert -f perf's output is the recording's ($(grep -c 'ABI:2' $tmp/c.txt) samples)" \
	bash -c "grep -q 'ABI:2' $tmp/c.txt && cmp -s $tmp/g.txt $tmp/c.txt"
tap_done
