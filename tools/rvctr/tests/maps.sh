#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Which maps place a sample's branches: its own process's (a thread's are
# its process's, a forked child starts with its parent's) and the
# kernel's, never another process's, nor those of an earlier process that
# had its pid, nor those of another input.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
synth_setup || { done_testing; exit; }
mmap() { printf 'mmap %d %#x %#x %#x %s\n' "$1" "$start" "$len" $((off & ~0xfff)) "${2:-$BIN}"; }
samples() { local i; for ((i = 0; i < $2; i++)); do sample "$1"; done; }
# branches in an autofdo profile: the taken-branch counts (lines "a->b:n")
branches() { awk -F: '/->/ { s += $2 } END { print s + 0 }' "$1"; }
# afdo NAME DESCRIPTION-ON-STDIN: synthesize NAME.data, convert it; prints branches
synth() { "$SYNTH" "$T_DIR/$1.data" >"$T_LOG" 2>&1; }
afdo() { # OUT INPUT...: branches in the autofdo profile of INPUTs, or "failed"
	local out=$T_DIR/$1.afdo
	shift
	if "$R" convert -f autofdo -o "$out" "$@" 2>"$T_LOG"; then branches "$out"; else echo failed; fi
}

# pid 100 maps the loop and has 4 samples (12 branches)
{ echo "comm 100 loop"; mmap 100; samples 100 4; } | synth p100
one=$(afdo one "$T_DIR/p100.data")
[ "$one" = 12 ] && ok "pid 100: its 12 branches" || not_ok "pid 100: $one branches, want 12"

# samples of pids with no maps, in the same recording: not placed in pid 100's
{ echo "comm 100 loop"; mmap 100; samples 100 4; samples 300 2; samples 1 1; } | synth other
got=$(afdo other "$T_DIR/other.data")
[ "$got" = 12 ] && ok "pids without maps: not counted in another process's binary" ||
	not_ok "pids without maps: $got branches, want pid 100's 12"

# a fork's child starts with its parent's maps; a thread has its process's
{ echo "comm 100 loop"; mmap 100; echo "fork 101 100"; samples 101 2; echo "fork 100 100"
  samples 100 1; } | synth fork
got=$(afdo fork "$T_DIR/fork.data")
[ "$got" = 9 ] && ok "a forked child and a new thread: placed in the maps they have" ||
	not_ok "fork, thread: $got branches, want 9"

# the process exits; its late samples count; a new process reusing pid 100
# (forked by pid 1, which mapped nothing) does not have its maps
{ echo "comm 100 loop"; mmap 100; samples 100 1; echo "exit 100"; samples 100 1
  echo "fork 100 1"; samples 100 3; } | synth reuse
got=$(afdo reuse "$T_DIR/reuse.data")
[ "$got" = 6 ] && ok "exit, then the pid reused: the new process has none of the old maps" ||
	not_ok "pid reuse: $got branches, want the old process's 6"

# another input: its samples only in its own maps.  Snapshot text (pid 1, no
# MMAP without -b) alone places nothing, and after pid 100's recording it
# must not borrow pid 100's maps (nor pid 1's of another input).
gen_snapshots 5 16 1 >"$T_DIR/s.txt"
got=$(afdo snap "$T_DIR/s.txt")
[ "$got" = failed ] && grep -q 'no branches fall in any mapped binary' "$T_LOG" &&
	ok "snapshots without -b alone: no mapped binary" || not_ok "snapshots alone: $got"
got=$(afdo merged "$T_DIR/p100.data" "$T_DIR/s.txt")
[ "$got" = 12 ] && ok "snapshots after a recording: not placed in its maps" ||
	not_ok "snapshots merged after pid 100's recording: $got branches, want 12"
got=$("$R" convert -f autofdo -p 999 -o "$T_DIR/m999.afdo" "$T_DIR/p100.data" "$T_DIR/s.txt" \
	2>"$T_LOG" && branches "$T_DIR/m999.afdo")
[ "${got:-failed}" = failed ] && grep -q 'no branches fall' "$T_LOG" &&
	ok "snapshots as pid 999 after a recording: not placed in its maps" ||
	not_ok "snapshots as pid 999, merged: $got branches"
{ echo "comm 1 loop"; mmap 1; samples 1 2; } | synth p1
got=$(afdo p1s "$T_DIR/p1.data" "$T_DIR/s.txt")
[ "$got" = 6 ] && ok "pid 1 of another input: its maps are not the snapshots'" ||
	not_ok "pid 1 of another input: $got branches, want 6"
got=$(afdo p1p100 "$T_DIR/p1.data" "$T_DIR/p100.data")
[ "$got" = 18 ] && ok "two recordings of one binary: one profile" ||
	not_ok "two recordings: $got branches, want 18"
# the same through --dso and report: maps per input there too
got=$("$R" convert -f perf --dso loop -o "$T_DIR/d.data" "$T_DIR/p100.data" "$T_DIR/s.txt" 2>&1 |
	grep -o '[0-9]* samples filtered' | grep -o '^[0-9]*')
[ "${got:-0}" = 5 ] && ok "--dso: the second input's samples are in no binary" ||
	not_ok "--dso over two inputs: ${got:-0} filtered, want the snapshots' 5"

# two builds of one path (build ids in the header, per input) are two
# binaries: not one profile; an input that recorded no build id joins one
{ echo "buildid $BIN $(printf 'aa%.0s' {1..20})"; echo "comm 100 loop"; mmap 100
  samples 100 4; } | synth ida
{ echo "buildid $BIN $(printf 'bb%.0s' {1..20})"; echo "comm 100 loop"; mmap 100
  samples 100 2; } | synth idb
got=$(afdo ab "$T_DIR/ida.data" "$T_DIR/idb.data")
[ "$got" = 12 ] && grep -q 'another build of it (build id bbbb.*) are left out' "$T_LOG" &&
	ok "two builds of one path: the busier one's profile, the other named" ||
	{ not_ok "two builds of one path: $got branches, want 12 and a warning"; sed 's/^/# /' "$T_LOG"; }
got=$(afdo ba "$T_DIR/idb.data" "$T_DIR/ida.data")
[ "$got" = 12 ] && ok "two builds, the other order: the same" || not_ok "two builds, b then a: $got"
got=$(afdo anoid "$T_DIR/ida.data" "$T_DIR/p100.data")
[ "$got" = 24 ] && ! grep -q 'left out' "$T_LOG" &&
	ok "a recording without build ids joins one with them" ||
	not_ok "no build id after build id aa: $got branches, want 24"

# perfscript with filters: only the MMAP2 lines of processes whose samples
# are kept (and the kernel's).  llvm-profgen takes no pid from a sample
# line and moves the binary's base to any MMAP2 of its file name, so pid
# 200's map of the loop at another base would shift pid 100's samples.
cp "$BIN" "$T_DIR/other"
{ echo "mmap -1 0xffffffff80000000 0x1000000 0 [kernel.kallsyms]_text"
  echo "comm 100 loopa"; mmap 100; samples 100 3
  echo "comm 200 loopb"; printf 'mmap 200 %#x %#x %#x %s
' $((start + 0x100000)) "$len" 	$((off & ~0xfff)) "$BIN"; samples 200 2
  echo "comm 300 other"; mmap 300 "$T_DIR/other"; samples 300 1
  samples 100 1; } | synth mixed
{ echo "mmap -1 0xffffffff80000000 0x1000000 0 [kernel.kallsyms]_text"
  echo "comm 100 loopa"; mmap 100; samples 100 4; } | synth only100
mmaps() { sed -n 's|.*PERF_RECORD_MMAP2 \(-\{0,1\}[0-9]*\)/.*|\1|p' "$1" | sort -u | tr '\n' ' '; }
for f in "--pid 100" "--tid 100" "--comm loopa" "--dso loop" "--pid 100,200 --dso loop"; do
	"$R" convert -f perfscript $f -o "$T_DIR/f.script" "$T_DIR/mixed.data" 2>"$T_LOG"
	got=$(mmaps "$T_DIR/f.script")
	[ "$got" = "-1 100 " ] && [ "$(grep -c '^ *[0-9a-f]* 0x' "$T_DIR/f.script")" = 4 ] &&
		ok "perfscript $f: pid 100's 4 samples, its MMAP2 and the kernel's only" ||
		not_ok "perfscript $f: MMAP2 of pids '$got', want '-1 100 '"
done
"$R" convert -f perfscript -o "$T_DIR/all.script" "$T_DIR/mixed.data" 2>"$T_LOG"
[ "$(mmaps "$T_DIR/all.script")" = "-1 100 200 300 " ] && ok "perfscript unfiltered: every MMAP2" ||
	not_ok "perfscript unfiltered: MMAP2 of pids $(mmaps "$T_DIR/all.script")"
"$R" convert -f perfscript --pid 100 -o "$T_DIR/two.script" "$T_DIR/mixed.data" "$T_DIR/mixed.data" \
	2>"$T_LOG"
[ "$(grep -c 'PERF_RECORD_MMAP2 100/' "$T_DIR/two.script")" = 2 ] &&
	ok "perfscript --pid, two inputs: each input's pid 100 shows its own MMAP2" ||
	not_ok "perfscript --pid, two inputs: $(grep -c 'PERF_RECORD_MMAP2 100/' "$T_DIR/two.script") MMAP2 lines of pid 100"
{ echo "comm 100 loopa"; mmap 100; samples 100 2; echo "exit 100"; echo "fork 100 1"
  echo "comm 100 newp"; printf 'mmap 100 %#x %#x %#x %s\n' $((start + 0x100000)) "$len" \
	$((off & ~0xfff)) "$BIN"; samples 100 2; } | synth reused
"$R" convert -f perfscript --comm loopa -o "$T_DIR/r.script" "$T_DIR/reused.data" 2>"$T_LOG"
[ "$(grep -c 'PERF_RECORD_MMAP2 100/' "$T_DIR/r.script")" = 1 ] &&
	ok "perfscript --comm: a later process with the pid shows none of its maps" ||
	not_ok "perfscript --comm, pid reused: $(grep -c 'PERF_RECORD_MMAP2 100/' "$T_DIR/r.script") MMAP2 lines"
# report's hot edges are keyed by binary and offset: two non-PIE programs at
# the same addresses (a -a recording) are two edges, each with its own
# symbols; one binary at two bases (pid 300's copy 1 MiB up) is one edge
"${CROSS_COMPILE:-riscv64-linux-gnu-}objcopy" --redefine-sym work=other_work "$BIN" "$T_DIR/other"
shifted() { printf 'sample %d %#x %#x/%#x/2/0/3\n' "$1" $((0x$T2 + 0x100000)) $((0x$B2 + 0x100000)) \
	$((0x$T2 + 0x100000)); }
{ echo "comm 100 loop"; mmap 100; samples 100 2; echo "comm 200 other"; mmap 200 "$T_DIR/other"
  samples 200 1; echo "comm 300 loop"; printf 'mmap 300 %#x %#x %#x %s\n' $((start + 0x100000)) \
	"$len" $((off & ~0xfff)) "$BIN"; shifted 300; } | synth rep
"$R" report "$T_DIR/rep.data" >"$T_DIR/rep.txt" 2>"$T_LOG"
edge() { awk -v f="$1" -v t="$2" '$1 == f && $2 == t { print $4 }' "$T_DIR/rep.txt"; }
back=$(awk '$1 ~ /^work\+/ && $3 == "UNCOND" { print $1, $2; exit }' "$T_DIR/rep.txt")
read -r bf bt <<<"$back"
[ -n "$bf" ] && [ "$(edge "$bf" "$bt")" = 5 ] && [ "$(edge "other_$bf" "other_$bt")" = 2 ] &&
	ok "report: edges per binary and offset (two programs at one address apart, one at two bases together)" ||
	{ not_ok "report: hot edges mix binaries"; sed -n '/hottest/,/^$/p' "$T_DIR/rep.txt" | sed 's/^/# /'; }
# an exec under --comm: the new program's maps only with a sample of it
{ echo "comm 100 loopa"; mmap 100; samples 100 2; echo "exec 100 newp"
  printf 'mmap 100 %#x %#x %#x %s\n' $((start + 0x100000)) "$len" $((off & ~0xfff)) "$BIN"
  samples 100 2; } | synth exec
"$R" convert -f perfscript --comm loopa -o "$T_DIR/e.script" "$T_DIR/exec.data" 2>"$T_LOG"
[ "$(grep -c 'PERF_RECORD_MMAP2 100/' "$T_DIR/e.script")" = 1 ] &&
	ok "perfscript --comm: after an exec, none of the new program's maps" ||
	not_ok "perfscript --comm, exec: $(grep -c 'PERF_RECORD_MMAP2 100/' "$T_DIR/e.script") MMAP2 lines"
PROFGEN=$(command -v llvm-profgen-19 || true)
if [ -z "$PROFGEN" ]; then
	skip "llvm-profgen: --pid 100 of a mixed recording is pid 100's profile" "no llvm-profgen-19"
else
	"$R" convert -f perfscript --pid 100 -o "$T_DIR/f.script" "$T_DIR/mixed.data" 2>"$T_LOG"
	"$R" convert -f perfscript -o "$T_DIR/o.script" "$T_DIR/only100.data" 2>>"$T_LOG"
	for x in f o; do
		"$PROFGEN" --format=text --binary="$BIN" --perfscript="$T_DIR/$x.script" \
			--output="$T_DIR/$x.prof" >>"$T_LOG" 2>&1
	done
	[ -s "$T_DIR/o.prof" ] && grep -q '^work:' "$T_DIR/o.prof" && cmp -s "$T_DIR/o.prof" "$T_DIR/f.prof" &&
		ok "llvm-profgen: --pid 100 of a mixed recording is pid 100's profile" ||
		{ not_ok "llvm-profgen: --pid 100 of a mixed recording differs from pid 100's"
		  diff "$T_DIR/o.prof" "$T_DIR/f.prof" | head | sed 's/^/# /'; }
fi

done_testing
