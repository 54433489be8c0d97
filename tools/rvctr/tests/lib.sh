# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the tool's shell integration tests: TAP output and test data.
# Expects RVCTR (the tool, normally the sanitizer build) and BUILD.
set -u
T_N=0
T_FAIL=0

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
not_ok() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; }
skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }
# check NAME COMMAND...: one TAP line from the command's status; output kept in $T_LOG
check() {
	local name=$1
	shift
	if "$@" >"$T_LOG" 2>&1; then ok "$name"; else not_ok "$name"; sed 's/^/# /' "$T_LOG" | head -20; fi
}
done_testing() { echo "1..$T_N"; [ "$T_FAIL" -eq 0 ]; }
# need_record WHAT: skip WHAT and end the test where $RVCTR has no record
# (built without libperf)
need_record() {
	if "$RVCTR" record --help | grep -q 'built without libperf'; then
		skip "$1" "built without libperf (no kernel source found)"
		done_testing
		exit
	fi
}
have() { command -v "$1" >/dev/null 2>&1; }

T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rvctr-test.XXXXXX")
T_LOG=$T_DIR/log
trap 'rm -rf "$T_DIR"' EXIT
# perf's build-id cache (rvctr looks there first): the test's own, never ~/.debug
export PERF_BUILDID_DIR=$T_DIR/buildid-cache

# build_loop OUT: the riscv64 test program (static, fixed addresses; DWARF 4,
# since AutoFDO 0.19 reads no DWARF 5 range lists)
build_loop() {
	"${CROSS_COMPILE:-riscv64-linux-gnu-}gcc" -O1 -gdwarf-4 -static -no-pie \
		-o "$1" "$(dirname "${BASH_SOURCE[0]}")/data/loop.c"
}

# loop_addrs BINARY: sets B1 T1 (the if's taken branch) and B2 T2 (the loop's
# back jump) from the disassembly of work(), so the synthetic trace below
# is what the hardware would record running it.
loop_addrs() {
	local dis
	dis=$("${CROSS_COMPILE:-riscv64-linux-gnu-}objdump" -d --no-show-raw-insn "$1" |
		awk '/<work>:/,/^$/')
	local a t
	B1= T1= B2= T2=
	read -r B1 T1 < <(echo "$dis" | awk '$2 == "beqz" { split($3, a, ","); sub(":", "", $1); print $1, a[2]; exit }')
	while read -r a t; do
		[ $((0x$t)) -lt $((0x$a)) ] && B2=$a T2=$t
	done < <(echo "$dis" | awk '$2 == "j" { sub(":", "", $1); print $1, $3 }')
	[ -n "$B1" ] && [ -n "$T1" ] && [ -n "$B2" ] && [ -n "$T2" ]
}

# gen_snapshots COUNT DEPTH SEED [NT [CTL]]: raw CTR snapshot text (the
# driver's debugfs format) of the loop, recorded with sctrctl CTL (default
# 0x1803: U, S, BPFRZ, LCOFIFRZ, every taken transfer; "none": the header
# has no sctrctl): entry 0 newest, TYPE 5 (taken branch) for the if, 11
# (direct jump) for the back jump, cycle counts with CCV, MISP on some.
# NT 1: the if is recorded not taken (TYPE 4, ctr_ntbr), its target the
# next instruction (the c.beqz's: B1 + 2).
gen_snapshots() {
	awk -v count="$1" -v depth="$2" -v seed="$3" -v nt="${4:-0}" -v ctl="${5:-0x1803}" \
	    -v b1=$((0x$B1)) -v t1=$((0x$T1)) -v b2=$((0x$B2)) -v t2=$((0x$T2)) '
	function hex(x) { return sprintf("0x%x", x) }
	BEGIN {
		srand(seed)
		for (s = 0; s < count; s++) {
			i = int(rand() * 1000) + depth
			printf "sctrstatus 0x800000%02x depth %d", s % 256, depth
			print ctl == "none" ? "" : " sctrctl " ctl
			for (e = 0; e < depth; e++) {
				it = i - e
				if (it % 3 == 0) {
					src = b1; dst = nt ? b1 + 2 : t1; type = nt ? 4 : 5
				} else {
					src = b2; dst = t2; type = 11
				}
				cyc = 3 + (it % 7)
				misp = (type == 5 && it % 9 == 0) ? 1 : 0
				data = type + 32768 + cyc * 65536
				printf "%d %s %s %s\n", e, hex(src + 1), hex(dst + misp), hex(data)
			}
		}
	}'
}

# ---- position-independent binaries in synthetic perf.data (pie.sh, lookup.sh)
OBJDUMP=${CROSS_COMPILE:-riscv64-linux-gnu-}objdump

# exec_load BINARY: "OFFSET VADDR MEMSZ" of the executable PT_LOAD
exec_load() {
	readelf -lW "$1" | awk '$1 == "LOAD" && $0 ~ / R E | RWE / { print $2, $3, $6; exit }'
}
build_id() { readelf -nW "$1" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p'; }
sym_addr() { "${CROSS_COMPILE:-riscv64-linux-gnu-}nm" "$1" | awk -v s="$2" '$3 == s { print $1 }'; }
# random_base pie|shared: a page the kernel could put a PIE (2/3 of Sv39's
# TASK_SIZE) or a library (below the mmap base) at
random_base() {
	if [ "$1" = pie ]; then
		echo $((0x2aaaaaa000 + (RANDOM * 32768 + RANDOM) % 0x40000 * 0x1000))
	else
		echo $((0x3f80000000 - (RANDOM * 32768 + RANDOM) % 0x40000 * 0x1000))
	fi
}

# describe BINARY NAME BASE COUNT SEED: the synthetic recording of
# work()'s loop in BINARY, recorded as NAME, its text mapped at BASE + its
# page; a decoy library mapped elsewhere.
describe() {
	local bin=$1 name=$2 base=$3 off vaddr memsz start
	read -r off vaddr memsz < <(exec_load "$bin")
	start=$((base + (vaddr & ~0xfff)))
	echo "buildid $name $(build_id "$bin")"
	echo "comm 4242 loop"
	echo "mmap 4242 0x3fa0001000 0x100000 0x1000 /usr/lib/riscv64-linux-gnu/libdecoy.so"
	printf 'mmap 4242 %#x %#x %#x %s\n' "$start" \
		$(((vaddr + memsz + 0xfff) / 0x1000 * 0x1000 - (vaddr & ~0xfff))) $((off & ~0xfff)) "$name"
	# in bash: awk's numbers are doubles and mawk prints 32 bits of hex
	local s e i it f t type misp line ent
	RANDOM=$5
	for ((s = 0; s < $4; s++)); do
		i=$((RANDOM % 1000 + 16))
		printf -v line 'sample 4242 %#x' $((base + 0x$T2))
		for ((e = 0; e < 16; e++)); do
			it=$((i - e))
			if ((it % 3 == 0)); then
				f=0x$B1 t=0x$T1 type=1
			else
				f=0x$B2 t=0x$T2 type=2
			fi
			misp=$((type == 1 && it % 9 == 0))
			printf -v ent ' %#x/%#x/%d/%d/%d' $((base + f)) $((base + t)) $type $misp \
				$((3 + it % 7))
			line+=$ent
		done
		echo "$line"
	done
}

# work_branches BINARY: like loop_addrs for any compiler's work(): B2 T2
# the loop's back edge (the last backward branch or jump), B1 T1 the first
# conditional branch inside the loop.
work_branches() {
	local a m t dis
	B1= T1= B2= T2=
	dis=$("$OBJDUMP" -d --no-show-raw-insn "$1" | awk '/<work>:/,/^$/' |
		awk '$2 ~ /^(j|b[a-z]*)$/ && $NF ~ /</ { sub(":", "", $1); n = split($3, o, ",");
			print $1, $2, o[n] }')
	while read -r a m t; do
		[ $((0x$t)) -lt $((0x$a)) ] && B2=$a T2=$t
	done <<<"$dis"
	[ -n "$B2" ] || return 1
	while read -r a m t; do
		if [ -z "$B1" ] && [ "$m" != j ] && [ $((0x$a)) -ge $((0x$T2)) ] &&
		   [ $((0x$a)) -lt $((0x$B2)) ]; then
			B1=$a T1=$t
		fi
	done <<<"$dis"
	[ -n "$B1" ]
}

# synth_setup: the riscv64 loop in $BIN and the synth-perf helper, with
# the loop's load segment as a map ($start, $len, $off) and one stack of
# the loop as a sample line (sample PID: if taken, back jump, if taken).
# Returns 1 (after a not ok line) when either cannot be built.
synth_setup() {
	SYNTH=${BUILD:?}/unit/synth-perf
	BIN=$T_DIR/loop
	if ! [ -x "$SYNTH" ] || ! build_loop "$BIN" >"$T_LOG" 2>&1 || ! loop_addrs "$BIN"; then
		not_ok "build the riscv64 loop and the synth-perf helper"
		return 1
	fi
	read -r off vaddr memsz < <(exec_load "$BIN")
	start=$((vaddr & ~0xfff))
	len=$(((vaddr + memsz + 0xfff) / 0x1000 * 0x1000 - start))
}
sample() {
	printf 'sample %d 0x%s 0x%s/0x%s/2/0/3 0x%s/0x%s/1/0/4 0x%s/0x%s/2/0/5\n' "$1" "$T2" \
		"$B2" "$T2" "$B1" "$T1" "$B2" "$T2"
}
