#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# rvctr record on the host: the libperf collection path with a software
# event (hosts rarely expose branch stacks), read back by stock perf; and the
# branch-stack event either works or fails with a clear message.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}

need_record "rvctr record"
# appears DIR: wait (up to 10 s) until something is in DIR
appears() {
	local i
	for i in $(seq 100); do
		[ -n "$(ls -A "$1")" ] && return
		sleep 0.1
	done
}
# flowing DIR: until samples flow into the file in DIR (task-clock every
# 100 us writes 64 KiB of them within a fraction of a second once the
# event is on; a loaded host can take longer than a fixed sleep from the
# file to the event), at most 5 s.
flowing() {
	local i

	for i in $(seq 50); do
		[ "$(cat "$1"/* "$1"/.[!.]* 2>/dev/null | wc -c)" -ge 65536 ] && return
		sleep 0.1
	done
}
work='i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
if ! $R record -e task-clock -c 100000 -o "$T_DIR/r.data" -- sh -c "$work" >"$T_LOG" 2>&1; then
	if grep -qi 'permission\|not permitted\|paranoid' "$T_LOG"; then
		skip "record task-clock samples" "perf_event_open not permitted here"
		done_testing
		exit
	fi
	not_ok "record task-clock samples"
	sed 's/^/# /' "$T_LOG"
else
	ok "record task-clock samples ($(grep -o '[0-9]* samples' "$T_LOG"))"
fi
check "our reader reads the recording" $R convert -f perfscript -o "$T_DIR/r.txt" "$T_DIR/r.data"
# -o /dev/stdout: the recording is the shell's file; the workload's own
# output goes to standard error, not into the recording
{ $R record -e task-clock -c 100000 -o /dev/stdout -- sh -c "echo workload-says-hi; $work" \
	>"$T_DIR/so.data" 2>"$T_LOG"; echo "rc=$?" >>"$T_LOG"; }
grep -q '^rc=0' "$T_LOG" && grep -q workload-says-hi "$T_LOG" &&
	! grep -q workload-says-hi "$T_DIR/so.data" &&
	$R convert -f perfscript -o /dev/null "$T_DIR/so.data" 2>>"$T_LOG" &&
	ok "record -o /dev/stdout: a readable recording, the workload's output on stderr" ||
	{ not_ok "record -o /dev/stdout: a readable recording, the workload's output on stderr"
	  sed 's/^/# /' "$T_LOG" | head -5; }
if command -v perf >/dev/null; then
	check "perf script reads the recording" perf script -i "$T_DIR/r.data"
	cp "$T_LOG" "$T_DIR/script.txt"
	check "samples are attributed to the workload's comm" grep -q '^ *sh ' "$T_DIR/script.txt"
	check "perf report reads the recording" perf report -i "$T_DIR/r.data" --stdio
	check "HEADER_ARCH is the machine's" sh -c \
		"perf report -i '$T_DIR/r.data' --header-only | grep -q '# arch : $(uname -m)'"
	check "HEADER_BUILD_ID names mapped files" sh -c \
		"perf buildid-list -i '$T_DIR/r.data' | grep -q ' /'"
	# the kernel's map, as perf record writes it (rvctr/kmaps.h): at _text
	# of /proc/kallsyms, pgoff the same, unless kernel pointers are hidden
	ref=$(awk '$3 == "_text" && $2 ~ /^[TtWwA]$/ { print $1; exit }' /proc/kallsyms 2>/dev/null)
	if [ -n "$ref" ] && [ $((0x$ref)) -ne 0 ]; then
		k=$(printf '%x' $((0x$ref)))
		check "the kernel's map: [kernel.kallsyms]_text at 0x$k, pgoff 0x$k" sh -c \
			"perf script -i '$T_DIR/r.data' --show-mmap-events 2>/dev/null | grep -qE \
			 'PERF_RECORD_MMAP2 -1/0: \[0x$k\(0x[0-9a-f]+\) @ 0x$k .*\[kernel\.kallsyms\]_text\$'"
		kid=$(perf buildid-list -k 2>/dev/null)
		if [ -n "$kid" ]; then
			check "HEADER_BUILD_ID: the kernel's, from /sys/kernel/notes" sh -c \
				"perf buildid-list -i '$T_DIR/r.data' | grep -qx '$kid \[kernel.kallsyms\]'"
		fi
		# kernel samples: perf attributes them by the map ([unknown] without)
		if $R record -e task-clock -j u,k -c 100000 -o "$T_DIR/kk.data" -- \
			dd if=/dev/zero of=/dev/null bs=512 count=100000 >"$T_LOG" 2>&1; then
			check "kernel samples attributed to [kernel.kallsyms] (perf report)" sh -c \
				"perf report -i '$T_DIR/kk.data' --stdio --sort dso 2>/dev/null |
				 grep -q '%  \[kernel\.kallsyms\]'"
		else
			skip "kernel samples attributed" "record -j u,k: $(head -1 "$T_LOG")"
		fi
	else
		skip "the kernel's map" "no _text in /proc/kallsyms, or kernel pointers restricted"
	fi
	check "record -g: callchains" $R record -g -e task-clock -o "$T_DIR/g.data" -- sh -c "$work"
	check "perf script shows the callchains" sh -c \
		"perf script -i '$T_DIR/g.data' 2>/dev/null | grep -q '^[[:space:]]*[0-9a-f]* .*(/'"
else
	skip "perf reads the recording" "perf not installed"
fi

# perf record's habits: the workload's status, -F, -p, -a, a killed record
$R record -e task-clock -o "$T_DIR/s.data" -- sh -c 'exit 7' >/dev/null 2>&1
rc=$?
[ $rc -eq 7 ] && ok "record exits with the workload's status" || not_ok "record status $rc, workload 7"
# perf record's backup: the earlier recording of the name becomes NAME.old
cp "$T_DIR/s.data" "$T_DIR/s.first"
$R record -e task-clock -o "$T_DIR/s.data" -- true >/dev/null 2>&1
check "an earlier recording of the output's name is kept as NAME.old" cmp -s "$T_DIR/s.first" "$T_DIR/s.data.old"
# -C: a bad CPU list is an error before anything runs, never a silent
# other set of CPUs (libperf reads "0,x" as 0 and "0-" as 0)
for list in x 0,x 0- 0,,1 1-0 '' 0-1x 99999; do
	$R record -e task-clock -C "$list" -o "$T_DIR/badc.data" -- touch "$T_DIR/ran" >"$T_LOG" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ ! -e "$T_DIR/ran" ] && [ ! -e "$T_DIR/badc.data" ] &&
		grep -q "rvctr: -C: .*'$list'" "$T_LOG" &&
		ok "record -C '$list': $(head -1 "$T_LOG")" ||
		{ not_ok "record -C '$list': status $rc, should be refused"; sed 's/^/# /' "$T_LOG" | head -3; }
	rm -f "$T_DIR/ran" "$T_DIR/badc.data"
done
$R record -C 0 -p 1 -o "$T_DIR/badc.data" >"$T_LOG" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q usage "$T_LOG" && ok "record -C with -p: usage, status 2" ||
	not_ok "record -C with -p: status $rc"
check "record -F 1000" $R record -e task-clock -F 1000 -o "$T_DIR/f.data" -- sleep 0.1
if command -v perf >/dev/null; then
	sh -c "$work" &
	wl=$!
	$R record -e task-clock -c 100000 -o "$T_DIR/p.data" -p $wl >"$T_LOG" 2>&1
	rc=$?
	wait $wl
	n=$(perf script -i "$T_DIR/p.data" 2>/dev/null | grep -c "^ *sh *$wl ")
	[ $rc -eq 0 ] && [ "$n" -gt 0 ] && ok "record -p: $n samples of the running process" ||
		{ not_ok "record -p: status $rc, $n samples"; sed 's/^/# /' "$T_LOG" | head -5; }
	perf script -i "$T_DIR/p.data" 2>/dev/null | grep -q "^ *sh *$wl .*(/" &&
		ok "record -p: its maps from /proc resolve the samples" || not_ok "record -p: no maps"
	# -p follows what the process starts after the attach (perf record -p
	# inherits): a child process, and a thread where python3 is, started
	# once record has its output file (it opens the events before)
	mkdir "$T_DIR/late" "$T_DIR/thr"
	sh -c "n=0; while [ -z \"\$(ls -A '$T_DIR/late')\" ] && [ \$n -lt 100 ]; do
		sleep 0.1; n=\$((n + 1)); done; sleep 0.3; ($work) & wait" &
	wl=$!
	$R record -e task-clock -c 100000 -o "$T_DIR/late/late.data" -p $wl >"$T_LOG" 2>&1
	rc=$?
	wait $wl
	n=$(perf script -F pid -i "$T_DIR/late/late.data" 2>/dev/null | awk -v p=$wl '$1 != p' | wc -l)
	[ $rc -eq 0 ] && [ "$n" -gt 0 ] && ok "record -p: $n samples of a child forked after the attach" ||
		{ not_ok "record -p: status $rc, $n samples of a child forked after the attach"
		  sed 's/^/# /' "$T_LOG" | head -5; }
	if command -v python3 >/dev/null && python3 -c 'import threading' 2>/dev/null; then
		python3 -c '
import os, sys, threading, time
for i in range(100):
    if os.listdir(sys.argv[1]):
        break
    time.sleep(0.1)
time.sleep(0.3)
def work():
    i = 0
    while i < 3000000:
        i += 1
t = threading.Thread(target=work)
t.start()
t.join()' "$T_DIR/thr" &
		wl=$!
		$R record -e task-clock -c 100000 -o "$T_DIR/thr/thr.data" -p $wl >"$T_LOG" 2>&1
		rc=$?
		wait $wl
		n=$(perf script -F pid,tid -i "$T_DIR/thr/thr.data" 2>/dev/null |
			awk -v p=$wl '$1 == p "/" p { next } index($1, p "/") == 1' | wc -l)
		[ $rc -eq 0 ] && [ "$n" -gt 0 ] &&
			ok "record -p: $n samples of a thread started after the attach" ||
			{ not_ok "record -p: status $rc, $n samples of a thread started after the attach"
			  sed 's/^/# /' "$T_LOG" | head -5; }
	else
		skip "record -p: a thread started after the attach" "no python3"
	fi
	# -C: only the CPUs listed
	if $R record -e task-clock -C 0 -o "$T_DIR/c.data" -- sh -c "$work" >"$T_LOG" 2>&1; then
		cpus=$(perf script -F cpu -i "$T_DIR/c.data" 2>/dev/null | tr -d ' []' | sort -u | tr '\n' ' ')
		[ "$cpus" = "000 " ] && ok "record -C 0: samples of CPU 0 only" ||
			not_ok "record -C 0: samples of CPUs '$cpus'"
		online=$(cat /sys/devices/system/cpu/online)
		check "record -C $online (the online CPUs)" \
			$R record -e task-clock -C "$online" -o "$T_DIR/c.data" -- true
	else
		skip "record -C 0" "not permitted here: $(head -1 "$T_LOG")"
	fi
	if $R record -e task-clock -a -o "$T_DIR/a.data" -- sleep 0.2 >"$T_LOG" 2>&1; then
		check "record -a: perf reads it" sh -c "perf script -F comm,tid -i '$T_DIR/a.data' | grep -q ."
	else
		skip "record -a" "not permitted here: $(head -1 "$T_LOG")"
	fi
	# the output is written under a temporary name next to it and renamed
	# when the recording is complete
	mkdir "$T_DIR/k"
	$R record -e task-clock -c 100000 -o "$T_DIR/k/k.data" -- sh -c "$work; $work; $work" \
		>/dev/null 2>&1 &
	rec=$!
	appears "$T_DIR/k"
	flowing "$T_DIR/k"
	wl=$(pgrep -P $rec)
	tmp=$(ls -A "$T_DIR/k")
	[[ $tmp == .k.data.* ]] && ok "while recording, the output is a temporary file ($tmp)" ||
		not_ok "while recording, '$tmp' in the output's directory, want .k.data.* only"
	# killed with SIGKILL mid-way: the header written while recording holds,
	# in the temporary file; nothing under the output's name
	kill -9 $rec
	wait $rec 2>/dev/null
	n=$(perf script -i "$T_DIR/k/$tmp" 2>/dev/null | wc -l)
	[ ! -e "$T_DIR/k/k.data" ] && [ "$n" -gt 0 ] &&
		ok "record killed with SIGKILL: no k.data, perf reads $n samples in $tmp" ||
		not_ok "record killed with SIGKILL: k.data $(ls "$T_DIR/k/k.data" 2>&1), $n samples in '$tmp'"
	# its workload is orphaned: end it
	[ -n "$wl" ] && kill $wl 2>/dev/null
	# SIGTERM (workload), SIGINT (-p): stop, finish the file, rename it
	for sig in TERM INT; do
		d=$T_DIR/sig$sig
		mkdir "$d"
		if [ $sig = INT ]; then
			sh -c "$work; $work; $work" &
			wl=$!
			$R record -e task-clock -c 100000 -o "$d/s.data" -p $wl >"$T_LOG" 2>&1 &
		else
			wl=
			$R record -e task-clock -c 100000 -o "$d/s.data" -- sh -c "$work; $work; $work" \
				>"$T_LOG" 2>&1 &
		fi
		rec=$!
		appears "$d"
		flowing "$d"
		kill -$sig $rec
		wait $rec
		rc=$?
		[ -n "$wl" ] && kill $wl 2>/dev/null
		left=$(ls -A "$d" | tr '\n' ' ')
		n=$(perf script -i "$d/s.data" 2>/dev/null | wc -l)
		[ "$left" = "s.data " ] && [ "$n" -gt 0 ] &&
			ok "record stopped by SIG$sig (status $rc): s.data has $n samples, nothing else left" ||
			{ not_ok "record stopped by SIG$sig: '$left' left, $n samples"; sed 's/^/# /' "$T_LOG"; }
	done
fi
# a record that fails (here a write error: a file size limit) leaves
# neither a partial file under the output's name, nor its temporary file;
# an earlier file of that name stays
mkdir "$T_DIR/full"
echo earlier >"$T_DIR/full/f.data"
(ulimit -f 8; trap '' XFSZ; exec $R record -e task-clock -c 100000 -o "$T_DIR/full/f.data" \
	-- sh -c "$work") >"$T_LOG" 2>&1
rc=$?
left=$(ls -A "$T_DIR/full" | tr '\n' ' ')
[ $rc -ne 0 ] && [ "$left" = "f.data " ] && [ "$(cat "$T_DIR/full/f.data")" = earlier ] &&
	grep -q 'rvctr: .*File too large' "$T_LOG" &&
	ok "record failing to write: error, the earlier f.data kept, no temporary file" ||
	{ not_ok "record failing to write: status $rc, '$left' left"; sed 's/^/# /' "$T_LOG" | head -5; }
if [ -e /sys/bus/event_source/devices/cpu/caps/branches ]; then
	check "record branch stacks" $R record -o "$T_DIR/b.data" -- sh -c "$work"
	check "branch stacks in the recording" $R report "$T_DIR/b.data"
else
	if $R record -o "$T_DIR/b.data" -- true >"$T_LOG" 2>&1; then
		not_ok "record -b without branch-stack support should fail"
	elif grep -q 'branch stacks' "$T_LOG"; then
		ok "no branch-stack PMU: record fails with a clear message"
	else
		not_ok "no branch-stack PMU: unclear message"
		sed 's/^/# /' "$T_LOG"
	fi
fi
done_testing
