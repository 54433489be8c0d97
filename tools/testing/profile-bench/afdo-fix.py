#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Drop the inlined-callee records AutoFDO 0.19 writes with a corrupt name.

  afdo-fix.py IN OUT

create_llvm_prof 0.19 (Debian's autofdo) names an inlined callee through a
string that is gone by the time the text profile is written
(llvm_profile_writer.cc, LLVMProfileBuilder::VisitCallsite; google/autofdo
issue #95), so some "OFFSET: NAME:SAMPLES" lines carry bytes of freed
memory as NAME, which llvm-profdata and clang refuse.  Such a record and
every line nested under it are dropped; the rest is kept as it is.  Says
on standard error how many records and samples went.
"""
import re
import sys

NAME = re.compile(rb'^[A-Za-z_.$][A-Za-z0-9_.$]*$')
CALLSITE = re.compile(rb'^( +)[0-9]+(?:\.[0-9]+)?: (.*):([0-9]+)$', re.S)
BODY = re.compile(rb'^ +[0-9]+(?:\.[0-9]+)?: [0-9]+')
OPEN = re.compile(rb'^ +[0-9]+(?:\.[0-9]+)?: (?![0-9]+(?: |$))(?!.*:[0-9]+$)', re.S)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], 'rb') as f:
        raw = f.read().split(b'\n')
    # a corrupt name may hold newlines: a callsite line that does not end
    # in ":SAMPLES" goes on in the next line(s)
    lines = []
    for ln in raw:
        if lines and OPEN.match(lines[-1]):
            lines[-1] += b'?' + ln
        else:
            lines.append(ln)
    out, skip, dropped, samples = [], None, 0, 0
    for ln in lines:
        indent = len(ln) - len(ln.lstrip(b' '))
        if skip is not None:
            if ln.strip() and indent > skip:
                continue
            skip = None
        m = CALLSITE.match(ln)
        if m and not NAME.match(m.group(2)):
            skip = indent
            dropped += 1
            samples += int(m.group(3))
            continue
        out.append(ln)
    with open(sys.argv[2], 'wb') as f:
        f.write(b'\n'.join(out))
    print('afdo-fix: dropped %d inlined-callee records with corrupt names (%d samples)'
          % (dropped, samples), file=sys.stderr)


if __name__ == '__main__':
    main()
