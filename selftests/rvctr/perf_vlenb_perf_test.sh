#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vlenb through perf (the perf the bench builds, /opt/rvctr/perf with
# kernel/perf-patches; Debian's, which knows no RISC-V register names,
# fails it):
# --user-regs=? lists it where the kernel samples it (V boards) and not
# elsewhere, --user-regs=vlenb records it, perf script -F uregs prints
# the value the vlenb CSR reads, and --call-graph dwarf unwinds the
# samples of rvv_unwind's hot leaf through vmid, whose CFA reads vlenb
# (DWARF 7202), to main.
. ./lib.sh
bins=/opt/rvctr/selftests
tmp=$(mktemp -d /tmp/vlenb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -x /opt/rvctr/perf/bin/perf ] && export PATH=/opt/rvctr/perf/bin:$PATH

diag "perf: $(command -v perf) ($(perf version 2>/dev/null))"
perf record --user-regs=? 2>&1 | head -3 >$tmp/regs
sed 's/^/# /' $tmp/regs
# The single letters of the ISA string (rv64imafdcv_zicsr...): V or not
isa=$(sed -n 's/^isa[[:space:]]*: rv64\([a-z]*\).*/\1/p' /proc/cpuinfo | head -1)
case "$isa" in
*v*)	;;
*)	check "no V ($isa): --user-regs=? does not offer vlenb" \
		bash -c "! grep -qw vlenb $tmp/regs"
	tap_done ;;
esac

check "--user-regs=? lists vlenb" grep -qw vlenb $tmp/regs
want=$($bins/rvv_unwind vlenb)
diag "csrr vlenb: $want"
perf record -q -o $tmp/r.data -e instructions:u -c 100003 --user-regs=vlenb -- \
	$bins/rvv_unwind 2 >/dev/null 2>$tmp/rec.err
check "perf record --user-regs=vlenb" test -s $tmp/r.data
perf script -i $tmp/r.data -F ip,uregs 2>/dev/null >$tmp/uregs
head -2 $tmp/uregs | sed 's/^/# /'
n=$(grep -c 'vlenb:' $tmp/uregs)
good=$(grep -Ec "vlenb:0x$(printf '%x' "$want")( |$)" $tmp/uregs)
check "perf script -F uregs: vlenb $want in every sample ($good of $n)" \
	test "$n" -gt 0 -a "$good" = "$n"

# --call-graph dwarf: the samples in hot() reach main through vmid.
# perf report unwinds with libdw; the guest's (Debian's elfutils 0.192)
# cannot evaluate a CFA that reads DWARF register 7202 and stops at vmid,
# so the assertion is made with the libdw of kernel/elfutils (make
# libdw), and the stock one's result is only shown.
perf record -q -o $tmp/g.data -e instructions:u -c 100003 --call-graph dwarf -- \
	$bins/rvv_unwind 4 >/dev/null 2>$tmp/rec.err
check "perf record --call-graph dwarf" test -s $tmp/g.data
# --no-inline: the inline frames come from addr2line, which the board
# lacks (perf 6.12 then dies of SIGPIPE in perf script).
# unwound LIBDW_DIR: "SAMPLES-IN-HOT UNWOUND-TO-MAIN", one sample a block
# of perf script (its first frame, then its callers)
unwound() {
	LD_LIBRARY_PATH=$1 perf script -i $tmp/g.data -F ip,sym --no-inline 2>/dev/null |
		unwound_to_main hot
}
report() {
	LD_LIBRARY_PATH=$1 perf report -i $tmp/g.data --stdio --no-children --no-inline \
		--sort sym --call-graph=graph,0.5,caller 2>/dev/null |
		grep -v -e '^$' -e '^#' | head -12 | sed 's/^/#   /'
}
unwound "" >$tmp/n
read -r hot0 deep0 <$tmp/n
diag "stock libdw: samples in hot: $hot0, unwound to main: $deep0"
report ""
if [ -f $bins/libdw/libdw.so.1 ]; then
	unwound $bins/libdw >$tmp/n
	read -r hot deep <$tmp/n
	diag "kernel/elfutils libdw: samples in hot: $hot, unwound to main: $deep"
	report $bins/libdw
	check "--call-graph dwarf: samples in hot() ($hot)" test "$hot" -gt 0
	check "--call-graph dwarf: every sample in hot() unwinds through vmid to main ($deep of $hot)" \
		test "$hot" -gt 0 -a "$deep" = "$hot"
else
	skip "--call-graph dwarf through vmid" "no $bins/libdw/libdw.so.1 (make libdw)"
fi
tap_done
