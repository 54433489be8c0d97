#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Byte-identical outputs of two rvctr builds (a refactoring's proof):
#
#   bash compare-outputs.sh [-t TESTS | -n] [-x OPTS] [-k] OLD NEW [RECORDING...]
#
# 1. Runs the shell tests of TESTS (a tests/ directory; default this one)
#    once with OLD, once with NEW, through a wrapper that keeps, for every
#    `rvctr convert` and `rvctr report`, its status, stdout, stderr and
#    -o file: every recording the tests make goes through both builds.
#    A run is named by its arguments (temporary names made alike) and how
#    many times they came.
# 2. Converts each RECORDING (perf.data, e.g. profile-check's build/
#    profile-check/rec/*.perf.data) to every format and reports it, with
#    both builds, without options and with OPTS (e.g. "--symfs DIR").
# -n skips the tests.  Prints one line per difference and a summary; exits 1 on any.  -k keeps
# the work directory.  BUILD (default: this tree's build/) has the tests'
# synth-perf.  Use one TESTS with both builds (an old build with a
# new test would differ by design).  Not a test itself (not executable).
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
[ $# -ge 2 ] || { sed -n '3,19p' "$0"; exit 2; }
old=$(readlink -f "$1") new=$(readlink -f "$2")
# the tests' helpers (synth-perf): BUILD, else this tree's build/
build=${BUILD:-$(git -C "$here" rev-parse --show-toplevel 2>/dev/null)/build}
shift 2
work=$(mktemp -d /tmp/rvctr-cmp.XXXXXX)
if [ "$keep" = 1 ]; then echo "# work directory: $work"; else trap 'rm -rf "$work"' EXIT; fi

# The wrapper the tests run as $RVCTR: REAL is the build, CAP where it
# keeps, SIDE the side's directory (made alike in the key).
cat >"$work/wrap" <<'EOF'
#!/usr/bin/env bash
case ${1:-} in convert|report) ;; *) exec "$REAL" "$@" ;; esac
key=$(printf '%s\n' "$@" | LC_ALL=C sed -E -e "s#$SIDE#SIDE#g" \
	-e 's#(rvctr-test|tmp)\.[A-Za-z0-9]{6}#\1.XXXXXX#g' | md5sum | cut -c1-16)
exec 9>>"$CAP/lock"
flock 9
n=$(($(cat "$CAP/$key.n" 2>/dev/null || echo 0) + 1))
echo $n >"$CAP/$key.n"
flock -u 9
exec 9>&-
id=$CAP/$key.$n
printf '%s\n' "$@" >"$id.args"
"$REAL" "$@" >"$id.out" 2>"$id.err"
rc=$?
echo $rc >"$id.rc"
cat "$id.out"
cat "$id.err" >&2
prev=
for a in "$@"; do
	case $prev in -o|--output) [ -f "$a" ] && cp "$a" "$id.file" ;; esac
	case $a in --output=*) [ -f "${a#--output=}" ] && cp "${a#--output=}" "$id.file" ;; esac
	prev=$a
done
exit $rc
EOF
chmod +x "$work/wrap"

run_tests() {	# SIDE BUILD
	local s
	mkdir -p "$work/$1/cap" "$work/$1/tmp"
	for s in "$tests"/*.sh; do
		[ -x "$s" ] || continue
		CAP=$work/$1/cap REAL=$2 SIDE=$work/$1 RVCTR=$work/wrap TMPDIR=$work/$1/tmp \
			BUILD=$build "$s" >"$work/$1/$(basename "$s").tap" 2>&1
	done
}

# Temporary names (same length on both sides: binary outputs keep offsets)
normalize() {
	LC_ALL=C sed -E -e "s#$work/(old|new)/#$work/side/#g" \
		-e 's#(rvctr-test|tmp)\.[A-Za-z0-9]{6}#\1.XXXXXX#g' "$1"
}

diffs=0
differ() {
	echo "differ: $*"
	diffs=$((diffs + 1))
}

compare_dir() {	# WHAT OLD_DIR NEW_DIR
	local f b n=0
	for f in "$2"/*; do
		b=${f##*/}
		[ -e "$f" ] && [ "$b" != lock ] || continue
		n=$((n + 1))
		if [ ! -e "$3/$b" ]; then
			differ "$1 $b: only with the old build"
		elif ! cmp -s <(normalize "$f") <(normalize "$3/$b"); then
			differ "$1 $b ($(head -5 "$2/${b%.*}.args" 2>/dev/null | xargs))"
		fi
	done
	for f in "$3"/*; do
		[ -e "$2/${f##*/}" ] || differ "$1 ${f##*/}: only with the new build"
	done
	echo "# $1: $n files compared"
}

if [ -z "$no_tests" ]; then
	run_tests old "$old"
	run_tests new "$new"
	compare_dir tests "$work/old/cap" "$work/new/cap"
	echo "# tests: $(ls "$work/old/cap" | grep -c '\.args$') convert/report runs"
	for t in "$work"/old/*.tap; do
		echo "# $(basename "$t" .tap): old build $(grep -c '^not ok' "$t") not ok," \
			"new build $(grep -c '^not ok' "$work/new/${t##*/}") not ok"
	done
fi

# convert_all BUILD DIR N RECORDING [OPTS...]: every format and report
convert_all() {
	local b=$1 d=$2 i=$3 rec=$4 f
	shift 4
	mkdir -p "$d"
	for f in perf spe autofdo perfscript; do
		"$b" convert "$@" -f $f -o "$d/$i.$f" "$rec" >"$d/$i.$f.out" 2>"$d/$i.$f.err"
		echo $? >"$d/$i.$f.rc"
	done
	"$b" report "$@" "$rec" >"$d/$i.report.out" 2>"$d/$i.report.err"
	echo $? >"$d/$i.report.rc"
}

i=0
for rec in "$@"; do
	i=$((i + 1))
	convert_all "$old" "$work/rec/old" $i "$rec"
	convert_all "$new" "$work/rec/new" $i "$rec"
	if [ -n "$opts" ]; then
		# shellcheck disable=SC2086
		convert_all "$old" "$work/rec/old" $i.x "$rec" $opts
		# shellcheck disable=SC2086
		convert_all "$new" "$work/rec/new" $i.x "$rec" $opts
	fi
	echo "# recording $i: $rec"
done
[ $# -gt 0 ] && compare_dir recordings "$work/rec/old" "$work/rec/new"
echo "# $diffs difference(s)"
[ $diffs -eq 0 ]
