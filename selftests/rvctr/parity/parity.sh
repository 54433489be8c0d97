#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make parity, on the board: the test suites perf and kernel maintainers
# run, one test at a time under a time bound, so that one board's results
# can be set beside another's (tools/testing/vm/parity prints the table).
#   parity.sh [PARITY_VAR=VALUE...] [SUITE...]
#                             SUITE: perf perf_events bpf (default: all)
# Results go to $RVCTR_OUT/results.tsv, one row a test:
#   suite <TAB> id <TAB> name <TAB> Ok|FAILED|Skip <TAB> reason <TAB> seconds
# and each test's output to $RVCTR_OUT/logs/.  A test that outlives
# PARITY_TEST_TIMEOUT guest seconds (default 300; the host's parity
# passes 300 << the -icount shift) is killed and is a FAILED row.
# PARITY_PERF_TESTS="N M ..." runs only those perf tests (by number).
# Before each test, $RVCTR_OUT/current names it (suite <TAB> id <TAB>
# name): a guest that stalls cannot time its own test out, and the host
# then ends the board, writes that test's FAILED row and boots the board
# again with PARITY_SKIP_DONE=1, which skips every test that has a row.
#
# perf is the one built from the bench kernel's source (build-perf,
# /opt/rvctr/perf), first in PATH so its shell tests call it too; the
# perf_events selftests are the kernel's, cross-built against the same
# sysroot (tools/testing/vm/build-peer-selftests).  Every
# board gets the same settings: kernel.perf_event_paranoid=-1 and, where
# the driver offers it, kernel.perf_user_access=1 (user-space counter
# reads, perf's "mmap interface" test); on rvctr a CTR depth of 16, which
# keeps perf's branch-stack tests short (they check types and filters, not
# depth).
# The host's settings come as arguments (the board gets no environment).
while [ $# -gt 0 ]; do
	case $1 in
	PARITY_TEST_TIMEOUT=*|PARITY_PERF_TESTS=*|PARITY_APPEND=*|PARITY_SKIP_DONE=*) export "${1?}"; shift ;;
	PARITY_*=*) echo "parity: unknown setting $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
out=${RVCTR_OUT:-/tmp/rvctr-out}
tmo=${PARITY_TEST_TIMEOUT:-300}
perfdir=/opt/rvctr/perf
res="$out/results.tsv"
logs="$out/logs"
# Each test writes its log in tmpfs (see stage_local), copied to /out after.
tlogs=/run/parity-logs
mkdir -p "$logs" "$tlogs"
# PARITY_APPEND=1 adds to an earlier run's results (the host's
# PARITY_RESUME).
[ -n "${PARITY_APPEND:-}" ] || : >"$res"
export PATH="$perfdir/bin:$PATH"

[ $# -gt 0 ] || set -- perf perf_events bpf

# starting SUITE ID NAME [DONE]: the test about to run, for the host's
# stall guard.  Returns 1 (skip it) with PARITY_SKIP_DONE when the test
# has a row already: DONE (default ID) itself or one of its cases
# (DONE.N); DONE '*' is any row of SUITE.
starting() {
	if [ -n "${PARITY_SKIP_DONE:-}" ] &&
	   awk -F'\t' -v s="$1" -v i="${4:-$2}" '$1 == s && (i == "*" || $2 == i || index($2, i ".") == 1) { f = 1 }
		END { exit !f }' "$res"; then
		echo "parity: $1 $2 $3: has a result already, not run again"
		return 1
	fi
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >"$out/current"
}

# row SUITE ID NAME RESULT REASON SECONDS
row() {
	local r
	r=$(printf '%s' "$5" | tr '\t\n' '  ' | cut -c1-160)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$r" "$6" >>"$res"
	echo "parity: $1 $2 $3: $4${r:+ ($r)} [$6 s]"
}

# perf and the peer selftests run from tmpfs, not from the host's 9p
# shares: every exec of perf would read its 19 MB from the host again (9p
# has no page cache here), and while the board idles waiting for the host
# its clock runs on (in real time with -icount sleep=on; with sleep=off it
# jumps to the next timer): a test's own time limits (perf's
# wait_for_threads: 5 s for `perf test -w thloop` to start) then measure the
# host's load.  Copied once, mounted over the share, so perf's compiled-in
# paths still hold.
stage_local() {
	local src=$1 dst
	[ -d "$src" ] || return 0
	dst=/run/parity$(echo "$src" | tr / _)
	mkdir -p "$dst" && cp -a "$src/." "$dst/" && mount --bind "$dst" "$src" ||
		echo "parity: cannot copy $src to tmpfs, running it from 9p"
}

setup() {
	local f
	stage_local $perfdir
	stage_local /opt/rvctr/selftests
	echo -1 >/proc/sys/kernel/perf_event_paranoid
	f=/proc/sys/kernel/perf_user_access
	[ -w $f ] && echo 1 >$f
	{
		uname -a
		echo "pmu: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
		echo "perf_user_access: $(cat /proc/sys/kernel/perf_user_access 2>/dev/null || echo none)"
		echo "caps: $(cd /sys/bus/event_source/devices/cpu/caps 2>/dev/null &&
			grep -H . -- * 2>/dev/null | tr '\n' ' ')"
		[ -x $perfdir/bin/perf ] && $perfdir/bin/perf version --build-options
	} >"$out/board.txt" 2>&1
	cat "$out/board.txt"
}

# The last lines of a log that say why, for a FAILED or unexplained Skip.
why() {
	sed -e 's/\x1b\[[0-9;]*m//g' "$1" |
		grep -v -E -e '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip|Running)' \
			-e '^-+ (start|end)' -e '^ *$' | tail -2 | tr '\n' ' '
}

suite_perf() {
	local perf=$perfdir/bin/perf list ids id log t0 rc n line num name result reason
	if [ ! -x $perf ]; then
		row perf - "perf test" Skip "no perf at $perf (build-perf)" 0
		return
	fi
	list=$($perf test list 2>&1)
	ids=${PARITY_PERF_TESTS:-$(echo "$list" | sed -n -E 's/^ *([0-9]+): .*/\1/p')}
	for id in $ids; do
		name=$(echo "$list" | sed -n -E "s/^ *$id: (.*)/\1/p")
		starting perf "$id" "${name:-test $id}" || continue
		log=$tlogs/perf-$id.log
		t0=$SECONDS
		(cd /tmp && timeout -k 10 "$tmo" $perf test -S -v "$id") >"$log" 2>&1
		rc=$?
		cp "$log" "$logs/"
		n=0
		# (no process substitution: the board has no /dev/fd)
		sed -e 's/\x1b\[[0-9;]*m//g' "$log" >"$log.txt"
		while IFS= read -r line; do
			[[ "$line" =~ ^\ *([0-9]+(\.[0-9]+)?):\ (.*[^ ])\ *:\ (Ok|FAILED!|Skip)(\ \((.*)\))?$ ]] ||
				continue
			num=${BASH_REMATCH[1]}
			name=${BASH_REMATCH[3]}
			result=${BASH_REMATCH[4]%!}
			reason=${BASH_REMATCH[6]}
			# Per-case logs are not told apart: the whole test's
			# tail explains a failure.
			[ "$result" = Ok ] || [ -n "$reason" ] || reason=$(why "$log")
			row perf "$num" "$name" "$result" "$reason" $((SECONDS - t0))
			n=$((n + 1))
		done <"$log.txt"
		rm -f "$log.txt"
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			name=$(echo "$list" | sed -n -E "s/^ *$id: (.*)/\1/p")
			row perf "$id" "${name:-test $id}" FAILED "timed out after $tmo s" $((SECONDS - t0))
		elif [ $n -eq 0 ]; then
			row perf "$id" "test $id" FAILED "no result line (status $rc): $(why "$log")" $((SECONDS - t0))
		fi
	done
}

# kselftest harness binaries: one row per TAP test line.
run_kselftests() {
	local suite=$1 dir=$2 t name log t0 rc n line num tname result reason
	if ! ls "$dir"/* >/dev/null 2>&1; then
		row "$suite" - "$suite selftests" Skip "not built: nothing in $dir" 0
		return
	fi
	for t in "$dir"/*; do
		[ -x "$t" ] && [ -f "$t" ] || continue
		name=$(basename "$t")
		starting "$suite" "$name" "$name" || continue
		log=$tlogs/$suite-$name.log
		t0=$SECONDS
		(cd /tmp && timeout -k 10 "$tmo" "$t") >"$log" 2>&1
		rc=$?
		cp "$log" "$logs/"
		n=0
		# Children's output can run into a TAP line (remove_on_exec's
		# exec_stress writes "*" and NULs from each exec'd child).
		tr -d '\000' <"$log" |
			sed -e 's/^[* ]*\(\(not \)\{0,1\}ok [0-9]\)/\1/' >"$log.txt"
		while IFS= read -r line; do
			[[ "$line" =~ ^(not\ )?ok\ ([0-9]+)\ ([^#]*[^#\ ])\ *(#\ *(SKIP|skip)\ *(.*))?$ ]] ||
				continue
			num=${BASH_REMATCH[2]}
			tname=${BASH_REMATCH[3]}
			if [ -n "${BASH_REMATCH[1]}" ]; then
				result=FAILED
				reason=$(grep -F -B3 "not ok $num $tname" "$log" | grep '^#' |
					tail -2 | tr '\n' ' ')
			elif [ -n "${BASH_REMATCH[5]}" ]; then
				result=Skip
				reason=${BASH_REMATCH[6]}
			else
				result=Ok
				reason=
			fi
			row "$suite" "$name.$num" "$tname" "$result" "$reason" $((SECONDS - t0))
			n=$((n + 1))
		done <"$log.txt"
		rm -f "$log.txt"
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			row "$suite" "$name" "$name" FAILED "timed out after $tmo s" $((SECONDS - t0))
		elif [ $n -eq 0 ]; then
			row "$suite" "$name" "$name" FAILED "no TAP result (status $rc): $(tail -2 "$log" | tr '\n' ' ')" \
				$((SECONDS - t0))
		fi
	done
}

# BPF's branch selftests (bpf_runner, test_progs' output), one row per
# test or subtest.
suite_bpf() {
	local d=/opt/rvctr/selftests/bpf log t0 rc line
	if [ ! -x $d/bpf_runner ]; then
		row bpf - "BPF branch selftests" Skip "not built: no $d/bpf_runner" 0
		return
	fi
	starting bpf bpf_runner "BPF branch selftests" '*' || return 0
	log=$tlogs/bpf.log
	t0=$SECONDS
	(cd $d && timeout -k 10 "$tmo" ./bpf_runner) >"$log" 2>&1
	rc=$?
	cp "$log" "$logs/"
	# #NN[/M] name[/sub]:OK|SKIP|FAIL
	while IFS= read -r line; do
		[[ "$line" =~ ^#([0-9]+(/[0-9]+)?)\ +([^:]+):(OK|SKIP|FAIL) ]] || continue
		case ${BASH_REMATCH[4]} in
		OK) row bpf "${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}" Ok "" $((SECONDS - t0)) ;;
		SKIP) row bpf "${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}" Skip \
			"$(grep -m1 -o ':SKIP:.*' "$log" | cut -c7-)" $((SECONDS - t0)) ;;
		*) row bpf "${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}" FAILED \
			"$(grep -m2 -E 'FAIL|fail' "$log" | tr '\n' ' ')" $((SECONDS - t0)) ;;
		esac
	done <"$log"
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		row bpf bpf_runner bpf_runner FAILED "timed out after $tmo s" $((SECONDS - t0))
	fi
}

setup
for s in "$@"; do
	case $s in
	perf) suite_perf ;;
	perf_events) run_kselftests perf_events /opt/rvctr/selftests/perf_events ;;
	bpf) suite_bpf ;;
	*) echo "parity: unknown suite $s" >&2; exit 2 ;;
	esac
done
rm -f "$out/current"
echo "parity: $(wc -l <"$res") results in $SECONDS s"
# The host compares boards; a board's own failures are not this script's.
exit 0
