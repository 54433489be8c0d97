#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One program's own test, the input every variant is profiled and measured
# on:  work.sh PROGRAM DIR   (DIR holds that variant's build)
# The test is the pb_test of PROGRAM's recipe (recipes/PROGRAM.recipe);
# PROGRAMq is the same recipe's pb_test_quick, make check's short run.
# Each run of the program is prefixed with $RUN (empty, or a perf stat
# command), so the shell and cmp around it are not counted.  Exit status
# non-zero if any output differs from what the test expects.
here=$(cd "$(dirname "$0")" && pwd)
test=pb_test
r=$here/recipes/$1.recipe
if [ ! -f "$r" ] && [ -f "$here/recipes/${1%q}.recipe" ]; then
	r=$here/recipes/${1%q}.recipe
	test=pb_test_quick
fi
rc=0
if [ -f "$r" ]; then
	# shellcheck disable=SC1090
	. "$r"
fi
# after the recipe, whose variables must not replace these
prog=$1
# shellcheck disable=SC2034 # dir, data, t: the recipe's test reads them
dir=$2
# shellcheck disable=SC2034
data=$here/data
t=$(mktemp -d)
if [ -f "$r" ]; then
	if command -v $test >/dev/null; then
		$test
	else
		echo "work.sh: $r has no $test"
		rc=2
	fi
else
	echo "work.sh: no recipe for $prog"
	rc=2
fi
rm -rf "$t"
exit $rc
