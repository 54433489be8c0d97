#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run the rvctr selftests named as arguments (default: all) on the board:
# the C tests built into
# /opt/rvctr/selftests and the *_test.sh scripts beside this file.  Each
# test's TAP goes to the console and to $RVCTR_OUT/NAME.tap; a test that
# exits with a failure status without printing "not ok" (a crash, say)
# gets a "not ok" line of its own, so nothing fails silently.
out=${RVCTR_OUT:-/tmp/rvctr-out}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
bins=/opt/rvctr/selftests
status=0
tests=()
for t in "$bins"/*_test; do [ -x "$t" ] && tests+=("$t"); done
for t in "$here"/*_test.sh; do [ -f "$t" ] && tests+=("$t"); done
# *_slowtest.sh (perf's record_lbr.sh: over 10 minutes under TCG) only
# with RVCTR_SLOW=1: make check-slow.
if [ -n "${RVCTR_SLOW:-}" ]; then
	for t in "$here"/*_slowtest.sh; do [ -f "$t" ] && tests+=("$t"); done
fi
if [ $# -gt 0 ]; then
	want=" $* "
	for i in "${!tests[@]}"; do
		n=$(basename "${tests[$i]}")
		[[ "$want" == *" ${n%.sh} "* ]] || unset "tests[$i]"
	done
	tests=("${tests[@]}")
fi
[ ${#tests[@]} -gt 0 ] || { echo "not ok 1 no selftests found" | tee "$out/none.tap"; exit 1; }
for t in "${tests[@]}"; do
	name=$(basename "$t")
	name=${name%.sh}
	name=${name%_slowtest}
	echo "# === $name"
	start=$SECONDS
	case "$t" in
	*.sh) (cd "$here" && timeout "${RVCTR_TEST_TIMEOUT:-600}" bash "$t") >"$out/$name.tap" 2>&1 ;;
	*) (cd /tmp && timeout "${RVCTR_TEST_TIMEOUT:-600}" "$t") >"$out/$name.tap" 2>&1 ;;
	esac
	rc=$?
	cat "$out/$name.tap"
	echo "# $name: $((SECONDS - start)) s"
	if [ $rc -ne 0 ] && [ $rc -ne 4 ] && ! grep -q '^not ok' "$out/$name.tap"; then
		echo "not ok - $name exited with status $rc" | tee -a "$out/$name.tap"
	fi
	[ $rc -eq 0 ] || [ $rc -eq 4 ] || status=1
done
exit $status
