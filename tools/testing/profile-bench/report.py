#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The optimized builds' table of profile-bench.

  report.py [--notes NOTES] [--order ORDER] MEASDIR...

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

A variant built once per recording (VARIANT, VARIANT.r2, VARIANT.r3,
...: the sample profiles, each from its own recording of the -O2 test)
is one row: the median over its builds, and their spread (largest less
smallest, in % of -O2).  Where the spread is larger than the variant's
gain (its difference from -O2), the row says "no gain" instead of its
share of PGO's: one recording's build may then gain and the next lose.
Each build's own figures follow the table.

Several MEASDIRs: boards that measured side by side, each with its own
check; ORDER, the PROGRAM:VARIANT[@N] list they were given, orders the
rows (by program, in the order of its first variant there).
NOTES: "PROGRAM<TAB>VARIANT<TAB>TEXT" lines, a variant that could not be
built (BOLT cannot rewrite a program): a row of TEXT after the program's
last row.
"""
import collections
import os
import re
import sys


def main():
    args = sys.argv[1:]
    notes_path = order_path = None
    while args and args[0] in ('--notes', '--order') and len(args) > 1:
        if args[0] == '--notes':
            notes_path = args[1]
        else:
            order_path = args[1]
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    notes = collections.defaultdict(list)
    if notes_path and os.path.exists(notes_path):
        for row in open(notes_path):
            if row.count('\t') >= 2:
                p, v, text = row.rstrip('\n').split('\t', 2)
                notes[p].append((v, text))
    order, insns = [], collections.defaultdict(list)
    taken, pinsns, branches = {}, {}, {}
    checks = []
    for d in args:
        with open(os.path.join(d, 'instructions')) as f:
            for row in f:
                p, v, n = row.split()
                if (p, v) not in insns:
                    order.append((p, v))
                insns[(p, v)].append(int(n))
        try:
            wins = [tuple(r.split()) for r in open(os.path.join(d, 'windows')) if r.strip()]
            lines = [r for r in open(os.path.join(d, 'branches')) if r.startswith('window')]
        except OSError:
            continue
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
                if p == 'check':
                    checks.append((t, b, n))
            i += int(k)
    # the variants in the order they were asked for (several boards
    # measure them side by side)
    if order_path and os.path.exists(order_path):
        want = [tuple(w.split(':', 1)) for w in open(order_path).read().split()]
        want = [(p, v.split('@')[0]) for p, v in want]
        progs = []
        for p, _ in want:
            if p not in progs:
                progs.append(p)
        order.sort(key=lambda k: (progs.index(k[0]) if k[0] in progs else len(progs),
                                  want.index(k) if k in want else len(want)))

    rc = 0
    for t, b, n in checks:
        lost = 1000000 - b
        good = 0 <= lost <= 4 and t == 999999 - lost and abs(n - 2000000) < 16
        print('%s - branches.so on pbrun --loop 1000000: %d taken of %d branches, '
              '%d instructions (expected 999999, 1000000, 2000000, less a branch '
              'per interrupt)'
              % ('ok' if good else 'not ok', t, b, n))
        rc = rc if good else 1

    def med(k):
        v = sorted(insns[k])
        return v[(len(v) - 1) // 2]

    # VARIANT.rN: another recording's build of VARIANT
    builds = collections.OrderedDict()
    for p, v in order:
        m = re.match(r'(.*)\.r(\d+)$', v)
        builds.setdefault((p, m.group(1) if m else v), []).append(v)

    def median(xs):
        xs = sorted(xs)
        return xs[(len(xs) - 1) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2.0

    def cols(p, v, n, spread, base, pgo):
        """vs -O2, spread, of PGO for a count n against -O2's base"""
        vs = '%+7.2f%%' % (100.0 * (n - base) / base) if base else ''
        sp = '%.2f%%' % (100.0 * spread / base) if spread is not None and base else ''
        if v in ('o2', 'pgo'):
            rec = ''
        elif spread is not None and spread > abs(base - n):
            rec = 'no gain'
        elif pgo is not None and base > pgo:
            rec = '%.0f%%' % (100.0 * (base - n) / (base - pgo))
        else:
            rec = 'n/a'     # PGO did not reduce it
        return vs, sp, rec

    print('%-7s %-14s %12s %8s %6s %8s %11s %8s %6s %8s %12s' %
          ('program', 'variant', 'instructions', 'vs -O2', 'spread', 'of PGO', 'taken br.',
           'vs -O2', 'spread', 'of PGO', 'plugin insns'))
    per_build = []
    keys = list(builds)
    for i, ((p, v), vs) in enumerate(builds.items()):
        base, pgo = med((p, 'o2')), insns.get((p, 'pgo')) and med((p, 'pgo'))
        ns = [med((p, x)) for x in vs]
        n = median(ns)
        spread = max(ns) - min(ns) if len(ns) > 1 else None
        ivs, isp, irec = cols(p, v, n, spread, base, pgo)
        ts = [taken[(p, x)] for x in vs if (p, x) in taken]
        tb, tp = taken.get((p, 'o2')), taken.get((p, 'pgo'))
        tcol = tvs = tsp = trec = pcol = ''
        if len(ts) == len(vs) and tb:
            t = median(ts)
            tcol = '%d' % t
            pcol = '%d' % median([pinsns[(p, x)] for x in vs])
            tvs, tsp, trec = cols(p, v, t, max(ts) - min(ts) if len(ts) > 1 else None, tb, tp)
        print('%-7s %-14s %12d %8s %6s %8s %11s %8s %6s %8s %12s' %
              (p, v, n, ivs, isp, irec, tcol, tvs, tsp, trec, pcol))
        if i + 1 == len(keys) or keys[i + 1][0] != p:
            for nv, text in notes.pop(p, []):
                print('%-7s %-14s %s' % (p, nv, text))
        if len(vs) > 1:
            for x in vs:
                per_build.append('%-7s %-14s %12d %+7.2f%% %11s %8s' % (
                    p, x, med((p, x)), 100.0 * (med((p, x)) - base) / base,
                    taken.get((p, x), ''),
                    '%+7.2f%%' % (100.0 * (taken[(p, x)] - tb) / tb) if (p, x) in taken and tb else ''))
    if per_build:
        print()
        print('each recording\'s build (instructions, vs -O2, taken branches, vs -O2):')
        for r in per_build:
            print(r)
    return rc


if __name__ == '__main__':
    sys.exit(main())
