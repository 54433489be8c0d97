#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# HEADER_NRCPUS in the perf.data rvctr writes, as stock perf shows it
# (perf report --header-only: "nrcpus online", "nrcpus avail").  perf 7.3
# warns of a file without it and bounds sample cpus by 4096 then.  rvctr
# record writes the machine's; convert carries the input's over (its
# largest, merged), or takes the samples' highest cpu + 1, or without
# either leaves it out.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
SYNTH=${BUILD:?}/unit/synth-perf

if ! have perf; then
	skip "HEADER_NRCPUS as perf shows it" "perf not installed"
	done_testing
	exit
fi
# nrcpus FILE: "online/avail" as perf report --header-only shows them ("/": none)
nrcpus() {
	perf report --header-only -i "$1" 2>/dev/null |
		awk '/^# nrcpus online/ { o = $NF } /^# nrcpus avail/ { a = $NF } END { print o "/" a }'
}
# is NAME GOT WANT
is() { [ "$2" = "$3" ] && ok "$1: $2" || not_ok "$1: perf shows '$2', want '$3'"; }

# samples on CPU 5 (PERF_SAMPLE_CPU): the writer says 6 CPUs
desc='comm 100 loop
cpu 5
sample 100 0x1000 0x1000/0x2000/2/0/3
sample 100 0x1000 0x1000/0x2000/2/0/3'
echo "$desc" | "$SYNTH" -C "$T_DIR/c.data" >"$T_LOG" 2>&1 || not_ok "synth-perf -C"
echo "$desc" | "$SYNTH" "$T_DIR/n.data" >"$T_LOG" 2>&1 || not_ok "synth-perf"
is "samples on CPU 5, no NRCPUS given: the highest cpu + 1" "$(nrcpus "$T_DIR/c.data")" 6/6
is "no cpu in the samples, none given: left out" "$(nrcpus "$T_DIR/n.data")" /

check "convert -f perf" $R convert -f perf -o "$T_DIR/p.data" "$T_DIR/c.data"
is "convert -f perf" "$(nrcpus "$T_DIR/p.data")" 6/6
# SPE samples have no cpu: only the input's HEADER_NRCPUS can say 6
check "convert -f spe" $R convert -f spe -o "$T_DIR/s.data" "$T_DIR/c.data"
is "convert -f spe carries the input's over" "$(nrcpus "$T_DIR/s.data")" 6/6
check "convert -f perf of an input without it" $R convert -f perf -o "$T_DIR/q.data" "$T_DIR/n.data"
is "convert -f perf of an input without it" "$(nrcpus "$T_DIR/q.data")" /
# pipe mode: a HEADER_FEATURE record at the end, read back by rvctr too
$R convert -f perf -o - "$T_DIR/c.data" >"$T_DIR/pipe.data" 2>"$T_LOG"
is "convert -f perf -o - (pipe mode)" "$(nrcpus "$T_DIR/pipe.data")" 6/6
check "convert -f spe of rvctr's pipe output" \
	$R convert -f spe -o "$T_DIR/ps.data" "$T_DIR/pipe.data"
is "convert -f spe of rvctr's pipe output carries it over" "$(nrcpus "$T_DIR/ps.data")" 6/6
# pipe-mode records are whole u64s: perf 7.3 aborts at one that is not
# (perf_session__process_event(); HEADER_FEATURE excepted).  A build id's
# record is perf_event__synthesize_build_id()'s: header, pid, 24 bytes of
# id and size, the name, padded to 8 bytes as a whole.
records() {
	od -An -v -tu1 "$1" | awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END { for (o = 16; o + 8 <= n; o += s) {
			s = b[o + 6] + 256 * b[o + 7]; print b[o] + 256 * b[o + 1], s
			if (s < 8) break } }'
}
{ echo "buildid /bin/loop 0102030405060708090a0b0c0d0e0f1011121314"; echo "$desc"; } |
	"$SYNTH" -C "$T_DIR/b.data" >"$T_LOG" 2>&1 || not_ok "synth-perf with a build id"
$R convert -f perf -o - "$T_DIR/b.data" >"$T_DIR/bpipe.data" 2>"$T_LOG"
records "$T_DIR/bpipe.data" >"$T_DIR/recs"
unaligned=$(awk '$1 != 80 && $2 % 8' "$T_DIR/recs" | head -3 | tr '\n' ' ')
grep -q '^67 ' "$T_DIR/recs" && [ -z "$unaligned" ] &&
	ok "pipe mode: a build id's and every other record are whole u64s" ||
	not_ok "pipe mode: records (type size) not whole u64s: ${unaligned:-no build id record}"
# two inputs merged: the larger
echo "$desc" | sed 's/^cpu 5/cpu 2/' | "$SYNTH" -C "$T_DIR/c2.data" >"$T_LOG" 2>&1
check "convert -f spe of two inputs" \
	$R convert -f spe -o "$T_DIR/m.data" "$T_DIR/c.data" "$T_DIR/c2.data"
is "convert -f spe of inputs with 6 and 3 CPUs" "$(nrcpus "$T_DIR/m.data")" 6/6

work='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done'
# a stock recording's, carried over as perf wrote it
if perf record -q -o "$T_DIR/stock.data" -e task-clock -- sh -c "$work" >"$T_LOG" 2>&1; then
	want=$(nrcpus "$T_DIR/stock.data")
	check "convert -f spe of perf record's" \
		$R convert -f spe -o "$T_DIR/ss.data" "$T_DIR/stock.data"
	is "convert -f spe of perf record's, as perf record wrote it" \
		"$(nrcpus "$T_DIR/ss.data")" "$want"
else
	skip "convert -f spe of perf record's" "perf record failed here: $(head -1 "$T_LOG")"
fi
# rvctr record: the machine's
if $R record --help | grep -q 'built without libperf'; then
	skip "rvctr record" "built without libperf"
elif $R record -e task-clock -c 100000 -o "$T_DIR/r.data" -- sh -c "$work" >"$T_LOG" 2>&1; then
	got=$(nrcpus "$T_DIR/r.data")
	is "rvctr record: CPUs online" "${got%/*}" "$(getconf _NPROCESSORS_ONLN)"
	[ "${got#*/}" -ge "${got%/*}" ] 2>/dev/null && ok "rvctr record: available ${got#*/}" ||
		not_ok "rvctr record: CPUs available '${got#*/}'"
else
	skip "rvctr record" "$(head -1 "$T_LOG")"
fi
done_testing
