#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Corrupt and truncated inputs end with an error message and status 1:
# never a crash (the sanitizer build aborts on any memory error), a hang or
# a silent success on a file that lost data.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
TMO=${TMO:-20}

build_loop "$T_DIR/loop" && loop_addrs "$T_DIR/loop" || { not_ok "test program"; done_testing; exit; }
gen_snapshots 20 16 3 >"$T_DIR/snap.txt"
$R convert -f perf -b "$T_DIR/loop" -o "$T_DIR/a.data" "$T_DIR/snap.txt" 2>/dev/null
size=$(stat -c %s "$T_DIR/a.data")

# every truncation of the perf.data file must fail cleanly
bad=0 silent=0
for ((n = 0; n < size; n += 29)); do
	head -c $n "$T_DIR/a.data" >"$T_DIR/t.data"
	timeout $TMO $R convert -f autofdo -o "$T_DIR/t.out" "$T_DIR/t.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 0 ] && silent=$((silent + 1))
	[ $rc -ne 0 ] && [ $rc -ne 1 ] && { bad=$((bad + 1)); sed 's/^/# /' "$T_LOG" | head -5; }
done
[ $bad -eq 0 ] && ok "truncated perf.data ($((size / 29 + 1)) cuts): no crash or hang" ||
	not_ok "truncated perf.data: $bad crashes or hangs"
[ $silent -eq 0 ] && ok "truncated perf.data: every cut reported as an error" ||
	not_ok "truncated perf.data: $silent cuts accepted silently"

# flipped bytes: an error or a result, never a crash or a hang (the
# fuzzers flip far more; these 40 are a fixed set that runs everywhere)
bad=0
for seed in $(seq 1 40); do
	cp "$T_DIR/a.data" "$T_DIR/c.data"
	for k in 1 2 3; do
		off=$(( (seed * 7919 * k) % size ))
		printf "\\x$(printf %02x $(( (seed * 31 + k) % 256 )))" |
			dd of="$T_DIR/c.data" bs=1 seek=$off conv=notrunc status=none
	done
	for f in perf spe autofdo perfscript; do
		timeout $TMO $R convert -f $f -o "$T_DIR/c.out" "$T_DIR/c.data" >/dev/null 2>"$T_LOG"
		rc=$?
		[ $rc -ne 0 ] && [ $rc -ne 1 ] && { bad=$((bad + 1)); sed 's/^/# /' "$T_LOG" | head -5; }
	done
	timeout $TMO $R report "$T_DIR/c.data" >/dev/null 2>"$T_LOG"
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 1 ] && { bad=$((bad + 1)); sed 's/^/# /' "$T_LOG" | head -5; }
done
[ $bad -eq 0 ] && ok "40 corrupted perf.data files x 5 commands: no crash or hang" ||
	not_ok "corrupted perf.data: $bad crashes or hangs"

# snapshots: truncated mid-snapshot, bad lines
head -n 10 "$T_DIR/snap.txt" >"$T_DIR/s1.txt"
if $R convert -f perf -o "$T_DIR/x.data" "$T_DIR/s1.txt" 2>"$T_LOG"; then
	not_ok "truncated snapshot is an error"
else
	grep -q 'truncated snapshot: 9 of 16' "$T_LOG" && ok "truncated snapshot is an error naming the line" ||
		{ not_ok "truncated snapshot message"; cat "$T_LOG"; }
fi
sed '5s/0x/0y/' "$T_DIR/snap.txt" >"$T_DIR/s2.txt"
$R convert -f perf -o "$T_DIR/x.data" "$T_DIR/s2.txt" 2>"$T_LOG" && not_ok "malformed entry is an error" ||
	{ grep -q 'line 5:' "$T_LOG" && ok "malformed entry is an error at line 5" || not_ok "malformed entry message"; }
printf 'sctrstatus 0x0 depth 16\n' >"$T_DIR/s3.txt"
head -c 100000 /dev/urandom >>"$T_DIR/s3.txt"
timeout $TMO $R report "$T_DIR/s3.txt" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && ok "snapshot header followed by random bytes: error" || not_ok "random snapshot: status $rc"
: >"$T_DIR/empty"
$R convert -f perf -o "$T_DIR/x.data" "$T_DIR/empty" 2>"$T_LOG" && not_ok "empty input is an error" ||
	ok "empty input is an error: $(cat "$T_LOG")"
done_testing
