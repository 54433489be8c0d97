#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The rvctr module loads, reports what it found, and unloads cleanly, and
# Debian's perf runs on the board.
. ./lib.sh
ko=/opt/rvctr/rvctr.ko

if [ ! -f "$ko" ]; then
	skip "module tests" "no rvctr.ko (runner started with --no-module)"
	tap_done
fi
# The runner loaded it already; start from a known state.
grep -q '^rvctr ' /proc/modules || insmod "$ko"
check "module is loaded" grep -q '^rvctr ' /proc/modules

dmesg | grep 'rvctr' | tail -5 | sed 's/^/# /'
check "probe lists the CTR extensions" \
	bash -c "dmesg | grep -q 'extensions on all harts ([^)]*):.*sscofpmf.*smctr.*ssctr'"
check "probe reports CTR depths 16..256" \
	bash -c "dmesg | grep -q 'CTR depths: 16 32 64 128 256\$'"

loops=5
good=0
for i in $(seq $loops); do
	rmmod rvctr && insmod "$ko" && good=$((good + 1))
done
[ $good -eq $loops ] && ok "unload/reload $loops times" || fail "unload/reload: $good of $loops"
check "unloads cleanly" rmmod rvctr
check "gone after unload" bash -c "! grep -q '^rvctr ' /proc/modules"
check "no kernel warnings" bash -c "! dmesg | grep -E -q 'WARNING:|BUG:|Oops'"
insmod "$ko"

check "perf runs" bash -c "perf --version | sed 's/^/# /'"
check "perf stat counts a software event" \
	bash -c "perf stat -x, -e task-clock true 2>&1 | grep -q task-clock"
tap_done
