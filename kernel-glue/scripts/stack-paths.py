#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""stack-paths.py: the deepest stack of each IPI op, from the call graphs
and frame sizes gcc writes with -fcallgraph-info=su (one .ci file per
object).

  stack-paths.py [--cut NAME=REASON]... [--json OUT] LABEL=CI[,CI...]...

For each LABEL (a set of objects, e.g. the series' arch/x86/hyperv objects,
or upstream's hv_apic.o) and each root (the apic ops hv_apic_init()
installs, every one of which may be called from NMI context), the largest
sum of frame sizes along a call path within the objects.  A frame size
includes the return address.  Calls out of the objects (the native APIC op
of a fallback, through a pointer; printk) are the same on both sides and
are not followed; a function of unbounded ("dynamic") frame fails.  --cut
leaves out a callee that NMI context never reaches, with the reason (for
the series: hv_hvipi_plan_send(), reached only when hvipi_ipi_gate(),
whose contract says it returns HVIPI_FB_NMI in NMI context, returned
HVIPI_FB_NONE); the path through it is printed too, as the deepest path
outside NMI context.
"""

import json
import re
import sys

ROOTS = ('hv_send_ipi', 'hv_send_ipi_mask', 'hv_send_ipi_mask_allbutself',
         'hv_send_ipi_allbutself', 'hv_send_ipi_all', 'hv_send_ipi_self')
NODE = re.compile(r'node: \{ title: "([^"]*)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"')
SIZE = re.compile(r'\\n(\d+) bytes \(([\w,]+)\)')


def name_of(title):
    return title.rsplit(':', 1)[-1]


def load(files):
    frames, calls, kinds = {}, {}, {}
    for path in files:
        for ln in open(path):
            m = NODE.match(ln)
            if m:
                s = SIZE.search(m.group(2))
                if s:   # a function of this object (externals have no size)
                    frames[name_of(m.group(1))] = int(s.group(1))
                    kinds[name_of(m.group(1))] = s.group(2)
                continue
            m = EDGE.match(ln)
            if m:
                calls.setdefault(name_of(m.group(1)), set()).add(name_of(m.group(2)))
    return frames, calls, kinds


def deepest(fn, frames, calls, cut, seen=()):
    """(bytes, path) of the deepest path from fn, not through cut."""
    if fn not in frames or fn in cut or fn in seen:
        return 0, []
    best, path = 0, []
    for c in sorted(calls.get(fn, ())):
        b, p = deepest(c, frames, calls, cut, seen + (fn,))
        if b > best:
            best, path = b, p
    return frames[fn] + best, [fn] + path


def main(argv):
    cut, out, sets = {}, None, []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == '--cut':
            k, _, v = args.pop(0).partition('=')
            cut[k] = v
        elif a == '--json':
            out = args.pop(0)
        else:
            label, _, files = a.partition('=')
            sets.append((label, files.split(',')))
    result, rc = {}, 0
    for label, files in sets:
        frames, calls, kinds = load(files)
        dyn = [f for f, k in kinds.items() if k.startswith('dynamic') and 'bounded' not in k]
        if dyn:
            print(f'stack-paths: {label}: unbounded frames: {", ".join(sorted(dyn))}')
            rc = 1
        res = {}
        for r in ROOTS:
            if r not in frames:
                print(f'stack-paths: {label}: no {r}')
                rc = 1
                continue
            nb, npath = deepest(r, frames, calls, cut)
            ab, apath = deepest(r, frames, calls, {})
            res[r] = {'nmi': nb, 'nmi_path': npath, 'any': ab, 'any_path': apath}
            print(f'stack-paths: {label}: {r}: {nb} B in NMI context '
                  f'({" > ".join(npath)}); {ab} B outside it'
                  + (f' ({" > ".join(apath)})' if apath != npath else ''))
        result[label] = res
    if cut:
        for k, v in cut.items():
            print(f'stack-paths: left out in NMI context: {k}: {v}')
    if out:
        with open(out, 'w') as f:
            json.dump(result, f, indent=1, sort_keys=True)
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv))
