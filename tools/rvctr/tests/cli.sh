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
# Each long option is described once: an option line starts with spaces
# and "-x, --name" or "--name" (no shared text may list one twice).
for c in record convert report topdown; do
	dups=$($R $c --help | grep -oE '^ {2,6}(-[a-zA-Z], )?--[a-z][a-z0-9-]*' |
	       grep -oE -- '--[a-z0-9-]+$' | sort | uniq -d | xargs)
	n=$($R $c --help | grep -cE '^ {2,6}(-[a-zA-Z], )?--[a-z]')
	[ -z "$dups" ] && [ "$n" -gt 1 ] && ok "$c --help: each of its $n long options once" ||
		not_ok "$c --help lists ${dups:-no options} more than once"
done
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
! grep -q $'\r' "$T_LOG" && ok "--progress into a log: whole lines, no carriage returns" ||
	not_ok "--progress garbles a log with carriage returns"

# Range outputs need every taken branch: filters and call stacks are
# refused (--force converts anyway); perf.data output is not.  Not-taken
# records (ctr_ntbr) are refused only when one cannot be told from a taken
# branch (ntbr.sh): here none is COND to 4 bytes on.
$R convert -f perf -b "$T_DIR/loop" -o "$T_DIR/b.data" "$T_DIR/s.txt" 2>/dev/null
aoff=$(od -An -t u8 -j 24 -N 8 "$T_DIR/b.data" | tr -d ' ')
poke8() { # FILE OFFSET BYTE: set the u64 at OFFSET to BYTE
	cp "$T_DIR/b.data" "$1"
	printf "\\x$(printf %02x "$3")\\0\\0\\0\\0\\0\\0\\0" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
poke8 "$T_DIR/call.data" $((aoff + 72)) $((0x11))	# branch_sample_type = any_call,u
poke8 "$T_DIR/stack.data" $((aoff + 72)) $((0x09))	# any,u, then call_stack below
printf '\x08' | dd of="$T_DIR/stack.data" bs=1 seek=$((aoff + 73)) conv=notrunc status=none
poke8 "$T_DIR/ntbr.data" $((aoff + 64)) 1		# config2 = ctr_ntbr
for c in call:'type filter' stack:'call-stack'; do
	f=${c%%:*} why=${c#*:}
	for fmt in autofdo perfscript; do
		$R convert -f $fmt -o "$T_DIR/r.out" "$T_DIR/$f.data" 2>"$T_LOG"
		rc=$?
		[ $rc -eq 1 ] && grep -q "$why" "$T_LOG" && grep -q -- --force "$T_LOG" &&
			ok "$f recording: no $fmt output, says why" ||
			{ not_ok "$f recording: $fmt status $rc"; sed 's/^/# /' "$T_LOG"; }
	done
	check "$f recording: --force converts it" \
		$R convert --force -f autofdo -o "$T_DIR/r.out" "$T_DIR/$f.data"
	check "$f recording: perf.data output is fine" \
		$R convert -f perf -o "$T_DIR/r.data" "$T_DIR/$f.data"
done
for fmt in autofdo perfscript; do
	check "ntbr recording, every record decided: $fmt output" \
		$R convert -f $fmt -o "$T_DIR/r.out" "$T_DIR/ntbr.data"
done
# the same from snapshot text: sctrctl with NTBREN (bit 36), an inhibit, or
# RASEMU (bit 7: call-stack mode)
sed 's/sctrctl 0x1803/sctrctl 0x1000001803/' "$T_DIR/s.txt" >"$T_DIR/ntbr.txt"
sed 's/sctrctl 0x1803/sctrctl 0x2000001803/' "$T_DIR/s.txt" >"$T_DIR/inh.txt"
sed 's/sctrctl 0x1803/sctrctl 0x1883/' "$T_DIR/s.txt" >"$T_DIR/stack.txt"
for f in ntbr:NTBREN inh:inhibits stack:RASEMU; do
	for fmt in autofdo perfscript; do
		$R convert -f $fmt -b "$T_DIR/loop" -o "$T_DIR/r.out" "$T_DIR/${f%%:*}.txt" 2>"$T_LOG"
		rc=$?
		[ $rc -eq 1 ] && grep -q "${f#*:}" "$T_LOG" && grep -q -- --force "$T_LOG" &&
			ok "snapshots whose sctrctl has ${f#*:}: no $fmt output, says why" ||
			{ not_ok "snapshots ${f%%:*}: $fmt status $rc"; sed 's/^/# /' "$T_LOG"; }
	done
	check "snapshots ${f%%:*}: --force converts" \
		$R convert --force -f autofdo -b "$T_DIR/loop" -o "$T_DIR/r.out" "$T_DIR/${f%%:*}.txt"
	check "snapshots ${f%%:*}: perf.data output is fine" \
		$R convert -f perf -b "$T_DIR/loop" -o "$T_DIR/r.data" "$T_DIR/${f%%:*}.txt"
done

# Not-taken records (ctr_ntbr: COND to the next instruction) are no taken
# branches: report counts no branch or edge of them, spe makes no sample of
# them, the range outputs (--force) drop them; snapshots with TYPE 4
# entries hold them whatever their header says.  nt.txt: the if not taken.
gen_snapshots 50 16 1 1 0x1000001803 >"$T_DIR/nt.txt"
gen_snapshots 50 16 1 1 none >"$T_DIR/nt-noctl.txt"
taken=$(awk 'NF == 4 && $4 !~ /4$/' "$T_DIR/nt.txt" | wc -l)
nt_ok() { # NAME FILE: FILE has $taken taken branches or samples, and no COND
	grep -q "^# [0-9]* branches in $taken samples\|^# $taken branches in 50 samples" "$2" &&
		! grep -q '^COND ' "$2" && ok "$1" ||
		{ not_ok "$1 (want $taken taken, no COND)"; head -8 "$2" | sed 's/^/# /'; }
}
# and perf.data recorded with ctr_ntbr (config2 bit 0 of its attr)
$R convert -f perf -b "$T_DIR/loop" -o "$T_DIR/nt.data" "$T_DIR/nt.txt" 2>/dev/null
aoff=$(od -An -t u8 -j 24 -N 8 "$T_DIR/nt.data" | tr -d ' ')
printf '\x01' | dd of="$T_DIR/nt.data" bs=1 seek=$((aoff + 64)) conv=notrunc status=none
for f in nt.txt nt-noctl.txt nt.data; do
	$R report -b "$T_DIR/loop" "$T_DIR/$f" >"$T_DIR/nt.report" 2>"$T_LOG"
	nt_ok "$f: report counts no not-taken record as a branch" "$T_DIR/nt.report"
	grep -q "^# $((50 * 16 - taken)) not-taken branch records" "$T_DIR/nt.report" &&
		ok "$f: report says how many not-taken records it left out" ||
		not_ok "$f: report does not say how many not-taken records it left out"
	$R convert -f spe -b "$T_DIR/loop" -o "$T_DIR/nt.spe" "$T_DIR/$f" 2>"$T_LOG" &&
		$R report "$T_DIR/nt.spe" >"$T_DIR/nt.report" 2>"$T_LOG"
	nt_ok "$f: spe makes no sample of a not-taken record" "$T_DIR/nt.report"
done
$R convert -f autofdo -b "$T_DIR/loop" -o "$T_DIR/r.out" "$T_DIR/nt-noctl.txt" 2>"$T_LOG"
rc=$?
[ $rc -eq 1 ] && grep -q 'not-taken' "$T_LOG" &&
	ok "snapshots with TYPE 4 entries and no sctrctl: no autofdo output" ||
	{ not_ok "snapshots with TYPE 4 entries, no sctrctl: autofdo status $rc"; sed 's/^/# /' "$T_LOG"; }
nt_to=$(printf '0x%x/' $((0x$B1 + 2)))
for f in nt.txt nt-noctl.txt nt.data; do
	$R convert --force -f perfscript -b "$T_DIR/loop" -o "$T_DIR/nt.ps" "$T_DIR/$f" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 0 ] && grep -q '/UNCOND/' "$T_DIR/nt.ps" && ! grep -q "/$nt_to" "$T_DIR/nt.ps" &&
		ok "$f: perfscript --force drops the not-taken records" ||
		not_ok "$f: perfscript --force: status $rc, $(grep -c "/$nt_to" "$T_DIR/nt.ps") not-taken"
done

# Only TYPE 4 entries are not-taken records: a taken c.beqz over one 16-bit
# instruction (TYPE 5, target from + 4) is a taken branch.  c4.txt: that,
# a TYPE 4 entry and the back jump, in a snapshot of depth 16.
{ echo "sctrstatus 0x80000000 depth 16 sctrctl 0x1000001803"
  printf '0 %#x %#x %#x\n' $((0x$B1 + 1)) $((0x$B1 + 4)) $((5 + 32768 + 3 * 65536))
  printf '1 %#x %#x %#x\n' $((0x$B1 + 1)) $((0x$B1 + 2)) $((4 + 32768 + 3 * 65536))
  printf '2 %#x %#x %#x\n' $((0x$B2 + 1)) $((0x$T2)) $((11 + 32768 + 3 * 65536))
  for e in $(seq 3 15); do echo "$e 0x0 0x0 0x0"; done
} >"$T_DIR/c4.txt"
$R report -b "$T_DIR/loop" "$T_DIR/c4.txt" >"$T_DIR/c4.report" 2>"$T_LOG"
grep -q '^# 2 branches in 1 samples' "$T_DIR/c4.report" && grep -q '^COND  *1 ' "$T_DIR/c4.report" &&
	grep -q '^# 1 not-taken branch records' "$T_DIR/c4.report" &&
	ok "snapshot: a taken TYPE 5 c.beqz to from + 4 counted, the TYPE 4 entry not" ||
	{ not_ok "snapshot: TYPE 5 to from + 4 / TYPE 4"; head -8 "$T_DIR/c4.report" | sed 's/^/# /'; }
$R convert -f spe -b "$T_DIR/loop" -o "$T_DIR/c4.spe" "$T_DIR/c4.txt" 2>"$T_LOG" &&
	$R report "$T_DIR/c4.spe" >"$T_DIR/c4.report" 2>"$T_LOG"
grep -q '^# [0-9]* branches in 2 samples' "$T_DIR/c4.report" && grep -q '^COND  *1 ' "$T_DIR/c4.report" &&
	ok "snapshot: spe samples the taken c.beqz to from + 4, not the TYPE 4 entry" ||
	{ not_ok "snapshot: spe of TYPE 5 to from + 4 / TYPE 4"; head -8 "$T_DIR/c4.report" | sed 's/^/# /'; }
# perf.data: not-taken records only in samples of an event with ctr_ntbr
# (event 1 here), not of the file's other events; a COND to 4 bytes on
# cannot be told from a taken c.beqz: taken as not taken, with a warning.
SYNTH=${BUILD:?}/unit/synth-perf
if ! [ -x "$SYNTH" ]; then
	not_ok "no synth-perf helper"
else
	printf '%s\n' 'sample 4242 0x10100 10000/10002/1/0/1' 'event 1' \
		'sample 4242 0x10100 10000/10002/1/0/1 10010/10000/1/0/1 10020/10024/1/0/1' |
		$SYNTH -n "$T_DIR/ev.data"
	$R report "$T_DIR/ev.data" >"$T_DIR/ev.report" 2>"$T_LOG"
	grep -q '^# 2 branches in 2 samples' "$T_DIR/ev.report" &&
		grep -q '^# 2 not-taken branch records' "$T_DIR/ev.report" &&
		ok "perf.data: not-taken records dropped only from the ctr_ntbr event's samples" ||
		{ not_ok "perf.data: ctr_ntbr per event"; head -3 "$T_DIR/ev.report" | sed 's/^/# /'; }
	grep -q 'warning: .*ev.data: 1 record .*4 bytes on.*compressed' "$T_LOG" &&
		ok "perf.data: report warns of the COND to 4 bytes on taken as not taken" ||
		{ not_ok "perf.data: no warning of the ambiguous record"; sed 's/^/# /' "$T_LOG"; }
	$R convert -f spe -o "$T_DIR/ev.spe" "$T_DIR/ev.data" 2>"$T_LOG"
	grep -q 'warning: .*ev.data: 1 record .*4 bytes on' "$T_LOG" &&
		ok "perf.data: convert -f spe warns of it too" ||
		{ not_ok "perf.data: convert -f spe: no warning"; sed 's/^/# /' "$T_LOG"; }
fi

# -b is the binary's absolute path (realpath), as the kernel names mapped
# files: snapshots' MMAP2 names it so, and autofdo then reads its program
# headers (a relative name used to give file offsets, not addresses)
(cd "$T_DIR" && $R convert -f perfscript -b loop -o rel.ps s.txt 2>/dev/null)
grep -q "PERF_RECORD_MMAP2 .* r-xp $T_DIR/loop\$" "$T_DIR/rel.ps" &&
	ok "-b loop: the MMAP2 names its absolute path" ||
	not_ok "-b loop: MMAP2 $(grep -o 'r-xp .*' "$T_DIR/rel.ps" | head -1)"
# a symbolic link keeps its own name (the name the recording has), only
# its directory is resolved
ln -s loop "$T_DIR/loop.link"
(cd "$T_DIR" && $R convert -f perfscript -b ./loop.link -o link.ps s.txt 2>/dev/null)
grep -q "PERF_RECORD_MMAP2 .* r-xp $T_DIR/loop.link\$" "$T_DIR/link.ps" &&
	ok "-b ./loop.link (a symbolic link): the MMAP2 names the link, absolute" ||
	not_ok "-b ./loop.link: MMAP2 $(grep -o 'r-xp .*' "$T_DIR/link.ps" | head -1)"
# (an lld PIE, whose text is at p_vaddr = p_offset + 0x1000)
if command -v clang-19 >/dev/null && command -v ld.lld-19 >/dev/null; then
	mkdir "$T_DIR/lld"
	clang-19 --target=riscv64-linux-gnu --ld-path="$(command -v ld.lld-19)" -O1 -fPIE -pie \
		-o "$T_DIR/lld/loop" "$(dirname "$0")/data/loop.c" && work_branches "$T_DIR/lld/loop" &&
		gen_snapshots 20 16 3 >"$T_DIR/lld/s.txt"
	(cd "$T_DIR/lld" && $R convert -f autofdo -b ./loop -o rel.afdo s.txt 2>/dev/null)
	$R convert -f autofdo -b "$T_DIR/lld/loop" -o "$T_DIR/abs.afdo" "$T_DIR/lld/s.txt" 2>/dev/null
	[ -s "$T_DIR/abs.afdo" ] && cmp -s "$T_DIR/lld/rel.afdo" "$T_DIR/abs.afdo" &&
		ok "lld PIE: -b ./loop, the same autofdo profile as -b /abs/loop" ||
		{ not_ok "lld PIE: -b ./loop and -b /abs/loop: different autofdo profiles"
		  diff "$T_DIR/lld/rel.afdo" "$T_DIR/abs.afdo" | head -6 | sed 's/^/# /'; }
	loop_addrs "$T_DIR/loop"
else
	skip "lld PIE: -b ./loop" "clang-19 and ld.lld-19 not installed"
fi
# a -b that is no file here matches the recorded name only: said loudly
(cd / && $R convert -f autofdo -b loop -o "$T_DIR/r.out" "$T_DIR/b.data" 2>"$T_LOG")
rc=$?
[ $rc -eq 0 ] && grep -q "warning: -b loop: .*No such file" "$T_LOG" &&
	ok "-b naming no file: converted, with a warning" ||
	{ not_ok "-b naming no file: status $rc, no warning"; sed 's/^/# /' "$T_LOG"; }

# A failed convert leaves no output (and an old one as it was): the fifth
# record of cut.data has a corrupt size, so conversion fails half way
echo old >"$T_DIR/keep.data"
cp "$T_DIR/b.data" "$T_DIR/cut.data"
off=$(od -An -t u8 -j 40 -N 8 "$T_DIR/b.data" | tr -d ' ')
for i in 1 2 3 4; do off=$((off + $(od -An -t u2 -j $((off + 6)) -N 2 "$T_DIR/b.data" | tr -d ' '))); done
printf '\x0c\0' | dd of="$T_DIR/cut.data" bs=1 seek=$((off + 6)) conv=notrunc status=none
$R convert -f perf -o "$T_DIR/keep.data" "$T_DIR/cut.data" 2>/dev/null
[ $? -eq 1 ] && [ "$(cat "$T_DIR/keep.data")" = old ] &&
	ok "failed convert: the old output is untouched" || not_ok "failed convert touched the output"
$R convert -f perfscript -o "$T_DIR/new.txt" "$T_DIR/cut.data" 2>/dev/null
[ ! -e "$T_DIR/new.txt" ] && ok "failed convert: no partial output" ||
	not_ok "failed convert left $(wc -c <"$T_DIR/new.txt") bytes"
# a convert that succeeds replaces the old output; unlike record, it
# keeps no NAME.old
$R convert -f perfscript -o "$T_DIR/keep.data" "$T_DIR/b.data" 2>/dev/null
[ "$(head -c 3 "$T_DIR/keep.data")" != old ] && [ ! -e "$T_DIR/keep.data.old" ] &&
	ok "convert over an old output: replaced, no .old kept" ||
	not_ok "convert over an old output: $(ls "$T_DIR"/keep.data*)"
# (the temporary outputs are .NAME.XXXXXX next to the output)
left=$(ls -A "$T_DIR" | grep '^\.')
[ -z "$left" ] && ok "no temporary file left" || not_ok "temporary file left: $left"

# several inputs, -i, - for stdin and stdout
sum() { awk -F: 'NF == 2 { s += $2 } END { print s + 0 }' "$1"; }
# (each input's samples placed in its own maps: c.data is another recording
# of the loop; s.txt has no maps without -b, so adds nothing)
gen_snapshots 30 16 2 >"$T_DIR/s2.txt"
$R convert -f perf -b "$T_DIR/loop" -o "$T_DIR/c.data" "$T_DIR/s2.txt" 2>/dev/null
$R convert -f autofdo -o "$T_DIR/one.afdo" "$T_DIR/b.data" 2>/dev/null
$R convert -f autofdo -o "$T_DIR/other.afdo" "$T_DIR/c.data" 2>/dev/null
$R convert -f autofdo -o "$T_DIR/two.afdo" -i "$T_DIR/b.data" "$T_DIR/c.data" 2>/dev/null
$R convert -f autofdo -o "$T_DIR/nomap.afdo" -i "$T_DIR/b.data" "$T_DIR/s.txt" 2>/dev/null
one=$(sum "$T_DIR/one.afdo") other=$(sum "$T_DIR/other.afdo") two=$(sum "$T_DIR/two.afdo")
[ "$one" -gt 0 ] && [ "$other" -gt 0 ] && [ "$two" -eq $((one + other)) ] &&
	ok "two inputs (-i and positional) make one profile" ||
	not_ok "two inputs: $two counts, the inputs alone $one and $other"
[ "$(sum "$T_DIR/nomap.afdo")" -eq "$one" ] && ok "an input without maps borrows none of another's" ||
	not_ok "snapshots without -b after b.data: $(sum "$T_DIR/nomap.afdo") counts, want $one"
$R convert -f perfscript -o "$T_DIR/f.txt" "$T_DIR/b.data" 2>/dev/null
$R convert -f perfscript -o - - <"$T_DIR/b.data" 2>/dev/null >"$T_DIR/p.txt"
$R convert -f perf -o - "$T_DIR/b.data" 2>/dev/null | $R convert -f perfscript -o - - 2>/dev/null \
	>"$T_DIR/q.txt"
[ -s "$T_DIR/f.txt" ] && cmp -s "$T_DIR/f.txt" "$T_DIR/p.txt" && cmp -s "$T_DIR/f.txt" "$T_DIR/q.txt" &&
	ok "- reads stdin (file, or pipe mode on a pipe) and writes stdout" || not_ok "- for stdin/stdout"
# a file is mapped and its records read in place, a pipe read through stdio:
# the same output
same=1
for fmt in perfscript autofdo; do
	rm -f "$T_DIR/m.out" "$T_DIR/s.out"
	$R convert -f $fmt -o "$T_DIR/m.out" "$T_DIR/b.data" 2>/dev/null
	$R convert -f perf -o - "$T_DIR/b.data" 2>/dev/null | $R convert -f $fmt -o "$T_DIR/s.out" - \
		2>/dev/null
	[ -s "$T_DIR/m.out" ] && cmp -s "$T_DIR/m.out" "$T_DIR/s.out" || same=0
done
[ $same -eq 1 ] && ok "perfscript and autofdo: a mapped file and a pipe give the same output" ||
	not_ok "perfscript, autofdo: mapped and piped outputs differ"
cat "$T_DIR/b.data" | $R convert -f perfscript -o - - 2>"$T_LOG" >/dev/null
[ $? -eq 1 ] && grep -q 'file-mode perf.data on a pipe' "$T_LOG" &&
	ok "file-mode perf.data on a pipe: clear error" || not_ok "file mode on a pipe: $(cat "$T_LOG")"
cat "$T_DIR/s.txt" | $R convert -f perfscript -b "$T_DIR/loop" -o - - 2>/dev/null >"$T_DIR/q.txt"
[ -s "$T_DIR/q.txt" ] && cmp -s "$T_DIR/f.txt" "$T_DIR/q.txt" && ok "snapshot text on a pipe" ||
	not_ok "snapshot text on a pipe"

# filters: the snapshots are pid 1, comm loop, in the binary loop
n_filtered() { $R convert -f perf -o "$T_DIR/x.data" "$@" "$T_DIR/b.data" 2>&1 |
	grep -o '[0-9]* samples filtered' | grep -o '[0-9]*' || echo 0; }
[ "$(n_filtered --pid 1)" -eq 0 ] && [ "$(n_filtered --pid 2)" -eq 50 ] &&
	ok "--pid keeps its process only" || not_ok "--pid"
[ "$(n_filtered --tid 1,3)" -eq 0 ] && [ "$(n_filtered --tid 3)" -eq 50 ] && ok "--tid" || not_ok "--tid"
[ "$(n_filtered --comm loop)" -eq 0 ] && [ "$(n_filtered --comm sh)" -eq 50 ] && ok "--comm" ||
	not_ok "--comm"
[ "$(n_filtered --dso loop)" -eq 0 ] && [ "$(n_filtered --dso libc.so.6)" -eq 50 ] && ok "--dso" ||
	not_ok "--dso"
$R convert -f perf -o "$T_DIR/x.data" --pid x "$T_DIR/b.data" 2>"$T_LOG"
[ $? -eq 1 ] && grep -q 'not a number' "$T_LOG" && ok "--pid x: clear error" || not_ok "--pid x"
# An output that is not a regular file (a FIFO here, /dev/null in use) is
# written in place: renaming the temporary file over it would replace it.
mkfifo "$T_DIR/fifo"
timeout 20 cat "$T_DIR/fifo" >"$T_DIR/fifo.out" &
$R convert -f perfscript -o "$T_DIR/fifo" "$T_DIR/b.data" 2>"$T_LOG"; rc=$?
wait
[ $rc -eq 0 ] && [ -p "$T_DIR/fifo" ] && [ -s "$T_DIR/fifo.out" ] &&
	ok "-o FIFO: written through, still a FIFO" || not_ok "-o FIFO: rc $rc, $(ls -l "$T_DIR/fifo")"
done_testing
