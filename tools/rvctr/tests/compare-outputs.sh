#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Byte-identical outputs of two rvctr builds (a refactoring's proof):
#
#   bash compare-outputs.sh [-t TESTS | -n] [-x OPTS] [-k] OLD NEW [RECORDING...]
#
# 1. Runs the shell tests of TESTS (a tests/ directory; default this one)
#    with OLD as $RVCTR, through a wrapper that runs every `rvctr convert`
#    and `rvctr report` twice on the same inputs and arguments, NEW first
#    (the output file's earlier state put back after it), then OLD for the
#    test, and keeps both runs' status, stdout, stderr and output file:
#    every recording the tests make, even one made anew each time (perf
#    record, a program run under qemu), goes through both builds.
# 2. Converts each RECORDING (perf.data, e.g. profile-check's build/
#    profile-check/rec/*.perf.data) to every format and reports it, with
#    both builds, without options and with OPTS (e.g. "--symfs DIR").
# -n skips the tests.  Prints one line per difference and a summary;
# exits 1 on any.  -k keeps the work directory.  BUILD (default: this
# tree's build/) has the tests' synth-perf.  Run a copy when editing this
# file meanwhile (bash reads it as it goes).  Not a test (not executable).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=$here
keep=0
opts=
no_tests=
while getopts t:x:kn o; do
	case $o in
	t) tests=$(cd "$OPTARG" && pwd) ;;
	x) opts=$OPTARG ;;
	n) no_tests=1 ;;
	k) keep=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '3,20p' "$0"; exit 2; }
old=$(readlink -f "$1") new=$(readlink -f "$2")
shift 2
build=${BUILD:-$(git -C "$here" rev-parse --show-toplevel 2>/dev/null)/build}
work=$(mktemp -d /tmp/rvctr-cmp.XXXXXX)
if [ "$keep" = 1 ]; then echo "# work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

# The wrapper the tests run as $RVCTR: OLD and NEW the builds, CAP where
# it keeps RUN.{old,new}.{out,err,rc,file} and RUN.args.
cat >"$work/wrap" <<'EOF'
#!/usr/bin/env bash
case ${1:-} in convert|report) ;; *) exec "$OLD" "$@" ;; esac
exec 9>>"$CAP/lock"
flock 9
n=$(($(cat "$CAP/n" 2>/dev/null || echo 0) + 1))
echo $n >"$CAP/n"
flock -u 9
exec 9>&-
id=$CAP/$(printf %05d $n)
printf '%s\n' "$@" >"$id.args"
out= stdin= prev=
for a in "$@"; do
	case $prev in
	-o|--output) out=$a ;;
	*) [ "$a" = - ] && stdin=1 ;;
	esac
	prev=$a
done
[ "$out" = - ] && out=
# a FIFO, device or directory (input or output) cannot be run twice
for a in "$@" "$out"; do
	if [ -e "$a" ] && [ ! -f "$a" ] && [ ! -d "$a" ] || { [ -n "$out" ] && [ -d "$out" ]; }; then
		: >"$id.unpaired"
		exec "$OLD" "$@"
	fi
done
if [ -n "$stdin" ]; then cat >"$id.stdin"; else : >"$id.stdin"; fi
# NEW, then the output's earlier state (a regular file or none) back
if [ -n "$out" ]; then
	for f in "$out" "$out.old"; do [ -f "$f" ] && cp -p "$f" "$id.prior${f#"$out"}"; done
fi
"$NEW" "$@" <"$id.stdin" >"$id.new.out" 2>"$id.new.err"
echo $? >"$id.new.rc"
if [ -n "$out" ]; then
	[ -f "$out" ] && cp "$out" "$id.new.file"
	for f in "$out" "$out.old"; do
		[ -f "$f" ] && rm -f "$f"
		[ -e "$id.prior${f#"$out"}" ] && mv "$id.prior${f#"$out"}" "$f"
	done
fi
"$OLD" "$@" <"$id.stdin" >"$id.old.out" 2>"$id.old.err"
rc=$?
echo $rc >"$id.old.rc"
[ -n "$out" ] && [ -f "$out" ] && cp "$out" "$id.old.file"
cat "$id.old.out"
cat "$id.old.err" >&2
exit $rc
EOF
chmod +x "$work/wrap"

diffs=0
differ() {
	echo "differ: $*"
	diffs=$((diffs + 1))
}

# compare_runs DIR: each run's old and new results
compare_runs() {
	local a id x n=0
	for a in "$1"/*.args; do
		id=${a%.args}
		[ -e "$id.unpaired" ] && continue
		n=$((n + 1))
		for x in out err rc file; do
			[ -e "$id.old.$x" ] || [ -e "$id.new.$x" ] || continue
			cmp -s "$id.old.$x" "$id.new.$x" ||
				differ "${id##*/}.$x ($(head -6 "$a" | xargs))"
		done
	done
	echo "# $n convert/report runs compared ($(ls "$1" | grep -c '\.unpaired$') of them" \
		"run with OLD only: a FIFO or device)"
}

if [ -z "$no_tests" ]; then
	mkdir -p "$work/cap" "$work/tmp"
	for s in "$tests"/*.sh; do
		[ -x "$s" ] || continue
		LSAN_OPTIONS=suppressions=$tests/lsan.supp CAP=$work/cap OLD=$old NEW=$new \
			RVCTR=$work/wrap TMPDIR=$work/tmp BUILD=$build "$s" \
			>"$work/$(basename "$s").tap" 2>&1
		echo "# $(basename "$s"): $(grep -c '^ok' "$work/$(basename "$s").tap") ok," \
			"$(grep -c '^not ok' "$work/$(basename "$s").tap") not ok (with OLD)"
	done
	compare_runs "$work/cap"
fi

# convert_all BUILD DIR N RECORDING [OPTS...]: every format and report
convert_all() {
	local b=$1 d=$2 i=$3 rec=$4 f
	shift 4
	for f in perf spe autofdo perfscript; do
		"$b" convert "$@" -f $f -o "$d.$f.file" "$rec" >"$d.$f.out" 2>"$d.$f.err"
		echo $? >"$d.$f.rc"
	done
	"$b" report "$@" "$rec" >"$d.report.out" 2>"$d.report.err"
	echo $? >"$d.report.rc"
}

i=0
mkdir -p "$work/rec"
for rec in "$@"; do
	i=$((i + 1))
	for x in "" $([ -n "$opts" ] && echo x); do
		# shellcheck disable=SC2046,SC2086
		convert_all "$old" "$work/rec/$i$x.old" $i "$rec" $([ -n "$x" ] && echo $opts)
		# shellcheck disable=SC2046,SC2086
		convert_all "$new" "$work/rec/$i$x.new" $i "$rec" $([ -n "$x" ] && echo $opts)
	done
	echo "# recording $i: $rec"
done
n=0
for f in "$work"/rec/*.old.*; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	cmp -s "$f" "${f/.old./.new.}" || differ "recording ${f##*/}"
done
[ $# -gt 0 ] && echo "# recordings: $n results compared"
echo "# $diffs difference(s)"
[ $diffs -eq 0 ]
