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
tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ] || exit 1
	[ "$tap_passed" -gt 0 ] || exit 4
	exit 0
}
