#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Several recordings merged into one perf.data (convert -f perf, spe): two
# boots' processes that share a pid stay two processes (the later one
# written as pid 4194304 and up, with a warning naming the mapping), each
# with its own maps and samples; recordings whose pids do not collide, or
# a later file of the same session, keep their pids and bytes.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
synth_setup || { done_testing; exit; }
cp "$BIN" "$T_DIR/other"
mmap() { printf 'mmap %d %#x %#x %#x %s\n' "$1" "$start" "$len" $((off & ~0xfff)) "$2"; }
samples() { local i; for ((i = 0; i < $2; i++)); do sample "$1"; done; }
synth() { "$SYNTH" "$T_DIR/$1.data" >"$T_LOG" 2>&1 || not_ok "synth-perf $1"; }

# boot 1: pid 100 runs the loop; boot 2: pid 100 is another program,
# mapped at the same addresses, over the same times
{ echo "time 10"; echo "comm 100 loop"; mmap 100 "$BIN"; samples 100 3; } | synth a
{ echo "time 10"; echo "comm 100 other"; mmap 100 "$T_DIR/other"; samples 100 2; } | synth b
# boot 2 again: pid 100 forked (a new process), then exec'd the other
{ echo "time 10"; echo "fork 100 1"; echo "exec 100 other"; mmap 100 "$T_DIR/other"
  samples 100 2; } | synth bfork
# boot 2 again: pid 100 has the same comm, but its own map
{ echo "time 10"; echo "comm 100 loop"; mmap 100 "$T_DIR/other"; samples 100 2; } | synth bmap
# no collision: pid 200 in the other recording
{ echo "time 10"; echo "comm 200 other"; mmap 200 "$T_DIR/other"; samples 200 2; } | synth c
# the same session's next file: pid 100 goes on, with no COMM or MMAP of its own
{ echo "time 50"; samples 100 2; } | synth a2
# the same session again, with the COMM and MMAP that perf synthesizes anew
{ echo "time 50"; echo "comm 100 loop"; mmap 100 "$BIN"; samples 100 2; } | synth a3
# ... whose map is the earlier one but for its length (the kernel's MMAP2
# length is not /proc's; a vma split)
{ echo "time 50"; echo "comm 100 loop"
  printf 'mmap 100 %#x %#x %#x %s\n' "$start" $((len + 0x1000)) $((off & ~0xfff)) "$BIN"
  samples 100 2; } | synth a4
# boot 2's next file: its pid 100 (written as 4194304) goes on
{ echo "time 50"; samples 100 4; } | synth b2

# "PID COMM DSO" of every sample of FILE, sorted and counted
who() { perf script -i "$1" -F comm,pid,ip,dso 2>/dev/null |
	awk '{ d = $NF; sub(/^\(/, "", d); sub(/\)$/, "", d); n = split(d, p, "/")
		print $2 + 0, $1, p[n] }' | sort | uniq -c | awk '{ printf "%s:%s:%s:%s ", $2, $3, $4, $1 }'; }

# samples_are NAME FILE WANT: the processes perf script finds in FILE (who)
samples_are() {
	local got

	if ! have perf; then
		skip "$1" "perf not installed"
		return
	fi
	got=$(who "$2")
	[ "$got" = "$3" ] && ok "$1: samples '$got'" || not_ok "$1: samples '$got', want '$3'"
}

for fmt in perf spe; do
	per=1
	[ "$fmt" = spe ] && per=3
	# two boots' pid 100
	check "-f $fmt: two recordings sharing pid 100" \
		"$R" convert -f "$fmt" -o "$T_DIR/ab.$fmt" "$T_DIR/a.data" "$T_DIR/b.data"
	grep -q "b.data: pid 100 is not the earlier input's process 100 (comm 'other', was 'loop'); written as pid 4194304" "$T_LOG" &&
		ok "-f $fmt: the warning names the mapping" ||
		not_ok "-f $fmt: no warning 'pid 100 ... written as pid 4194304': $(head -3 "$T_LOG")"
	samples_are "-f $fmt: each process's samples in its own binary" "$T_DIR/ab.$fmt" \
		"100:loop:loop:$((3 * per)) 4194304:other:other:$((2 * per)) "
	# the first map decides when the COMM agrees; a FORK is a new process
	for b in bmap bfork; do
		check "-f $fmt: pid 100 of $b" \
			"$R" convert -f "$fmt" -o "$T_DIR/$b.$fmt" "$T_DIR/a.data" "$T_DIR/$b.data"
		grep -q "written as pid 4194304" "$T_LOG" &&
			ok "-f $fmt: $b's pid 100 is another process" ||
			not_ok "-f $fmt: $b's pid 100 kept: $(head -3 "$T_LOG")"
		samples_are "-f $fmt: $b's samples in its own binary" "$T_DIR/$b.$fmt" \
			"100:loop:loop:$((3 * per)) 4194304:$([ $b = bmap ] && echo loop || echo other):other:$((2 * per)) "
	done
	# no collision, or the same session: pids kept, no warning
	for b in c a2 a3 a4; do
		check "-f $fmt: a then $b" \
			"$R" convert -f "$fmt" -o "$T_DIR/a$b.$fmt" "$T_DIR/a.data" "$T_DIR/$b.data"
		grep -q "warning" "$T_LOG" && not_ok "-f $fmt: a then $b: $(head -3 "$T_LOG")" ||
			ok "-f $fmt: a then $b: no pid remapped"
		case $b in
		c) want="100:loop:loop:$((3 * per)) 200:other:other:$((2 * per)) " ;;
		*) want="100:loop:loop:$((5 * per)) " ;;
		esac
		samples_are "-f $fmt: a then $b" "$T_DIR/a$b.$fmt" "$want"
	done
	# boot 2's next file goes on with boot 2's process, not boot 1's
	check "-f $fmt: a, b, then b's next file" \
		"$R" convert -f "$fmt" -o "$T_DIR/abb2.$fmt" "$T_DIR/a.data" "$T_DIR/b.data" "$T_DIR/b2.data"
	[ "$(grep -c warning "$T_LOG")" = 1 ] && ok "-f $fmt: a, b, b2: only b's pid remapped" ||
		not_ok "-f $fmt: a, b, b2: want one warning (b's): $(head -3 "$T_LOG")"
	samples_are "-f $fmt: a, b, b2" "$T_DIR/abb2.$fmt" \
		"100:loop:loop:$((3 * per)) 4194304:other:other:$((6 * per)) "
done

# an input pid that is an id handed out before (a merged output merged
# again) is not that process
{ echo "time 50"; samples 4194304 2; } | synth x
check "a, bmap, then pid 4194304" \
	"$R" convert -f perf -o "$T_DIR/ax.perf" "$T_DIR/a.data" "$T_DIR/bmap.data" "$T_DIR/x.data"
grep -q "x.data: pid 4194304 .*its pid is taken.*written as pid 4194305" "$T_LOG" &&
	ok "an input's pid 4194304 is not the id handed out" ||
	not_ok "no warning 'pid 4194304 ... written as pid 4194305': $(head -3 "$T_LOG")"

# threads: boot 2's new thread 101 of its pid 100 is not boot 1's thread 101
{ echo "time 10"; echo "comm 100 loop"; mmap 100 "$BIN"; echo "fork 100 100"; samples 100 1; } | synth t1
{ echo "time 10"; echo "comm 100 other"; mmap 100 "$T_DIR/other"; echo "fork 100 100"
  samples 100 1; } | synth t2
check "two recordings whose processes have thread 101" \
	"$R" convert -f perf -o "$T_DIR/t.perf" "$T_DIR/t1.data" "$T_DIR/t2.data"
grep -q "tid 101 is not the earlier input's thread 101 (a new thread (FORK)); written as tid 4194305" \
	"$T_LOG" && ok "the thread's warning names its mapping" ||
	not_ok "no warning 'tid 101 ... written as tid 4194305': $(head -3 "$T_LOG")"
if have perf; then
	got=$(perf script -i "$T_DIR/t.perf" --show-task-events -F pid,tid,event 2>/dev/null |
		grep -o 'PERF_RECORD_FORK([0-9:]*)' | tr '\n' ' ')
	want="PERF_RECORD_FORK(100:101) PERF_RECORD_FORK(4194304:4194305) "
	[ "$got" = "$want" ] && ok "each FORK names its own process and thread" ||
		not_ok "FORKs '$got', want '$want'"
fi

# the range outputs keep their inputs apart themselves: nothing remapped
check "-f perfscript: two recordings sharing pid 100" \
	"$R" convert -f perfscript -o "$T_DIR/ab.script" "$T_DIR/a.data" "$T_DIR/b.data"
grep -q warning "$T_LOG" && not_ok "-f perfscript: $(head -3 "$T_LOG")" ||
	ok "-f perfscript: no pid remapped"
done_testing
