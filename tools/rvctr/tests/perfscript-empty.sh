#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A sample with an empty branch stack (one right after exec or a
# switch-in can have it) is left out of -f perfscript.  perf script -F
# ip,brstack prints it as its IP alone, which llvm-profgen 19 takes for a
# one-frame call stack: first in its input, every branch-stack sample
# after it is read as a broken call-stack sample, and it writes an empty
# profile or stops ("Hybrid perf sample is corrupted").  It adds nothing
# to a branch-stack profile.
# (Documentation/profile-bench.rst, "llvm-profgen 19 on RISC-V")
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}
synth_setup || { done_testing; exit; }
mmap() { printf 'mmap %d %#x %#x %#x %s\n' "$1" "$start" "$len" $((off & ~0xfff)) "$BIN"; }
samples() { local i; for ((i = 0; i < $2; i++)); do sample "$1"; done; }
empty() { echo "sample $1 0x$T2"; }

# the process's first two samples, and one later, have no branch stack
{ echo "time 10"; echo "comm 100 loop"; mmap 100; empty 100; empty 100; samples 100 20
  empty 100; samples 100 5; } >"$T_DIR/e.desc"
# the same without them
grep -v "^sample 100 0x$T2\$" "$T_DIR/e.desc" >"$T_DIR/f.desc"
for f in e f; do
	"$BUILD/unit/synth-perf" "$T_DIR/$f.data" <"$T_DIR/$f.desc" >"$T_LOG" 2>&1 ||
		not_ok "synth-perf $f"
done

check "-f perfscript of samples with empty branch stacks" \
	$R convert -f perfscript -o "$T_DIR/e.script" "$T_DIR/e.data"
cp "$T_LOG" "$T_DIR/conv.log"
check "convert says how many samples had no branch stack" \
	grep -q '^rvctr: 3 of 28 samples had no branch stack$' "$T_DIR/conv.log"
check "no sample line is an IP alone" \
	sh -c "! grep -qE '^ *[0-9a-f]+ *$' '$T_DIR/e.script'"
check "-f perfscript of the same samples without the empty ones" \
	$R convert -f perfscript -o "$T_DIR/f.script" "$T_DIR/f.data"
check "the empty samples leave the text unchanged" cmp "$T_DIR/e.script" "$T_DIR/f.script"

PROFGEN=$(command -v llvm-profgen-19 || command -v llvm-profgen || true)
if [ -z "$PROFGEN" ]; then
	skip "llvm-profgen reads it, to the profile without the empty samples" "llvm-profgen-19 missing"
else
	for f in e f; do
		"$PROFGEN" --format=text --binary="$BIN" --perfscript="$T_DIR/$f.script" \
			--output="$T_DIR/$f.prof" >"$T_LOG.$f" 2>&1
	done
	if grep -q '^work:' "$T_DIR/e.prof" 2>/dev/null && cmp -s "$T_DIR/e.prof" "$T_DIR/f.prof"; then
		ok "llvm-profgen reads it, to the profile without the empty samples ($(head -1 "$T_DIR/e.prof"))"
	else
		not_ok "llvm-profgen reads it, to the profile without the empty samples"
		sed 's/^/# /' "$T_LOG.e" | head -5
	fi
	# what perf script's text of the same recording does to it (not ours
	# to assert: perf 6.1 on the host, llvm-profgen 19)
	if have perf; then
		perf script -i "$T_DIR/e.data" -F ip,brstack >"$T_DIR/p.script" 2>/dev/null
		"$PROFGEN" --format=text --binary="$BIN" --perfscript="$T_DIR/p.script" \
			--output="$T_DIR/p.prof" >"$T_LOG" 2>&1
		rc=$?
		echo "# perf script -F ip,brstack | $(basename "$PROFGEN"): exit $rc," \
			"$(grep -c . "$T_DIR/p.prof" 2>/dev/null || echo 0) profile lines;" \
			"$(grep -v '^warning: No relevant mmap' "$T_LOG" | head -1)"
	fi
fi
done_testing
