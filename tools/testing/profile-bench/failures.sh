# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by profile-bench: which of its pipelines (a program's convert,
# profgen, build, ... step) failed, kept in one file so that every step
# (subshells too) adds to it, and the exit status at the end.  Without
# QEMU or network: test-failures tests it.
#
#   failures_init FILE     start an empty list in FILE
#   failure WHAT...        a step failed: one line WHAT
#   failed WHAT            did a step of exactly WHAT fail?
#   failures_end TESTS     the end: the summary of what failed, and the
#                          status: 0 only if no step failed and TESTS (a
#                          TAP file, the variants' tests) has no "not ok"

failures_init() {
	PB_FAILURES=$1
	: >"$PB_FAILURES"
}

failure() {
	echo "$*" >>"${PB_FAILURES:?failures_init first}"
}

failed() {
	grep -qxF -- "$1" "${PB_FAILURES:?failures_init first}"
}

failures_end() {
	local tests=$1 n rc=0

	# wc, not grep -c: grep exits 1 on an empty list, which under the
	# bench's set -e would end the script there, with status 1
	n=$(wc -l <"${PB_FAILURES:?failures_init first}")
	if [ "$n" -gt 0 ]; then
		echo "profile-bench: $n step(s) failed:"
		sed 's/^/  /' "$PB_FAILURES"
		rc=1
	fi
	if ! [ -f "$tests" ]; then
		echo "profile-bench: no test results ($tests)"
		rc=1
	elif grep -q '^not ok' "$tests"; then
		echo "profile-bench: $(grep -c '^not ok' "$tests") test(s) failed on the board"
		rc=1
	fi
	return $rc
}
