#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perf's own "mmap interface" test (Debian's perf): reading samples through
# the ring buffer, and reading instructions and cycles from user space
# through the user page (cap_user_rdpmc, kernel.perf_user_access=1).
# Each subtest must say Ok: perf skips the user-space reads when the page
# does not offer them, and a skip here is a missing feature.  Under
# -icount: the user-space subtests require each doubled loop to count
# more than the last, which host-time counters do not promise.
. ./lib.sh
# perf test runs the subtests whose own description matches.
res=$(timeout 150 perf test -v "mmap interface" "User space counter reading" 2>&1)
for sub in "Read samples using the mmap interface" \
	   "User space counter reading of instructions" \
	   "User space counter reading of cycles"; do
	line=$(echo "$res" | grep -F "$sub" | grep -E ': (Ok|FAILED|Skip)' | tail -1)
	diag "$line"
	if echo "$line" | grep -q ': Ok'; then
		ok "perf test: $sub"
	else
		fail "perf test: $sub: ${line:-no result}"
		echo "$res" | grep -F -A8 "$sub" | head -20 | sed 's/^/# /'
	fi
done
tap_done
