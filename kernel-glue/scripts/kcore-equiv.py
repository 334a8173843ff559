#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kcore-equiv.py: the kernel copy of the core computes what the proven
text computes.

  kcore-equiv.py [--kernel DIR] [--src SRC]   compare (default: a fresh
                                              kcore.py copy of SRC)
  kcore-equiv.py --self-test                  the negative checks below

Both texts are preprocessed as their builds preprocess them, and the
token streams of every declaration and function definition they give are
compared, item by item, then the expansion of every macro hvipi.h
defines (the glue uses some that the core does not), after the named
rewrites of ALLOWED (nothing else may differ):

  proven text   src/hvipi.c as Frama-C's run reads it (proofs/prove.sh:
                -cpp-extra-args=-I src -I spec; Frama-C defines
                __FRAMAC__, and __FC_MACHDEP_X86_64 for proofs/wp-options.txt's
                -machdep x86_64): gcc -E -D__FRAMAC__
                -D__FC_MACHDEP_X86_64 -I src -I spec (gcc's default
                dialect, as Frama-C's own gcc -E call).  gcc -E drops the
                comments, so the ACSL annotations are not in the stream,
                as they are not C.  The system's <stdint.h>, <stdbool.h>
                and <stddef.h> stand for Frama-C's libc: only their
                typedefs differ, and no token of a system header is
                compared.
  kernel copy   DIR/hvipi.c as Kbuild reads it: gcc -E -std=gnu11
                -nostdinc -D__KERNEL__ -I DIR -I STUBS, with STUBS the
                small <linux/types.h> and <linux/compiler.h> of STUB_HEADERS:
                they declare the types and leave READ_ONCE and the
                attribute macros (__uninitialized) unexpanded.

Only tokens from the core's own files are compared (src/, spec/; the
kernel copy's directory), by the preprocessor's line markers.

--self-test runs the check on doctored copies and fails unless each of
them fails it where it must (NEGATIVE); first it checks that the real
copy passes.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kcore  # noqa: E402

TOP = kcore.TOP

FRAMAC_CPP = ['-D__FRAMAC__', '-D__FC_MACHDEP_X86_64']
KERNEL_CPP = ['-std=gnu11', '-nostdinc', '-D__KERNEL__']

# The kernel's headers as far as the core uses them: include/linux/types.h
# (with linux/stddef.h: bool, true, false, NULL) and linux/compiler.h,
# whose READ_ONCE() and attribute macros stay identifiers here.
STUB_HEADERS = {
    'linux/types.h': '''\
/* Stub of include/linux/types.h for kcore-equiv.py. */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef _Bool bool;
typedef unsigned long size_t;
enum { false = 0, true = 1 };
#define NULL ((void *)0)
#endif
''',
    'linux/compiler.h': '''\
/*
 * Stub of include/linux/compiler.h for kcore-equiv.py: READ_ONCE() and the
 * attribute macros (__uninitialized, from compiler_attributes.h) are left
 * unexpanded, so that the compare sees them as written.
 */
''',
}

# ---------------------------------------------------------------- ALLOWED
#
# The allowed differences.  Each is an exact rewrite of a token pattern.
# Group "kernel" rewrites one side's idiom into the other's form, on that
# side only; group "style" are C identities the generator uses for the
# kernel's style, applied to both streams (each leaves the meaning of the
# code as it is, so either stream may hold either form).

ALLOWED = [
    ('kernel-types', 'kernel',
     'The kernel copy spells the <stdint.h> types the kernel way: u8, u16, '
     'u32, u64, s8 .. s64 (rewritten to uint8_t .. int64_t).  In a kernel '
     'build linux/types.h defines uint32_t and the others as typedefs of '
     'these very types, so the proven text built in a kernel had them.'),
    ('kernel-bool', 'kernel',
     'bool, true and false: <stdbool.h> macros (_Bool, 1, 0) in the proven '
     'text, the typedef of _Bool and the enum constants 1 and 0 of '
     'linux/types.h and linux/stddef.h in the kernel (rewritten to _Bool, 1, 0).'),
    ('read-once', 'frama-c',
     'HVIPI_READ_ONCE(x): READ_ONCE(x) in the kernel, a volatile load '
     '(*(const volatile __typeof__(x) *)&(x)) under Frama-C, so that WP '
     'assumes nothing of the value (src/hvipi.h).  The Frama-C pattern, '
     'with the same x twice, is rewritten to READ_ONCE ( x ).'),
    ('written-first', 'kernel',
     'HVIPI_WRITTEN_FIRST: __uninitialized in the kernel (no automatic '
     'clearing under CONFIG_INIT_STACK_ALL_ZERO), nothing elsewhere: the '
     'proven text writes the set before any read (EVA).  "IDENT '
     '__uninitialized ;" is rewritten to "IDENT ;".'),
    ('hook-points', 'style',
     'The race-test hook points HVIPI_AFTER_READ*(): "do { } while ( 0 ) ;" '
     'unless HVIPI_RACE_HOOK (tests/race only); the generator drops them.  '
     'The empty statement is deleted.'),
    ('empty-blocks', 'style',
     'Blocks that held only annotations (ghost code, assertions): "{ }" as '
     'a statement (after ";", "{" or "}") and "else { }" are deleted.'),
    ('single-statement-braces', 'style',
     'An if/for/while/else body "{ S }" of one simple statement S (no '
     'braces, no if/else/for/while/do/switch/case/default) is S: the '
     'generator drops the braces of such if/for/while bodies (kernel style), '
     'which the annotations leave with one statement.'),
    ('bit-constants', 'style',
     '"( 1u << N )" is "0x<2^N>u": the generator spells #define NAME '
     '(1u << N) in hex (checkpatch BIT_MACRO); same value, same suffix, so '
     'the same type.'),
    ('proof-marks', 'frama-c',
     'The read check\'s marks (proofs/read-check.sh): __hvipi_shared and '
     '__hvipi_force expand to nothing in both texts and are not in the '
     'kernel copy; the cast a load\'s model makes only to drop the mark, '
     '"( const T * )" on a source line that holds __hvipi_force, is '
     'deleted (the kernel copy assigns the pointer as it is).'),
    ('acsl-only-macros', 'frama-c',
     'The macros of hvipi.h whose expansion is ACSL, not C '
     '(kcore.ACSL_ONLY_MACROS: HVIPI_SEND, HVIPI_FLUSH_SET, '
     'HVIPI_FLUSH_REACHES) are not in the kernel copy; no C uses them.'),
]

TYPE_BACK = {v: k for k, v in kcore.TYPE_MAP.items()}

# The read check's marks, which the kernel copy does not have (kcore.py).
PROOF_MARK_MACROS = {'__hvipi_shared', '__hvipi_force'}
KEYWORDS_NOT_SIMPLE = {'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'default'}


class Tok:
    __slots__ = ('t', 'file', 'line')

    def __init__(self, t, f, line):
        self.t, self.file, self.line = t, f, line

    def __repr__(self):
        return self.t


TOKEN_RE = re.compile(r'''
    [A-Za-z_]\w*
  | \.?\d(?:[eEpP][+-]|[\w.])*
  | "(?:\\.|[^"\\])*"
  | '(?:\\.|[^'\\])*'
  | <<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#
  | \S
''', re.X)


def preprocess(cfile, args, keep_dirs):
    """The tokens gcc -E gives of cfile that come from a file under one of
    keep_dirs."""
    r = subprocess.run(['gcc', '-E'] + args + [cfile], capture_output=True, text=True)
    if r.returncode != 0:
        raise kcore.KcoreError(f'gcc -E {" ".join(args)} {cfile} failed:\n{r.stderr.strip()}')
    keep = [os.path.realpath(d) + os.sep for d in keep_dirs]
    toks = []
    cur, line, keep_cur = '', 0, False
    for ln in r.stdout.split('\n'):
        m = re.match(r'#\s*(\d+)\s+"((?:\\.|[^"\\])*)"', ln)
        if m:
            line = int(m.group(1))
            cur = m.group(2)
            real = os.path.realpath(cur) if not cur.startswith('<') else cur
            keep_cur = any(real.startswith(k) for k in keep)
            continue
        if keep_cur and ln.strip():
            if ln.lstrip().startswith('#'):
                raise kcore.KcoreError(f'{cur}:{line}: directive left by gcc -E: {ln.strip()}')
            for t in TOKEN_RE.findall(ln):
                toks.append(Tok(t, os.path.relpath(cur, TOP) if cur.startswith(TOP) else cur, line))
        line += 1
    return toks


# --------------------------------------------------------- items

def split_items(toks):
    """The top-level declarations and function definitions."""
    items, cur = [], []
    depth = 0
    body = False
    for tk in toks:
        cur.append(tk)
        if tk.t == '{':
            if depth == 0:
                prev = cur[-2].t if len(cur) > 1 else ''
                body = prev == ')'
            depth += 1
        elif tk.t == '}':
            depth -= 1
            if depth == 0 and body:
                items.append(cur)
                cur, body = [], False
        elif tk.t == ';' and depth == 0:
            items.append(cur)
            cur = []
    if cur:
        items.append(cur)
    return items


def item_name(item):
    ts = [tk.t for tk in item]
    depth = 0
    for i, t in enumerate(ts):
        if t in ('{', '=') and depth == 0:
            break
        if t == '(' and depth == 0:
            for j in range(i - 1, -1, -1):
                if re.match(r'[A-Za-z_]\w*$', ts[j]):
                    return ts[j]
            break
        depth += t == '('
        depth -= t == ')'
    if ts and ts[0] in ('struct', 'enum', 'union') and len(ts) > 1:
        return ts[0] + ' ' + ts[1]
    idents = [t for t in ts if re.match(r'[A-Za-z_]\w*$', t)]
    return idents[-1] if idents else '?'


# ------------------------------------------------------ rewrites

def matching(ts, i, open_t, close_t):
    """Index of the token closing the one at i."""
    depth = 0
    for j in range(i, len(ts)):
        if ts[j].t == open_t:
            depth += 1
        elif ts[j].t == close_t:
            depth -= 1
            if depth == 0:
                return j
    return None


def rw_kernel_types(ts, count):
    out = []
    for tk in ts:
        if tk.t in TYPE_BACK:
            tk = Tok(TYPE_BACK[tk.t], tk.file, tk.line)
            count['kernel-types'] += 1
        out.append(tk)
    return out


def rw_kernel_bool(ts, count):
    m = {'bool': '_Bool', 'true': '1', 'false': '0'}
    out = []
    for tk in ts:
        if tk.t in m:
            tk = Tok(m[tk.t], tk.file, tk.line)
            count['kernel-bool'] += 1
        out.append(tk)
    return out


def rw_read_once(ts, count):
    """( * ( const volatile __typeof__ ( X ) * ) & ( X ) ) -> READ_ONCE ( X )"""
    out = []
    i = 0
    head = ['(', '*', '(', 'const', 'volatile', '__typeof__', '(']
    while i < len(ts):
        if [t.t for t in ts[i:i + 7]] == head:
            x0 = i + 6
            x1 = matching(ts, x0, '(', ')')
            if x1 is not None and [t.t for t in ts[x1:x1 + 5]] == [')', '*', ')', '&', '(']:
                y0 = x1 + 4
                y1 = matching(ts, y0, '(', ')')
                if y1 is not None and y1 + 1 < len(ts) and ts[y1 + 1].t == ')' and \
                        [t.t for t in ts[x0:x1 + 1]] == [t.t for t in ts[y0:y1 + 1]]:
                    out.append(Tok('READ_ONCE', ts[i].file, ts[i].line))
                    out.extend(ts[x0:x1 + 1])
                    count['read-once'] += 1
                    i = y1 + 2
                    continue
        out.append(ts[i])
        i += 1
    return out


def rw_proof_marks(ts, count):
    """( const T * ) on a source line holding __hvipi_force -> nothing."""
    out = []
    i = 0
    lines = {}
    while i < len(ts):
        tk = ts[i]
        if tk.t == '(' and i + 1 < len(ts) and ts[i + 1].t == 'const':
            j = matching(ts, i, '(', ')')
            if j is not None and ts[j - 1].t == '*':
                if tk.file not in lines:
                    # preprocess() names a file under TOP relative to TOP
                    path = tk.file if os.path.isabs(tk.file) else os.path.join(TOP, tk.file)
                    try:
                        with open(path, encoding='utf-8') as f:
                            lines[tk.file] = f.read().split('\n')
                    except OSError:
                        lines[tk.file] = []
                src = lines[tk.file]
                if 0 < tk.line <= len(src) and '__hvipi_force' in src[tk.line - 1]:
                    count['proof-marks'] += 1
                    i = j + 1
                    continue
        out.append(tk)
        i += 1
    return out


def rw_written_first(ts, count):
    out = []
    for i, tk in enumerate(ts):
        if tk.t == '__uninitialized' and 0 < i < len(ts) - 1 and ts[i + 1].t == ';' and \
                re.match(r'[A-Za-z_]\w*$', ts[i - 1].t):
            count['written-first'] += 1
            continue
        out.append(tk)
    return out


def rw_hook_points(ts, count):
    pat = ['do', '{', '}', 'while', '(', '0', ')', ';']
    out = []
    i = 0
    while i < len(ts):
        if [t.t for t in ts[i:i + 8]] == pat and out and out[-1].t in (';', '{', '}'):
            count['hook-points'] += 1
            i += 8
            continue
        out.append(ts[i])
        i += 1
    return out


def rw_empty_blocks(ts, count):
    out = []
    i = 0
    while i < len(ts):
        if ts[i].t == 'else' and i + 2 < len(ts) and ts[i + 1].t == '{' and ts[i + 2].t == '}':
            count['empty-blocks'] += 1
            i += 3
            continue
        if ts[i].t == '{' and i + 1 < len(ts) and ts[i + 1].t == '}' and out and \
                out[-1].t in (';', '{', '}'):
            count['empty-blocks'] += 1
            i += 2
            continue
        out.append(ts[i])
        i += 1
    return out


def simple_statement(ts, a, b):
    """ts[a:b] is one simple statement: no braces, ends with its only ';'
    at parenthesis depth 0, starts with no compound keyword."""
    if b <= a or ts[a].t in KEYWORDS_NOT_SIMPLE or ts[b - 1].t != ';':
        return False
    depth = 0
    for k in range(a, b):
        t = ts[k].t
        if t in ('{', '}'):
            return False
        depth += t == '('
        depth -= t == ')'
        if t == ';' and depth == 0 and k != b - 1:
            return False
    return depth == 0


def rw_single_braces(ts, count):
    # The '(' of each ')' that closes an if/for/while head.
    opener = {}
    stack = []
    for k, tk in enumerate(ts):
        if tk.t == '(':
            stack.append(k)
        elif tk.t == ')' and stack:
            opener[k] = stack.pop()
    drop = set()
    for k, tk in enumerate(ts):
        if tk.t != '{' or k == 0:
            continue
        p = ts[k - 1].t
        head = p == 'else' or (p == ')' and (k - 1) in opener and opener[k - 1] > 0 and
                               ts[opener[k - 1] - 1].t in ('if', 'for', 'while'))
        if not head:
            continue
        e = matching(ts, k, '{', '}')
        if e is not None and simple_statement(ts, k + 1, e):
            drop.update((k, e))
            count['single-statement-braces'] += 1
    return [tk for k, tk in enumerate(ts) if k not in drop]


def rw_bit_constants(ts, count):
    out = []
    i = 0
    while i < len(ts):
        w = [t.t for t in ts[i:i + 5]]
        if len(w) == 5 and w[0] == '(' and w[2] == '<<' and w[4] == ')':
            m = re.fullmatch(r'1([uU]|[uU][lL]{1,2})', w[1])
            if m and re.fullmatch(r'\d+', w[3]) and int(w[3]) < (32 if len(m.group(1)) == 1 else 64):
                out.append(Tok(f'0x{1 << int(w[3]):x}{m.group(1)}', ts[i].file, ts[i].line))
                count['bit-constants'] += 1
                i += 5
                continue
        out.append(ts[i])
        i += 1
    return out


def rewrite(ts, side, count):
    """The rewrites of ALLOWED for one side ("frama-c" or "kernel")."""
    if side == 'kernel':
        ts = rw_kernel_types(ts, count)
        ts = rw_kernel_bool(ts, count)
        ts = rw_written_first(ts, count)
    else:
        ts = rw_read_once(ts, count)
        ts = rw_proof_marks(ts, count)
    ts = rw_hook_points(ts, count)
    ts = rw_empty_blocks(ts, count)
    ts = rw_single_braces(ts, count)
    ts = rw_bit_constants(ts, count)
    return ts


# ------------------------------------------------------- compare

class Result:
    def __init__(self, ok, msg, item=None, counts=None, nitems=0):
        self.ok, self.msg, self.item, self.counts, self.nitems = ok, msg, item, counts, nitems


def context(ts, k, n=6):
    a = max(0, k - n)
    return ' '.join(t.t for t in ts[a:k + n])


def compare(src, kdir, spec=None):
    """Compare src/hvipi.c as Frama-C reads it with kdir/hvipi.c as the
    kernel does."""
    spec = spec or os.path.join(TOP, 'spec')
    with tempfile.TemporaryDirectory(prefix='kcore-stubs.') as stubs:
        for name, text in STUB_HEADERS.items():
            os.makedirs(os.path.join(stubs, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(stubs, name), 'w') as f:
                f.write(text)
        proven = preprocess(os.path.join(src, 'hvipi.c'),
                            FRAMAC_CPP + ['-I', src, '-I', spec], [src, spec])
        kernel = preprocess(os.path.join(kdir, 'hvipi.c'),
                            KERNEL_CPP + ['-I', kdir, '-I', stubs], [kdir])
        count = {name: 0 for name, _, _ in ALLOWED}
        pi = split_items(rewrite(proven, 'frama-c', count))
        ki = split_items(rewrite(kernel, 'kernel', count))
        for n in range(max(len(pi), len(ki))):
            a = pi[n] if n < len(pi) else []
            b = ki[n] if n < len(ki) else []
            at = [t.t for t in a]
            bt = [t.t for t in b]
            if at == bt:
                continue
            name = item_name(a or b)
            k = 0
            while k < min(len(at), len(bt)) and at[k] == bt[k]:
                k += 1
            where_a = f'{a[min(k, len(a) - 1)].file}:{a[min(k, len(a) - 1)].line}' if a else 'nothing'
            where_b = f'{b[min(k, len(b) - 1)].file}:{b[min(k, len(b) - 1)].line}' if b else 'nothing'
            msg = (f'item {n + 1} ({name}) differs at token {k + 1}:\n'
                   f'  proven ({where_a}): ... {context(a, k)} ...\n'
                   f'  kernel ({where_b}): ... {context(b, k)} ...')
            return Result(False, msg, name, count, len(pi))
        r = compare_macros(src, spec, kdir, stubs, count)
        if isinstance(r, str):
            m = re.match(r'macro (\w+)', r)
            return Result(False, r, 'macro ' + m.group(1) if m else 'macros', count, len(pi))
        nmacros = r[1]
    return Result(True, f'{len(pi)} declarations and definitions ({len(proven)} and '
                  f'{len(kernel)} tokens) and the expansions of {nmacros} macros of hvipi.h '
                  f'identical but for ALLOWED', None, count, len(pi))


def header_macros(hdir, args):
    """{name: number of parameters or None} of the macros hdir/hvipi.h
    defines itself (not those of the headers it includes)."""
    r = subprocess.run(['gcc', '-E', '-dD'] + args + [os.path.join(hdir, 'hvipi.h')],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise kcore.KcoreError(f'gcc -E -dD {hdir}/hvipi.h failed:\n{r.stderr.strip()}')
    want = os.path.realpath(os.path.join(hdir, 'hvipi.h'))
    out, cur = {}, ''
    for ln in r.stdout.split('\n'):
        m = re.match(r'#\s*(\d+)\s+"((?:\\.|[^"\\])*)"', ln)
        if m:
            cur = m.group(2)
            continue
        m = re.match(r'#define (\w+)(\(([^)]*)\))?', ln)
        if m and not cur.startswith('<') and os.path.realpath(cur) == want:
            params = m.group(3)
            out[m.group(1)] = None if m.group(2) is None else \
                len([x for x in params.split(',') if x.strip()])
    return out


def compare_macros(src, spec, kdir, stubs, count):
    """Every macro of hvipi.h expands alike in both texts (the glue uses
    some the core does not), but for ACSL-only ones (kcore.ACSL_ONLY_MACROS)
    the kernel copy does not have.  Returns an error message or None."""
    fargs = FRAMAC_CPP + ['-I', src, '-I', spec]
    kargs = KERNEL_CPP + ['-I', kdir, '-I', stubs]
    pm, km = header_macros(src, fargs), header_macros(kdir, kargs)
    extra = sorted(set(km) - set(pm))
    if extra:
        return f'macros of the kernel copy the proven hvipi.h does not define: {", ".join(extra)}'
    gone = sorted(set(pm) - set(km))
    unexpected = [m for m in gone if m not in kcore.ACSL_ONLY_MACROS and
                  m not in PROOF_MARK_MACROS]
    if unexpected:
        return f'macros of the proven hvipi.h the kernel copy lacks: {", ".join(unexpected)}'
    names = sorted(set(pm) & set(km))
    for m in names:
        if pm[m] != km[m]:
            return f'macro {m}: {pm[m]} parameters in the proven text, {km[m]} in the kernel copy'
    uses = []
    for m in names:
        use = m if pm[m] is None else f'{m}({", ".join(f"kcore_arg{i}" for i in range(pm[m]))})'
        uses.append(f'kcore_probe_{m} kcore_x {use} ;')
    probes = '#include "hvipi.h"\n' + '\n'.join(uses) + '\n'
    with tempfile.TemporaryDirectory(prefix='kcore-probe.') as pd:
        for side, args in (('proven', fargs), ('kernel', kargs)):
            os.makedirs(os.path.join(pd, side))
            with open(os.path.join(pd, side, 'probe.c'), 'w') as f:
                f.write(probes)
        pt = preprocess(os.path.join(pd, 'proven', 'probe.c'), fargs, [os.path.join(pd, 'proven')])
        kt = preprocess(os.path.join(pd, 'kernel', 'probe.c'), kargs, [os.path.join(pd, 'kernel')])
    pt, kt = rewrite(pt, 'frama-c', count), rewrite(kt, 'kernel', count)

    def by_probe(ts):
        out, cur = {}, None
        for tk in ts:
            if tk.t.startswith('kcore_probe_'):
                cur = tk.t[len('kcore_probe_'):]
                out[cur] = []
            elif cur is not None:
                out[cur].append(tk.t)
        return out
    pe, ke = by_probe(pt), by_probe(kt)
    for m in names:
        if pe.get(m) != ke.get(m):
            return (f'macro {m} expands differently:\n'
                    f'  proven: {" ".join(pe.get(m, [])[1:-1])}\n'
                    f'  kernel: {" ".join(ke.get(m, [])[1:-1])}')
    # The marks must expand to nothing in the proven text.
    with tempfile.TemporaryDirectory(prefix='kcore-probe.') as pd:
        with open(os.path.join(pd, 'probe.c'), 'w') as f:
            f.write('#include "hvipi.h"\n' + '\n'.join(
                f'kcore_probe_{m} {m} ;' for m in sorted(PROOF_MARK_MACROS)) + '\n')
        me = by_probe(preprocess(os.path.join(pd, 'probe.c'), fargs, [pd]))
    for m in sorted(PROOF_MARK_MACROS):
        if me.get(m) != [';']:
            return f'macro {m} expands to {" ".join(me.get(m, [])[:-1])!r} in the proven text, not to nothing'
    count['acsl-only-macros'] += len([m for m in gone if m in kcore.ACSL_ONLY_MACROS])
    count['proof-marks'] += len([m for m in gone if m in PROOF_MARK_MACROS])
    return None, len(names)


def report_counts(count):
    return ', '.join(f'{k} {v}' for k, v in count.items())


# ------------------------------------------------------- self-test

def doctor(path, old, new, count=1):
    with open(path) as f:
        text = f.read()
    if text.count(old) != count:
        raise kcore.KcoreError(f'self-test: "{old.strip()}" occurs {text.count(old)} times '
                               f'in {path}, not {count}: the negative check no longer applies')
    with open(path, 'w') as f:
        f.write(text.replace(old, new))


def write_copy(out, d):
    os.makedirs(d, exist_ok=True)
    for name, text in out.items():
        with open(os.path.join(d, name), 'w') as f:
            f.write(text)


def copy_src(tmp, name):
    d = os.path.join(tmp, name)
    os.makedirs(os.path.join(d, 'src'))
    for f in ('hvipi.c', 'hvipi.h', 'hvipi_types.h'):
        shutil.copy(os.path.join(TOP, 'src', f), os.path.join(d, 'src', f))
    os.symlink(os.path.join(TOP, 'spec'), os.path.join(d, 'spec'))
    return os.path.join(d, 'src')


# The negative checks: (name, what, where the compare must fail, how).
# kernel: the fresh kernel copy doctored; src: src/ doctored, then the
# kernel copy generated from it.
NEGATIVE = [
    ('a-plain-read-once', 'the kernel HVIPI_READ_ONCE made a plain access (x)',
     'hvipi_load_mask', 'kernel', 'hvipi.h',
     '#define HVIPI_READ_ONCE(x)\tREAD_ONCE(x)\n', '#define HVIPI_READ_ONCE(x)\t(x)\n'),
    ('b-kernel-skips-store', 'a #ifdef __KERNEL__ branch of src/hvipi.c that skips a store '
     '(plan->bytes of hvipi_plan_one()\'s EX_SPARSE plan)',
     'hvipi_plan_one', 'src', 'hvipi.c',
     '\tplan->banks = 1;\n\tplan->bytes = HVIPI_EX_HDR_BYTES + 8u;\n\t/*@ assert page_kept:',
     '\tplan->banks = 1;\n#ifdef __KERNEL__\n#else\n\tplan->bytes = HVIPI_EX_HDR_BYTES + 8u;\n'
     '#endif\n\t/*@ assert page_kept:'),
    ('b-kernel-skips-clear', 'a #ifdef __KERNEL__ branch of src/hvipi.c that skips a clear '
     '(plan->valid_bank_mask in hvipi_plan_clear())',
     'hvipi_plan_clear', 'src', 'hvipi.c',
     '\tplan->r8 = 0;\n\tplan->valid_bank_mask = 0;\n\tplan->banks = 0;\n\tplan->bytes = 0;\n}\n\n'
     '/*@ requires \\valid(plan);\n  @ requires reason != HVIPI_FB_NONE;',
     '\tplan->r8 = 0;\n#ifndef __KERNEL__\n\tplan->valid_bank_mask = 0;\n#endif\n'
     '\tplan->banks = 0;\n\tplan->bytes = 0;\n}\n\n'
     '/*@ requires \\valid(plan);\n  @ requires reason != HVIPI_FB_NONE;'),
    ('c-constant-in-code', 'a constant of a function body changed in the kernel copy '
     '(4095u, the most additional pages of a GVA entry, made 4094u)',
     'hvipi_gva_list', 'kernel', 'hvipi.c',
     '(more < 4095u ? more : 4095u)', '(more < 4095u ? more : 4094u)'),
    ('c-constant-in-macro', 'a constant of hvipi.h changed in the kernel copy '
     '(HVIPI_VP_LIMIT 4096u made 4095u)',
     'hvipi_add_vp', 'kernel', 'hvipi.h',
     '#define HVIPI_VP_LIMIT\t\t4096u', '#define HVIPI_VP_LIMIT\t\t4095u'),
    ('c-bit-constant', 'a hint bit changed in the kernel copy (HVIPI_HINT_EX_MASKS 0x2u '
     'made 0x4u)',
     'hvipi_all_rule', 'kernel', 'hvipi.h',
     '#define HVIPI_HINT_EX_MASKS\t0x2u', '#define HVIPI_HINT_EX_MASKS\t0x4u'),
    ('c-constant-in-api-macro', 'a constant of a macro only the glue uses changed in the '
     'kernel copy (HVIPI_CTL_FAST_SEND_IPI 0x1000bull made 0x1000aull)',
     'macro HVIPI_CTL_FAST_SEND_IPI', 'kernel', 'hvipi.h',
     '#define HVIPI_CTL_FAST_SEND_IPI\t0x1000bull', '#define HVIPI_CTL_FAST_SEND_IPI\t0x1000aull'),
    ('d-plain-load', 'a load of the kernel copy that bypasses HVIPI_READ_ONCE',
     'hvipi_load_present', 'kernel', 'hvipi.h',
     'p = present;\n\n\treturn HVIPI_READ_ONCE(p[w]);',
     'p = present;\n\n\treturn p[w];'),
    ('d-type-changed', 'a type of the kernel copy changed (hvipi_vp_ident() returns u64)',
     'hvipi_vp_ident', 'kernel', 'hvipi.c',
     '\nu32 hvipi_vp_ident(', '\nu64 hvipi_vp_ident('),
    ('d-statement-dropped', 'a statement dropped from the kernel copy (the rep start of '
     'hvipi_rep_next()\'s AGAIN)',
     'hvipi_rep_next', 'kernel', 'hvipi.c',
     '\t*next = control + (done - start) * (1ull << HVIPI_CTL_REP_START_SHIFT);\n', ''),
]


def self_test():
    """Returns (passed, failed) and prints a line per check."""
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix='kcore-selftest.') as tmp:
        src = os.path.join(TOP, 'src')
        fresh = kcore.generate(src)
        ok_dir = os.path.join(tmp, 'ok')
        write_copy(fresh, ok_dir)
        r = compare(src, ok_dir)
        if r.ok:
            passed += 1
            print(f'kcore-equiv: self-test: PASS the real kernel copy: {r.msg}')
        else:
            failed += 1
            print(f'kcore-equiv: self-test: FAIL the real kernel copy does not pass:\n{r.msg}')
        for name, what, where, kind, fname, old, new in NEGATIVE:
            try:
                if kind == 'kernel':
                    d = os.path.join(tmp, name)
                    write_copy(fresh, d)
                    doctor(os.path.join(d, fname), old, new)
                    r = compare(src, d)
                else:
                    dsrc = copy_src(tmp, name)
                    doctor(os.path.join(dsrc, fname), old, new)
                    d = os.path.join(tmp, name, 'kernel')
                    write_copy(kcore.generate(dsrc), d)
                    r = compare(dsrc, d)
            except kcore.KcoreError as e:
                failed += 1
                print(f'kcore-equiv: self-test: FAIL ({name}) {what}: {e}')
                continue
            if not r.ok and r.item == where:
                passed += 1
                first = r.msg.split('\n')
                print(f'kcore-equiv: self-test: PASS ({name}) {what}: caught, {first[0]}')
                for ln in first[1:]:
                    print(f'kcore-equiv:   {ln.strip()}')
            elif not r.ok:
                failed += 1
                print(f'kcore-equiv: self-test: FAIL ({name}) {what}: caught in {r.item}, '
                      f'not in {where}:\n{r.msg}')
            else:
                failed += 1
                print(f'kcore-equiv: self-test: FAIL ({name}) {what}: NOT caught ({r.msg})')
    return passed, failed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kernel', metavar='DIR', help='the kernel copy (default: a fresh one)')
    ap.add_argument('--src', metavar='SRC', help="the proven sources (default: the repository's src/)")
    ap.add_argument('--self-test', action='store_true', help='run the negative checks')
    ap.add_argument('--list', action='store_true', help='print the allowed differences')
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    if a.list:
        for name, side, why in ALLOWED:
            print(f'{name} ({side}): {why}')
        return 0
    try:
        if a.self_test:
            p, f = self_test()
            print(f'kcore-equiv: self-test: {p} passed, {f} failed '
                  f'({time.monotonic() - t0:.1f} s)')
            return 0 if f == 0 else 1
        src = os.path.abspath(a.src or os.path.join(TOP, 'src'))
        if a.kernel:
            r = compare(src, os.path.abspath(a.kernel))
        else:
            with tempfile.TemporaryDirectory(prefix='kcore.') as tmp:
                write_copy(kcore.generate(src), tmp)
                r = compare(src, tmp)
    except kcore.KcoreError as e:
        print(f'kcore-equiv: {e}', file=sys.stderr)
        return 2
    dt = time.monotonic() - t0
    if r.ok:
        print(f'kcore-equiv: the kernel copy computes what the proven text computes: {r.msg} '
              f'({dt:.1f} s)')
        print(f'kcore-equiv: allowed differences applied: {report_counts(r.counts)}')
        return 0
    print(f'kcore-equiv: FAILED: {r.msg}', file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
