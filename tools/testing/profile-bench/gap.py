#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where a sample-profile build falls short of the instrumented one,
function by function.

  gap.py [--top N] --build NAME=BINARY:BLOCKS... [--ranges NAME=AFDO_TEXT...]
         [--profile NAME=PROFILE...]

--build: a build of the program and the branches.so plugin's blocks=
counts of its test on board 2 (every user block's executions and taken
branches, exact).  The first is the reference (-O2), the second the instrumented
build's (pgo); every one after them is compared the same way.  Counts
go to source functions: the innermost inlined frame llvm-symbolizer
gives for an instruction (so code that moved by inlining stays with its
function), instructions by where they are, a taken branch by its
branch instruction.

--ranges: AutoFDO text (`rvctr convert -f autofdo`, with --window) of the
-O2 build: its ranges give each instruction a sampled count, whose
share per function is set against the exact share of the first build
(sampling bias: whole stacks against the last N instructions), and its
sample addresses how many samples fell in each function.

--profile: a sample profile (text): each function's share of the
profile's line counts against its exact share (on the -O2 build, lines
keyed as the profile keys them: line offset from the function's start
line and discriminator, summed over inlined copies), and the overlap of
the two line distributions inside the function (1.0: the profile puts
the function's counts on the same lines in the same shares).
"""
import bisect
import collections
import subprocess
import sys

from overlap import exec_segments, insn_addrs, overlap, sample_profile_rows


def symbolize(binary, addrs):
    """address -> (innermost function, offset key, outermost function)"""
    res = {}
    addrs = sorted(addrs)
    for i in range(0, len(addrs), 4000):
        chunk = addrs[i:i + 4000]
        out = subprocess.run(['llvm-symbolizer-19', '--obj=' + binary, '--inlining',
                              '--verbose', '--functions=linkage']
                             + ['0x%x' % a for a in chunk],
                             capture_output=True, text=True, check=True).stdout
        frames_of = []
        cur = []
        frame = None
        for row in out.split('\n'):
            if not row.strip():
                if frame:
                    cur.append(frame)
                    frame = None
                if cur:
                    frames_of.append(cur)
                    cur = []
                continue
            if not row.startswith(' '):
                if frame:
                    cur.append(frame)
                frame = {'name': row.strip()}
                continue
            k, _, v = row.strip().partition(': ')
            frame[k] = v
        if frame:
            cur.append(frame)
        if cur:
            frames_of.append(cur)
        for a, frames in zip(chunk, frames_of):
            inner, outer = frames[0], frames[-1]
            name = inner['name'].split('.')[0]
            try:
                off = int(inner.get('Line', 0)) - int(inner.get('Function start line', 0))
            except ValueError:
                off = 0
            key = (off & 0xffff, int(inner.get('Discriminator', 0)))
            res[a] = (name, key, outer['name'].split('.')[0])
    return res


def read_blocks(path):
    """(start, last) -> [ninsns, execs, taken], added up over the file"""
    acc = collections.defaultdict(lambda: [0, 0, 0])
    with open(path) as f:
        for row in f:
            s, l, n, e, t = row.split()
            v = acc[(int(s, 16), int(l, 16))]
            v[0] = int(n)
            v[1] += int(e)
            v[2] += int(t)
    return acc


class Build:
    def __init__(self, name, binary, blocks):
        self.name = name
        self.binary = binary
        addrs = insn_addrs(binary)
        lo, hi = addrs[0], addrs[-1]
        per_insn = collections.defaultdict(int)      # address -> executions
        taken_at = collections.defaultdict(int)      # branch address -> taken
        for (s, last), (n, e, t) in read_blocks(blocks).items():
            if not lo <= s <= hi:
                continue                            # libc, ld.so
            i = bisect.bisect_left(addrs, s)
            while i < len(addrs) and addrs[i] <= last:
                per_insn[addrs[i]] += e
                i += 1
            if t:
                taken_at[last] += t
        self.per_insn = per_insn
        sym = symbolize(binary, set(per_insn) | set(taken_at))
        self.sym = sym
        self.insns = collections.defaultdict(int)
        self.taken = collections.defaultdict(int)
        for a, c in per_insn.items():
            self.insns[sym[a][0]] += c
        for a, c in taken_at.items():
            self.taken[sym[a][0]] += c
        self.total_insns = sum(self.insns.values())
        self.total_taken = sum(self.taken.values())
        # the exact counts keyed as a sample profile keys them: per
        # (outer symbol, function, line key) the largest of its
        # instructions' counts, then the outer symbols' copies added up
        per = {}
        for a, c in per_insn.items():
            inner, key, outer = sym[a]
            k = (outer, inner, key)
            per[k] = max(per.get(k, 0), c)
        self.lines = collections.defaultdict(int)
        for (outer, inner, key), c in per.items():
            self.lines[(inner, key)] += c


def ranges_counts(binary, afdo, sym_build):
    """function -> sampled instruction count, function -> sample count"""
    segs = exec_segments(binary)
    addrs = insn_addrs(binary)
    counts = collections.defaultdict(int)
    samples = collections.defaultdict(int)

    def vaddr(o):
        for off, va, size in segs:
            if off <= o < off + size:
                return o - off + va
        return None
    with open(afdo) as f:
        n = int(f.readline())
        for _ in range(n):
            rng, cnt = f.readline().strip().split(':')
            b, e = (vaddr(int(x, 16)) for x in rng.split('-'))
            if b is None or e is None:
                continue
            i = bisect.bisect_left(addrs, b)
            while i < len(addrs) and addrs[i] <= e:
                counts[addrs[i]] += int(cnt)
                i += 1
        n = int(f.readline())
        for _ in range(n):
            a, cnt = f.readline().strip().split(':')
            a = vaddr(int(a, 16))
            if a is not None:
                samples[a] += int(cnt)
    sym = symbolize(binary, (set(counts) | set(samples)) - set(sym_build.sym))
    sym.update(sym_build.sym)
    fc, fs = collections.defaultdict(int), collections.defaultdict(int)
    for a, c in counts.items():
        fc[sym[a][0]] += c
    for a, c in samples.items():
        fs[sym[a][0]] += c
    return fc, fs


def profile_lines(path):
    """(function, (line offset, discriminator)) -> count, inlined copies added"""
    lines = collections.defaultdict(int)
    for fn, loc, count in sample_profile_rows(path, lambda n: n.split('.')[0]):
        ln, _, d = loc.partition('.')
        if ln.isdigit():
            lines[(fn, (int(ln), int(d or 0)))] += count
    return lines


def main():
    args = sys.argv[1:]
    top = 12
    builds, ranges, profiles = [], [], []
    while args:
        a = args.pop(0)
        if a == '--top':
            top = int(args.pop(0))
        elif a in ('--build', '--ranges', '--profile'):
            name, _, rest = args.pop(0).partition('=')
            {'--build': builds, '--ranges': ranges, '--profile': profiles}[a].append((name, rest))
        else:
            sys.exit(__doc__)
    if len(builds) < 2:
        sys.exit(__doc__)
    bs = []
    for name, rest in builds:
        binary, blocks = rest.rsplit(':', 1)
        bs.append(Build(name, binary, blocks))
    o2, pgo = bs[0], bs[1]
    funcs = set()
    for b in bs:
        funcs |= set(b.insns) | set(b.taken)

    def delta(b, f, what):
        return getattr(b, what).get(f, 0) - getattr(o2, what).get(f, 0)
    order = sorted(funcs, key=lambda f: -(abs(delta(pgo, f, 'taken')) +
                                           max(abs(delta(b, f, 'taken')) for b in bs[2:])
                                           if bs[2:] else abs(delta(pgo, f, 'taken'))))
    shown = order[:top]

    print('Exact counts of the test (board 2, branches.so blocks=), by source function')
    print('(innermost inlined frame); instructions and taken branches in thousands;')
    print('the builds after %s: the difference from it' % o2.name)
    hdr = '%-22s %9s %8s' % ('function', o2.name + ' ins', 'taken')
    for b in bs[1:]:
        hdr += ' %9s %8s' % (b.name + ' ins', 'taken')
    print(hdr)
    for f in shown + ['(rest)', '(total)']:
        if f == '(rest)':
            sel = [g for g in funcs if g not in shown]
        elif f == '(total)':
            sel = list(funcs)
        else:
            sel = [f]
        row = '%-22s %9.0f %8.0f' % (f[:22], sum(o2.insns.get(g, 0) for g in sel) / 1e3,
                                     sum(o2.taken.get(g, 0) for g in sel) / 1e3)
        for b in bs[1:]:
            row += ' %+9.0f %+8.0f' % (sum(delta(b, g, 'insns') for g in sel) / 1e3,
                                        sum(delta(b, g, 'taken') for g in sel) / 1e3)
        print(row)

    if not ranges and not profiles:
        return
    print()
    print('Why: each function\'s share of the -O2 run (exact instructions) against')
    print('the CTR counts\' share (ranges: %s) and the samples in it;' %
          ', '.join(n for n, _ in ranges))
    print('each profile: its share of the profile\'s line counts against the exact')
    print('share of line counts, and the overlap of the lines inside the function')
    rs = []
    for name, afdo in ranges:
        rs.append((name,) + ranges_counts(o2.binary, afdo, o2))
    ps = [(name, profile_lines(path)) for name, path in profiles]
    ex_lines_tot = sum(o2.lines.values()) or 1
    hdr = '%-22s %7s' % ('function', 'exact%')
    for name, _, _ in rs:
        hdr += ' %8s' % (name[:8] + '%')
    hdr += ' %8s' % 'samples'
    hdr += ' %7s' % 'lines%'
    for name, _ in ps:
        hdr += ' %9s %5s' % (name[:8] + '%', 'ovl')
    print(hdr)
    for f in shown:
        row = '%-22s %7.2f' % (f[:22], 100.0 * o2.insns.get(f, 0) / (o2.total_insns or 1))
        for _, fc, _ in rs:
            row += ' %8.2f' % (100.0 * fc.get(f, 0) / (sum(fc.values()) or 1))
        row += ' %8d' % (rs[0][2].get(f, 0) if rs else 0)
        ex = {k[1]: v for k, v in o2.lines.items() if k[0] == f}
        row += ' %7.2f' % (100.0 * sum(ex.values()) / ex_lines_tot)
        for _, pl in ps:
            pf = {k[1]: v for k, v in pl.items() if k[0] == f}
            row += ' %9.2f %5.2f' % (100.0 * sum(pf.values()) / (sum(pl.values()) or 1),
                                     overlap(ex, pf))
        print(row)
    if ps:
        ex_fn = collections.defaultdict(int)
        for (f, _), v in o2.lines.items():
            ex_fn[f] += v
        for name, pl in ps:
            pf = collections.defaultdict(int)
            for (f, _), v in pl.items():
                pf[f] += v
            common = {k: v for k, v in o2.lines.items() if k[0] in pf}
            print('%s: function overlap %.3f, line overlap %.3f' %
                  (name, overlap(ex_fn, pf), overlap(common, pl)))


if __name__ == '__main__':
    main()
