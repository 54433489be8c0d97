#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multi-CPU recordings as perf record -a and rvctr record -a write them:
# every sample and (sample_id_all) every other record carries
# PERF_SAMPLE_CPU, and the recorder drains one CPU's ring buffer after the
# other, so a round holds CPU 0's records, then CPU 1's, out of time order
# (and CPU 1's MMAP2 of its process comes after CPU 0's later samples).
# Converted output must keep each record's CPU and put the records in time
# order; the range outputs must attribute CPU 1's samples to its map.
. "$(dirname "$0")/lib.sh"
R=${RVCTR:?}

synth_setup || { done_testing; exit; }
{
	# CPU 0's buffer: process 100 from time 10, samples at 20, 22, 24
	echo "cpu 0"
	echo "time 10"
	echo "comm 100 loop0"
	printf 'mmap 100 %#x %#x %#x %s\n' "$start" "$len" $((off & ~0xfff)) "$BIN"
	for t in 20 22 24; do echo "time $t"; sample 100; done
	# CPU 1's buffer: process 200 maps the binary at 15, samples at 21, 23, 25
	echo "cpu 1"
	echo "time 14"
	echo "comm 200 loop1"
	printf 'mmap 200 %#x %#x %#x %s\n' "$start" "$len" $((off & ~0xfff)) "$BIN"
	for t in 21 23 25; do echo "time $t"; sample 200; done
	echo "round"
	# a second round releases the first
	echo "cpu 0"
	echo "time 30"
	sample 100
	echo "round"
} >"$T_DIR/desc"
check "two CPUs' buffers, out of time order, with PERF_SAMPLE_CPU" \
	"$SYNTH" -C "$T_DIR/a.data" <"$T_DIR/desc"

# "PID CPU" of every sample, in the order perf script prints them
if ! have perf; then
	skip "perf script reads the CPUs" "perf not installed"
else
	perf script -i "$T_DIR/a.data" -F pid,cpu,time --ns >"$T_DIR/in.txt" 2>"$T_LOG"
	want="100/0 200/1 100/0 200/1 100/0 200/1 100/0"
	got=$(awk '{ gsub(/[][]/, "", $2); printf "%s%d/%d", (NR > 1 ? " " : ""), $1, $2 }' "$T_DIR/in.txt")
	if [ "$got" = "$want" ]; then
		ok "perf script: the input's samples in time order with their CPUs"
	else
		not_ok "perf script of the input: '$got', want '$want'"
	fi
fi

# convert -f perf / spe: the CPUs kept, in time order
for fmt in perf spe; do
	check "convert -f $fmt" "$R" convert -f "$fmt" -o "$T_DIR/$fmt.data" "$T_DIR/a.data"
	if ! have perf; then
		skip "convert -f $fmt keeps the CPUs" "perf not installed"
		continue
	fi
	if perf script -i "$T_DIR/$fmt.data" -F pid,cpu,time --ns >"$T_DIR/$fmt.txt" 2>"$T_LOG"; then
		got=$(awk '{ gsub(/[][]/, "", $2); gsub(/:/, "", $3);
			if (NR > 1 && $3 + 0 < last) bad = 1; last = $3 + 0;
			s = s (NR > 1 ? " " : "") ($1 + 0) "/" ($2 + 0) }
			END { print (bad ? "unordered " : "") s }' "$T_DIR/$fmt.txt")
		if [ "$fmt" = perf ]; then want_f="100/0 200/1 100/0 200/1 100/0 200/1 100/0"
		else want_f=$(for p in 100 200 100 200 100 200 100; do
			c=$(( p == 100 ? 0 : 1 )); for _ in 1 2 3; do printf '%s/%s ' $p $c; done; done)
			want_f=${want_f% }
		fi
		[ "$got" = "$want_f" ] && ok "convert -f $fmt: samples keep their CPU, in time order" ||
			not_ok "convert -f $fmt: '$got', want '$want_f'"
	else
		not_ok "convert -f $fmt: perf script -F cpu reads it"
		sed 's/^/# /' "$T_LOG" | head -5
	fi
	# the COMM and MMAP2 records keep theirs (sample_id_all)
	if perf script -i "$T_DIR/$fmt.data" --show-mmap-events -F pid,cpu,event 2>/dev/null |
	   grep -E 'PERF_RECORD_MMAP2' | awk '{ gsub(/[][]/, "", $2); print $1 + 0, $2 + 0 }' |
	   tr '\n' ' ' | grep -qx '100 0 200 1 '; then
		ok "convert -f $fmt: MMAP2 records keep their CPU"
	else
		not_ok "convert -f $fmt: MMAP2 records keep their CPU"
		perf script -i "$T_DIR/$fmt.data" --show-mmap-events -F pid,cpu,event 2>&1 |
			grep MMAP | sed 's/^/# /' | head -4
	fi
done

# the range outputs: CPU 1's samples, whose map came after CPU 0's later
# samples in the file, are in the profile too (7 samples, 2 ranges each)
check "convert -f autofdo" "$R" convert -f autofdo -o "$T_DIR/a.afdo" "$T_DIR/a.data"
n=$(awk 'NR == 1 { n = $1; next } NR <= n + 1 { split($0, a, ":"); s += a[2] } END { print s + 0 }' \
	"$T_DIR/a.afdo")
[ "$n" -eq 14 ] && ok "autofdo: every CPU's samples counted (14 ranges)" ||
	not_ok "autofdo: $n ranges counted, want 14"
check "convert -f perfscript" "$R" convert -f perfscript -o "$T_DIR/a.script" "$T_DIR/a.data"
n=$(grep -c "^ *$T2 " "$T_DIR/a.script" || true)
[ "$n" -eq 7 ] && ok "perfscript: all 7 samples" || not_ok "perfscript: $n samples, want 7"
done_testing
