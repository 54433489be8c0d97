#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile input (Documentation/tool.rst, "Hostile input"): what a crafted
# perf.data, or options too long for a path, can and cannot make rvctr do.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
TMO=${TMO:-20}

synth_setup || { done_testing; exit; }
NAME=/opt/rvctr-test/loop
{
	echo "buildid $NAME $(build_id "$BIN")"
	echo "comm 4242 loop"
	printf 'mmap 4242 %#x %#x %#x %s\n' $start $len $((off & ~0xfff)) "$NAME"
	for i in 1 2 3; do sample 4242; done
} >"$T_DIR/desc"
check "perf.data of $NAME" "$SYNTH" "$T_DIR/a.data" <"$T_DIR/desc"

# --symfs longer than a path can be: an error (status 1) naming the option,
# never a path cut short (nor, before, a stack buffer overrun)
long=/$(printf '%08200d' 0)
for cmd in "report" "convert -f autofdo -o $T_DIR/o.afdo"; do
	timeout $TMO $R $cmd --symfs "$long" "$T_DIR/a.data" >/dev/null 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -q -- '--symfs: 8201 bytes, longer than a path can be' "$T_LOG" &&
		ok "${cmd%% *} --symfs of 8201 bytes: refused, named" ||
		{ not_ok "${cmd%% *} --symfs of 8201 bytes: status $rc"; head -5 "$T_LOG" | sed 's/^/# /'; }
done

# A recorded name whose ".." lead out of --symfs is not opened: the loop
# binary outside the symfs (a sentinel) would give work() its name.
mkdir -p "$T_DIR/fs/opt/rvctr-test" "$T_DIR/outside"
cp "$BIN" "$T_DIR/outside/loop"
esc() {	# NAME: a.data's description, the binary recorded as NAME
	sed "s|$NAME|$1|" "$T_DIR/desc" | "$SYNTH" "$T_DIR/e.data"
}
report_work() {	# NAME SYMFS: does report name work() in NAME?
	esc "$1" && timeout $TMO $R report --symfs "$2" "$T_DIR/e.data" >"$T_LOG" 2>&1 &&
		grep -qE "%  $1: work\$" "$T_LOG"
}
report_work "/../outside/loop" "$T_DIR/fs" &&
	{ not_ok "/../outside/loop under --symfs: the file outside was read"; sed 's/^/# /' "$T_LOG" | head -8; } ||
	ok "/../outside/loop under --symfs: the file outside it is not read"
report_work "/opt/rvctr-test/../../../outside/loop" "$T_DIR/fs" &&
	not_ok "/opt/rvctr-test/../../../outside/loop: the file outside was read" ||
	ok "/opt/rvctr-test/../../../outside/loop: the file outside it is not read"
cp "$BIN" "$T_DIR/fs/opt/rvctr-test/loop"
report_work "/opt/./x/../rvctr-test//loop" "$T_DIR/fs" &&
	ok "/opt/./x/../rvctr-test//loop: \"..\" inside the symfs, the file there is read" ||
	{ not_ok "/opt/./x/../rvctr-test//loop: not read"; sed 's/^/# /' "$T_LOG" | head -8; }

# Nothing the tool opens blocks on a FIFO: kernel samples with
# SYMFS/proc/kallsyms a FIFO that no one writes, and -b a FIFO.
mkdir -p "$T_DIR/kfs/proc"
mkfifo "$T_DIR/kfs/proc/kallsyms" "$T_DIR/fifo"
{
	cat "$T_DIR/desc"
	echo "mmap -1 0xffffffff80000000 0x1000000 0xffffffff80000000 [kernel.kallsyms]_text"
	echo "sample 4242 0xffffffff80002010 0xffffffff80002040/0xffffffff80002000/2/0/3"
} | "$SYNTH" "$T_DIR/k.data"
timeout 10 $R report --symfs "$T_DIR/kfs" "$T_DIR/k.data" >"$T_LOG" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "SYMFS/proc/kallsyms a FIFO: not waited on, the report made" ||
	{ not_ok "SYMFS/proc/kallsyms a FIFO: status $rc (124: hung)"; sed 's/^/# /' "$T_LOG" | head -5; }
gen_snapshots 4 16 1 >"$T_DIR/snap.txt"
timeout 10 $R convert -f perf -b "$T_DIR/fifo" -o "$T_DIR/o.data" "$T_DIR/snap.txt" >"$T_LOG" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'not a regular file' "$T_LOG" &&
	ok "-b a FIFO: not waited on, refused as no regular file" ||
	{ not_ok "-b a FIFO: status $rc (124: hung)"; sed 's/^/# /' "$T_LOG" | head -5; }
done_testing
