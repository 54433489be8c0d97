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

# The kernel's and modules' maps, first in every recording as perf record
# writes them (tools/perf/util/synthetic-events.c): the kernel map at
# _text (else _stext; a text symbol, as perf's ref_reloc_sym) of
# /proc/kallsyms with pgoff the same address (what perf report relocates
# a vmlinux by), a map per /proc/modules line.
# perf script --show-mmap-events prints them as
#   PERF_RECORD_MMAP2 -1/0: [0xSTART(0xLEN) @ PGOFF ...]: ... NAME
ref=$(awk '$3 == "_text" && $2 ~ /^[TtWwA]$/ { print $1; exit }' /proc/kallsyms 2>/dev/null)
refname=_text
if [ -z "$ref" ]; then
	ref=$(awk '$3 == "_stext" && $2 ~ /^[TtWwA]$/ { print $1; exit }' /proc/kallsyms 2>/dev/null)
	refname=_stext
fi
if ! command -v perf >/dev/null || [ ! -s "$d/a.data" ]; then
	skip "rvctr record -a: kernel and module maps" "no perf, or no -a recording"
elif [ -z "$ref" ] || [ $((0x$ref)) -eq 0 ]; then
	skip "rvctr record -a: kernel and module maps" \
		"no _text/_stext in /proc/kallsyms, or kernel pointers restricted (kptr_restrict)"
else
	perf script -i "$d/a.data" --show-mmap-events 2>/dev/null |
		grep 'PERF_RECORD_MMAP2 -1/' >"$d/kmaps.txt"
	k=$(printf '%x' $((0x$ref)))
	if grep -qE "PERF_RECORD_MMAP2 -1/0: \[0x$k\(0x[0-9a-f]+\) @ 0x$k .*\[kernel\.kallsyms\]$refname\$" \
		"$d/kmaps.txt"; then
		ok "rvctr record -a: kernel map [kernel.kallsyms]$refname at 0x$k, pgoff 0x$k"
	else
		fail "rvctr record -a: no kernel map [kernel.kallsyms]$refname at 0x$k"
		sed 's/^/# /' "$d/kmaps.txt" | head -5
	fi
	# the first module with an address (the driver's, on most runs)
	read -r mname msize maddr <<<"$(awk '$6 ~ /^0x/ && $6 !~ /^0x0+$/ \
		{ print $1, $2, $6; exit }' /proc/modules 2>/dev/null)"
	if [ -z "${maddr:-}" ]; then
		skip "rvctr record -a: module maps" "no module loaded"
	else
		m=$(printf '%x' $((maddr)))
		l=$(printf '%x' "$msize")
		if grep -qE "PERF_RECORD_MMAP2 -1/0: \[0x$m\(0x$l\) @ (0|0x0) .*(\[$mname\]|/[^ ]*\.ko(\.[a-z]+)?)\$" \
			"$d/kmaps.txt"; then
			ok "rvctr record -a: module map of $mname at 0x$m, 0x$l bytes"
		else
			fail "rvctr record -a: no module map of $mname at 0x$m, 0x$l bytes"
			sed 's/^/# /' "$d/kmaps.txt" | head -5
		fi
	fi
	# kernel samples of a recording that includes the kernel resolve:
	# without the map perf shows them as [unknown], rvctr report as
	# [kernel.kallsyms] without the reference symbol
	if $rvctr record -j any,u,k -c $period -o "$d/k.data" -- \
		dd if=/dev/zero of=/dev/null bs=512 count=50000 2>"$d/log"; then
		check "rvctr record -j any,u,k: perf attributes kernel samples to [kernel.kallsyms]" \
			sh -c "perf script -i '$d/k.data' -F ip,dso 2>/dev/null |
			       grep -q '(\[kernel\.kallsyms\])'"
		check "rvctr record -j any,u,k: rvctr report resolves by the kernel map" \
			sh -c "$rvctr report -n 1000 --kallsyms /proc/kallsyms '$d/k.data' 2>&1 |
			       grep -qE '%  \[kernel\.kallsyms\]$refname: [A-Za-z_]'"
	else
		fail "rvctr record -j any,u,k -- dd"
		sed 's/^/# /' "$d/log"
	fi
fi

# perf record -z writes its records zstd-compressed (PERF_RECORD_COMPRESSED,
# the "compressed" header feature): the board's own rvctr reads them
# without a perf inject first.
if ! command -v perf >/dev/null; then
	skip "rvctr reads perf record -z -b" "no perf in the guest image"
elif ! perf record -z -b -c $period -o "$d/z.data" -- sh -c "$work" >/dev/null 2>"$d/log"; then
	fail "perf record -z -b -- workload"
	sed 's/^/# /' "$d/log"
elif ! perf report -i "$d/z.data" --header-only 2>/dev/null | grep -q '^# compressed : Zstd'; then
	skip "rvctr reads perf record -z -b" "perf wrote no compressed records (built without zstd?)"
else
	if $rvctr report "$d/z.data" >"$d/z.txt" 2>&1 && grep -qE '^(COND|JAL|CALL|RET) ' "$d/z.txt"; then
		ok "rvctr report reads perf record -z -b"
	else
		fail "rvctr report reads perf record -z -b"
		sed 's/^/# /' "$d/z.txt" | head
	fi
	check "rvctr convert -f perfscript reads perf record -z -b" sh -c \
		"$rvctr convert -f perfscript -o '$d/z.script' '$d/z.data' 2>'$d/log' && [ -s '$d/z.script' ] ||
		 { sed 's/^/# /' '$d/log'; false; }"
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
