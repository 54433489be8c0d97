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
SRC=$(dirname "$0")/data/loop.c
PROFGEN=$(command -v llvm-profgen-19 || true)


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
	base=$(random_base "$kind")
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
