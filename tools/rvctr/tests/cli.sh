#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The command line: --help for every subcommand, usage errors, topdown text
# input, progress only when asked (stderr is not a terminal here).
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}

for c in record convert report topdown; do
	check "$c --help" sh -c "$R $c --help | grep -q '^usage: rvctr $c'"
done
check "rvctr --help lists the commands" sh -c "$R --help | grep -q topdown"
$R convert -o x >/dev/null 2>&1; [ $? -eq 2 ] && ok "convert without -f: usage error (2)" || not_ok "convert without -f"
$R frobnicate >/dev/null 2>&1; [ $? -eq 2 ] && ok "unknown command: usage error (2)" || not_ok "unknown command"
$R convert -f nope -o x in >/dev/null 2>&1; [ $? -eq 1 ] && ok "unknown format: error (1)" || not_ok "unknown format"
$R report /nonexistent 2>"$T_LOG"; grep -q 'nonexistent: No such file' "$T_LOG" &&
	ok "missing input named in the error" || not_ok "missing input message"

printf '1000,,cycles:u,1000,100.00,,\n3000,,instructions:u,1000,100.00,,\n' >"$T_DIR/stat.csv"
check "topdown from perf stat -x, output" sh -c "$R topdown '$T_DIR/stat.csv' | grep -q 'Retiring *50.00%'"
check "topdown names what a metric needs" sh -c "$R topdown '$T_DIR/stat.csv' | grep -q 'Frontend Bound *n/a (needs IF_FETCH_BUBBLE)'"
printf 'l2_miss 5\n' >"$T_DIR/none.txt"
$R topdown "$T_DIR/none.txt" >/dev/null 2>"$T_LOG"; [ $? -eq 1 ] && grep -q 'no top-down events' "$T_LOG" &&
	ok "topdown without any top-down event: clear error" || not_ok "topdown without events"
printf 'cycles 1e400x\n' >"$T_DIR/bad.txt"
$R topdown "$T_DIR/bad.txt" >/dev/null 2>"$T_LOG"; [ $? -eq 1 ] && grep -q 'line 1' "$T_LOG" &&
	ok "topdown: malformed line named" || not_ok "topdown malformed line"

build_loop "$T_DIR/loop" && loop_addrs "$T_DIR/loop" && gen_snapshots 50 16 1 >"$T_DIR/s.txt"
$R convert -f perf -o "$T_DIR/a.data" "$T_DIR/s.txt" 2>"$T_LOG"
! grep -q '%' "$T_LOG" && ok "no progress when stderr is not a terminal" || not_ok "unasked progress"
$R convert --progress -f perf -o "$T_DIR/a.data" "$T_DIR/s.txt" 2>"$T_LOG"
grep -q 'converting: done' "$T_LOG" && ok "--progress shows progress" || not_ok "--progress"
done_testing
