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
report_has() {
	local name=$1 want=$2
	shift 2
	if $R report "$@" "$T_DIR/a.data" >"$T_LOG" 2>&1 && grep -qE "$want" "$T_LOG"; then
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

report_has "kernel: no symbols without kallsyms" "%  \[kernel.kallsyms\]_text: 0x"
report_has "kernel: --kallsyms FILE" "%  \[kernel.kallsyms\]_text: handle_thing\$" \
	--kallsyms "$T_DIR/kallsyms"
mkdir -p "$T_DIR/fs/proc"
cp "$T_DIR/kallsyms" "$T_DIR/fs/proc/kallsyms"
report_has "kernel: SYMFS/proc/kallsyms" "%  \[kernel.kallsyms\]_text: do_syscall\$" \
	--symfs "$T_DIR/fs"
cp "$T_LOG" "$T_DIR/report.txt"
check "kernel hot edge as symbol+offset" grep -qE '^handle_thing\+0x40 +handle_thing\+0x0 ' "$T_DIR/report.txt"

# rvctr record writes no kernel map: kernel addresses outside every map
grep -v 'kernel.kallsyms' "$T_DIR/desc" | "$SYNTH" "$T_DIR/a.data"
report_has "kernel address outside every map: --kallsyms" \
	"%  \[kernel.kallsyms\]: handle_thing\$" --kallsyms "$T_DIR/kallsyms"
done_testing
