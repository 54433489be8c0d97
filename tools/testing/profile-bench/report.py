#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The optimized builds' table of profile-bench.

  report.py MEASDIR

MEASDIR/instructions: "PROGRAM VARIANT N" per measuring run, N the sum of
perf stat -e instructions:u over the program's runs in its test.
MEASDIR/windows: "PROGRAM VARIANT K" per variant, in the order the board
ran them: its test under pbrun opened K plugin windows; "check loop 1" is
pbrun --loop 1000000, the plugin's known answer (999999 taken branches
of 1000000), checked first: the exit status is 1 if it is off.  An
interrupt inside the window hides the one branch before it from the
plugin (branches.c), and the 2 ms loop can see a timer tick or two, so
up to 4 branches may be missing; none may be extra.
MEASDIR/branches: the branches.so plugin's "window N insns I branches B
taken T" lines, in the same order.

Per program and variant: the median instructions:u, the plugin's taken
branches (and its own user instruction count, as a check), and for each
profile-guided variant the share of instrumented PGO's reduction it
recovers, (o2 - variant) / (o2 - pgo).
"""
import collections
import os
import re
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    order, insns = [], collections.defaultdict(list)
    with open(os.path.join(d, 'instructions')) as f:
        for row in f:
            p, v, n = row.split()
            if (p, v) not in insns:
                order.append((p, v))
            insns[(p, v)].append(int(n))
    taken, pinsns, branches = {}, {}, {}
    try:
        wins = [tuple(r.split()) for r in open(os.path.join(d, 'windows')) if r.strip()]
        lines = [r for r in open(os.path.join(d, 'branches')) if r.startswith('window')]
        i = 0
        for p, v, k in wins:
            t = n = b = 0
            for r in lines[i:i + int(k)]:
                m = re.match(r'window \d+ insns (\d+) branches (\d+) taken (\d+)', r)
                n += int(m.group(1))
                b += int(m.group(2))
                t += int(m.group(3))
            if i + int(k) <= len(lines):
                taken[(p, v)], pinsns[(p, v)], branches[(p, v)] = t, n, b
            i += int(k)
    except OSError:
        pass

    rc = 0
    if ('check', 'loop') in taken:
        t, b, n = taken[('check', 'loop')], branches[('check', 'loop')], pinsns[('check', 'loop')]
        lost = 1000000 - b
        good = 0 <= lost <= 4 and t == 999999 - lost and abs(n - 2000000) < 16
        print('%s - branches.so on pbrun --loop 1000000: %d taken of %d branches, '
              '%d instructions (expected 999999, 1000000, 2000000, less a branch '
              'per interrupt)'
              % ('ok' if good else 'not ok', t, b, n))
        rc = 0 if good else 1

    def med(k):
        v = sorted(insns[k])
        return v[(len(v) - 1) // 2]

    print('%-7s %-8s %14s %8s %10s %13s %8s %10s %13s' %
          ('program', 'variant', 'instructions', 'vs -O2', 'of PGO', 'taken br.',
           'vs -O2', 'of PGO', 'plugin insns'))
    for p, v in order:
        base, pgo = med((p, 'o2')), insns.get((p, 'pgo')) and med((p, 'pgo'))
        n = med((p, v))
        rec = ''
        if pgo is not None and base > pgo and v not in ('o2', 'pgo'):
            rec = '%9.0f%%' % (100.0 * (base - n) / (base - pgo))
        elif v not in ('o2', 'pgo'):
            rec = 'n/a'     # PGO did not reduce it
        t, tb, tp = taken.get((p, v)), taken.get((p, 'o2')), taken.get((p, 'pgo'))
        tcol = tvs = trec = pcol = ''
        if t is not None:
            tcol = '%d' % t
            pcol = '%d' % pinsns[(p, v)]
            if tb:
                tvs = '%+7.2f%%' % (100.0 * (t - tb) / tb)
            if tb is not None and tp is not None and tb > tp and v not in ('o2', 'pgo'):
                trec = '%9.0f%%' % (100.0 * (tb - t) / (tb - tp))
            elif v not in ('o2', 'pgo'):
                trec = 'n/a'
        print('%-7s %-8s %14d %+7.2f%% %10s %13s %8s %10s %13s' %
              (p, v, n, 100.0 * (n - base) / base, rec, tcol, tvs, trec, pcol))
    return rc


if __name__ == '__main__':
    sys.exit(main())
