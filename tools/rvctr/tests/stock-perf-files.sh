#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Our reader on files written by stock perf with sample layouts rvctr does
# not write itself (callchains, user regs and stack, read values, several
# events with ids): it must find every sample perf script finds, and say
# clearly what it does not support (perf record --threads directories); and
# files as perf record leaves them: compressed, pipe mode, killed.
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

# (a shorter workload: these only need some samples and maps)
small='i=0; while [ $i -lt 15000 ]; do i=$((i+1)); done'
# what real users have: compressed, pipe mode, killed, --threads
count() { perf report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE('; }
# converted: the samples perf script shows of IN and OUT are the same
same_script() {
	perf script -F comm,tid,time,ip -i "$1" 2>/dev/null >"$T_DIR/a.txt"
	perf script -F comm,tid,time,ip -i "$2" 2>/dev/null >"$T_DIR/b.txt"
	[ -s "$T_DIR/a.txt" ] && cmp -s "$T_DIR/a.txt" "$T_DIR/b.txt"
}
if perf record -q -z -o "$T_DIR/z.data" -e task-clock -- sh -c "$small" >/dev/null 2>&1; then
	want=$(count "$T_DIR/z.data")
	if $R convert -f perf -o "$T_DIR/x.data" "$T_DIR/z.data" >"$T_LOG" 2>&1; then
		got=$(grep -o 'of [0-9]* samples' "$T_LOG" | grep -o '[0-9]*')
		[ "${got:-0}" -eq "$want" ] && ok "perf record -z: all $want samples read" ||
			not_ok "perf record -z: read ${got:-0} samples, perf shows $want"
		same_script "$T_DIR/z.data" "$T_DIR/x.data" &&
			ok "perf record -z: perf script shows the same samples after convert" ||
			not_ok "perf record -z: perf script differs after convert"
	else
		not_ok "perf record -z: $(cat "$T_LOG")"
	fi
else
	skip "perf record -z" "perf built without zstd"
fi
# pipe mode, compressed or not, from a file and from a pipe
for z in "" -z; do
	if ! perf record -q $z -o - -e task-clock -- sh -c "$small" 2>/dev/null >"$T_DIR/p.data"; then
		skip "perf record $z -o -" "perf record failed"
		continue
	fi
	want=$(perf report -D -i - <"$T_DIR/p.data" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')
	check "perf record $z -o -: pipe-mode file converts" \
		$R convert -f perf -o "$T_DIR/px.data" "$T_DIR/p.data"
	got=$(grep -o 'of [0-9]* samples' "$T_LOG" | grep -o '[0-9]*')
	[ "${got:-0}" -eq "$want" ] && ok "perf record $z -o -: all $want samples read" ||
		not_ok "perf record $z -o -: read ${got:-0} samples, perf shows $want"
	same_script "$T_DIR/p.data" "$T_DIR/px.data" &&
		ok "perf record $z -o -: perf script shows the same samples after convert" ||
		not_ok "perf record $z -o -: perf script differs after convert"
	# (perf script -i - adds symbols for branch-stack events: compare the fields)
	cat "$T_DIR/p.data" | $R convert -f perf -o - - 2>"$T_LOG" | perf script -F comm,tid,time,ip -i - \
		2>/dev/null | awk '{ print $1, $2, $3, $4 }' >"$T_DIR/c.txt"
	perf script -F comm,tid,time,ip -i - <"$T_DIR/p.data" 2>/dev/null |
		awk '{ print $1, $2, $3, $4 }' >"$T_DIR/a.txt"
	[ -s "$T_DIR/c.txt" ] && cmp -s "$T_DIR/a.txt" "$T_DIR/c.txt" &&
		ok "perf record $z -o - | rvctr convert -o - - | perf script -i -" ||
		{ not_ok "pipe to pipe $z"; sed 's/^/# /' "$T_LOG" | head -5; }
done
# perf record killed: the header still says data.size 0 (perf writes it at exit)
if perf record -q -o "$T_DIR/k.data" -e task-clock -- sh -c "$small" >/dev/null 2>&1; then
	want=$(count "$T_DIR/k.data")
	# what perf record leaves when killed: no features after the data, and
	# data.size (the u64 at offset 48 of the header) still 0
	off=$(od -An -t u8 -j 40 -N 8 "$T_DIR/k.data" | tr -d ' ')
	size=$(od -An -t u8 -j 48 -N 8 "$T_DIR/k.data" | tr -d ' ')
	head -c $((off + size)) "$T_DIR/k.data" >"$T_DIR/k0.data"
	printf '\0\0\0\0\0\0\0\0' | dd of="$T_DIR/k0.data" bs=1 seek=48 conv=notrunc status=none
	if $R convert -f perf -o "$T_DIR/kx.data" "$T_DIR/k0.data" >"$T_LOG" 2>&1; then
		got=$(grep -o 'of [0-9]* samples' "$T_LOG" | grep -o '[0-9]*')
		[ "${got:-0}" -eq "$want" ] && grep -q 'not properly terminated' "$T_LOG" &&
			ok "data.size 0 (perf record killed): all $want samples read, with a warning" ||
			not_ok "data.size 0: read ${got:-0} of $want samples: $(cat "$T_LOG")"
	else
		not_ok "data.size 0: $(cat "$T_LOG")"
	fi
fi
# build ids in MMAP2 (perf >= 6.17 does it by default; 6.1 with --buildid-mmap)
if perf record -q --buildid-mmap -o "$T_DIR/bm.data" -e task-clock -- sh -c "$small" >/dev/null 2>&1; then
	want=$(perf report -D -i "$T_DIR/bm.data" 2>/dev/null | grep 'PERF_RECORD_MMAP2.*<[0-9a-f]*>.*/usr/bin/dash' |
		grep -o '<[0-9a-f]*>' | head -1 | tr -d '<>')
	$R convert -f perf -o "$T_DIR/bmx.data" "$T_DIR/bm.data" >/dev/null 2>&1
	[ -n "$want" ] && perf buildid-list -i "$T_DIR/bmx.data" 2>/dev/null | grep -q "^$want " &&
		ok "build ids in MMAP2: kept (HEADER_BUILD_ID of the output)" ||
		not_ok "build ids in MMAP2: '$want' not in the output's build ids"
	perf report -D -i "$T_DIR/bmx.data" 2>/dev/null | grep -q "PERF_RECORD_MMAP2.*<$want>" &&
		ok "build ids in MMAP2: and in its MMAP2 records" || not_ok "build ids in MMAP2 records"
else
	skip "perf record --buildid-mmap" "not supported by this perf"
fi
# more attributes than the reader keeps: a warning, not a failure
ev=$(printf 'task-clock,%.0s' $(seq 66))
if perf record -q -e "${ev%,}" -o "$T_DIR/many.data" -- true >/dev/null 2>&1; then
	$R convert -f perf -o "$T_DIR/x.data" "$T_DIR/many.data" >"$T_LOG" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q 'more than 64 attributes' "$T_LOG" &&
		ok "66 events: converted with a warning about the limit" ||
		not_ok "66 events: status $rc, $(head -3 "$T_LOG")"
fi
if perf record -q --threads -o "$T_DIR/t.data" -e task-clock -- sh -c "$small" >/dev/null 2>&1 &&
   [ -d "$T_DIR/t.data" ]; then
	$R convert -f perf -o "$T_DIR/x.data" "$T_DIR/t.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -q -- '--threads' "$T_LOG" && ok "perf record --threads: clear error" ||
		not_ok "perf record --threads: status $rc, $(cat "$T_LOG")"
else
	skip "perf record --threads" "not supported by this perf"
fi
done_testing
