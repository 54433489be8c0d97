#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Finding the files of a recording (rvctr/symtab.h has the order): --symfs,
# a stripped binary whose symbols are in a debug file found by build id or
# by .gnu_debuglink, perf's build-id cache, a file with another build id
# (not used), and kernel symbols from a kallsyms file.  The recording names
# /opt/rvctr-test/loop, which the host does not have.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
SYNTH=${BUILD:?}/unit/synth-perf
CC_GNU=${CROSS_COMPILE:-riscv64-linux-gnu-}gcc
OBJCOPY=${CROSS_COMPILE:-riscv64-linux-gnu-}objcopy
SRC=$(dirname "$0")/data/loop.c
NAME=/opt/rvctr-test/loop
BIN=$T_DIR/loop

if ! [ -x "$SYNTH" ] ||
   ! "$CC_GNU" -O1 -g -fPIE -pie -Wl,--build-id=sha1 -o "$BIN" "$SRC" >"$T_LOG" 2>&1 ||
   ! work_branches "$BIN"; then
	not_ok "build the riscv64 PIE and the synth-perf helper"
	done_testing
	exit
fi
ID=$(build_id "$BIN")
# the kernel's map as perf writes it, and some kernel branches
{
	describe "$BIN" "$NAME" "$(random_base pie)" 50 "$RANDOM"
	echo "mmap -1 0xffffffff80000000 0x1000000 0xffffffff80000000 [kernel.kallsyms]_text"
	for i in 1 2 3 4 5; do
		echo "sample 4242 0xffffffff80002010 0xffffffff80002040/0xffffffff80002000/2/0/3" \
			"0xffffffff80001010/0xffffffff80002000/3/0/4"
	done
} >"$T_DIR/desc"
check "perf.data of $NAME and kernel branches" "$SYNTH" "$T_DIR/a.data" <"$T_DIR/desc"
printf '%s\n' "ffffffff80000000 T _text" "ffffffff80001000 T do_syscall" \
	"ffffffff80002000 t handle_thing" "ffffffff80003000 D some_data" >"$T_DIR/kallsyms"

# report_has NAME WANT REPORT-ARGS...: the report's function table has WANT
# (of $data, a.data unless set)
report_has() {
	local name=$1 want=$2
	shift 2
	if $R report "$@" "${data:-$T_DIR/a.data}" >"$T_LOG" 2>&1 && grep -qE "$want" "$T_LOG"; then
		ok "$name"
	else
		not_ok "$name"
		grep -A8 'by binary' "$T_LOG" | sed 's/^/# /'
	fi
}
resolved="%  $NAME: work\$"

report_has "not found: addresses, no symbols" "%  $NAME: 0x[0-9a-f]+\$"
mkdir -p "$T_DIR/fs/opt/rvctr-test"
cp "$BIN" "$T_DIR/fs$NAME"
report_has "--symfs: the binary under DIR" "$resolved" --symfs "$T_DIR/fs"

# stripped, with the debug file where elfutils looks by build id
"$OBJCOPY" --only-keep-debug "$BIN" "$T_DIR/loop.debug"
"$OBJCOPY" --strip-all --add-gnu-debuglink="$T_DIR/loop.debug" "$BIN" "$T_DIR/fs$NAME"
report_has "stripped binary alone: no work()" "%  $NAME: 0x[0-9a-f]+\$" --symfs "$T_DIR/fs"
mkdir -p "$T_DIR/fs/usr/lib/debug/.build-id/${ID:0:2}"
cp "$T_DIR/loop.debug" "$T_DIR/fs/usr/lib/debug/.build-id/${ID:0:2}/${ID:2}.debug"
report_has "stripped binary: symbols from SYMFS/usr/lib/debug/.build-id/xx/rest.debug" \
	"$resolved" --symfs "$T_DIR/fs"
mv "$T_DIR/fs$NAME" "$T_DIR/stripped"
report_has "no binary, only SYMFS/usr/lib/debug/.build-id/xx/rest.debug" "$resolved" \
	--symfs "$T_DIR/fs"
mv "$T_DIR/stripped" "$T_DIR/fs$NAME"
rm -r "$T_DIR/fs/usr/lib/debug"
mkdir -p "$T_DIR/fs/opt/rvctr-test/.debug"
cp "$T_DIR/loop.debug" "$T_DIR/fs/opt/rvctr-test/.debug/loop.debug"
report_has "stripped binary: symbols through .gnu_debuglink (DIR/.debug/NAME)" \
	"$resolved" --symfs "$T_DIR/fs"
# a debug file that is not the one the link's CRC names
"$CC_GNU" -O1 -g -fPIE -pie -Wl,--build-id=0x1234 -o "$T_DIR/other" "$SRC"
"$OBJCOPY" --only-keep-debug "$T_DIR/other" "$T_DIR/fs/opt/rvctr-test/.debug/loop.debug"
report_has "stripped binary: a debug file with another CRC is not used" \
	"%  $NAME: 0x[0-9a-f]+\$" --symfs "$T_DIR/fs"
rm -r "$T_DIR/fs"

# perf's build-id cache (perf 4.x+: .build-id/xx/rest -> ../../NAME/ID/ with elf)
mkdir -p "$T_DIR/cache$NAME/$ID" "$T_DIR/cache/.build-id/${ID:0:2}"
cp "$BIN" "$T_DIR/cache$NAME/$ID/elf"
ln -s "../..$NAME/$ID" "$T_DIR/cache/.build-id/${ID:0:2}/${ID:2}"
report_has "perf's build-id cache (--buildid-dir)" "$resolved" --buildid-dir "$T_DIR/cache"
PERF_BUILDID_DIR=$T_DIR/cache report_has "perf's build-id cache (\$PERF_BUILDID_DIR)" "$resolved"

# a rebuilt binary under the recorded name: not used
mkdir -p "$T_DIR/fs/opt/rvctr-test"
cp "$T_DIR/other" "$T_DIR/fs$NAME"
report_has "another build id under the name: not used, and said" \
	"differ from the recorded ones" --symfs "$T_DIR/fs"
# the same when the build id is in the MMAP2 only (perf >= 6.17 writes
# them so by default, and no HEADER_BUILD_ID)
grep -v '^buildid ' "$T_DIR/desc" | awk -v n="$NAME" -v id="$ID" \
	'$1 == "mmap" && $NF == n { $0 = $0 " " id } { print }' >"$T_DIR/desc-mmap2"
check "perf.data with the build id in MMAP2 only" "$SYNTH" "$T_DIR/m.data" <"$T_DIR/desc-mmap2"
report_has_m() { # NAME WANT REPORT-ARGS...: report_has on m.data
	local data=$T_DIR/m.data
	report_has "$@"
}
report_has_m "MMAP2 build id: another build under the name is not used, and said" \
	"differ from the recorded ones" --symfs "$T_DIR/fs"
cp "$BIN" "$T_DIR/fs$NAME"
report_has_m "MMAP2 build id: the recorded build under the name is used" "$resolved" \
	--symfs "$T_DIR/fs"
cp "$T_DIR/other" "$T_DIR/fs$NAME"

report_has "kernel: no symbols without kallsyms" "%  \[kernel.kallsyms\]_text: 0x"
report_has "kernel: --kallsyms FILE" "%  \[kernel.kallsyms\]_text: handle_thing\$" \
	--kallsyms "$T_DIR/kallsyms"
mkdir -p "$T_DIR/fs/proc"
cp "$T_DIR/kallsyms" "$T_DIR/fs/proc/kallsyms"
report_has "kernel: SYMFS/proc/kallsyms" "%  \[kernel.kallsyms\]_text: do_syscall\$" \
	--symfs "$T_DIR/fs"
cp "$T_LOG" "$T_DIR/report.txt"
check "kernel hot edge as symbol+offset" grep -qE '^handle_thing\+0x40 +handle_thing\+0x0 ' "$T_DIR/report.txt"

# report_has_in NAME WANT FILE REPORT-ARGS...: report_has on another input
report_has_in() {
	local name=$1 want=$2 f=$3
	shift 3
	if $R report "$@" "$f" >"$T_LOG" 2>&1 && grep -qE "$want" "$T_LOG"; then
		ok "$name"
	else
		not_ok "$name"
		grep -A6 -E 'hottest|by binary' "$T_LOG" | sed 's/^/# /'
	fi
}

# A KASLR boot: the kernel runs K above its link address.  perf's kernel
# map is "[kernel.kallsyms]" + its reference symbol (_text, else _stext)
# with pgoff = that symbol's runtime address; with a vmlinux (link
# addresses; _text and _stext are linker-script symbols, not functions)
# the offset is that symbol's runtime - link address.  Here _stext is a
# page after _text, as on x86, so taking _text for an _stext map is wrong.
printf '%s\n' "	.option norvc" "	.text" "	.globl _text" "_text:" \
	"	.rept 1024" "	nop" "	.endr" "	.globl _stext" "_stext:" \
	"	.globl do_syscall" "	.type do_syscall, @function" "do_syscall:" \
	"	.rept 1024" "	nop" "	.endr" "	.size do_syscall, . - do_syscall" \
	"	.globl handle_thing" "	.type handle_thing, @function" "handle_thing:" \
	"	.rept 1024" "	nop" "	.endr" "	.size handle_thing, . - handle_thing" \
	>"$T_DIR/vmlinux.S"
if "$CC_GNU" -nostdlib -static -no-pie -Wl,-Ttext=0xffffffff80000000 -Wl,-e,_text \
	-o "$T_DIR/vmlinux" "$T_DIR/vmlinux.S" >"$T_LOG" 2>&1; then
	K=0x2a400000
	link=$((0x$(sym_addr "$T_DIR/vmlinux" handle_thing)))
	stext=$((0x$(sym_addr "$T_DIR/vmlinux" _stext)))
	h=$((link + K))
	{
		printf 'mmap -1 %#x 0x1000000 %#x [kernel.kallsyms]_stext\n' $((stext + K)) $((stext + K))
		for _ in 1 2 3; do
			printf 'sample 4242 %#x %#x/%#x/2/0/3\n' $((h + 0x10)) $((h + 0x40)) "$h"
		done
	} >"$T_DIR/kdesc"
	"$SYNTH" "$T_DIR/k.data" <"$T_DIR/kdesc"
	report_has_in "KASLR: --vmlinux relocated by the _stext map's pgoff" \
		'%  \[kernel.kallsyms\]_stext: handle_thing$' "$T_DIR/k.data" --vmlinux "$T_DIR/vmlinux"
	report_has_in "KASLR: --vmlinux: hot edge as symbol+offset" \
		'^handle_thing\+0x40 +handle_thing\+0x0 ' "$T_DIR/k.data" --vmlinux "$T_DIR/vmlinux"
	# the same boot's kallsyms holds runtime addresses: used as they are
	printf '%x T _text\n%x T do_syscall\n%x t handle_thing\n' $((0xffffffff80000000 + K)) \
		$((stext + K)) "$h" >"$T_DIR/kallsyms-kaslr"
	report_has_in "KASLR: --kallsyms of that boot" '%  \[kernel.kallsyms\]_stext: handle_thing$' \
		"$T_DIR/k.data" --kallsyms "$T_DIR/kallsyms-kaslr"

	# Modules, as perf synthesizes them from /proc/modules: pid -1, the
	# module's base and size, named [NAME] or by its .ko's path; their
	# symbols are in kallsyms (a vmlinux has none)
	{
		cat "$T_DIR/kdesc"
		echo "mmap -1 0xffffffff01000000 0x8000 0 [rvctr]"
		echo "mmap -1 0xffffffff01010000 0x4000 0 /lib/modules/6.12.0/kernel/drivers/perf/rvctr_x.ko"
		for _ in 1 2 3 4; do
			echo "sample 4242 0xffffffff01000110 0xffffffff01000140/0xffffffff01000100/2/0/3"
		done
		echo "sample 4242 0xffffffff01010210 0xffffffff01010240/0xffffffff01010200/2/0/3"
	} | "$SYNTH" "$T_DIR/m.data"
	{
		cat "$T_DIR/kallsyms-kaslr"
		printf 'ffffffff01000100 t ctr_read\t[rvctr]\n'
		printf 'ffffffff01010200 t x_func\t[rvctr_x]\n'
	} >"$T_DIR/kallsyms-mod"
	report_has_in "module [NAME]: its symbols from kallsyms" '%  \[rvctr\]: ctr_read$' \
		"$T_DIR/m.data" --kallsyms "$T_DIR/kallsyms-mod"
	report_has_in "module by its .ko path, with --vmlinux: its symbols from kallsyms" \
		'%  /lib/modules/6.12.0/kernel/drivers/perf/rvctr_x.ko: x_func$' \
		"$T_DIR/m.data" --kallsyms "$T_DIR/kallsyms-mod" --vmlinux "$T_DIR/vmlinux"
	report_has_in "module hot edge as symbol+offset" '^ctr_read\+0x40 +ctr_read\+0x0 ' \
		"$T_DIR/m.data" --kallsyms "$T_DIR/kallsyms-mod"
	# a module whose symbols kallsyms lacks (another boot's file, loaded
	# later): its address, never the symbol of the module below it
	grep -v x_func "$T_DIR/kallsyms-mod" >"$T_DIR/kallsyms-nox"
	report_has_in "module not in kallsyms: its addresses, not another module's symbol" \
		'%  /lib/modules/6.12.0/kernel/drivers/perf/rvctr_x.ko: 0xffffffff01010240$' \
		"$T_DIR/m.data" --kallsyms "$T_DIR/kallsyms-nox"
	if grep -q 'ctr_read+0x10' "$T_LOG"; then
		not_ok "module not in kallsyms: no edge named after the module below it"
	else
		ok "module not in kallsyms: no edge named after the module below it"
	fi
	# a module file named with '-' is the kernel's module with '_'
	{
		cat "$T_DIR/kdesc"
		echo "mmap -1 0xffffffff01010000 0x4000 0 /lib/modules/6.12.0/kernel/drivers/perf/rvctr-x.ko.zst"
		echo "sample 4242 0xffffffff01010210 0xffffffff01010240/0xffffffff01010200/2/0/3"
	} | "$SYNTH" "$T_DIR/mz.data"
	report_has_in "module rvctr-x.ko.zst: the symbols of kallsyms' [rvctr_x]" \
		'%  /lib/modules/6.12.0/kernel/drivers/perf/rvctr-x.ko.zst: x_func$' \
		"$T_DIR/mz.data" --kallsyms "$T_DIR/kallsyms-mod"

	# A module whose .ko is found (here under --symfs): its own symbols, as
	# perf reads them, its .text at the module's base; kallsyms lacks them
	ko=$T_DIR/kofs/lib/modules/6.12.0/kernel/drivers/perf/rvctr_x.ko
	mkdir -p "$(dirname "$ko")"
	printf 'int ko_first(int a) { return a + 1; }\nint ko_second(int a) { return a * 3 + 7; }\n' \
		>"$T_DIR/ko.c"
	if "$CC_GNU" -O1 -c -o "$ko" "$T_DIR/ko.c" &&
	   k2=$("${CROSS_COMPILE:-riscv64-linux-gnu-}nm" "$ko" | awk '$3 == "ko_second" { print $1 }') &&
	   [ -n "$k2" ]; then
		{
			cat "$T_DIR/kdesc"
			echo "mmap -1 0xffffffff01010000 0x4000 0 /lib/modules/6.12.0/kernel/drivers/perf/rvctr_x.ko"
			printf 'sample 4242 %#x %#x/%#x/2/0/3\n' $((0xffffffff01010000 + 0x$k2 + 4)) \
				$((0xffffffff01010000 + 0x$k2 + 4)) $((0xffffffff01010000 + 0x$k2))
		} | "$SYNTH" "$T_DIR/mko.data"
		report_has_in "module with its .ko found: the .ko's symbols" \
			'%  /lib/modules/6.12.0/kernel/drivers/perf/rvctr_x.ko: ko_second$' \
			"$T_DIR/mko.data" --symfs "$T_DIR/kofs" --kallsyms "$T_DIR/kallsyms-nox"
		report_has_in "... its hot edge in the .ko's function" '^ko_second\+0x4 +ko_second\+0x0 ' \
			"$T_DIR/mko.data" --symfs "$T_DIR/kofs" --kallsyms "$T_DIR/kallsyms-nox"
	else
		not_ok "a module .ko for the test"
	fi

	# rvctr record's own maps (rvctr/kmaps.h), from that boot's /proc:
	# the kernel map relocates the vmlinux, the module maps take their
	# symbols from kallsyms
	mkdir -p "$T_DIR/root/proc/sys/kernel" "$T_DIR/root/lib/modules/6.12.0/kernel/drivers/perf"
	cp "$T_DIR/kallsyms-mod" "$T_DIR/root/proc/kallsyms"
	printf 'rvctr 32768 0 - Live 0xffffffff01000000\nrvctr_x 16384 0 - Live 0xffffffff01010000\n' \
		>"$T_DIR/root/proc/modules"
	echo 6.12.0 >"$T_DIR/root/proc/sys/kernel/osrelease"
	: >"$T_DIR/root/lib/modules/6.12.0/kernel/drivers/perf/rvctr_x.ko"
	{
		echo "kmaps $T_DIR/root"
		grep '^sample' "$T_DIR/kdesc"
		echo "sample 4242 0xffffffff01000110 0xffffffff01000140/0xffffffff01000100/2/0/3"
	} >"$T_DIR/rdesc"
	check "recording with rvctr record's kernel and module maps" "$SYNTH" "$T_DIR/r.data" \
		<"$T_DIR/rdesc"
	report_has_in "rvctr record's kernel map: --vmlinux relocated (KASLR)" \
		'%  \[kernel.kallsyms\]_text: handle_thing$' "$T_DIR/r.data" --vmlinux "$T_DIR/vmlinux"
	report_has_in "rvctr record's kernel map: hot edge as symbol+offset" \
		'^handle_thing\+0x40 +handle_thing\+0x0 ' "$T_DIR/r.data" --vmlinux "$T_DIR/vmlinux"
	report_has_in "rvctr record's module map: symbols from kallsyms" '%  \[rvctr\]: ctr_read$' \
		"$T_DIR/r.data" --vmlinux "$T_DIR/vmlinux" --kallsyms "$T_DIR/kallsyms-mod"
	# with the kernel's build id (/sys/kernel/notes), the kallsyms that
	# perf's build-id cache keeps for it: [kernel.kallsyms]/ID/kallsyms
	kid=00112233445566778899aabbccddeeff01234567
	mkdir -p "$T_DIR/root/sys/kernel" "$T_DIR/kcache/[kernel.kallsyms]/$kid"
	printf '\4\0\0\0\24\0\0\0\3\0\0\0GNU\0' >"$T_DIR/root/sys/kernel/notes"
	printf "$(echo $kid | sed 's/../\\x&/g')" >>"$T_DIR/root/sys/kernel/notes"
	cp "$T_DIR/kallsyms-mod" "$T_DIR/kcache/[kernel.kallsyms]/$kid/kallsyms"
	"$SYNTH" "$T_DIR/rb.data" <"$T_DIR/rdesc" 2>"$T_LOG"
	report_has_in "rvctr record's kernel build id: kallsyms from perf's build-id cache" \
		'%  \[kernel.kallsyms\]_text: handle_thing$' "$T_DIR/rb.data" --buildid-dir "$T_DIR/kcache"
	if command -v perf >/dev/null; then
		check "perf buildid-list: the kernel's build id" sh -c \
			"perf buildid-list -i '$T_DIR/rb.data' | grep -qx '$kid \[kernel.kallsyms\]'"
		# perf reads the map as its own: the vmlinux relocated by it
		if perf report -i "$T_DIR/r.data" --vmlinux "$T_DIR/vmlinux" --stdio \
			--sort dso,sym >"$T_LOG" 2>&1 &&
		   grep -qE '\[kernel\.kallsyms\] +\[k\] handle_thing$' "$T_LOG"; then
			ok "perf report: rvctr record's kernel map relocates --vmlinux"
		else
			not_ok "perf report: rvctr record's kernel map relocates --vmlinux"
			grep -v '^#' "$T_LOG" | grep . | head -8 | sed 's/^/# /'
		fi
	else
		skip "perf report: rvctr record's kernel map relocates --vmlinux" "perf not installed"
	fi
else
	not_ok "build a riscv64 vmlinux stand-in"
	sed 's/^/# /' "$T_LOG"
fi

# convert -f autofdo finds the binary as report does.  An lld PIE has its
# text at p_vaddr = p_offset + 0x1000, so the profile's addresses (ELF
# virtual addresses for ET_DYN) need the file: without it they are file
# offsets, a page short.  The recording names /opt/rvctr-test/lldloop.
LNAME=/opt/rvctr-test/lldloop
LBIN=$T_DIR/lldloop
if command -v clang-19 >/dev/null && command -v ld.lld-19 >/dev/null &&
   clang-19 --target=riscv64-linux-gnu --ld-path="$(command -v ld.lld-19)" -O1 -fPIE -pie \
	-Wl,--build-id=sha1 -o "$LBIN" "$SRC" >"$T_LOG" 2>&1 && work_branches "$LBIN"; then
	LID=$(build_id "$LBIN")
	describe "$LBIN" "$LNAME" "$(random_base pie)" 20 "$RANDOM" | "$SYNTH" "$T_DIR/l.data"
	# the back edge's range starts at the loop head: T2 as an ELF address
	afdo_has() { # NAME WANT-FIRST-RANGE-START CONVERT-ARGS...
		local name=$1 want=$2
		shift 2
		if $R convert -f autofdo -o "$T_DIR/l.afdo" "$@" "$T_DIR/l.data" >"$T_LOG" 2>&1 &&
		   grep -q "^$want-" "$T_DIR/l.afdo"; then
			ok "$name"
		else
			not_ok "$name"
			sed 's/^/# /' "$T_LOG" | head -3
			head -4 "$T_DIR/l.afdo" 2>/dev/null | sed 's/^/# /'
		fi
	}
	afdo_has "autofdo: binary not found: file offsets, said" \
		"$(printf %x $((0x$T2 - 0x1000)))"
	grep -q "writing file offsets" "$T_LOG" && ok "autofdo: the missing binary is named" ||
		not_ok "autofdo: the missing binary is named"
	# a file at the name that cannot be used: its reason, not "not found"
	mkdir -p "$T_DIR/lfs/opt/rvctr-test"
	clang-19 --target=riscv64-linux-gnu -O1 -c -o "$T_DIR/lfs$LNAME" "$SRC"
	$R convert -f autofdo -o "$T_DIR/l.afdo" --symfs "$T_DIR/lfs" "$T_DIR/l.data" \
		>"$T_LOG" 2>&1
	grep -q "$LNAME: a relocatable object, not an executable" "$T_LOG" &&
		ok "autofdo: a relocatable object at the name: the reason is given" ||
		{ not_ok "autofdo: a relocatable object at the name: the reason is given"
		  sed 's/^/# /' "$T_LOG" | head -3; }
	cp "$LBIN" "$T_DIR/lfs$LNAME"
	afdo_has "autofdo --symfs: ELF addresses of the lld PIE" "$(printf %x $((0x$T2)))" \
		--symfs "$T_DIR/lfs"
	rm -r "$T_DIR/lfs"
	mkdir -p "$T_DIR/lcache$LNAME/$LID" "$T_DIR/lcache/.build-id/${LID:0:2}"
	cp "$LBIN" "$T_DIR/lcache$LNAME/$LID/elf"
	ln -s "../..$LNAME/$LID" "$T_DIR/lcache/.build-id/${LID:0:2}/${LID:2}"
	afdo_has "autofdo: by build id in perf's cache (--buildid-dir)" "$(printf %x $((0x$T2)))" \
		--buildid-dir "$T_DIR/lcache"
	mkdir -p "$T_DIR/lfs/usr/lib/debug/.build-id/${LID:0:2}"
	cp "$LBIN" "$T_DIR/lfs/usr/lib/debug/.build-id/${LID:0:2}/${LID:2}"
	afdo_has "autofdo: by build id under SYMFS/usr/lib/debug/.build-id" \
		"$(printf %x $((0x$T2)))" --symfs "$T_DIR/lfs"
else
	skip "autofdo finds the binary" "clang-19 and lld-19 not installed"
fi

# a recording without a kernel map (rvctr record where kernel pointers are
# restricted, as perf record there): kernel addresses outside every map
grep -v 'kernel.kallsyms' "$T_DIR/desc" | "$SYNTH" "$T_DIR/a.data"
report_has "kernel address outside every map: --kallsyms" \
	"%  \[kernel.kallsyms\]: handle_thing\$" --kallsyms "$T_DIR/kallsyms"
done_testing
