#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""How close a CTR profile is to an instrumented build's exact counts.

  overlap.py LCOV BINARY:AFDO_TEXT...
  overlap.py --sample-profile LCOV PROFILE     (function level only)

LCOV is `llvm-cov export -format=lcov` of the instrumented build with its
merged profile: exact execution counts per source line (DA) and the first
line of every function (FN).  Each BINARY:AFDO_TEXT is a binary of the
-O2 build and `rvctr convert -f autofdo` of its CTR recording: ranges of
straight-line code between two taken branches, with how often each ran,
as file offsets.

From the ranges every instruction of the -O2 binary gets an execution
count; llvm-symbolizer gives each instruction's innermost source line and
the function (ELF symbol) it sits in.  A line's count is the largest count
of its instructions within one function symbol (the line's copies in
different callers, after inlining, add up), as AutoFDO counts a line.

Both sides then give a distribution over the same keys:
  block level     source lines (file name, line)
  function level  source functions: the sum of a function's line counts,
                  a line belonging to the function whose FN line is the
                  nearest at or before it in the same file
and the weighted overlap is sum over keys of min(p, q) with p and q each
normalised to 1 (1.0: the same shares everywhere; the measure
llvm-profdata overlap reports for two profiles of one kind).  Lines the
-O2 build has no instruction for (declarations, lines folded away) are
left out on both sides.

--sample-profile compares a compiler's sample profile (text, as
create_llvm_prof and llvm-profgen write it) at function level: a
function's count is the sum of its own body lines' counts, wherever it
was inlined (callsite records nest the inlined function's lines under
its name), against the sum of the exact line counts of the function.
"""
import collections
import os
import subprocess
import sys


def lcov_read(path):
    lines = collections.defaultdict(int)      # (file, line) -> count
    fns = collections.defaultdict(list)       # file -> [(line, name)]
    fname = None
    with open(path) as f:
        for row in f:
            row = row.strip()
            if row.startswith('SF:'):
                fname = os.path.basename(row[3:])
            elif row.startswith('FN:'):
                ln, name = row[3:].split(',', 1)
                fns[fname].append((int(ln), name.split(':')[-1]))
            elif row.startswith('DA:'):
                ln, cnt = row[3:].split(',')[:2]
                lines[(fname, int(ln))] = max(lines[(fname, int(ln))], int(cnt))
    for v in fns.values():
        v.sort()
    return lines, fns


def func_of(fns, key):
    best = None
    for ln, name in fns.get(key[0], ()):
        if ln > key[1]:
            break
        best = name
    return best


def exec_segments(binary):
    """(offset, vaddr, filesz) of the executable PT_LOADs."""
    out = subprocess.run(['llvm-readelf-19', '-lW', binary], capture_output=True,
                         text=True, check=True).stdout
    segs = []
    for row in out.splitlines():
        f = row.split()
        if f and f[0] == 'LOAD' and 'E' in f[6:-1]:
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return segs


def insn_addrs(binary):
    out = subprocess.run(['llvm-objdump-19', '-d', '--no-show-raw-insn', binary],
                         capture_output=True, text=True, check=True).stdout
    addrs = []
    for row in out.splitlines():
        head = row.split(':', 1)[0].strip()
        if row.startswith(' ') and head and all(c in '0123456789abcdef' for c in head):
            addrs.append(int(head, 16))
    return sorted(addrs)


def afdo_ranges(path):
    with open(path) as f:
        n = int(f.readline())
        for _ in range(n):
            rng, cnt = f.readline().strip().split(':')
            b, e = rng.split('-')
            yield int(b, 16), int(e, 16), int(cnt)


def ctr_lines(binary, afdo):
    import bisect
    segs = exec_segments(binary)
    addrs = insn_addrs(binary)
    counts = collections.defaultdict(int)
    for b, e, c in afdo_ranges(afdo):
        for off, vaddr, size in segs:
            if off <= b < off + size:
                b, e = b - off + vaddr, e - off + vaddr
                break
        else:
            continue
        i = bisect.bisect_left(addrs, b)
        while i < len(addrs) and addrs[i] <= e:
            counts[addrs[i]] += c
            i += 1
    hot = addrs              # every instruction, run or not
    sym = subprocess.run(['llvm-symbolizer-19', '--obj=' + binary, '--inlining=false',
                          '--functions=linkage'] + ['0x%x' % a for a in hot],
                         capture_output=True, text=True, check=True).stdout.split('\n\n')
    # innermost line: a second run with inlining, first frame
    inl = subprocess.run(['llvm-symbolizer-19', '--obj=' + binary, '--inlining=true',
                          '--functions=none'] + ['0x%x' % a for a in hot],
                         capture_output=True, text=True, check=True).stdout.split('\n\n')
    per = {}
    for a, s, l in zip(hot, sym, inl):
        outer = s.strip().split('\n')[0]
        loc = l.strip().split('\n')[0].rsplit(':', 2)
        if len(loc) < 3 or loc[1] == '0':
            continue
        key = (outer, os.path.basename(loc[0]), int(loc[1]))
        per[key] = max(per.get(key, 0), counts.get(a, 0))
    lines = collections.defaultdict(int)
    for (outer, f, ln), c in per.items():
        lines[(f, ln)] += c
    return lines


def overlap(p, q):
    sp, sq = sum(p.values()), sum(q.values())
    if not sp or not sq:
        return 0.0
    return sum(min(p.get(k, 0) / sp, q.get(k, 0) / sq) for k in set(p) | set(q))


def sample_profile_rows(path, name=lambda n: n):
    """(function, LINE[.DISC], count) of each body line of a text sample
    profile, the function being the innermost inlined copy's; NAME maps
    the profile's function names"""
    stack = []                  # (indent, function name)
    with open(path, errors='replace') as f:
        for row in f:
            if not row.strip():
                continue
            indent = len(row) - len(row.lstrip(' '))
            row = row.strip()
            if indent == 0:     # NAME:TOTAL:HEAD
                stack = [(0, name(row.rsplit(':', 2)[0]))]
                continue
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if not stack or ':' not in row:
                continue
            loc, rest = row.split(':', 1)
            if loc.startswith('!'):     # metadata (!CFGChecksum)
                continue
            first = rest.split()[0] if rest.split() else ''
            if first.isdigit():     # a body line: COUNT [callee:count]...
                yield stack[-1][1], loc, int(first)
            elif first:             # an inlined callsite: NAME:TOTAL
                stack.append((indent, name(first.rsplit(':', 1)[0])))


def sample_profile_funcs(path):
    """function name -> sum of its body line counts, inlined copies included"""
    funcs = collections.defaultdict(int)
    for fn, _, count in sample_profile_rows(path):
        funcs[fn] += count
    return funcs


def exact_funcs(truth, fns):
    t_fn = collections.defaultdict(int)
    for k, v in truth.items():
        f = func_of(fns, k)
        if f:
            t_fn[f] += v
    return t_fn


def main_sample_profile(lcov, prof):
    truth, fns = lcov_read(lcov)
    t_fn = exact_funcs(truth, fns)
    c_fn = sample_profile_funcs(prof)
    c_fn = {f: v for f, v in c_fn.items() if f in t_fn}
    print('function overlap %.3f' % overlap(t_fn, c_fn))
    top_t = [f for f, _ in sorted(t_fn.items(), key=lambda x: -x[1])[:10]]
    top_c = [f for f, _ in sorted(c_fn.items(), key=lambda x: -x[1])[:10]]
    print('top-10 functions in common %d' % len(set(top_t) & set(top_c)))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--sample-profile':
        return main_sample_profile(sys.argv[2], sys.argv[3])
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    truth, fns = lcov_read(sys.argv[1])
    ctr = collections.defaultdict(int)
    for arg in sys.argv[2:]:
        binary, afdo = arg.rsplit(':', 1)
        for k, v in ctr_lines(binary, afdo).items():
            ctr[k] += v
    keys = [k for k in ctr if k in truth]   # lines with code in the -O2 build
    t_lines = {k: truth[k] for k in keys}
    c_lines = {k: ctr[k] for k in keys}
    t_fn, c_fn = collections.defaultdict(int), collections.defaultdict(int)
    for k in c_lines:
        f = func_of(fns, k)
        t_fn[f] += t_lines[k]
        c_fn[f] += c_lines[k]
    lo = overlap(t_lines, c_lines)
    fo = overlap(t_fn, c_fn)
    top_t = [f for f, _ in sorted(t_fn.items(), key=lambda x: -x[1])[:10]]
    top_c = [f for f, _ in sorted(c_fn.items(), key=lambda x: -x[1])[:10]]
    print('lines compared %d (of %d with an exact count > 0)' %
          (len(c_lines), sum(1 for v in truth.values() if v)))
    print('block (line) overlap %.3f' % lo)
    print('function overlap %.3f' % fo)
    print('top-10 functions in common %d' % len(set(top_t) & set(top_c)))
    tt, tc = sum(t_fn.values()) or 1, sum(c_fn.values()) or 1
    print('%-28s %9s %9s' % ('function', 'exact%', 'CTR%'))
    for f in top_t:
        print('%-28s %9.2f %9.2f' % (f, 100.0 * t_fn[f] / tt, 100.0 * c_fn[f] / tc))


if __name__ == '__main__':
    main()
