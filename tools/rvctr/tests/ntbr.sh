#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctr_ntbr records COND to 4 bytes on, told apart by the instruction at
# their source read from the binary mapped there: a 32-bit branch is a
# not-taken record (dropped), a compressed c.beqz a taken branch over one
# 16-bit instruction (kept); one in a binary that cannot be found stays a
# guess (not taken), with a warning naming it, and range outputs refuse it.
# So does one whose instruction cannot have recorded it (not a conditional
# branch, a c.beqz to another offset: the wrong binary), and one in a file
# of another build id.
#
# As perf's shell tests: the recordings are made once (make_*), then each
# test_* function checks one behaviour and prints its TAP line; the calls
# at the end run them in order.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
SYNTH=${BUILD:?}/unit/synth-perf
CC=${CROSS_COMPILE:-riscv64-linux-gnu-}gcc
OBJCOPY=${CROSS_COMPILE:-riscv64-linux-gnu-}objcopy

# ---- the test binary and the recordings of it ----

# b32: beq (32 bits), not taken to b32 + 4; c16: c.beqz over one c.nop,
# taken to c16 + 4; ret at r; then no branch at add32 (32 bits) and cnop
# (16), and a c.beqz to +6 at c6
make_b() {
	cat >"$T_DIR/b.S" <<'ASM'
	.text
	.globl	_start
_start:
	.option	push
	.option	norvc
	.globl	b32
b32:	beq	a0, a1, r
	nop
	.option	pop
	.globl	c16
c16:	c.beqz	a0, 1f
	c.nop
1:	c.nop
	.globl	r
r:	ret
	.option	push
	.option	norvc
	.globl	add32
add32:	add	a0, a0, a1
	.option	pop
	.globl	cnop
cnop:	c.nop
	.globl	c6
c6:	c.beqz	a0, 2f
	c.nop
	c.nop
2:	ret
ASM
	"$CC" -march=rv64gc -nostdlib -static -no-pie -Wl,--build-id -o "$T_DIR/b" "$T_DIR/b.S" &&
		[ "$("${CROSS_COMPILE:-riscv64-linux-gnu-}objdump" -d "$T_DIR/b" |
			awk '/<c6>:/ { getline; print $2 }')" = c119 ]
}
addr() { printf '%x' $((0x$(sym_addr "$1" "$2") + ${3:-0})); }
# entries newest first: the ret, the c.beqz taken, the beq not taken
entries() { # BINARY BASE
	local b=$2
	printf '%x/%x/2/0/3 %x/%x/1/0/2 %x/%x/1/0/1' \
		$((b + 0x$(addr "$1" r))) $((b + 0x$(addr "$1" b32))) \
		$((b + 0x$(addr "$1" c16))) $((b + 0x$(addr "$1" c16 4))) \
		$((b + 0x$(addr "$1" b32))) $((b + 0x$(addr "$1" b32 4)))
}
# clean.data: b's stack, every record decided; gone.data: the same and
# one in a library that is nowhere to be found (at $gone)
gone=0x3fa0001000
make_clean_gone() {
	{
		echo "comm 4242 b"
		echo "mmap 4242 0x10000 0x1000 0 $T_DIR/b"
		echo "event 1"
		echo "sample 4242 0x$(addr "$T_DIR/b" r) $(entries "$T_DIR/b" 0)"
	} >"$T_DIR/clean.txt"
	{
		cat "$T_DIR/clean.txt"
		echo "mmap 4242 $gone 0x1000 0 /nonexistent/libgone.so"
		echo "sample 4242 $gone $(printf %x/%x $gone $((gone + 4)))/1/0/1"
	} >"$T_DIR/gone.txt"
	"$SYNTH" -n "$T_DIR/clean.data" <"$T_DIR/clean.txt" &&
		"$SYNTH" -n "$T_DIR/gone.data" <"$T_DIR/gone.txt" || not_ok "synth-perf"
	b32=0x$(addr "$T_DIR/b" b32) c16=0x$(addr "$T_DIR/b" c16) r=0x$(addr "$T_DIR/b" r)
	# (AutoFDO addresses are from the executable segment's p_vaddr on)
	read -r _ load _ < <(exec_load "$T_DIR/b")
}
# An undecided record counts only where the output shows it: autofdo
# writes one binary's profile (-b, else the busiest), the filters keep
# whole samples.  ab.afdo: b's profile of clean.data.  busy.data:
# gone.data and a libgone stack of 3 taken records and 2 more undecided
# ones, which makes libgone the busiest binary.
make_busy() {
	$R convert -f autofdo -b b -o "$T_DIR/ab.afdo" "$T_DIR/clean.data" 2>"$T_LOG" ||
		not_ok "autofdo -b b of the clean recording"
	{
		cat "$T_DIR/gone.txt"
		printf 'sample 4242 %#x' $((gone + 0x40))
		for _ in 1 2 3; do printf ' %x/%x/1/0/1' $((gone + 0x40)) $((gone + 0x10)); done
		printf ' %x/%x/1/0/1' $((gone + 8)) $((gone + 12)) $gone $((gone + 4))
		echo
	} >"$T_DIR/busy.txt"
	"$SYNTH" -n "$T_DIR/busy.data" <"$T_DIR/busy.txt" || not_ok "synth-perf busy"
}
# a stack through many binaries: b's records, the oldest, go to b's
# profile however many binaries the newer ones reached (CTR keeps up to
# 256 records).  Newest first: jumps into lib1..lib7, a record COND or
# not to 4 bytes on in lib8 (whose binary is missing), a jump from b into
# lib7, then two of b's.  wide.data: that record a jump; wide-nt.data:
# COND to 4 bytes on, undecided.
lib() { printf '%#x' $((0x3f00000000 + $1 * 0x100000 + ${2:-0})); }
wide() { # TYPE: of the record in lib8
	grep -v '^sample' "$T_DIR/clean.txt"
	for k in 1 2 3 4 5 6 7 8; do echo "mmap 4242 $(lib $k) 0x1000 0 /nonexistent/lib$k.so"; done
	printf 'sample 4242 %s' "$(lib 1 0x10)"
	for k in 1 2 3 4 5 6 7; do printf ' %x/%x/2/0/1' $(($(lib $((k + 1)) 0x20))) $(($(lib $k 0x10))); done
	printf ' %x/%x/%d/0/1' $(($(lib 8 0x40))) $(($(lib 8 0x44))) "$1"
	printf ' %x/%x/2/0/1 %x/%x/2/0/1 %x/%x/2/0/1\n' $r $(($(lib 7 0x10))) $c16 $r $r $b32
}
make_wide() {
	wide 2 | sed 's/^event 1$/event 0/' | "$SYNTH" "$T_DIR/wide.data"
	wide 1 | "$SYNTH" -n "$T_DIR/wide-nt.data"
}
# b_and_gone: b and libgone mapped, and a sample of b's 2 taken records
b_and_gone() {
	echo "comm 4242 b"
	echo "mmap 4242 0x10000 0x1000 0 $T_DIR/b"
	echo "mmap 4242 $gone 0x1000 0 /nonexistent/libgone.so"
	echo "event 1"
	printf 'sample 4242 %s %x/%x/2/0/1 %x/%x/2/0/1\n' $r $r $b32 $c16 $r
}
# tie-T.data: b has 2 taken records; libgone 2 taken and one of type T
# (2 a jump, 1 COND to 4 bytes on, undecided), which must count whatever
# it is
make_tie() {
	local t
	for t in 2 1; do
		{
			b_and_gone
			printf 'sample 4242 %#x %x/%x/2/0/1 %x/%x/%d/0/1 %x/%x/2/0/1\n' $((gone + 0x10)) \
				$((gone + 0x40)) $((gone + 0x10)) $((gone + 0x20)) $((gone + 0x24)) $t \
				$((gone + 0x30)) $((gone + 0x8))
		} | "$SYNTH" -n "$T_DIR/tie-$t.data"
	done
}
# split-T.data: the same when libgone's only record in a stack that goes
# to b is of type T (between a jump from libgone to b and one from b to
# no map)
make_split() {
	local t
	for t in 2 1; do
		{
			b_and_gone
			printf 'sample 4242 %s %x/%x/2/0/1 %x/%x/%d/0/1 %x/%x/2/0/1\n' $r $((gone + 0x28)) $r \
				$((gone + 0x20)) $((gone + 0x24)) $t $c16 0x5000
			printf 'sample 4242 %#x %x/%x/2/0/1 %x/%x/2/0/1 %x/%x/2/0/1\n' $((gone + 0x10)) \
				$((gone + 0x40)) $((gone + 0x10)) $((gone + 0x60)) $((gone + 0x30)) \
				$((gone + 0x50)) $((gone + 0x8))
		} | "$SYNTH" -n "$T_DIR/split-$t.data"
	done
}
# between.data: an undecided record in libgone between two of b's
make_between() {
	{
		cat "$T_DIR/gone.txt"
		printf 'sample 4242 0x%s %x/%x/2/0/1 %x/%x/1/0/1 %x/%x/2/0/1\n' "$(addr "$T_DIR/b" r)" \
			$((0x$(addr "$T_DIR/b" r))) $b32 $gone $((gone + 4)) $c16 $((0x$(addr "$T_DIR/b" r)))
	} | "$SYNTH" -n "$T_DIR/between.data"
}
# pids.data: busy.data with the undecided records in another process,
# whose ip is in libgone
make_pids() {
	local other
	other="s/^\(sample\|mmap\) 4242 \($gone\|$(printf %#x $((gone + 0x40)))\) /\1 4343 \2 /"
	{ echo "comm 4343 other"; sed "$other" "$T_DIR/busy.txt"; } >"$T_DIR/pids.txt"
	[ "$(grep -c '^sample 4343 ' "$T_DIR/pids.txt")" = 2 ] &&
		"$SYNTH" -n "$T_DIR/pids.data" <"$T_DIR/pids.txt" || not_ok "pids.data"
}
# kb.data: clean.data and an undecided record in the kernel's code, with
# no vmlinux to read it from
make_kb() {
	{
		cat "$T_DIR/clean.txt"
		echo "mmap -1 0xffffffff80000000 0x1000000 0xffffffff80000000 [kernel.kallsyms]_text"
		echo "sample 4242 0xffffffff80001000 ffffffff80001010/ffffffff80001000/1/0/1 ffffffff80001000/ffffffff80001004/1/0/1"
	} | "$SYNTH" -n "$T_DIR/kb.data"
}
# opt.data: clean.data recorded with b at /opt/b, which is under sym/
make_symfs() {
	mkdir -p "$T_DIR/sym/opt"
	cp "$T_DIR/b" "$T_DIR/sym/opt/b"
	sed "s|$T_DIR/b\$|/opt/b|" "$T_DIR/clean.txt" | "$SYNTH" -n "$T_DIR/opt.data"
}
# WHAT.data: a record COND to 4 bytes on at WHAT (add32, cnop, c6), an
# instruction that cannot have recorded it
make_wrong() { # WHAT
	local a
	a=$(addr "$T_DIR/b" "$1")
	{
		echo "comm 4242 b"
		echo "mmap 4242 0x10000 0x1000 0 $T_DIR/b"
		echo "event 1"
		echo "sample 4242 0x$(addr "$T_DIR/b" r) $a/$(printf %x $((0x$a + 4)))/1/0/1"
	} | "$SYNTH" -n "$T_DIR/$1.data"
}
wrong_why() { # WHAT: what rvctr says of the instruction there
	local a
	a=$(addr "$T_DIR/b" "$1")
	case $1 in
	c6) echo "instruction at 0x$a in $T_DIR/b is a compressed branch to +6, not +4: wrong binary" ;;
	*) echo "instruction at 0x$a in $T_DIR/b is not a conditional branch: wrong binary" ;;
	esac
}
# sym/opt/b stripped, its debug file where a debugger would look
make_stripped() {
	local id
	$OBJCOPY --only-keep-debug "$T_DIR/b" "$T_DIR/b.debug"
	$OBJCOPY --strip-all --add-gnu-debuglink="$T_DIR/b.debug" "$T_DIR/b" "$T_DIR/sym/opt/b"
	id=$(build_id "$T_DIR/b")
	mkdir -p "$T_DIR/sym/usr/lib/debug/.build-id/${id:0:2}"
	mv "$T_DIR/b.debug" "$T_DIR/sym/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
}
# vmlinux: b linked at the kernel's address with a _text; k.data: its
# stack recorded with the kernel at KASLR offset K
K=0x2a400000
make_vmlinux() {
	sed 's/^_start:/_start:\n\t.globl\t_text\n_text:/' "$T_DIR/b.S" >"$T_DIR/vmlinux.S"
	"$CC" -march=rv64gc -nostdlib -static -no-pie -Wl,-Ttext=0xffffffff80000000 -Wl,--build-id \
		-o "$T_DIR/vmlinux" "$T_DIR/vmlinux.S" >"$T_LOG" 2>&1 || return 1
	text=$((0x$(sym_addr "$T_DIR/vmlinux" _text) + K))
	{
		printf 'mmap -1 %#x 0x1000000 %#x [kernel.kallsyms]_text\n' $text $text
		echo "event 1"
		echo "sample 4242 $((K + 0x$(addr "$T_DIR/vmlinux" r))) $(entries "$T_DIR/vmlinux" $K)"
	} >"$T_DIR/k.txt"
	"$SYNTH" -n "$T_DIR/k.data" <"$T_DIR/k.txt"
}

# ---- helpers of the checks ----

# refused NAME OUT WANT CONVERT-ARGS...: convert -o OUT exits 1, saying WANT
# (a grep pattern), and leaves no OUT
refused() {
	local name=$1 out=$2 want=$3 rc
	shift 3
	rm -f "$out"
	$R convert -o "$out" "$@" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -q "$want" "$T_LOG" && ! [ -e "$out" ] && ok "$name" ||
		{ not_ok "$name: status $rc"; sed 's/^/# /' "$T_LOG"; }
}
# b_only FORMAT OUTPUT: OUTPUT is the output of b's stack alone
b_only() {
	if [ "$1" = autofdo ]; then
		cmp -s "$2" "$T_DIR/ab.afdo"
	else
		grep -q "$(printf '%#x/%#x/' $c16 $((c16 + 4)))" "$2" && ! grep -q "$(printf '%#x/' $gone)" "$2"
	fi
}

# ---- report and spe decide every record they can ----

# the c.beqz counted (COND), the beq not
test_report_decides() {
	$R report "$T_DIR/clean.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q '^# 2 branches in 1 samples' "$T_DIR/r" && grep -q '^COND  *1 ' "$T_DIR/r" &&
		grep -q '^# 1 not-taken branch records' "$T_DIR/r" &&
		ok "report: a 32-bit beq to 4 bytes on is not taken, a c.beqz to 4 bytes on taken" ||
		{ not_ok "report: beq / c.beqz to 4 bytes on"; head -8 "$T_DIR/r" | sed 's/^/# /'; }
}
test_report_no_warning() {
	$R report "$T_DIR/clean.data" >"$T_DIR/r" 2>"$T_LOG"
	! grep -q 'warning' "$T_LOG" && ok "report: no warning when every record was decided" ||
		{ not_ok "report: warned though every record was decided"; sed 's/^/# /' "$T_LOG"; }
}
# one in a binary that cannot be found: a guess, named
test_report_missing_binary() {
	$R report "$T_DIR/gone.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q '^# 2 branches in 2 samples' "$T_DIR/r" && grep -q '^# 2 not-taken branch records' "$T_DIR/r" &&
		ok "report: the record in a missing binary is taken as not taken" ||
		{ not_ok "report: missing binary"; head -8 "$T_DIR/r" | sed 's/^/# /'; }
}
test_report_missing_binary_warns() {
	$R report "$T_DIR/gone.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q 'warning: .*gone.data: 1 record .*4 bytes on.*libgone.so: not found.*compressed' "$T_LOG" &&
		ok "report: warns of the one left a guess, naming its binary" ||
		{ not_ok "report: warning of the undecided record"; sed 's/^/# /' "$T_LOG"; }
}
# a sample for each taken branch, the c.beqz among them
test_spe() {
	$R convert -f spe -o "$T_DIR/s.data" "$T_DIR/clean.data" 2>"$T_LOG" &&
		$R report "$T_DIR/s.data" >"$T_DIR/r" 2>>"$T_LOG"
	grep -q '^# [0-9]* branches in 2 samples' "$T_DIR/r" && grep -q '^COND  *1 ' "$T_DIR/r" &&
		ok "spe: samples the c.beqz, not the beq" ||
		{ not_ok "spe: beq / c.beqz"; head -8 "$T_DIR/r" "$T_LOG" | sed 's/^/# /'; }
}

# ---- range outputs: converted when every record is decided ----

test_perfscript_decided() {
	if $R convert -f perfscript -o "$T_DIR/p.ps" "$T_DIR/clean.data" 2>"$T_LOG"; then
		grep -q "$(printf '%#x/%#x/' $c16 $((c16 + 4)))" "$T_DIR/p.ps" &&
			! grep -q "$(printf '%#x/' $((b32 + 4)))" "$T_DIR/p.ps" &&
			ok "perfscript: converted, the c.beqz kept, the beq dropped" ||
			{ not_ok "perfscript: beq / c.beqz"; grep -v MMAP "$T_DIR/p.ps" | head -4 | sed 's/^/# /'; }
	else
		not_ok "perfscript: ctr_ntbr recording with every record decided refused"
		sed 's/^/# /' "$T_LOG"
	fi
}
test_autofdo_decided() {
	if $R convert -f autofdo -o "$T_DIR/a.afdo" "$T_DIR/clean.data" 2>"$T_LOG"; then
		grep -q "^ *$(printf '%x->%x' $((c16 - load)) $((c16 + 4 - load))):1" "$T_DIR/a.afdo" &&
			! grep -q "^ *$(printf '%x->' $((b32 - load)))" "$T_DIR/a.afdo" &&
			ok "autofdo: converted, the c.beqz a branch, the beq none" ||
			{ not_ok "autofdo: beq / c.beqz"; sed 's/^/# /' "$T_DIR/a.afdo"; }
	else
		not_ok "autofdo: ctr_ntbr recording with every record decided refused"
		sed 's/^/# /' "$T_LOG"
	fi
}

# ---- range outputs: an undecided record refuses, unless --force ----

# (autofdo: where it is in the binary profiled, below)
test_perfscript_undecided_refused() {
	local rc
	$R convert -f perfscript -o "$T_DIR/g.out" "$T_DIR/gone.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'not-taken.* 1 record .*libgone.so: not found' "$T_LOG" &&
		grep -q -- --force "$T_LOG" && ! [ -e "$T_DIR/g.out" ] &&
		ok "perfscript: an undecided record refuses, naming the binary" ||
		{ not_ok "perfscript: undecided record: status $rc"; sed 's/^/# /' "$T_LOG"; }
}
test_perfscript_force() {
	$R convert --force -f perfscript -o "$T_DIR/g.ps" "$T_DIR/gone.data" 2>"$T_LOG" &&
		grep -q 'warning: .*1 record .*libgone.so' "$T_LOG" &&
		! grep -q "$(printf '%#x/' $((gone + 4)))" "$T_DIR/g.ps" &&
		ok "perfscript --force: the undecided record dropped, with a warning" ||
		{ not_ok "perfscript --force: undecided record"; sed 's/^/# /' "$T_LOG"; }
}
# autofdo [-b BINARY] of DATA profiles b: libgone's records do not count
test_autofdo_elsewhere_uncounted() { # OPTS DATA
	local opts=$1 data=$2
	# shellcheck disable=SC2086
	if $R convert -f autofdo $opts -o "$T_DIR/x.afdo" "$T_DIR/$data.data" 2>"$T_LOG"; then
		cmp -s "$T_DIR/x.afdo" "$T_DIR/ab.afdo" && ! grep -q libgone "$T_LOG" &&
			ok "autofdo ${opts:-(busiest: b)} of $data: undecided records in libgone do not count" ||
			{ not_ok "autofdo $opts of $data: output"; diff "$T_DIR/ab.afdo" "$T_DIR/x.afdo" | sed 's/^/# /'; sed 's/^/# /' "$T_LOG"; }
	else
		not_ok "autofdo ${opts:-(busiest)} of $data: refused for a record in libgone"
		sed 's/^/# /' "$T_LOG"
	fi
}
test_autofdo_libgone_refused() {
	$R convert -f autofdo -b libgone.so -o "$T_DIR/x.afdo" "$T_DIR/gone.data" 2>"$T_LOG"
	[ $? -eq 1 ] && grep -q 'gone.data: no autofdo output: .* 1 record .*libgone.so: not found' "$T_LOG" &&
		ok "autofdo -b libgone.so, whose one record is undecided: refused for it" ||
		{ not_ok "autofdo -b libgone.so of gone"; sed 's/^/# /' "$T_LOG"; }
}
test_autofdo_busy_refused() { # OPTS: "" (the busiest: libgone) or -b of libgone
	local opts=$1 rc
	rm -f "$T_DIR/x.afdo"
	# shellcheck disable=SC2086
	$R convert -f autofdo $opts -o "$T_DIR/x.afdo" "$T_DIR/busy.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'busy.data: no autofdo output: .*not-taken.* 3 records .*libgone.so: not found' "$T_LOG" &&
		grep -q -- --force "$T_LOG" && ! [ -e "$T_DIR/x.afdo" ] &&
		ok "autofdo ${opts:-(busiest: libgone)}: its 3 undecided records refuse, counted" ||
		{ not_ok "autofdo ${opts:-(busiest)} of busy: status $rc"; sed 's/^/# /' "$T_LOG"; }
}
test_autofdo_busy_force() {
	$R convert --force -f autofdo -b libgone.so -o "$T_DIR/x.afdo" "$T_DIR/busy.data" 2>"$T_LOG" &&
		grep -q 'warning: .*busy.data: 3 records .*libgone.so: not found' "$T_LOG" &&
		grep -q "^$(printf '%x->%x' 0x40 0x10):3" "$T_DIR/x.afdo" &&
		ok "autofdo --force -b libgone.so: converted, warning of its 3 undecided records" ||
		{ not_ok "autofdo --force -b libgone.so"; sed 's/^/# /' "$T_LOG" "$T_DIR/x.afdo"; }
}
test_perfscript_busy_refused() {
	refused "perfscript: every undecided record of a kept sample refuses, counted" "$T_DIR/x.ps" \
		'no perfscript output: .* 3 records .*libgone.so: not found' -f perfscript "$T_DIR/busy.data"
}
# with ctr_ntbr, the record between records into lib7 and out of lib8
# cannot change b's profile, so it does not count
test_autofdo_wide() { # DATA
	local data=$1 b_branch b_range
	b_branch=$(printf '%x->%x:1' $((c16 - load)) $((r - load)))
	b_range=$(printf '%x-%x:1' $((b32 - load)) $((c16 - load)))
	if $R convert -f autofdo -b b -o "$T_DIR/x.afdo" "$T_DIR/$data.data" 2>"$T_LOG"; then
		grep -q "^ *$b_branch\$" "$T_DIR/x.afdo" && grep -q "^ *$b_range\$" "$T_DIR/x.afdo" &&
			! grep -q 'not-taken\|lib8' "$T_LOG" &&
			ok "autofdo -b b of $data: b, the 9th binary of a stack, gets its ranges" ||
			{ not_ok "autofdo -b b of $data: b's ranges"; sed 's/^/# /' "$T_DIR/x.afdo" "$T_LOG"; }
	else
		not_ok "autofdo -b b of $data: refused"
		sed 's/^/# /' "$T_LOG"
	fi
}
# the busiest binary, by records as recorded: in PREFIX-2.data (the
# record taken) libgone is the busiest binary and profiled; in
# PREFIX-1.data (undecided) it is still chosen, and the conversion refuses
test_autofdo_busiest() { # PREFIX WHAT
	$R convert -f autofdo -o "$T_DIR/x.afdo" "$T_DIR/$1-2.data" 2>"$T_LOG" &&
		grep -q 'autofdo profile of /nonexistent/libgone.so' "$T_LOG" &&
		ok "autofdo (busiest): $2" ||
		{ not_ok "autofdo (busiest) of $1-2"; sed 's/^/# /' "$T_LOG"; }
}
test_autofdo_busiest_undecided() { # PREFIX WHAT
	refused "autofdo (busiest): $2" "$T_DIR/x.afdo" \
		'no autofdo output: .* 1 record .*libgone.so: not found' -f autofdo "$T_DIR/$1-1.data"
}
# several inputs: the undecided records of each counted, the first named
test_perfscript_two_inputs() {
	$R convert -f perfscript -o "$T_DIR/x.ps" "$T_DIR/gone.data" "$T_DIR/busy.data" 2>"$T_LOG"
	[ $? -eq 1 ] && grep -q 'rvctr: no perfscript output: .* 4 records COND to 4 bytes on (in 2 inputs, the first in [^ ]*/gone.data) .*libgone.so: not found' "$T_LOG" &&
		ok "perfscript of two inputs: their 4 undecided records refuse, the first's input named" ||
		{ not_ok "perfscript of two inputs"; sed 's/^/# /' "$T_LOG"; }
}
test_autofdo_force_two_inputs() {
	$R convert --force -f autofdo -b libgone.so -o "$T_DIR/x.afdo" "$T_DIR/gone.data" "$T_DIR/busy.data" 2>"$T_LOG" &&
		grep -q 'warning: 4 records of ctr_ntbr events in the profile of /nonexistent/libgone.so (in 2 inputs, the first in [^ ]*/gone.data) were COND' "$T_LOG" &&
		ok "autofdo --force of two inputs: one warning of their 4 undecided records" ||
		{ not_ok "autofdo --force of two inputs"; sed 's/^/# /' "$T_LOG"; }
}
# outputs that show every record: a warning for each input
test_two_inputs_warnings() { # OPTS
	local opts=$1
	# shellcheck disable=SC2086
	$R convert $opts -o "$T_DIR/x.out" "$T_DIR/gone.data" "$T_DIR/busy.data" 2>"$T_LOG" &&
		grep -q 'warning: [^ ]*/gone.data: 1 record of ctr_ntbr events was COND' "$T_LOG" &&
		grep -q 'warning: [^ ]*/busy.data: 3 records of ctr_ntbr events were COND' "$T_LOG" &&
		[ "$(grep -c 'ctr_ntbr events' "$T_LOG")" = 2 ] &&
		ok "convert $opts of two inputs: a warning for each" ||
		{ not_ok "convert $opts of two inputs: warnings"; sed 's/^/# /' "$T_LOG"; }
}
# one between two of b's records: kept, it splits their range in b;
# dropped, it joins them: it changes b's profile wherever it is
test_autofdo_between() {
	$R convert -f autofdo -b b -o "$T_DIR/x.afdo" "$T_DIR/between.data" 2>"$T_LOG"
	[ $? -eq 1 ] && grep -q ' 1 record .*libgone.so: not found' "$T_LOG" &&
		ok "autofdo -b b: an undecided record in libgone between two of b's refuses" ||
		{ not_ok "autofdo -b b: undecided record between two of b's"; sed 's/^/# /' "$T_LOG"; }
}

# ---- a -a recording: each sample's records in its own process ----

# syswide.data: processes 100 (b) and 200 (b2) on two CPUs, one binary
# each at one address: b's beq there (a record COND to 4 bytes on is not
# taken), b2's c.beqz to +4 (the same record is a taken one).  CPU 1's
# COMM and MMAP2 come in the file after CPU 0's later samples.
make_syswide() {
	local rec
	printf '\t.text\n\t.globl _start\n_start:\tc.beqz a0, 1f\n\tc.nop\n1:\tret\n' >"$T_DIR/b2.S"
	"$CC" -march=rv64gc -nostdlib -static -no-pie -Wl,--build-id -o "$T_DIR/b2" "$T_DIR/b2.S" &&
		[ "$(addr "$T_DIR/b2" _start)" = "$(addr "$T_DIR/b" b32)" ] || return 1
	rec=$(printf '%x/%x/1/0/1' $b32 $((b32 + 4)))
	{
		echo "cpu 0"; echo "time 10"; echo "comm 100 b"
		echo "mmap 100 0x10000 0x1000 0 $T_DIR/b"; echo "event 1"
		for t in 20 22; do echo "time $t"; echo "sample 100 $b32 $rec"; done
		echo "cpu 1"; echo "time 14"; echo "comm 200 b2"
		echo "mmap 200 0x10000 0x1000 0 $T_DIR/b2"
		for t in 21 23; do echo "time $t"; echo "sample 200 $b32 $rec"; done
		echo "round"; echo "cpu 0"; echo "time 30"; echo "sample 100 $b32 $rec"; echo "round"
	} | "$SYNTH" -C -n "$T_DIR/syswide.data"
}
test_syswide_own_process() {
	$R report "$T_DIR/syswide.data" >"$T_LOG" 2>&1 &&
		grep -q '^# 2 branches in 5 samples$' "$T_LOG" &&
		grep -q '^# 3 not-taken branch records' "$T_LOG" &&
		ok "-a: each sample's record decided by its own process's binary (3 not taken, 2 taken)" ||
		{ not_ok "-a: records decided in another process"; sed 's/^/# /' "$T_LOG"; }
}
test_syswide_perfscript() {
	$R convert -f perfscript -o "$T_DIR/x.ps" "$T_DIR/syswide.data" 2>"$T_LOG" &&
		[ "$(grep -c "0x$(printf %x $b32)/0x$(printf %x $((b32 + 4)))/" "$T_DIR/x.ps")" = 2 ] &&
		ok "-a perfscript: process 200's taken records kept, 100's not-taken ones dropped" ||
		{ not_ok "-a perfscript"; sed 's/^/# /' "$T_LOG"; grep -v '^$' "$T_DIR/x.ps" | head -5; }
}

# ---- merged inputs: each input's records in its own processes ----

# other.data: another recording's pid 100, b2 mapped elsewhere (0x20000),
# with the record COND to 4 bytes on at b32's address, in no map of its
# own: undecided, whatever the first input's pid 100 had there
make_other_input() {
	local rec
	rec=$(printf '%x/%x/1/0/1' $b32 $((b32 + 4)))
	{
		echo "comm 100 b2"; echo "mmap 100 0x20000 0x1000 0 $T_DIR/b2"; echo "event 1"
		echo "sample 100 $b32 $rec"
	} | "$SYNTH" -n "$T_DIR/other.data" &&
	{
		echo "comm 100 b"; echo "mmap 100 0x10000 0x1000 0 $T_DIR/b"; echo "event 1"
		echo "sample 100 $b32 $rec"
	} | "$SYNTH" -n "$T_DIR/first.data"
}
test_merged_own_processes() { # FORMAT [OPTS]
	# shellcheck disable=SC2086
	$R convert -f $1 -o "$T_DIR/x.out" "$T_DIR/first.data" "$T_DIR/other.data" 2>"$T_LOG" &&
		grep -q "other.data: 1 record of ctr_ntbr events was COND .*no mapped binary holds" "$T_LOG" &&
		! grep -q "first.data: .* record" "$T_LOG" &&
		ok "-f $1 of two inputs: the second's pid 100 is not the first's (its record undecided)" ||
		{ not_ok "-f $1 of two inputs: pid 100 carried over"; sed 's/^/# /' "$T_LOG"; }
}

# ---- filters: samples left out take their undecided records along ----

test_perfscript_pid_refused() {
	$R convert -f perfscript -p 4342,4343 -o "$T_DIR/x.ps" "$T_DIR/pids.data" 2>"$T_LOG"
	[ $? -eq 1 ] && grep -q ' 3 records .*libgone' "$T_LOG" &&
		ok "perfscript --pid of the process with the undecided records: refused" ||
		{ not_ok "perfscript --pid 4343"; sed 's/^/# /' "$T_LOG"; }
}
test_filter_other_process() { # FORMAT FILTER-OPTS
	local fmt=$1 opts=$2
	# shellcheck disable=SC2086
	$R convert -f $fmt $opts -o "$T_DIR/x.out" "$T_DIR/pids.data" 2>"$T_LOG" &&
		! grep -q libgone "$T_LOG" && b_only $fmt "$T_DIR/x.out" &&
		ok "$fmt $opts: the other process's undecided records do not count" ||
		{ not_ok "$fmt $opts: refused or wrong"; sed 's/^/# /' "$T_LOG"; }
}

# ---- the kernel's code, no --vmlinux: its records count only where shown ----

test_autofdo_kernel_uncounted() {
	$R convert -f autofdo -b b -o "$T_DIR/x.afdo" "$T_DIR/kb.data" 2>"$T_LOG" &&
		cmp -s "$T_DIR/x.afdo" "$T_DIR/ab.afdo" && ! grep -q vmlinux "$T_LOG" &&
		ok "autofdo -b b: an undecided record in the kernel does not count" ||
		{ not_ok "autofdo -b b with an undecided kernel record"; sed 's/^/# /' "$T_LOG"; }
}
test_kernel_refused() { # CONVERT-ARGS...
	$R convert "$@" -o "$T_DIR/x.out" "$T_DIR/kb.data" 2>"$T_LOG"
	[ $? -eq 1 ] && grep -q ' 1 record .*no vmlinux' "$T_LOG" &&
		ok "$*: an undecided record in the kernel refuses" ||
		{ not_ok "$*: undecided kernel record"; sed 's/^/# /' "$T_LOG"; }
}
# -b [kernel.kallsyms]: the kernel, whatever perf named its map
test_autofdo_kernel_name() {
	$R convert --force -f autofdo -b '[kernel.kallsyms]' -o "$T_DIR/x.afdo" "$T_DIR/kb.data" 2>"$T_LOG" &&
		grep -qF 'autofdo profile of [kernel.kallsyms]_text' "$T_LOG" && ! grep -q 'name only' "$T_LOG" &&
		ok "autofdo -b [kernel.kallsyms]: the kernel's map, [kernel.kallsyms]_text" ||
		{ not_ok "autofdo -b [kernel.kallsyms]"; sed 's/^/# /' "$T_LOG"; }
}

# ---- which file is read ----

# --symfs: the binary found under it by its recorded path (not moved)
test_report_symfs() {
	$R report --symfs "$T_DIR/sym" "$T_DIR/opt.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q '^# 2 branches in 1 samples' "$T_DIR/r" && ! grep -q warning "$T_LOG" &&
		ok "report --symfs: the binary read under it" ||
		{ not_ok "report --symfs"; head -4 "$T_DIR/r" "$T_LOG" | sed 's/^/# /'; }
}
test_convert_symfs() {
	$R convert -f perfscript --symfs "$T_DIR/sym" -o "$T_DIR/o.ps" "$T_DIR/opt.data" 2>"$T_LOG" &&
		ok "convert --symfs: the binary read under it" ||
		{ not_ok "convert --symfs"; sed 's/^/# /' "$T_LOG"; }
}
# a record COND to 4 bytes on at an instruction that cannot have recorded
# it: undecided (refused), saying what is there, never decided by its
# length alone
test_perfscript_wrong() { # WHAT
	local what=$1 why rc
	why=$(wrong_why "$what")
	$R convert -f perfscript -o "$T_DIR/w.ps" "$T_DIR/$what.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -qF "$why" "$T_LOG" && ! [ -e "$T_DIR/w.ps" ] &&
		ok "perfscript: a record at $what (no branch to +4 there) refused, saying so" ||
		{ not_ok "perfscript: a record at $what: status $rc"; sed 's/^/# /' "$T_LOG"; }
}
test_report_wrong() { # WHAT
	local what=$1 why
	why=$(wrong_why "$what")
	$R report "$T_DIR/$what.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q "warning: .*$what.data: 1 record .*4 bytes on" "$T_LOG" && grep -qF "$why" "$T_LOG" &&
		ok "report: the record at $what a guess, with a warning saying what is there" ||
		{ not_ok "report: a record at $what"; head -4 "$T_DIR/r" "$T_LOG" | sed 's/^/# /'; }
}
# a binary of another build id than the recorded one: not read
test_perfscript_other_build_id() {
	local rc
	sed "s|^mmap .*$T_DIR/b\$|& 0123456789abcdef0123456789abcdef01234567|" "$T_DIR/clean.txt" |
		"$SYNTH" -n "$T_DIR/otherid.data"
	$R convert -f perfscript -o "$T_DIR/o.ps" "$T_DIR/otherid.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -qF "$T_DIR/b: the file there has another build id (or machine) than the recorded one: not used" "$T_LOG" &&
		ok "perfscript: the binary of another build id not read, refused saying so" ||
		{ not_ok "perfscript: binary of another build id: status $rc"; sed 's/^/# /' "$T_LOG"; }
}
# only code is read: a stripped binary's debug file is not looked for
# (LeakSanitizer does not run under ptrace)
test_no_debug_file() {
	if ! have strace; then
		skip "convert: no debug file looked for" "strace not installed"
	elif ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=%file -o "$T_DIR/strace" \
		$R convert -f perfscript --symfs "$T_DIR/sym" -o "$T_DIR/o.ps" "$T_DIR/opt.data" 2>"$T_LOG"; then
		! grep -q '\.debug"' "$T_DIR/strace" && grep -q "sym/opt/b\"" "$T_DIR/strace" &&
			ok "convert: a stripped binary's code read, no debug file looked for" ||
			{ not_ok "convert: debug file looked for"; grep 'debug\|sym/opt' "$T_DIR/strace" | head | sed 's/^/# /'; }
	else
		not_ok "convert: stripped binary under --symfs"
		sed 's/^/# /' "$T_LOG"
	fi
}
# perf output keeps every record: no binary read at all
test_perf_no_binary() {
	if ! have strace; then
		skip "convert -f perf: no binary opened" "strace not installed"
		return
	fi
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=%file -o "$T_DIR/strace" \
		$R convert -f perf --symfs "$T_DIR/sym" -o "$T_DIR/o.data" "$T_DIR/opt.data" 2>"$T_LOG" &&
		! grep -q "sym/opt/b\"" "$T_DIR/strace" &&
		ok "convert -f perf: no binary opened to tell not-taken records apart" ||
		{ not_ok "convert -f perf: a binary opened"; grep 'sym/opt' "$T_DIR/strace" | head | sed 's/^/# /'; }
}
# an lld PIE (text at p_vaddr = p_offset + 0x1000) at a random base
test_lld_pie() {
	local base off vaddr
	if ! have clang-19 || ! have ld.lld-19; then
		skip "lld PIE: beq / c.beqz" "clang-19 and ld.lld-19 not installed"
		return
	fi
	clang-19 --target=riscv64-linux-gnu -march=rv64gc --ld-path="$(command -v ld.lld-19)" \
		-nostdlib -fPIE -pie -Wl,--build-id -o "$T_DIR/bl" "$T_DIR/b.S"
	base=$(random_base pie)
	read -r off vaddr _ < <(exec_load "$T_DIR/bl")
	{
		echo "comm 4242 bl"
		printf 'mmap 4242 %#x 0x1000 %#x %s\n' $((base + (vaddr & ~0xfff))) $((off & ~0xfff)) "$T_DIR/bl"
		echo "event 1"
		echo "sample 4242 $((base + 0x$(addr "$T_DIR/bl" r))) $(entries "$T_DIR/bl" $base)"
	} | "$SYNTH" -n "$T_DIR/lld.data"
	$R report "$T_DIR/lld.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q '^# 2 branches in 1 samples' "$T_DIR/r" && grep -q '^# 1 not-taken branch records' "$T_DIR/r" &&
		! grep -q warning "$T_LOG" &&
		ok "lld PIE at a random base: beq not taken, c.beqz taken" ||
		{ not_ok "lld PIE: beq / c.beqz"; head -4 "$T_DIR/r" "$T_LOG" | sed 's/^/# /'; }
}

# ---- the kernel's code: from --vmlinux (link addresses, relocated by the
# map's _text, KASLR), else a guess ----

test_kernel_vmlinux() {
	$R report --vmlinux "$T_DIR/vmlinux" "$T_DIR/k.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q '^# 2 branches in 1 samples' "$T_DIR/r" && grep -q '^# 1 not-taken branch records' "$T_DIR/r" &&
		! grep -q warning "$T_LOG" &&
		ok "kernel: beq not taken, c.beqz taken, read from --vmlinux at a KASLR offset" ||
		{ not_ok "kernel: beq / c.beqz"; head -4 "$T_DIR/r" "$T_LOG" | sed 's/^/# /'; }
}
test_kernel_no_vmlinux() {
	$R report "$T_DIR/k.data" >"$T_DIR/r" 2>"$T_LOG"
	grep -q '^# 1 branches in 1 samples' "$T_DIR/r" &&
		grep -q 'warning: .*2 records .*4 bytes on.*no vmlinux' "$T_LOG" &&
		ok "kernel without a vmlinux: both guessed, with a warning" ||
		{ not_ok "kernel without a vmlinux"; head -4 "$T_DIR/r" "$T_LOG" | sed 's/^/# /'; }
}
test_kernel_perfscript_no_vmlinux() {
	$R convert -f perfscript -o "$T_DIR/k.ps" "$T_DIR/k.data" 2>"$T_LOG"
	[ $? -eq 1 ] && grep -q 'no vmlinux' "$T_LOG" &&
		ok "kernel: perfscript without --vmlinux refused" ||
		{ not_ok "kernel: perfscript without --vmlinux"; sed 's/^/# /' "$T_LOG"; }
}
test_kernel_perfscript_vmlinux() {
	local c16k
	c16k=$((0x$(addr "$T_DIR/vmlinux" c16) + K))
	$R convert -f perfscript --vmlinux "$T_DIR/vmlinux" -o "$T_DIR/k.ps" "$T_DIR/k.data" 2>"$T_LOG" &&
		grep -q "$(printf '%#x/%#x/' $c16k $((c16k + 4)))" "$T_DIR/k.ps" &&
		ok "kernel: perfscript --vmlinux converts, the c.beqz kept" ||
		{ not_ok "kernel: perfscript --vmlinux"; sed 's/^/# /' "$T_LOG"; }
}
# the recording's kernel build id: the vmlinux must be that kernel
test_kernel_build_id() {
	local kid
	kid=$(build_id "$T_DIR/vmlinux")
	{ echo "buildid [kernel.kallsyms] $kid"; cat; } <"$T_DIR/k.txt" | "$SYNTH" -n "$T_DIR/kid.data"
	$R convert -f perfscript --vmlinux "$T_DIR/vmlinux" -o "$T_DIR/k.ps" "$T_DIR/kid.data" 2>"$T_LOG" &&
		ok "kernel: perfscript --vmlinux of the recorded build id converts" ||
		{ not_ok "kernel: perfscript --vmlinux of the recorded build id"; sed 's/^/# /' "$T_LOG"; }
}
test_kernel_other_build_id() {
	local kid rc
	kid=$(build_id "$T_DIR/vmlinux")
	{ echo "buildid [kernel.kallsyms] 0123456789abcdef0123456789abcdef01234567"; cat; } \
		<"$T_DIR/k.txt" | "$SYNTH" -n "$T_DIR/kother.data"
	$R convert -f perfscript --vmlinux "$T_DIR/vmlinux" -o "$T_DIR/k.ps" "$T_DIR/kother.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -qF "$T_DIR/vmlinux has build id $kid, the recording's kernel 0123456789abcdef0123456789abcdef01234567: another kernel's, not used" "$T_LOG" &&
		ok "kernel: a --vmlinux of another build id not read, refused saying so" ||
		{ not_ok "kernel: --vmlinux of another build id: status $rc"; sed 's/^/# /' "$T_LOG"; }
}
# no _text to relocate by: not read at a guessed offset
test_kernel_no_text() {
	local rc
	$OBJCOPY --strip-symbol=_text "$T_DIR/vmlinux" "$T_DIR/vmlinux-notext"
	$R convert -f perfscript --vmlinux "$T_DIR/vmlinux-notext" -o "$T_DIR/k.ps" "$T_DIR/k.data" 2>"$T_LOG"
	rc=$?
	[ $rc -eq 1 ] && grep -qF "vmlinux-notext has no _text symbol, and the recording's kernel had it at $(printf %#x $text): cannot relocate it" "$T_LOG" &&
		ok "kernel: a --vmlinux without _text not read, refused saying so" ||
		{ not_ok "kernel: --vmlinux without _text: status $rc"; sed 's/^/# /' "$T_LOG"; }
}

# ---- the run ----

if ! make_b; then
	not_ok "cannot build the riscv64 test binary"
	done_testing
	exit
fi
make_clean_gone
test_report_decides
test_report_no_warning
test_report_missing_binary
test_report_missing_binary_warns
test_spe
test_perfscript_decided
test_autofdo_decided
test_perfscript_undecided_refused
test_perfscript_force

make_busy
for args in "-b b gone" "-b $T_DIR/b gone" "gone" "-b b busy"; do
	data=${args##* } opts=${args% *}
	[ "$opts" = "$data" ] && opts=
	test_autofdo_elsewhere_uncounted "$opts" "$data"
done
test_autofdo_libgone_refused
for opts in "" "-b libgone.so" "-b /nonexistent/libgone.so"; do
	test_autofdo_busy_refused "$opts"
done
test_autofdo_busy_force
test_perfscript_busy_refused
make_wide
test_autofdo_wide wide
test_autofdo_wide wide-nt
make_tie
test_autofdo_busiest tie "libgone's 3 records outnumber b's 2"
test_autofdo_busiest_undecided tie "an undecided record counts in choosing libgone, and refuses"
make_split
test_autofdo_busiest split "libgone's 6 records outnumber b's 5"
test_autofdo_busiest_undecided split "libgone's one undecided record in b's stack counts for it"
test_perfscript_two_inputs
test_autofdo_force_two_inputs
test_two_inputs_warnings "-f spe"
test_two_inputs_warnings "--force -f perfscript"
make_between
test_autofdo_between

if make_syswide; then
	test_syswide_own_process
	test_syswide_perfscript
else
	not_ok "the -a recording"
fi

if make_other_input; then
	test_merged_own_processes spe
	test_merged_own_processes "perfscript --force"
else
	not_ok "the merged recordings"
fi

make_pids
test_perfscript_pid_refused
for opts in "--pid 4242" "--tid 4242" "--comm b" "--dso b"; do
	for fmt in perfscript autofdo; do
		test_filter_other_process $fmt "$opts"
	done
done

make_kb
test_autofdo_kernel_uncounted
test_kernel_refused -f autofdo -b '[kernel.kallsyms]_text'
test_kernel_refused -f autofdo -b '[kernel.kallsyms]'
test_kernel_refused -f perfscript
test_autofdo_kernel_name

make_symfs
test_report_symfs
test_convert_symfs
for what in add32 cnop c6; do
	make_wrong $what
	test_perfscript_wrong $what
	test_report_wrong $what
done
test_perfscript_other_build_id
make_stripped
test_no_debug_file
test_perf_no_binary
test_lld_pie

if make_vmlinux; then
	test_kernel_vmlinux
	test_kernel_no_vmlinux
	test_kernel_perfscript_no_vmlinux
	test_kernel_perfscript_vmlinux
	test_kernel_build_id
	test_kernel_other_build_id
	test_kernel_no_text
else
	not_ok "build a riscv64 vmlinux stand-in"
	sed 's/^/# /' "$T_LOG"
fi
done_testing
