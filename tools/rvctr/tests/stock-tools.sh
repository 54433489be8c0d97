#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Our outputs against the stock consumers: perf (report/script), AutoFDO's
# create_llvm_prof and llvm-profgen-19 must read them, and AutoFDO and
# llvm-profgen must produce the same profile from our text outputs as from
# the equivalent perf.data.  Synthetic CTR snapshots of a riscv64 program.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}


if ! build_loop "$T_DIR/loop" || ! loop_addrs "$T_DIR/loop"; then
	not_ok "build the riscv64 test program with ${CROSS_COMPILE:-riscv64-linux-gnu-}gcc"
	done_testing
	exit
fi
gen_snapshots 300 16 7 >"$T_DIR/snap.txt"
B=$T_DIR/loop

check "convert snapshots to perf.data" $R convert -f perf -b "$B" --misp -o "$T_DIR/a.data" "$T_DIR/snap.txt"
check "convert perf.data to perf.data" $R convert -f perf -o "$T_DIR/b.data" "$T_DIR/a.data"
check "convert to SPE-like samples" $R convert -f spe -o "$T_DIR/s.data" "$T_DIR/a.data"
check "convert to AutoFDO text" $R convert -f autofdo -o "$T_DIR/a.afdo" "$T_DIR/a.data"
check "convert snapshots to AutoFDO text" $R convert -f autofdo -b "$B" --misp -o "$T_DIR/s.afdo" "$T_DIR/snap.txt"
check "AutoFDO text is the same from snapshots and from perf.data" cmp "$T_DIR/a.afdo" "$T_DIR/s.afdo"
check "convert to llvm-profgen perf script" $R convert -f perfscript -o "$T_DIR/a.script" "$T_DIR/a.data"
check "report" $R report "$T_DIR/a.data"
cp "$T_LOG" "$T_DIR/report.txt"
check "report names binary and symbol" grep -q 'loop: work' "$T_DIR/report.txt"
check "report counts mispredicts" grep -q 'mispredict rate: [0-9.]*% (527 of 4800)' "$T_DIR/report.txt"
# a different local file under the recorded name: addresses, not wrong symbols
mkdir -p "$T_DIR/symfs/$(dirname "$B")"
"${CROSS_COMPILE:-riscv64-linux-gnu-}gcc" -O1 -static -no-pie -Wl,--build-id=0x1234 \
	-o "$T_DIR/symfs/$B" "$(dirname "$0")/data/loop.c"
check "report: a rebuilt binary (other build id) is not used for symbols" sh -c \
	"$R report --symfs '$T_DIR/symfs' '$T_DIR/a.data' | grep -q 'differ from the recorded ones'"

if ! have perf; then
	for t in "perf script reads our perf.data" "perf script reads the round trip" \
		"perf report reads our perf.data in branch mode" "perf script reads SPE-like samples"; do
		skip "$t" "perf not installed"
	done
else
	check "perf script reads our perf.data" perf script -i "$T_DIR/a.data" -F ip,brstack
	grep -c '0x' "$T_LOG" >"$T_DIR/n"
	cp "$T_LOG" "$T_DIR/a.perfscript"
	check "perf script reads the round trip, same output" sh -c \
		"perf script -i '$T_DIR/b.data' -F ip,brstack | cmp - '$T_DIR/a.perfscript'"
	check "perf script shows riscv64 branch types and mispredicts" \
		grep -q '/M/-/-/[0-9]*/COND' "$T_DIR/a.perfscript"
	check "perf report reads our perf.data in branch mode" sh -c \
		"perf report -i '$T_DIR/a.data' --stdio 2>/dev/null | grep -q 'Source Symbol  Target Symbol'"
	check "perf report resolves work() in the riscv64 binary via MMAP2" sh -c \
		"perf report -i '$T_DIR/a.data' --stdio 2>/dev/null | grep -q '\[\.\] work'"
	check "perf script reads SPE-like samples" sh -c \
		"perf script -i '$T_DIR/s.data' -F event,ip,addr,weight,brstack >'$T_DIR/s.txt'"
	n_br=$(grep -c ' branch:' "$T_DIR/s.txt")
	n_miss=$(grep -c 'branch-miss:' "$T_DIR/s.txt")
	want_br=$((300 * 16))
	want_miss=$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ && $3 ~ /[13579bdf]$/' "$T_DIR/snap.txt" | wc -l)
	if [ "$n_br" -eq "$want_br" ] && [ "$n_miss" -eq "$want_miss" ]; then
		ok "SPE-like: one branch sample per record ($n_br), one branch-miss per MISP ($n_miss)"
	else
		not_ok "SPE-like: $n_br branch (want $want_br), $n_miss branch-miss (want $want_miss)"
	fi
	check "SPE-like samples carry weight and a two-entry stack" \
		grep -qE 'branch: +[0-9a-f]+ +[0-9]+ +[0-9a-f]+ 0x[0-9a-f]+/0x[0-9a-f]+/./-/-/[0-9]+/[A-Z]+ +0x' "$T_DIR/s.txt"
	check "SPE-like stack entry 1 is {0, previous target} as perf's SPE synthesis writes it" \
		grep -qE '/[A-Z]+ +0x0/0x[0-9a-f]+/-/-/-/0/' "$T_DIR/s.txt"
fi

if ! have create_llvm_prof; then
	skip "create_llvm_prof: same profile from text and perf.data" "autofdo not installed"
else
	create_llvm_prof --binary="$B" --profile="$T_DIR/a.data" --format=text \
		--out="$T_DIR/p-perf.prof" >"$T_LOG" 2>&1
	create_llvm_prof --binary="$B" --profile="$T_DIR/a.afdo" --profiler=text --format=text \
		--out="$T_DIR/p-text.prof" >>"$T_LOG" 2>&1
	if [ -s "$T_DIR/p-perf.prof" ] && grep -q '^work:' "$T_DIR/p-perf.prof" &&
	   cmp -s "$T_DIR/p-perf.prof" "$T_DIR/p-text.prof"; then
		ok "create_llvm_prof: same profile from our text and from perf.data ($(head -1 "$T_DIR/p-perf.prof"))"
	else
		not_ok "create_llvm_prof: same profile from our text and from perf.data"
		diff "$T_DIR/p-perf.prof" "$T_DIR/p-text.prof" | head | sed 's/^/# /'
	fi
fi

PROFGEN=$(command -v llvm-profgen-19 || command -v llvm-profgen || true)
if [ -z "$PROFGEN" ] || ! have perf; then
	skip "llvm-profgen: same profile from perf script text and perf.data" "llvm-profgen-19 or perf missing"
else
	"$PROFGEN" --format=text --binary="$B" --perfscript="$T_DIR/a.script" \
		--output="$T_DIR/g-script.prof" >"$T_LOG" 2>&1
	(cd "$T_DIR" && "$PROFGEN" --format=text --binary="$B" --perfdata="$T_DIR/a.data" \
		--output="$T_DIR/g-perf.prof") >>"$T_LOG" 2>&1
	if [ -s "$T_DIR/g-perf.prof" ] && grep -q '^work:' "$T_DIR/g-perf.prof" &&
	   cmp -s "$T_DIR/g-perf.prof" "$T_DIR/g-script.prof"; then
		ok "llvm-profgen: same profile from our perf script and from perf.data ($(head -1 "$T_DIR/g-perf.prof"))"
	else
		not_ok "llvm-profgen: same profile from our perf script and from perf.data"
		sed 's/^/# /' "$T_LOG" | head
	fi
fi

# -f profgen: the AutoFDO text without its address counts, which
# llvm-profgen --unsymbolized-profile reads, to the same profile
check "convert to llvm-profgen's unsymbolized profile" \
	$R convert -f profgen -o "$T_DIR/a.unsym" "$T_DIR/a.data"
awk 'NR == 1 { n = $1 } NR == n + 2 { m = $1 } NR >= n + 2 && NR <= n + 2 + m { next } 1' \
	"$T_DIR/a.afdo" >"$T_DIR/a.awk"
check "the unsymbolized profile is the AutoFDO text less its second section" \
	cmp "$T_DIR/a.awk" "$T_DIR/a.unsym"
if [ -z "$PROFGEN" ] || ! [ -s "$T_DIR/g-script.prof" ]; then
	skip "llvm-profgen: same profile from the unsymbolized profile" "llvm-profgen-19 or perf missing"
else
	"$PROFGEN" --format=text --binary="$B" --unsymbolized-profile="$T_DIR/a.unsym" \
		--output="$T_DIR/g-unsym.prof" >"$T_LOG" 2>&1
	check "llvm-profgen: same profile from the unsymbolized profile as from perf script text" \
		cmp "$T_DIR/g-script.prof" "$T_DIR/g-unsym.prof"
fi
done_testing
