#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Keep only the well-formed records of an AutoFDO 0.19 text profile.

  afdo-fix.py IN OUT

create_llvm_prof 0.19 (Debian's autofdo) names an inlined callee through a
string that is gone by the time the text profile is written
(llvm_profile_writer.cc, LLVMProfileBuilder::VisitCallsite; google/autofdo
issue #95), so some "OFFSET: NAME:SAMPLES" lines carry stale bytes -
pointer values - as NAME.  Those bytes may hold NUL (which ends the file
for LLVM's line_iterator), newlines (which split the record), spaces,
colons and digits, so which record a byte belongs to cannot be told
reliably by looking at it.  Instead every line written must match the
grammar of LLVM's text sample-profile reader (SampleProfReader.cpp,
ParseHead() and ParseLine()), with the names of callsites and call
targets restricted to the characters a linkage name has:

  FUNCTION:TOTAL:HEAD                    function, column 0
  <indent>OFF[.DISC]: COUNT[ NAME:COUNT]*  body line
  <indent>OFF[.DISC]: NAME:COUNT         inlined callsite; its lines follow,
                                         one space deeper

Every record ends in a digit.  A line that does not begin like one of
these, or that follows a line not ending in a digit, continues the one
before it (a newline inside a name); the two are joined with a NUL,
which no record may hold, so the joined record never validates.  A record that fails is
dropped, and with it every deeper line after it: a function header takes
its whole function, a callsite its inlined body, a body line (nothing is
nested under one) only itself.
Every line written is a line of IN, in IN's order.  Says on standard
error what went.
"""
import re
import sys

NAME = rb'[A-Za-z_.$][A-Za-z0-9_.$]*'
NUM = rb'[0-9]{1,20}'
LOC = rb'([0-9]{1,5})(?:\.([0-9]{1,10}))?'
# A function's name comes from the symbol table, not from the stale
# string, and ParseHead() takes anything up to the last two ":NUM": any
# printable name that does not start with a space, a '#' (a comment) or
# a '[' (SampleContext reads that as a calling context, and an empty one
# crashes llvm-profdata 19).
FUNCTION = rb'[!-"$-Z\\-~][ -~]*'
HEADER = re.compile(rb'(' + FUNCTION + rb'):(' + NUM + rb'):(' + NUM + rb')')
BODY = re.compile(rb'( +)' + LOC + rb': (' + NUM + rb')((?: ' + NAME + rb':' + NUM + rb')*)')
CALLSITE = re.compile(rb'( +)' + LOC + rb': (' + NAME + rb'):(' + NUM + rb')')
# where a record may begin: a line in column 0 that ParseHead() would
# take for a function (if its name is not one, the function is dropped
# whole, rather than its lines kept under the one before), or an
# indented location
STARTS = re.compile(rb'(?:[^ ].*:[0-9]+:[0-9]+$| +[0-9]+(?:\.[0-9]+)?: )', re.S)
BODY_START = re.compile(rb' +[0-9]+(?:\.[0-9]+)?: [0-9]')
TARGET_COUNT = re.compile(rb':(' + NUM + rb')(?= |$)')
U64 = (1 << 64) - 1


def fits(m, loc, nums):
    """LLVM's limits: a 16-bit line offset, a 32-bit discriminator (groups
    LOC and LOC + 1 of M), u64 counts"""
    off, disc = m.group(loc), m.group(loc + 1)
    if off is not None and int(off) > 0xffff:
        return False
    if disc is not None and int(disc) > 0xffffffff:
        return False
    return all(int(n) <= U64 for n in nums)


def records(raw):
    """IN's lines, a line joined to the one before (with a NUL, which no
    record may hold) unless it starts a record and the one before ends as
    every record does, in a digit.  A blank line is joined too:
    create_llvm_prof writes none."""
    out = []
    for ln in raw.rstrip(b'\n').split(b'\n'):
        if out and not (out[-1][-1][-1:].isdigit() and STARTS.match(ln)):
            out[-1].append(ln)
        else:
            out.append([ln])
    return [b'\0'.join(parts) for parts in out]


def valid(rec):
    """Does LLVM's reader take REC, a line without its newline?"""
    m = HEADER.fullmatch(rec)
    if m:
        return all(int(n) <= U64 for n in m.group(2, 3))
    m = BODY.fullmatch(rec)
    if m:
        return fits(m, 2, [m.group(4)] + TARGET_COUNT.findall(m.group(5)))
    m = CALLSITE.fullmatch(rec)
    return bool(m) and fits(m, 2, [m.group(5)])


def fix(raw):
    """(kept lines, what was dropped) for the profile RAW"""
    kept = []
    stats = {'records': 0, 'samples': 0, 'nested': 0, 'functions': 0}
    skip = 0  # drop every line deeper than this indent: none before a function
    for rec in records(raw):
        indent = len(rec) - len(rec.lstrip(b' '))
        if skip is not None:
            if indent > skip:
                stats['nested'] += 1
                continue
            skip = None
        if valid(rec):
            kept.append(rec)
            continue
        # What follows deeper was nested under REC (only headers and
        # callsites have such lines): it has lost its parent.
        skip = indent
        stats['records'] += 1
        if indent == 0:
            stats['functions'] += 1
        tail = re.search(rb':([0-9]+)$', rec)
        if tail and not BODY_START.match(rec):
            stats['samples'] += int(tail.group(1))
    return kept, stats


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], 'rb') as f:
        raw = f.read()
    kept, st = fix(raw)
    with open(sys.argv[2], 'wb') as f:
        f.write(b''.join(ln + b'\n' for ln in kept))
    print('afdo-fix: dropped %d malformed records (%d callsite samples;'
          ' %d functions), and %d lines nested under them or before the first function'
          % (st['records'], st['samples'], st['functions'], st['nested']),
          file=sys.stderr)


if __name__ == '__main__':
    main()
