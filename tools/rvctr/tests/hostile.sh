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
done_testing
