#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Position-independent code: riscv64 PIEs and shared libraries as GNU ld
# and as lld-19 lay them out (lld puts the text segment at p_vaddr =
# p_offset + 0x1000, GNU ld at p_vaddr = p_offset), mapped at randomized
# bases the way the kernel maps them, in a synthetic perf.data.  report
# must name work() and its offsets, and AutoFDO and llvm-profgen must get
# the same profile from our text outputs as from the perf.data.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
SYNTH=${BUILD:?}/unit/synth-perf
CC_GNU=${CROSS_COMPILE:-riscv64-linux-gnu-}gcc
OBJDUMP=${CROSS_COMPILE:-riscv64-linux-gnu-}objdump
SRC=$(dirname "$0")/data/loop.c
PROFGEN=$(command -v llvm-profgen-19 || true)

have() { command -v "$1" >/dev/null 2>&1; }

# exec_load BINARY: "OFFSET VADDR MEMSZ" of the executable PT_LOAD
exec_load() {
	readelf -lW "$1" | awk '$1 == "LOAD" && $0 ~ / R E | RWE / { print $2, $3, $6; exit }'
}
build_id() { readelf -nW "$1" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p'; }
sym_addr() { "${CROSS_COMPILE:-riscv64-linux-gnu-}nm" "$1" | awk -v s="$2" '$3 == s { print $1 }'; }

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

# one LINKER KIND: build loop.c as KIND (pie, shared) with LINKER (gnu, lld),
# check its layout is the one named, and check every output on it
one() {
	local linker=$1 kind=$2 d=$T_DIR/$1-$2 flags bin base off vaddr work
	mkdir -p "$d"
	case $kind in
	pie) flags="-fPIE -pie" bin=$d/loop ;;
	shared) flags="-fPIC -shared" bin=$d/libloop.so ;;
	esac
	if [ "$linker" = gnu ]; then
		# shellcheck disable=SC2086
		"$CC_GNU" -O1 -gdwarf-4 $flags -Wl,--build-id=sha1 -o "$bin" "$SRC"
	else
		# shellcheck disable=SC2086
		clang-19 --target=riscv64-linux-gnu --ld-path="$(command -v ld.lld-19)" -O1 \
			-gdwarf-4 $flags -Wl,--build-id=sha1 -o "$bin" "$SRC"
	fi >"$T_LOG" 2>&1 || { not_ok "$linker $kind: build"; sed 's/^/# /' "$T_LOG"; return; }
	read -r off vaddr _ < <(exec_load "$bin")
	if [ "$linker" = gnu ]; then
		[ $((vaddr)) -eq $((off)) ] && ok "$linker $kind: text at p_vaddr == p_offset ($vaddr)" ||
			not_ok "$linker $kind: text at $vaddr, offset $off"
	else
		[ $((vaddr)) -eq $((off + 0x1000)) ] &&
			ok "$linker $kind: text at p_vaddr == p_offset + 0x1000 ($vaddr, $off)" ||
			not_ok "$linker $kind: text at $vaddr, offset $off"
	fi
	work_branches "$bin" || { not_ok "$linker $kind: branches of work() in the disassembly"; return; }
	work=$((0x$(sym_addr "$bin" work)))
	# the kernel's PIE base (2/3 of Sv39's TASK_SIZE) or the mmap area, randomized
	if [ "$kind" = pie ]; then
		base=$((0x2aaaaaa000 + (RANDOM * 32768 + RANDOM) % 0x40000 * 0x1000))
	else
		base=$((0x3f80000000 - (RANDOM * 32768 + RANDOM) % 0x40000 * 0x1000))
	fi
	describe "$bin" "$bin" "$base" 200 "$RANDOM" >"$d/desc"
	check "$linker $kind: perf.data at base $(printf %#x $base)" "$SYNTH" "$d/a.data" <"$d/desc" ||
		return
	check "$linker $kind: report" $R report "$d/a.data"
	cp "$T_LOG" "$d/report.txt"
	local want_edge
	want_edge=$(printf 'work\\+%#x +work\\+%#x +UNCOND' $((0x$B2 - work)) $((0x$T2 - work)))
	check "$linker $kind: report names the binary and work()" \
		grep -qE "100\\.00% +[0-9.]+%  $bin: work\$" "$d/report.txt"
	check "$linker $kind: hot edge as symbol+offset ($(printf 'work+%#x' $((0x$B2 - work))))" \
		grep -qE "^$want_edge" "$d/report.txt"

	check "$linker $kind: convert to AutoFDO text" $R convert -f autofdo -o "$d/a.afdo" "$d/a.data"
	if ! have create_llvm_prof; then
		skip "$linker $kind: create_llvm_prof same profile" "autofdo not installed"
	else
		create_llvm_prof --binary="$bin" --profile="$d/a.data" --format=text \
			--out="$d/p-perf.prof" >"$T_LOG" 2>&1
		create_llvm_prof --binary="$bin" --profile="$d/a.afdo" --profiler=text --format=text \
			--out="$d/p-text.prof" >>"$T_LOG" 2>&1
		# AutoFDO 0.19 reads file offsets from a perf.data and symbolizes
		# them as ELF addresses: nothing for lld's layout, so only
		# compare when it got a profile
		if grep -q '^work:[1-9]' "$d/p-text.prof" &&
		   { ! [ -s "$d/p-perf.prof" ] && [ "$linker" = lld ] ||
		     cmp -s "$d/p-perf.prof" "$d/p-text.prof"; }; then
			ok "$linker $kind: create_llvm_prof: profile of work() from our text ($(head -1 "$d/p-text.prof"))$([ -s "$d/p-perf.prof" ] && echo ", same from perf.data")"
		else
			not_ok "$linker $kind: create_llvm_prof: profile of work() from our text, same as from perf.data"
			diff "$d/p-perf.prof" "$d/p-text.prof" | head | sed 's/^/# /'
		fi
	fi

	check "$linker $kind: convert to perf script text" $R convert -f perfscript -o "$d/a.script" "$d/a.data"
	if [ -z "$PROFGEN" ] || ! have perf; then
		skip "$linker $kind: llvm-profgen same profile" "llvm-profgen-19 or perf missing"
	else
		"$PROFGEN" --format=text --binary="$bin" --perfscript="$d/a.script" \
			--output="$d/g-script.prof" >"$T_LOG" 2>&1
		(cd "$d" && "$PROFGEN" --format=text --binary="$bin" --perfdata="$d/a.data" \
			--output="$d/g-perf.prof") >>"$T_LOG" 2>&1
		if grep -q '^work:[1-9]' "$d/g-script.prof" && cmp -s "$d/g-perf.prof" "$d/g-script.prof"; then
			ok "$linker $kind: llvm-profgen: same profile from perf script and perf.data ($(head -1 "$d/g-script.prof"))"
		else
			not_ok "$linker $kind: llvm-profgen: same profile from perf script and perf.data"
			sed 's/^/# /' "$T_LOG" | head
		fi
	fi
}

if ! [ -x "$SYNTH" ]; then
	not_ok "synth-perf helper built ($SYNTH)"
	done_testing
	exit
fi
for kind in pie shared; do
	one gnu "$kind"
	if have clang-19 && have ld.lld-19; then
		one lld "$kind"
	else
		skip "lld $kind" "clang-19 and lld-19 not installed"
	fi
done
done_testing
