# SPDX-License-Identifier: GPL-2.0-only
# TAP helpers for the shell selftests (sourced).  Each ok/fail/skip prints
# one TAP line; tap_done prints the plan and exits with the kselftest
# status (0 pass, 1 fail, 4 skip-all).
tap_n=0
tap_failed=0
tap_passed=0
echo "TAP version 13"
ok() { tap_n=$((tap_n + 1)); tap_passed=$((tap_passed + 1)); echo "ok $tap_n $*"; }
fail() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1 # SKIP ${2:-}"; }
diag() { echo "# $*"; }
# check NAME COMMAND...: ok if COMMAND succeeds.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
# set_online CPU 0|1: write cpuN/online.  Onlining right after offlining
# can fail ("CPUn: failed to start"): arch/riscv reports a dying CPU dead
# (cpuhp_ap_report_dead()) before that CPU asks SBI HSM to stop its hart,
# so the next hart_start can find it still started (ENOTSUPP) or
# STOP_PENDING (EINVAL).  The hart stops by itself moments later; a busy
# host stretches the window (Documentation/bench.rst).
# So onlining is retried for up to 2 s, and says so; anything else fails
# at once, with the kernel's last words.
set_online() {
	local f=/sys/devices/system/cpu/cpu$1/online try err
	for try in $(seq 20); do
		if err=$(echo "$2" 2>&1 >"$f"); then
			[ "$try" -eq 1 ] || diag "cpu$1: online=$2 on try $try"
			return 0
		fi
		[ "$try" -eq 1 ] && diag "cpu$1: online=$2: ${err##*: }"
		[ "$2" = 1 ] || break
		sleep 0.1
	done
	diag "cpu$1: online=$2 failed, now online=$(cat "$f")"
	dmesg | grep -E "CPU$1[ :]|HART" | tail -n 4 | sed 's/^/#   /'
	return 1
}
tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ] || exit 1
	[ "$tap_passed" -gt 0 ] || exit 4
	exit 0
}

# unwound_to_main LEAF: perf script -F ip,sym of callchain samples on
# stdin; prints "SAMPLES-IN-LEAF REACHING-MAIN" (unwound.awk).
unwound_to_main() {
	awk -v leaf="$1" -f "$(dirname "${BASH_SOURCE[0]}")/unwound.awk"
}
