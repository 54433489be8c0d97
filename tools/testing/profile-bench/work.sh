#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One program's own test, the input every variant is profiled and measured
# on:  work.sh PROGRAM DIR   (DIR holds that variant's build)
# Each run of the program is prefixed with $RUN (empty, or a perf stat
# command), so the shell and cmp around it are not counted.  Exit status
# non-zero if any output differs from what the test expects.
prog=$1
dir=$2
data=$(cd "$(dirname "$0")" && pwd)/data
t=$(mktemp -d)
rc=0
case "$prog" in
bzip2)
	# bzip2's "make test": compress the three samples at -1, -2, -3 and
	# decompress the reference .bz2 files; every output must match.
	for i in 1 2 3; do
		$RUN "$dir/bzip2" -$i <"$data/sample$i.ref" >"$t/s$i.rb2" || rc=1
		cmp -s "$t/s$i.rb2" "$data/sample$i.bz2" || { echo "bzip2 -$i: sample$i differs"; rc=1; }
		$RUN "$dir/bzip2" -d <"$data/sample$i.bz2" >"$t/s$i.tst" || rc=1
		cmp -s "$t/s$i.tst" "$data/sample$i.ref" || { echo "bzip2 -d: sample$i differs"; rc=1; }
	done
	;;
bzip2q)
	# make check's short run: the first third of bzip2's test (sample1
	# at -1, and back)
	$RUN "$dir/bzip2" -1 <"$data/sample1.ref" >"$t/s1.rb2" || rc=1
	cmp -s "$t/s1.rb2" "$data/sample1.bz2" || { echo "bzip2 -1: sample1 differs"; rc=1; }
	$RUN "$dir/bzip2" -d <"$data/sample1.bz2" >"$t/s1.tst" || rc=1
	cmp -s "$t/s1.tst" "$data/sample1.ref" || { echo "bzip2 -d: sample1 differs"; rc=1; }
	;;
zlib)
	# zlib's "make test": example, then minigzip both ways, here on a
	# larger input (zlib's own sources, concatenated).
	export LD_LIBRARY_PATH="$dir"
	(cd "$t" && $RUN "$dir/example" >"$t/example.log" 2>&1) || { cat "$t/example.log"; rc=1; }
	$RUN "$dir/minigzip" -6 <"$data/zlib-input" >"$t/z.gz" || rc=1
	$RUN "$dir/minigzip" -d <"$t/z.gz" >"$t/z.out" || rc=1
	cmp -s "$t/z.out" "$data/zlib-input" || { echo "minigzip: round trip differs"; rc=1; }
	;;
*)
	echo "work.sh: unknown program $prog"
	rc=2
	;;
esac
rm -rf "$t"
exit $rc
