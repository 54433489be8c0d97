# SPDX-License-Identifier: GPL-2.0-only
# perf script -F ip,sym of callchain samples on stdin (one block a sample:
# its first frame, then its callers, a blank line after): prints
# "SAMPLES-IN-LEAF REACHING-MAIN", the samples whose first frame is the
# function LEAF (awk -v leaf=NAME) and how many of them have main among
# their callers.  Used by the board's DWARF unwinding tests and the
# host's (tools/rvctr/tests/dwarf.sh).
function flush(i) {
	if (n && f[1] == leaf) {
		h++
		for (i = 2; i <= n; i++)
			if (f[i] == "main") {
				m++
				break
			}
	}
	n = 0
}
/^$/ { flush(); next }
{ f[++n] = $2 }
END { flush(); print h + 0, m + 0 }
