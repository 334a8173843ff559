#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""series-checkpatch.py: scripts/checkpatch.pl --strict on every patch of the
in-tree series, each finding against the per-line exceptions.

  series-checkpatch.py CHECKPATCH PATCH...

CHECKPATCH is the kernel tree's scripts/checkpatch.pl.  A finding is
allowed only by a line of kernel-glue/intree/checkpatch-exceptions.txt
(file, finding type, substring, reason; tab-separated) whose substring is in
the line the finding points at and whose file is where that line is:

  - a line the patch adds: the file of its hunk, as a path in the kernel
    tree (a bare name, as in kcore-test.py's lines for the generated core,
    matches that name in any directory);
  - the "diff --git" line of a file (FILE_PATH_CHANGES): that file;
  - the commit message: "msg".

Fails (exit 1) on a finding no line allows, and on a line whose file is a
path or "msg" that allows no finding (a stale exception); prints each
patch's count.  No exception by type alone.
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
EXCEPTIONS = os.path.join(TOP, 'kernel-glue', 'intree', 'checkpatch-exceptions.txt')
FINDING = re.compile(r'^(.*?):(\d+): (ERROR|WARNING|CHECK):([A-Z0-9_]+): (.*)$')
TOTAL = re.compile(r'^total: (\d+) errors, (\d+) warnings, (\d+) checks')


def read_exceptions():
    out = []
    with open(EXCEPTIONS) as f:
        for n, ln in enumerate(f, 1):
            ln = ln.rstrip('\n')
            if not ln.strip() or ln.startswith('#'):
                continue
            parts = ln.split('\t')
            if len(parts) != 4 or not all(p.strip() for p in parts):
                sys.exit(f'{EXCEPTIONS}:{n}: not "file<TAB>TYPE<TAB>substring<TAB>reason"')
            out.append((parts[0], parts[1], parts[2], parts[3], n))
    return out


def where(lines, k):
    """Where patch line k (1-based) is: (file or 'msg', its text)."""
    text = lines[k - 1] if 0 < k <= len(lines) else ''
    path = 'msg'
    for ln in lines[:k]:
        m = re.match(r'^diff --git a/(\S+) b/(\S+)', ln)
        if m:
            path = m.group(2)
    return path, text


def matches(exc_file, path):
    return exc_file == path or ('/' not in exc_file and exc_file != 'msg' and
                                os.path.basename(path) == exc_file)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    checkpatch, patches = argv[1], argv[2:]
    exc = read_exceptions()
    used = [0] * len(exc)
    bad = []
    for p in patches:
        p = os.path.abspath(p)
        name = os.path.basename(p)
        r = subprocess.run(['perl', checkpatch, '--strict', '--no-tree', '--show-types',
                            '--terse', p], capture_output=True, text=True,
                           cwd=os.path.dirname(os.path.dirname(os.path.abspath(checkpatch))))
        lines = open(p).read().split('\n')
        findings, total = [], None
        for ln in r.stdout.split('\n'):
            m = FINDING.match(ln)
            if m:
                findings.append((int(m.group(2)), m.group(4), m.group(5)))
            t = TOTAL.match(ln)
            if t:
                total = sum(int(x) for x in t.groups())
        # --terse prints nothing at all for a clean patch
        if total is None and not findings and r.returncode == 0:
            total = 0
        if total is None or total != len(findings):
            bad.append(f'{name}: cannot read checkpatch output (exit {r.returncode}):\n'
                       f'{r.stdout}{r.stderr}')
            continue
        allowed = 0
        for k, typ, msg in findings:
            path, text = where(lines, k)
            hit = [i for i, e in enumerate(exc)
                   if matches(e[0], path) and e[1] == typ and e[2] in text]
            if hit:
                allowed += 1
                for i in hit:
                    used[i] += 1
            else:
                bad.append(f'{name}:{k}: {typ}: {msg}\n    {path}: {text.strip()}')
        print(f'series-checkpatch: {name}: {len(findings)} findings, {allowed} allowed '
              f'line by line')
    for i, (f, typ, sub, _, n) in enumerate(exc):
        if ('/' in f or f == 'msg') and not used[i]:
            bad.append(f'checkpatch-exceptions.txt:{n}: {f} {typ} "{sub}" allows no finding')
    for b in bad:
        print(f'series-checkpatch: FAIL {b}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
