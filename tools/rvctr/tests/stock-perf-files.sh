#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Our reader on files written by stock perf with sample layouts rvctr does
# not write itself (callchains, user regs and stack, read values, several
# events with ids): it must find every sample perf script finds, and say
# clearly what it does not support (compressed files).
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}

if ! command -v perf >/dev/null; then
	skip "stock perf files" "perf not installed"
	done_testing
	exit
fi
work='i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done'
try() {
	local name=$1
	shift
	if ! perf record -q -o "$T_DIR/$name.data" "$@" -- sh -c "$work" >"$T_LOG" 2>&1; then
		skip "perf record $*" "perf record failed here: $(head -1 "$T_LOG")"
		return
	fi
	local want got
	# records, not what perf script makes of them (it splits group reads)
	want=$(perf report -D -i "$T_DIR/$name.data" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')
	if $R convert -f perf -o "$T_DIR/x.data" "$T_DIR/$name.data" >"$T_LOG" 2>&1; then
		got=$(grep -o 'of [0-9]* samples' "$T_LOG" | grep -o '[0-9]*')
		[ "${got:-0}" -eq "$want" ] && ok "perf record $*: all $want samples read" ||
			not_ok "perf record $*: read ${got:-0} samples, perf report -D shows $want"
	else
		not_ok "perf record $*: $(cat "$T_LOG")"
	fi
}
try cg -e task-clock -g
try dwarf -e task-clock --call-graph dwarf,4096
try two -e task-clock,cpu-clock
try data -e task-clock -d
try read -e '{task-clock,cpu-clock}:S'
if perf record -q -z -o "$T_DIR/z.data" -e task-clock -- sh -c "$work" >/dev/null 2>&1; then
	$R convert -f perf -o "$T_DIR/x.data" "$T_DIR/z.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'compressed' "$T_LOG" && ok "perf record -z: clear 'compressed' error" ||
		not_ok "perf record -z: status $rc, $(cat "$T_LOG")"
else
	skip "perf record -z" "perf built without zstd"
fi
done_testing
