#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""AutoFDO text from branch stacks sampled on instructions, without the
bias of a whole stack: only the last WINDOW instructions before each
sample point count.

  window.py PERFSCRIPT WINDOW OUT BINARY...

AutoFDO assumes stacks sampled on taken branches (Intel:
BR_INST_RETIRED.NEAR_TAKEN): every taken branch then has the same chance
to be in a sample's stack, whatever code is around it.  QEMU's RISC-V
harts count only cycles and instructions, so the board samples every N
instructions.  A stack of D records then reaches back over D taken
branches, which is many instructions in code with long straight runs and
few in branchy code: straight code is seen in more samples than it runs,
in proportion to its instructions per taken branch.  Counting only what
ran in the last WINDOW instructions before the sample point gives each
executed instruction the same chance, WINDOW/N, to be counted (as long
as the stack reaches that far: the share of samples that do not is
printed).

PERFSCRIPT is `rvctr convert -f perfscript` (perf script
--show-mmap-events -F ip,brstack text); each BINARY's MMAP2 lines place
it (the latest mapping wins, as llvm-profgen does).  Lengths in other
code (libc, the shell) are taken as bytes / 3.  OUT gets one AutoFDO
text file per BINARY, OUT.NAME, with ranges, the sample addresses and the
branches in the window, as file offsets (the format rvctr convert -f
autofdo writes).
"""
import bisect
import collections
import os
import re
import subprocess
import sys

MMAP = re.compile(r'PERF_RECORD_MMAP2? .*\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0)'
                  r' .*\]: r-xp (\S+)')


def text_offsets(binary):
    """File offsets of every instruction of BINARY's executable segments."""
    segs = []
    out = subprocess.run(['llvm-readelf-19', '-lW', binary], capture_output=True,
                         text=True, check=True).stdout
    for row in out.splitlines():
        f = row.split()
        if f and f[0] == 'LOAD' and 'E' in f[6:-1]:
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    out = subprocess.run(['llvm-objdump-19', '-d', '--no-show-raw-insn', binary],
                         capture_output=True, text=True, check=True).stdout
    offs = []
    for row in out.splitlines():
        head = row.split(':', 1)[0].strip()
        if row.startswith(' ') and head and all(c in '0123456789abcdef' for c in head):
            a = int(head, 16)
            for off, vaddr, size in segs:
                if vaddr <= a < vaddr + size:
                    offs.append(a - vaddr + off)
                    break
    return sorted(offs)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    script, window, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    bins = {os.path.basename(b): text_offsets(b) for b in sys.argv[4:]}
    maps = {}                 # name -> (start, end, pgoff)
    ranges = {n: collections.Counter() for n in bins}
    addrs = {n: collections.Counter() for n in bins}
    branches = {n: collections.Counter() for n in bins}
    samples = short = 0

    def where(a):
        for n, (s, e, pg) in maps.items():
            if s <= a < e:
                return n, a - s + pg
        return None, a

    def length(b, e):
        """instructions from b to e (both ends in), and where they are"""
        nb, ob = where(b)
        ne, oe = where(e)
        if nb is not None and nb == ne and ob <= oe:
            offs = bins[nb]
            return bisect.bisect_right(offs, oe) - bisect.bisect_left(offs, ob), nb, ob, oe
        return max(1, (e - b) // 3 + 1) if e >= b else 0, None, 0, 0

    with open(script) as f:
        for row in f:
            if 'PERF_RECORD_MMAP' in row:
                m = MMAP.search(row)
                if m and os.path.basename(m.group(4)) in bins:
                    s, ln, pg = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16)
                    maps[os.path.basename(m.group(4))] = (s, s + ln, pg)
                continue
            fields = row.split()
            if not fields:
                continue
            try:
                ip = int(fields[0], 16)
            except ValueError:
                continue
            stack = []
            for e in fields[1:]:
                p = e.split('/')
                stack.append((int(p[0], 16), int(p[1], 16)))
            samples += 1
            n, o = where(ip)
            if n:
                addrs[n][o] += 1
            # walk back from the sample point: [to_0, ip), [to_1, from_0], ...
            # (ip is the next instruction to run, not one that ran)
            left = window
            end = ip - 1
            for frm, to in stack:
                cnt, nb, ob, oe = length(to, end)
                if cnt == 0:
                    break   # not a straight run (a trap in between): stop here
                if nb is not None:
                    offs = bins[nb]
                    oe = offs[bisect.bisect_right(offs, oe) - 1]
                    if cnt > left:      # only the window's tail of this run
                        ob = offs[bisect.bisect_right(offs, oe) - left]
                    ranges[nb][(ob, oe)] += 1
                left -= min(cnt, left)
                if left == 0:
                    break
                nf, of = where(frm)
                nt, ot = where(to)
                if nf is not None and nf == nt:
                    branches[nf][(of, ot)] += 1
                end = frm
            else:
                short += 1
    for n in bins:
        with open('%s.%s' % (out, n), 'w') as f:
            f.write('%d\n' % len(ranges[n]))
            for (b, e), c in sorted(ranges[n].items()):
                f.write('%x-%x:%d\n' % (b, e, c))
            f.write('%d\n' % len(addrs[n]))
            for a, c in sorted(addrs[n].items()):
                f.write('%x:%d\n' % (a, c))
            f.write('%d\n' % len(branches[n]))
            for (b, e), c in sorted(branches[n].items()):
                f.write('%x->%x:%d\n' % (b, e, c))
    print('window.py: %d samples, %d (%.1f%%) whose stack covers fewer than %d instructions'
          % (samples, short, 100.0 * short / max(samples, 1), window), file=sys.stderr)


if __name__ == '__main__':
    main()
