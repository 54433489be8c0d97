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

# gen_snapshots COUNT DEPTH SEED: raw CTR snapshot text (the driver's debugfs
# format) of the loop: entry 0 newest, TYPE 5 (taken branch) for the if,
# 11 (direct jump) for the back jump, cycle counts with CCV, MISP on some.
gen_snapshots() {
	awk -v count="$1" -v depth="$2" -v seed="$3" -v b1=$((0x$B1)) -v t1=$((0x$T1)) \
	    -v b2=$((0x$B2)) -v t2=$((0x$T2)) '
	function hex(x) { return sprintf("0x%x", x) }
	BEGIN {
		srand(seed)
		for (s = 0; s < count; s++) {
			i = int(rand() * 1000) + depth
			printf "sctrstatus 0x800000%02x depth %d sctrctl 0x%x\n", s % 256, depth, 4095 + 4096
			for (e = 0; e < depth; e++) {
				it = i - e
				if (it % 3 == 0) { src = b1; dst = t1; type = 5 } else { src = b2; dst = t2; type = 11 }
				cyc = 3 + (it % 7)
				misp = (type == 5 && it % 9 == 0) ? 1 : 0
				data = type + 32768 + cyc * 65536
				printf "%d %s %s %s\n", e, hex(src + 1), hex(dst + misp), hex(data)
			}
		}
	}'
}
