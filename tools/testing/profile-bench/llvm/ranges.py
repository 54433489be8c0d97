#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What llvm-profgen makes of a recording's ranges, by the instruction each
range ends at (llvm-objdump's reading of the binary), from its unsymbolized
output (--skip-symbolization --use-offset=0):

  ranges.py BINARY RAW [RAW2]

For each kind of end instruction, the share of the range samples ending
there; with RAW2 (the same input through another llvm-profgen), the range
samples the two keep differently.  A range that llvm-profgen 19 reports
as "not on instruction boundary" on RISC-V ends at a jal, jalr or c.jr
(Documentation/profile-bench.rst, "llvm-profgen 19 on RISC-V")."""
import collections
import re
import subprocess
import sys


def disassemble(binary):
    """address -> (mnemonic, operands, size) for every instruction"""
    out = subprocess.run(["llvm-objdump-19", "-d", "-M", "no-aliases", binary],
                         capture_output=True, text=True, check=True).stdout
    insns = {}
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+([0-9a-f]{4}(?:[0-9a-f]{4})?)\s+(\S+)\s*(.*)", line)
        if m:
            insns[int(m.group(1), 16)] = (m.group(3), m.group(4).split("<")[0].strip(),
                                          len(m.group(2)) // 2)
    return insns


def kind(insn):
    """the kind of a control transfer, or of its absence"""
    if insn is None:
        return "no instruction there"
    mn, ops, _ = insn
    rd = ops.split(",")[0].strip()
    if mn in ("jal", "c.jal"):
        return "jal zero (jump)" if rd == "zero" else "jal ra (call)"
    if mn == "jalr":
        if rd != "zero":
            return "jalr (indirect call)"
        return "jalr zero, 0(ra) (return)" if "(ra)" in ops or "(t0)" in ops else \
            "jalr zero (indirect jump)"
    if mn == "c.jr":
        return "c.jr ra (return)" if ops in ("ra", "t0") else "c.jr (indirect jump)"
    if mn == "c.jalr":
        return "c.jalr (indirect call)"
    if mn == "c.j":
        return "c.j (jump)"
    if mn.startswith("b") or mn in ("c.beqz", "c.bnez"):
        return "conditional branch"
    return "not a branch: " + mn


def read_raw(path):
    """{(start, end): count} of a non-CS unsymbolized profile"""
    with open(path) as f:
        lines = f.read().split()
    n = int(lines[0])
    ranges = {}
    for tok in lines[1:1 + n]:
        r, c = tok.rsplit(":", 1)
        s, e = r.split("-")
        ranges[(int(s, 16), int(e, 16))] = int(c)
    return ranges


def main():
    insns = disassemble(sys.argv[1])
    raw = read_raw(sys.argv[2])
    total = sum(raw.values())
    by = collections.Counter()
    for (s, e), c in raw.items():
        by[kind(insns.get(e))] += c
    print(f"{len(raw)} ranges, {total} range samples, by the instruction they end at:")
    for k, c in by.most_common():
        print(f"  {100.0 * c / total:6.2f}%  {c:8d}  {k}")
    if len(sys.argv) > 3:
        raw2 = read_raw(sys.argv[3])
        total2 = sum(raw2.values())
        gone = {r: c for r, c in raw.items() if raw2.get(r, 0) < c}
        new = {r: c for r, c in raw2.items() if raw.get(r, 0) < c}
        print(f"second: {len(raw2)} ranges, {total2} range samples")
        print(f"  kept by the first only: {len(gone)} ranges, "
              f"{sum(c - raw2.get(r, 0) for r, c in gone.items())} samples")
        print(f"  kept by the second only: {len(new)} ranges, "
              f"{sum(c - raw.get(r, 0) for r, c in new.items())} samples")
        crossing = collections.Counter()
        for (s, e), c in gone.items():
            # what lies inside the dropped range: the first transfer before its end
            a = s
            while a < e and a in insns:
                k = kind(insns[a])
                if not k.startswith("not a branch") and k != "conditional branch":
                    crossing[k] += c - raw2.get((s, e), 0)
                    break
                a += insns[a][2]
        for k, c in crossing.most_common():
            print(f"    dropped range crosses a {k}: {c} samples")


if __name__ == "__main__":
    main()
