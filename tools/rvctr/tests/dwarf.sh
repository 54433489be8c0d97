#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# rvctr record --call-graph dwarf on the host (a software event): the
# attribute perf record --call-graph dwarf sets (user registers of the
# architecture's mask, a stack copy of 8192 bytes or SIZE, the data maps
# the unwinder reads .eh_frame_hdr through), stock perf unwinding the
# recording from a leaf to main, and rvctr convert -f perf keeping the
# registers and stacks: perf script shows the converted file's registers
# and unwound callchains exactly as the recording's.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}

need_record "rvctr record --call-graph dwarf"
for v in lbr dwarf,0 dwarf,65529 dwarf,x dwarf, fp,8; do
	$R record -e task-clock --call-graph "$v" -o "$T_DIR/bad.data" -- touch "$T_DIR/ran" \
		>"$T_LOG" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ ! -e "$T_DIR/ran" ] && grep -q -- '--call-graph' "$T_LOG" &&
		ok "--call-graph $v: refused ($(head -1 "$T_LOG"))" ||
		{ not_ok "--call-graph $v: status $rc, should be refused"; sed 's/^/# /' "$T_LOG" | head -3; }
	rm -f "$T_DIR/ran"
done
if ! have perf || ! have cc; then
	skip "--call-graph dwarf through perf" "needs perf and cc"
	done_testing
	exit
fi
# main -> a -> b -> c, c the hot leaf
cat >"$T_DIR/deep.c" <<'EOF'
#include <stdio.h>
__attribute__((noinline)) long c(long n)
{
	volatile long s = 0;

	for (long i = 0; i < n; i++)
		s += i;
	return s;
}
__attribute__((noinline)) long b(long n) { return c(n) + 1; }
__attribute__((noinline)) long a(long n) { return b(n) + 1; }
int main(void)
{
	long r = 0;

	for (int i = 0; i < 40; i++)
		r += a(2000000);
	printf("%ld\n", r);
	return 0;
}
EOF
if ! cc -O1 -g -o "$T_DIR/deep" "$T_DIR/deep.c" 2>"$T_LOG"; then
	skip "--call-graph dwarf through perf" "cc failed: $(head -1 "$T_LOG")"
	done_testing
	exit
fi
if ! $R record -e task-clock -c 1000000 --call-graph dwarf -o "$T_DIR/d.data" -- "$T_DIR/deep" \
	>"$T_LOG" 2>&1; then
	if grep -qi 'permission\|not permitted\|paranoid' "$T_LOG"; then
		skip "record --call-graph dwarf" "perf_event_open not permitted here"
		done_testing
		exit
	fi
	not_ok "record --call-graph dwarf"
	sed 's/^/# /' "$T_LOG"
	done_testing
	exit
fi
ok "record --call-graph dwarf ($(grep -o '[0-9]* samples' "$T_LOG"))"
perf evlist -v -i "$T_DIR/d.data" >"$T_DIR/evlist" 2>/dev/null
sed 's/^/# /' "$T_DIR/evlist"
check "sample_type: CALLCHAIN, REGS_USER, STACK_USER" sh -c \
	"grep -q 'sample_type: [A-Z|]*CALLCHAIN[A-Z|]*REGS_USER|STACK_USER' '$T_DIR/evlist'"
check "sample_stack_user: 8192, perf's default" grep -q 'sample_stack_user: 8192' "$T_DIR/evlist"
check "exclude_callchain_user and mmap_data, as perf record sets them" sh -c \
	"grep -q 'exclude_callchain_user: 1' '$T_DIR/evlist' && grep -q 'mmap_data: 1' '$T_DIR/evlist'"
# perf's PERF_REGS_MASK (tools/perf/arch/*/include/perf_regs.h)
case $(uname -m) in
x86_64)	check "sample_regs_user: x86_64's, without the segment registers (0xff0fff)" \
		grep -q 'sample_regs_user: 0xff0fff' "$T_DIR/evlist" ;;
*)	skip "sample_regs_user: the architecture's" "no mask known for $(uname -m) here" ;;
esac
if $R record -e task-clock -c 1000000 --call-graph dwarf,4001 -o "$T_DIR/s.data" -- true \
	>"$T_LOG" 2>&1; then
	check "--call-graph dwarf,4001: sample_stack_user 4008 (whole u64s)" sh -c \
		"perf evlist -v -i '$T_DIR/s.data' 2>/dev/null | grep -q 'sample_stack_user: 4008'"
else
	not_ok "--call-graph dwarf,4001"
	sed 's/^/# /' "$T_LOG"
fi

# in_c_to_main FILE: "SAMPLES-IN-C REACHING-MAIN", one sample a block of
# perf script's output (its first frame, then its callers)
in_c_to_main() {
	perf script -i "$1" -F ip,sym 2>/dev/null |
		awk -v leaf=c -f "$(dirname "$0")/../../../selftests/rvctr/unwound.awk"
}
read -r hot deep < <(in_c_to_main "$T_DIR/d.data")
[ "$hot" -gt 0 ] && [ "$deep" = "$hot" ] &&
	ok "perf unwinds the recording: every sample in c reaches main ($deep of $hot)" ||
	not_ok "perf unwinds the recording: $deep of $hot samples in c reach main"

check "convert -f perf" $R convert -f perf -o "$T_DIR/c.data" "$T_DIR/d.data"
perf evlist -v -i "$T_DIR/c.data" >"$T_DIR/evlist.c" 2>/dev/null
mask=$(grep -o 'sample_regs_user: [0-9a-fx]*' "$T_DIR/evlist")
check "the converted attr keeps REGS_USER, STACK_USER, ${mask:-no mask}, the stack size" sh -c "
	grep -q 'REGS_USER|STACK_USER' '$T_DIR/evlist.c' && grep -q '$mask\\b' '$T_DIR/evlist.c' &&
	grep -q 'sample_stack_user: 8192' '$T_DIR/evlist.c'"
read -r chot cdeep < <(in_c_to_main "$T_DIR/c.data")
[ "$chot" = "$hot" ] && [ "$cdeep" = "$deep" ] &&
	ok "perf unwinds the converted file alike ($cdeep of $chot samples in c reach main)" ||
	not_ok "perf unwinds the converted file: $cdeep of $chot samples in c reach main, the recording $deep of $hot"
perf script -i "$T_DIR/d.data" -F ip,sym,uregs >"$T_DIR/d.txt" 2>/dev/null
perf script -i "$T_DIR/c.data" -F ip,sym,uregs >"$T_DIR/c.txt" 2>/dev/null
n=$(grep -c 'ABI:2' "$T_DIR/c.txt")
[ "$n" -gt 0 ] && cmp -s "$T_DIR/d.txt" "$T_DIR/c.txt" &&
	ok "perf script -F ip,sym,uregs: the converted file's the recording's ($n samples with registers)" ||
	{ not_ok "perf script -F ip,sym,uregs: the converted file differs ($n samples with registers)"
	  diff "$T_DIR/d.txt" "$T_DIR/c.txt" | head -5 | sed 's/^/# /'; }
done_testing
