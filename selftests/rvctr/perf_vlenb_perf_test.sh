#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vlenb through perf (the perf the bench builds, kernel/perf-patches):
# --user-regs=? lists it where the kernel samples it (V boards) and not
# elsewhere, --user-regs=vlenb records it, perf script -F uregs prints
# the value the vlenb CSR reads, and --call-graph dwarf unwinds the
# samples of rvv_unwind's hot leaf through vmid, whose CFA reads vlenb
# (DWARF 7202), to main.
. ./lib.sh
bins=/opt/rvctr/selftests
tmp=$(mktemp -d /tmp/vlenb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

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

# --call-graph dwarf: the samples in hot() reach main through vmid
perf record -q -o $tmp/g.data -e instructions:u -c 100003 --call-graph dwarf -- \
	$bins/rvv_unwind 4 >/dev/null 2>$tmp/rec.err
perf script -i $tmp/g.data -F ip,sym 2>/dev/null >$tmp/chains
perf report -i $tmp/g.data --stdio --no-children --call-graph=graph,0.5,caller \
	-S hot 2>/dev/null | grep -v '^$' | head -25 | sed 's/^/# /'
# One sample a block: its first frame, then its callers.
read -r hot deep < <(awk '
	/^$/ { if (n) { if (f[1] == "hot") { h++; for (i = 2; i <= n; i++) if (f[i] == "main") { m++; break } } } n = 0; next }
	{ f[++n] = $2 }
	END { if (n && f[1] == "hot") { h++; for (i = 2; i <= n; i++) if (f[i] == "main") { m++; break } }
	      print h + 0, m + 0 }' $tmp/chains)
diag "samples in hot: $hot, of which unwound to main: $deep"
check "--call-graph dwarf: samples in hot() ($hot)" test "$hot" -gt 0
check "--call-graph dwarf: every sample in hot() unwinds through vmid to main ($deep of $hot)" \
	test "$hot" -gt 0 -a "$deep" = "$hot"
tap_done
