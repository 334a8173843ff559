#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""krx.py: the kernel copies of hvipi's receiver models, generated from tests/receiver/.

  krx.py --out DIR      write DIR/rx.h, DIR/rx_flush.h, DIR/testhv_rx.c and
                        DIR/testhv_rx_flush.c
  krx.py --check DIR    exit 1, naming the first difference, unless DIR
                        holds exactly what --out writes
  --src SRC             the sources (default: the repository's
                        tests/receiver/)

The receiver models (tests/receiver/rx.c, rx.h, rx_flush.c, rx_flush.h)
are one text: userspace C that the tests link, and that the test-only
Hyper-V platform of the in-tree series (arch/x86/hyperv/hv_testhv.c)
decodes every hypercall with.  The kernel gets a generated copy, as it
gets the core's (kcore.py, whose lexer, type mapping and --out/--check
this script shares).  The sources are written in kernel style already;
the generator changes only what userspace C cannot have, in order (each
step fails loudly on a shape it was not written for):

 1. No preprocessor conditional but a header's include guard, and no
    ACSL annotation (the models have neither).  #define and #include are
    the only other directives.
 2. The C library includes become the kernel headers that declare what
    the models take from them (LIBC: <stdbool.h>, <stddef.h> ->
    <linux/stddef.h>, <linux/types.h>; <stdint.h> -> <linux/types.h>;
    <string.h> -> <linux/string.h>), with the header of each builtin the
    file uses (BUILTINS), as one sorted block where the first of them
    stood.  #include "x" of a model names x's kernel copy (FILES).  Any
    other include is an error.
 3. The <stdint.h> types become the kernel's (uint32_t -> u32, int32_t ->
    s32, ...; kcore.TYPE_MAP), and __builtin_popcountll() becomes
    hweight64(): the same count of the bits of a 64-bit value, where the
    builtin compiles to a call of libgcc's __popcountdi2(), which the
    kernel does not have.  Parameters aligned with an open parenthesis that moved are
    aligned again, a tab-aligned comment after code keeps its column.
    Any other "*_t" type but size_t and uintptr_t (<linux/types.h> has
    both), and any other __builtin_, is an error.
 4. The SPDX line: the sources are "GPL-2.0-only OR MIT", and the copies
    take the GPL-2.0-only option, in the kernel's style for the file type
    ("// ..." in a .c, "/* ... */" in a .h); then a header naming the
    source and the command that checks the copy.

Everything else, line breaks, comments and code, is the source's, token
for token (kcore-test.py checks it).  Deterministic: the output depends
only on the four source files.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kcore  # noqa: E402
from kcore import KcoreError, fail  # noqa: E402

TOP = kcore.TOP

# (source in tests/receiver, kernel file name in arch/x86/hyperv), in the
# order --out writes them.  The .c files get a testhv_ prefix there: they
# belong to the test platform, hv_testhv.c.
FILES = (
    ('rx.h', 'rx.h'),
    ('rx_flush.h', 'rx_flush.h'),
    ('rx.c', 'testhv_rx.c'),
    ('rx_flush.c', 'testhv_rx_flush.c'),
)
OUTPUTS = tuple(k for _, k in FILES)
KERNEL_NAME = dict(FILES)
SOURCE_NAME = {k: s for s, k in FILES}

# The C library headers the models include, and the kernel headers that
# declare what the models take from them.
LIBC = {
    '<stdbool.h>': ('<linux/stddef.h>', '<linux/types.h>'),   # true, false; bool
    '<stddef.h>': ('<linux/stddef.h>', '<linux/types.h>'),    # NULL, offsetof; size_t
    '<stdint.h>': ('<linux/types.h>',),                       # u8..u64, s8..s64, uintptr_t
    '<string.h>': ('<linux/string.h>',),                      # memcpy, memset, memcmp
}

# Compiler builtins with a kernel spelling: (kernel name, its header).
BUILTINS = {
    '__builtin_popcountll': ('hweight64', '<linux/bitops.h>'),
}

# "*_t" names the kernel has under the same name (<linux/types.h>).
TYPES_KEPT = {'size_t', 'uintptr_t'}

# The source licence, and the option the copies take.
SOURCE_SPDX = 'GPL-2.0-only OR MIT'
KERNEL_SPDX = 'GPL-2.0-only'

SRC_REL = 'tests/receiver'


# ------------------------------------------------------------ steps

def check_directives(segs, path, is_h):
    """Step 1: the include guard of a header is the only conditional."""
    for s in segs:
        if s.kind == 'acsl':
            fail(path, s.line, 'an ACSL annotation: krx.py was not written for one')
    dirs = kcore.directives(segs)
    guard = set(kcore.include_guard(segs, dirs) or ()) if is_h else set()
    if is_h and not guard:
        fail(path, 0, 'no include guard')
    for k in sorted(dirs):
        if k in guard:
            continue
        kw, arg = kcore.dir_parse(kcore.dir_text(dirs[k]))
        if kw not in ('define', 'include'):
            fail(path, dirs[k][0].line, f'#{kw} {arg}: krx.py keeps only #define, #include '
                 'and a header\'s include guard')
    return dirs


def code_names(segs, pattern):
    """The names matching pattern in the code (not comments or literals)."""
    out = []
    for s in segs:
        if s.kind == 'code':
            out.extend(re.findall(pattern, s.text))
    return out


def resolve_includes(segs, dirs, path):
    """Step 2."""
    builtins = sorted(set(code_names(segs, r'\b__builtin_\w+\b')))
    for b in builtins:
        if b not in BUILTINS:
            fail(path, 0, f'{b}: krx.py knows no kernel form of it (BUILTINS)')
    want = set(BUILTINS[b][1] for b in builtins)
    first = None
    for k in sorted(dirs):
        ds = dirs[k]
        kw, arg = kcore.dir_parse(kcore.dir_text(ds))
        if kw != 'include':
            continue
        if arg in LIBC:
            if any(s.kind in ('comment', 'acsl') for s in ds):
                fail(path, ds[0].line, f'#include {arg} with a comment: where would it go?')
            want.update(LIBC[arg])
            for s in ds:
                s.gone = True
            if first is None:
                first = ds[0]
            continue
        m = re.fullmatch(r'"([\w.]+)"', arg)
        if m and m.group(1) in KERNEL_NAME:
            lit = [s for s in ds if s.kind == 'str']
            if len(lit) != 1:
                fail(path, ds[0].line, f'cannot read #include {arg}')
            lit[0].repl = f'"{KERNEL_NAME[m.group(1)]}"'
            continue
        fail(path, ds[0].line, f'#include {arg}: krx.py knows no kernel form of it '
             '(LIBC, FILES)')
    if want and first is None:
        fail(path, 0, f'no C library include to put {", ".join(sorted(want))} in place of')
    if first is not None:
        first.gone = False
        first.repl = '\n'.join(f'#include {h}' for h in sorted(want))


def spdx(lines, path, is_h):
    """Step 4's check of the source's SPDX line, and its kernel form."""
    m = re.fullmatch(r'/\* SPDX-License-Identifier: (.*) \*/|// SPDX-License-Identifier: (.*)',
                     lines[0] if lines else '')
    if not m or (m.group(1) or m.group(2)) != SOURCE_SPDX:
        fail(path, 1, f'the first line is not the SPDX line of "{SOURCE_SPDX}"')
    return (f'/* SPDX-License-Identifier: {KERNEL_SPDX} */' if is_h else
            f'// SPDX-License-Identifier: {KERNEL_SPDX}')


def header(src_name):
    text = (f'Generated from {SRC_REL}/{src_name} of hvipi ({SOURCE_SPDX}, here '
            f'under {KERNEL_SPDX}) by kernel-glue/scripts/krx.py: do not edit.  '
            'TEST ONLY: a receiver model of the test Hyper-V platform '
            '(hv_testhv.c).  In that repository')
    return ['/*'] + [' * ' + ln for ln in kcore.wrap(text.split(), 3)] + [
        ' *',
        ' *   kernel-glue/scripts/krx.py --check DIR',
        ' *',
        ' * checks this copy against its source (DIR the directory of this file).',
        ' */',
    ]


# ----------------------------------------------------------- driver

def generate_file(src, src_name):
    path = os.path.join(src, src_name)
    is_h = src_name.endswith('.h')
    segs = kcore.lex(kcore.read(path), path)
    dirs = check_directives(segs, path, is_h)
    resolve_includes(segs, dirs, path)
    text = kcore.drop_marks(kcore.render(segs))
    names = dict(kcore.TYPE_MAP)
    names.update((b, k) for b, (k, _) in BUILTINS.items())
    text = kcore.map_types(text, path, names=names, kept=TYPES_KEPT, tool='krx.py')
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    first = spdx(lines, path, is_h)
    lines = [first] + header(src_name) + lines[1:]
    for n, ln in enumerate(lines, 1):
        if ln != ln.rstrip():
            fail(path, 0, f'output line {n} ends in white space')
    return '\n'.join(lines) + '\n'


def generate(src=None):
    """{kernel name: text} of the kernel copies, in the order of FILES."""
    src = src or os.path.join(TOP, SRC_REL)
    return {k: generate_file(src, s) for s, k in FILES}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--out', metavar='DIR', help='write the four copies into DIR')
    g.add_argument('--check', metavar='DIR', help='check the four copies in DIR')
    ap.add_argument('--src', metavar='SRC',
                    help=f"the sources (default: the repository's {SRC_REL}/)")
    a = ap.parse_args(argv)
    try:
        out = generate(a.src)
    except KcoreError as e:
        print(f'krx: {e}', file=sys.stderr)
        return 2
    return kcore.emit('krx', out, a.out, a.check,
                      lambda name: f'{SRC_REL}/{SOURCE_NAME[name]}')


if __name__ == '__main__':
    sys.exit(main())
