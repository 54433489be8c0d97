#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest half of profile-bench, on an -icount board with the rvctr module.
#   guest.sh record PERIOD PROGRAM...   per program: its test on the -O2
#       build, perf record -b of that test (and of the -fno-jump-tables
#       build BOLT rewrites, if there is one), and the instrumented build's
#       exact counts (.profraw); the file recordings, if there, asks for
#       that many recordings of the -O2 test in all (PROGRAM.rN.perf.data)
#   guest.sh recordv PERIOD PROGRAM:VARIANT...   perf record -b of each
#       variant's test (PROGRAM.VARIANT.perf.data: BOLT's input after a
#       sample profile)
#   guest.sh measure RUNS PROGRAM:VARIANT[@N]...   per variant: its test
#       must pass (it runs RUNS times, or N, counting instructions:u of the
#       program's runs), then once more under pbrun, whose windows the branches.so
#       QEMU plugin counts taken branches in (the host reads its file and
#       our list of how many windows each variant opened)
# Results land in /out (the host's directory).
set -u
mode=$1
arg=$2
shift 2
here=$(pwd)
out=${RVCTR_OUT:-/out}
cpu=/sys/bus/event_source/devices/cpu
rc=0

# instructions:u of every program run inside work.sh, summed; fails if
# the test fails or any run was not counted ("<not counted>", 0)
count() { # PROGRAM DIR
	rm -f /tmp/stat
	RUN="perf stat -x, -e instructions:u --append -o /tmp/stat --" \
		sh "$here/work.sh" "$1" "$2" >/tmp/work.log 2>&1 || return 1
	awk -F, '$3 ~ /^instructions/ { n++; if ($1 !~ /^[0-9]+$/ || $1 == 0) bad++; s += $1 }
		END { if (!n || bad) exit 1; printf "%d\n", s }' /tmp/stat ||
		{ echo "perf stat did not count every run:" >>/tmp/work.log; cat /tmp/stat >>/tmp/work.log; return 1; }
}

case "$mode" in
record)
	[ -e $cpu/caps/branches ] || { echo "no branch stacks: rvctr not loaded?"; exit 1; }
	echo "== board: $(uname -r), CTR depth $(cat $cpu/caps/branches)"
	for p in "$@"; do
		v=$here/v/$p
		# the test, counted (count fails if it fails)
		if n=$(count "$p" "$v/o2"); then
			echo "ok - $p: its test passes (-O2)"
		else
			echo "not ok - $p: its test fails (-O2), or perf stat"; cat /tmp/work.log; rc=1; continue
		fi
		echo "$p o2 $n" >>"$out/record-instructions"
		# -m 4096: a 64-entry stack makes a 1.5 KB sample; perf's
		# default ring loses samples under QEMU (demo.sh).
		perf record -b -e instructions:u -c "$arg" -m 4096 -o "/tmp/$p.data" -- \
			sh "$here/work.sh" "$p" "$v/o2" >/tmp/rec.log 2>&1 ||
			{ echo "not ok - $p: perf record -b"; cat /tmp/rec.log; rc=1; continue; }
		tail -2 /tmp/rec.log
		cp "/tmp/$p.data" "$out/$p.perf.data" && rm -f "/tmp/$p.data"
		echo "ok - $p: recorded, $(wc -c <"$out/$p.perf.data") bytes"
		# more recordings of the same run, each the sample profiles'
		# input of its own builds (how much they move from one
		# recording to the next): $here/recordings holds how many
		i=1
		while [ $i -lt "$(cat "$here/recordings" 2>/dev/null || echo 1)" ]; do
			i=$((i + 1))
			if perf record -b -e instructions:u -c "$arg" -m 4096 -o "/tmp/$p.data" -- \
				sh "$here/work.sh" "$p" "$v/o2" >/tmp/rec.log 2>&1; then
				cp "/tmp/$p.data" "$out/$p.r$i.perf.data" && rm -f "/tmp/$p.data"
				echo "ok - $p: recording $i, $(wc -c <"$out/$p.r$i.perf.data") bytes"
			else
				echo "not ok - $p: perf record -b, recording $i"; cat /tmp/rec.log; rc=1
			fi
		done
		# BOLT's input, when there is one: its own recording, the same way
		if [ -d "$v/o2-njt" ]; then
			if perf record -b -e instructions:u -c "$arg" -m 4096 -o "/tmp/$p.data" -- \
				sh "$here/work.sh" "$p" "$v/o2-njt" >/tmp/rec.log 2>&1; then
				cp "/tmp/$p.data" "$out/$p.o2-njt.perf.data" && rm -f "/tmp/$p.data"
				echo "ok - $p: o2-njt recorded, $(wc -c <"$out/$p.o2-njt.perf.data") bytes"
			else
				echo "not ok - $p: perf record -b of o2-njt"; cat /tmp/rec.log; rc=1
			fi
		fi
		# %m: one file per instrumented module (program, libz.so)
		mkdir -p /tmp/prof
		LLVM_PROFILE_FILE="/tmp/prof/$p-%p-%m.profraw" sh "$here/work.sh" "$p" "$v/instr" \
			>/tmp/work.log 2>&1 ||
			{ echo "not ok - $p: instrumented build's test"; cat /tmp/work.log; rc=1; continue; }
		mkdir -p "$out/profraw-$p"
		cp "/tmp/prof/$p-"*.profraw "$out/profraw-$p/" && rm -f "/tmp/prof/$p-"*
		echo "ok - $p: instrumented run, $(find "$out/profraw-$p" -name "*.profraw" | wc -l) .profraw files"
	done
	;;
recordv)
	# PROGRAM:VARIANT...: perf record -b of that build's test, as the -O2
	# one's above (BOLT's input when it is a sample-profile build)
	for pv in "$@"; do
		p=${pv%%:*} var=${pv#*:}
		if perf record -b -e instructions:u -c "$arg" -m 4096 -o "/tmp/$p.data" -- \
			sh "$here/work.sh" "$p" "$here/v/$p/$var" >/tmp/rec.log 2>&1; then
			cp "/tmp/$p.data" "$out/$p.$var.perf.data" && rm -f "/tmp/$p.data"
			echo "ok - $p: $var recorded, $(wc -c <"$out/$p.$var.perf.data") bytes"
		else
			echo "not ok - $p: perf record -b of $var"; cat /tmp/rec.log; rc=1
		fi
	done
	;;
measure)
	# the plugin's known answer first (report.py checks it)
	"$here/pbrun" --loop 1000000 && echo "check loop 1" >>"$out/windows"
	for pv in "$@"; do
		nruns=$arg
		case "$pv" in
		*@*) nruns=${pv##*@} pv=${pv%@*} ;;
		esac
		p=${pv%%:*}
		var=${pv#*:}
		d=$here/v/$p/$var
		i=0 ok=1
		while [ $i -lt "$nruns" ]; do
			i=$((i + 1))
			if ! n=$(count "$p" "$d"); then
				ok=
				break
			fi
			echo "$p $var $n" >>"$out/instructions"
		done
		if [ -z "$ok" ]; then
			echo "not ok - $p $var: its test fails"; cat /tmp/work.log; rc=1; continue
		fi
		echo "ok - $p $var: its test passes"
		# one plugin window per program run
		rm -f /tmp/pbrun.count
		PBRUN_LOG=/tmp/pbrun.count RUN="$here/pbrun" sh "$here/work.sh" "$p" "$d" >/tmp/work.log 2>&1 ||
			{ echo "not ok - $p $var: its test under pbrun"; cat /tmp/work.log; rc=1; continue; }
		echo "$p $var $(wc -l </tmp/pbrun.count 2>/dev/null || echo 0)" >>"$out/windows"
	done
	;;
*)
	echo "guest.sh: unknown mode $mode"
	exit 2
	;;
esac
exit $rc
