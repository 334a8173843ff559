#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kcore.py: the kernel copy of hvipi's verified core, generated from src/.

  kcore.py --out DIR      write DIR/hvipi.c and DIR/hvipi.h
  kcore.py --check DIR    exit 1, naming the first difference, unless
                          DIR/hvipi.c and DIR/hvipi.h are exactly what
                          --out writes
  --src SRC               the sources (default: the repository's src/)

The core (src/hvipi.c, src/hvipi.h, src/hvipi_types.h) is one text for
userspace, Frama-C and the kernel.  The kernel gets plain kernel-style C,
the way lib/crypto gets its verified curve25519: the proofs stay here.
What the generator does, in order (each step fails loudly on a shape it
was not written for, so that a new one is a conscious decision):

 1. The preprocessor conditionals are resolved as the kernel build sees
    them: __KERNEL__ defined; __FRAMAC__, HVIPI_WITH_SPEC,
    HVIPI_RACE_HOOK, HVIPI_PLAIN_LOADS and HVIPI_READ_CHECK undefined.  A conditional on any other name is an
    error, except the header's include guard, which stays.
    #include "../spec/..." lines go; #include "hvipi_types.h" becomes the
    kernel branch of that file (<linux/types.h>).
 2. Every ACSL annotation goes: /*@ ... */ blocks (contracts, loop
    annotations, assertions, ghost code, logic) and //@ lines.  A C
    comment that stands right before a ghost or assert annotation (nothing
    but white space between) explains that annotation and goes with it.
 3. The macros of ACSL_ONLY_MACROS go, with the comment right above each:
    their expansions are not C (an ACSL argument list, an ACSL predicate).
 4. Test hooks: a function-like macro whose kernel definition is
    "do { } while (0)" (the race-test hook points, empty unless
    HVIPI_RACE_HOOK) goes, with every statement that uses it.
 5. Blocks the annotations leave empty go ("{ }" as a statement, "else
    { }"); an if/for/while body left with one simple statement loses its
    braces (kernel style).  No blank-line runs, no blank line after "{" or
    before "}".
 6. Kernel style where the shared text cannot have it: multi-line block
    comments get "/*" and " */" on lines of their own; a multi-line
    comment after code moves above that line; a "#define NAME (1u << N)"
    is spelled "0x...u" (checkpatch's BIT_MACRO: same value, same type).
 7. The <stdint.h> types become the kernel's (uint32_t -> u32, int32_t ->
    s32, ...); parameters aligned with an open parenthesis that moved are
    aligned again, and a tab-aligned comment after code keeps its column.
    Any other "*_t" type but size_t is an error.
 8. Each file starts with the GPL-2.0-only SPDX line and a header that
    says where it comes from and how to check it.

The code is otherwise kept token for token, its comments word for word;
kcore-equiv.py checks the tokens against the text Frama-C proves.
Deterministic: the output depends only on the three source files.
"""

import argparse
import os
import re
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

# The preprocessor names the core tests, as the kernel build sees them.
KERNEL_DEFINED = {'__KERNEL__': True, '__FRAMAC__': False,
                  'HVIPI_WITH_SPEC': False, 'HVIPI_RACE_HOOK': False,
                  'HVIPI_PLAIN_LOADS': False, 'HVIPI_READ_CHECK': False}

# Macros whose expansion is ACSL, not C: used only in the contracts, they
# would be dead text in the kernel.  Each is checked to occur nowhere in the
# C of the kernel copy and of the glue (kernel-glue/*.[ch], the series).
ACSL_ONLY_MACROS = {
    'HVIPI_SEND': 'the argument list (mask, nr_cpu_ids, vp_index, self, '
                  'exclude_self) of the ACSL predicates',
    'HVIPI_FLUSH_SET': 'the same argument list for a flush',
    'HVIPI_FLUSH_REACHES': 'an ACSL predicate (flush_reads, spec/hvipi_receiver.h)',
}

# <stdint.h> names and the kernel's (include/linux/types.h).
TYPE_MAP = {
    'uint8_t': 'u8', 'uint16_t': 'u16', 'uint32_t': 'u32', 'uint64_t': 'u64',
    'int8_t': 's8', 'int16_t': 's16', 'int32_t': 's32', 'int64_t': 's64',
}
# "*_t" names the kernel has under the same name.
TYPES_KEPT = {'size_t'}

OUTPUTS = ('hvipi.c', 'hvipi.h')

TAB = 8
LINE_MAX = 80


class KcoreError(Exception):
    pass


def fail(path, line, msg):
    raise KcoreError(f'{path}:{line}: {msg}' if line else f'{path}: {msg}')


# ---------------------------------------------------------------- lexing

class Seg:
    """A piece of source text: kind is code, str (a string or character
    literal), ws, nl, comment or acsl.  dir is the number of the
    preprocessor directive the piece belongs to (None outside one)."""
    __slots__ = ('kind', 'text', 'line', 'dir', 'gone', 'repl')

    def __init__(self, kind, text, line, dirno):
        self.kind, self.text, self.line, self.dir = kind, text, line, dirno
        self.gone = False   # removed: rendered as a mark the cleanup drops
        self.repl = None    # replaced by this text


def lex(text, path):
    segs = []
    i, n, line = 0, len(text), 1
    bol = True          # only white space since the start of the line
    cur = None          # the directive being lexed
    ndir = 0

    def add(kind, s):
        segs.append(Seg(kind, s, line, cur))

    while i < n:
        c = text[i]
        if c == '\n':
            cont = cur is not None and segs and segs[-1].kind == 'code' and \
                segs[-1].text.endswith('\\')
            if not cont:
                cur = None
            add('nl', '\n')
            line += 1
            i += 1
            bol = True
            continue
        if c in ' \t':
            j = i
            while j < n and text[j] in ' \t':
                j += 1
            add('ws', text[i:j])
            i = j
            continue
        if c in '\r\f\v':
            fail(path, line, 'unexpected control character')
        if bol and c == '#' and cur is None:
            ndir += 1
            cur = ndir
        bol = False
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            if j < 0:
                fail(path, line, 'unterminated comment')
            s = text[i:j + 2]
            add('acsl' if s.startswith('/*@') else 'comment', s)
            line += s.count('\n')
            i = j + 2
            continue
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            s = text[i:j]
            if s.endswith('\\'):
                fail(path, line, '// comment continued with a backslash')
            add('acsl' if s.startswith('//@') else 'comment', s)
            i = j
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == '\n':
                    fail(path, line, 'unterminated literal')
                j += 2 if text[j] == '\\' else 1
            if j >= n:
                fail(path, line, 'unterminated literal')
            add('str', text[i:j + 1])
            i = j + 1
            continue
        j = i
        while j < n and text[j] not in ' \t\n\r\f\v"\'' and \
                not text.startswith('/*', j) and not text.startswith('//', j):
            j += 1
        add('code', text[i:j])
        i = j
    return segs


def directives(segs):
    """{number: [segments]} of the preprocessor directives."""
    out = {}
    for s in segs:
        if s.dir is not None:
            out.setdefault(s.dir, []).append(s)
    return out


def dir_text(dsegs):
    """A directive's text without its comments, white space collapsed."""
    t = ''.join(' ' if s.kind in ('comment', 'acsl', 'ws', 'nl') else s.text
                for s in dsegs)
    t = t.replace('\\ ', ' ')
    return ' '.join(t.split())


def dir_parse(text):
    m = re.match(r'#\s*(\w+)\s*(.*)$', text)
    if not m:
        return '', ''
    return m.group(1), m.group(2).strip()


# ---------------------------------------------------- conditionals

def eval_cond(expr, path, line):
    """Evaluate an #if expression of defined(), !, &&, || and parentheses."""
    toks = re.findall(r'defined|\w+|&&|\|\||[!()]|\S', expr)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take(t=None):
        tok = peek()
        if tok is None or (t is not None and tok != t):
            fail(path, line, f'cannot read the condition "{expr}"')
        pos[0] += 1
        return tok

    def name_value(name):
        if name not in KERNEL_DEFINED:
            fail(path, line, f'conditional on {name}, which kcore.py does not '
                 f'know: add it to KERNEL_DEFINED (as the kernel build sees it)')
        return KERNEL_DEFINED[name]

    def primary():
        tok = take()
        if tok == '!':
            return not primary()
        if tok == '(':
            v = disj()
            take(')')
            return v
        if tok == 'defined':
            if peek() == '(':
                take('(')
                v = name_value(take())
                take(')')
                return v
            return name_value(take())
        if tok in ('0', '1'):
            return tok == '1'
        fail(path, line, f'cannot read the condition "{expr}"')

    def conj():
        v = primary()
        while peek() == '&&':
            take()
            v = primary() and v
        return v

    def disj():
        v = conj()
        while peek() == '||':
            take()
            v = conj() or v
        return v

    v = disj()
    if peek() is not None:
        fail(path, line, f'cannot read the condition "{expr}"')
    return v


def include_guard(segs, dirs):
    """The include guard's three directive numbers, or None."""
    nums = sorted(dirs)
    if len(nums) < 3:
        return None
    k0, a0 = dir_parse(dir_text(dirs[nums[0]]))
    k1, a1 = dir_parse(dir_text(dirs[nums[1]]))
    kl, _ = dir_parse(dir_text(dirs[nums[-1]]))
    if k0 == 'ifndef' and k1 == 'define' and a0 == a1 and kl == 'endif':
        # Nothing but comments and white space before the guard.
        for s in segs:
            if s.dir == nums[0]:
                break
            if s.kind not in ('ws', 'nl', 'comment'):
                return None
        # The guard's #endif closes its #ifndef.
        depth = 0
        for k in nums:
            kw, _ = dir_parse(dir_text(dirs[k]))
            if kw in ('if', 'ifdef', 'ifndef'):
                depth += 1
            elif kw == 'endif':
                depth -= 1
                if depth == 0 and k != nums[-1]:
                    return None
        return nums[0], nums[1], nums[-1]
    return None


def resolve_conditionals(segs, path, keep_guard):
    dirs = directives(segs)
    guard = include_guard(segs, dirs) if keep_guard else None
    guard_nums = set(guard) if guard else set()
    if not keep_guard:
        g = include_guard(segs, dirs)
        if g:
            for k in g:
                for s in dirs[k]:
                    s.gone = True
            guard_nums = set(g)
    stack = []          # [parent active, a branch was taken]
    active = True
    seen = set()
    for s in segs:
        if s.dir is not None and s.dir not in seen:
            seen.add(s.dir)
            k = s.dir
            if k in guard_nums:
                continue
            kw, arg = dir_parse(dir_text(dirs[k]))
            cond = kw in ('if', 'ifdef', 'ifndef', 'elif', 'else', 'endif')
            # Every condition is read, also in a dropped branch, so that a
            # name kcore.py does not know is an error wherever it is.
            if kw in ('if', 'elif'):
                v = eval_cond(arg, path, s.line)
            elif kw in ('ifdef', 'ifndef'):
                v = eval_cond(f'defined({arg})', path, s.line)
                v = v if kw == 'ifdef' else not v
            if kw in ('if', 'ifdef', 'ifndef'):
                stack.append([active, v])
                active = v and active
            elif kw == 'elif':
                if not stack:
                    fail(path, s.line, '#elif without #if')
                fr = stack[-1]
                active = v and not fr[1] and fr[0]
                fr[1] = fr[1] or v
            elif kw == 'else':
                if not stack:
                    fail(path, s.line, '#else without #if')
                fr = stack[-1]
                active = not fr[1] and fr[0]
                fr[1] = True
            elif kw == 'endif':
                if not stack:
                    fail(path, s.line, '#endif without #if')
                fr = stack.pop()
                active = fr[0]
            if cond:
                for d in dirs[k]:
                    d.gone = True
                continue
        if s.dir is not None and s.dir in guard_nums:
            continue
        if not active:
            s.gone = True
    if stack:
        fail(path, 0, 'unterminated #if')


# ------------------------------------------------------- includes

def types_includes(src):
    """The kernel's includes of hvipi_types.h: its active #include lines."""
    path = os.path.join(src, 'hvipi_types.h')
    segs = lex(read(path), path)
    resolve_conditionals(segs, path, keep_guard=False)
    dirs = directives(segs)
    out = []
    for k in sorted(dirs):
        if all(s.gone for s in dirs[k]):
            continue
        kw, arg = dir_parse(dir_text(dirs[k]))
        if kw != 'include' or not re.fullmatch(r'<linux/[\w/]+\.h>', arg):
            fail(path, dirs[k][0].line, f'kernel branch holds "#{kw} {arg}": '
                 'only <linux/...> includes are expected')
        out.append(f'#include {arg}')
    for s in segs:
        if not s.gone and s.dir is None and s.kind in ('code', 'str'):
            fail(path, s.line, 'C code in the kernel branch of hvipi_types.h')
    if not out:
        fail(path, 0, 'no include in the kernel branch')
    return out


def resolve_includes(segs, path, src):
    dirs = directives(segs)
    for k in sorted(dirs):
        ds = dirs[k]
        if all(s.gone for s in ds):
            continue
        kw, arg = dir_parse(dir_text(ds))
        if kw != 'include':
            continue
        if arg.startswith('"../spec/'):
            for s in ds:
                s.gone = True
        elif arg == '"hvipi_types.h"':
            for s in ds:
                s.gone = True
            ds[0].gone = False
            ds[0].repl = '\n'.join(types_includes(src))
        elif arg == '"hvipi.h"' or re.fullmatch(r'<linux/[\w/]+\.h>', arg):
            pass
        else:
            fail(path, ds[0].line, f'#include {arg}: kcore.py knows no kernel form of it')


# ---------------------------------------------------------- ACSL

def acsl_kind(text):
    """The first word of an annotation: ghost, assert, requires, loop..."""
    body = text[3:].lstrip()
    while body.startswith('//'):
        nl = body.find('\n')
        body = '' if nl < 0 else body[nl + 1:].lstrip(' \t\n@')
    m = re.match(r'[a-z_]+', body)
    return m.group(0) if m else ''


def remove_acsl(segs):
    """Remove every annotation and the C comment that explains a ghost or
    assert annotation right after it."""
    for i, s in enumerate(segs):
        if s.kind != 'acsl' or s.gone:
            continue
        s.gone = True
        if acsl_kind(s.text) not in ('ghost', 'assert'):
            continue
        j = i - 1
        while j >= 0 and segs[j].kind in ('ws', 'nl') and not segs[j].gone:
            j -= 1
        if j < 0 or segs[j].kind != 'comment' or segs[j].gone:
            continue
        # The comment starts its line.
        k = j - 1
        while k >= 0 and segs[k].kind == 'ws':
            k -= 1
        if k < 0 or segs[k].kind == 'nl':
            segs[j].gone = True


def remove_acsl_only_macros(segs, path, found):
    dirs = directives(segs)
    for k in sorted(dirs):
        ds = dirs[k]
        if any(s.gone for s in ds):
            continue
        kw, arg = dir_parse(dir_text(ds))
        m = re.match(r'\w+', arg) if kw == 'define' else None
        name = m.group(0) if m else None
        if name not in ACSL_ONLY_MACROS:
            continue
        found.add(name)
        for s in ds:
            s.gone = True
        # The comment on the line right above goes with it.
        i = segs.index(ds[0]) - 1
        while i >= 0 and segs[i].kind == 'ws':
            i -= 1
        if i >= 1 and segs[i].kind == 'nl' and segs[i - 1].kind == 'comment':
            c = i - 1
            b = c - 1
            while b >= 0 and segs[b].kind == 'ws':
                b -= 1
            if b < 0 or segs[b].kind == 'nl':
                segs[c].gone = True


# ----------------------------------------------------- proof marks

# The read check's marks (proofs/read-check.sh): __hvipi_shared on what
# another CPU may change, and __hvipi_force on the loads' casts that drop
# it.  Empty in every build but that check, so the kernel copy has none:
# their definitions and the comment above them go, the marks go, and a
# cast made only to drop the mark goes with it.
PROOF_MARKS_DEF = re.compile(
    r'/\*\n \* __hvipi_shared marks[^\n]*\n(?: \*[^\n]*\n)*? \*/\n'
    r'#define __hvipi_shared\n#define __hvipi_force\n')
PROOF_MARKS_CAST = re.compile(r'\(const [a-z0-9_ ]+ __hvipi_force \*\)')


def remove_proof_marks(text, path):
    text, n = PROOF_MARKS_DEF.subn('', text)
    want = 1 if os.path.basename(path) == 'hvipi.h' else 0
    if n != want:
        fail(path, 0, f"the read check's marks defined {n} times here, not {want}")
    text = PROOF_MARKS_CAST.sub('', text)
    text = text.replace(' __hvipi_shared *', ' *')
    if '__hvipi_' in text:
        ln = text[:text.index('__hvipi_')].count('\n') + 1
        fail(path, ln, 'a read-check mark kcore.py does not know how to drop')
    return text


# ------------------------------------------------------ rendering

MARK = '\x00'


def render(segs):
    out = []
    for s in segs:
        if s.repl is not None:
            out.append(s.repl)
        elif s.gone:
            out.append('' if s.kind == 'nl' else MARK)
        else:
            out.append(s.text)
    return ''.join(out)


def drop_marks(text):
    """Lines left with nothing but marks and white space go; marks go."""
    out = []
    for ln in text.split('\n'):
        if MARK in ln:
            if not ln.replace(MARK, '').strip():
                continue
            ln = re.sub(r'[ \t]*' + MARK + r'+', '', ln).rstrip()
            ln = ln.replace(MARK, '')
        out.append(ln)
    return '\n'.join(out)


def blank_lines(lines):
    """No run of blank lines; none after a line ending in "{", before a
    line starting with "}", between two #include lines or at either end."""
    out = []
    for ln in lines:
        if not ln.strip():
            if out and out[-1] and not out[-1].rstrip().endswith('{'):
                out.append('')
            continue
        if out and not out[-1]:
            prev = out[-2] if len(out) > 1 else ''
            if re.match(r'\s*}', ln) or \
                    (ln.startswith('#include') and prev.startswith('#include')):
                out.pop()
        out.append(ln)
    while out and not out[-1]:
        out.pop()
    return out


# --------------------------------------------- line-level C shapes

def indent_of(ln):
    return ln[:len(ln) - len(ln.lstrip(' \t'))]


def paren_balance(s):
    return s.count('(') - s.count(')')


def statement_end(lines, i):
    """The last line of the statement starting at line i: the line where
    its parentheses balance and it ends with ';'."""
    depth = 0
    for j in range(i, len(lines)):
        depth += paren_balance(code_only(lines[j]))
        if depth == 0 and code_only(lines[j]).rstrip().endswith(';'):
            return j
        if depth < 0 or '{' in code_only(lines[j]) or '}' in code_only(lines[j]):
            return None
    return None


def code_only(ln):
    """A line without its comments and literals (for shape tests)."""
    ln = re.sub(r'"(\\.|[^"\\])*"', '""', ln)
    ln = re.sub(r"'(\\.|[^'\\])*'", "''", ln)
    ln = re.sub(r'/\*.*?\*/', ' ', ln)
    ln = re.sub(r'//.*', '', ln)
    return ln


def remove_hooks(lines, path):
    """Function-like macros defined as do { } while (0) go, and so does
    every statement that uses one."""
    hooks = []
    out = []
    for ln in lines:
        m = re.match(r'#\s*define\s+(\w+)\(([\w\s,]*)\)\s+do\s*\{\s*\}\s*while\s*\(\s*0\s*\)\s*$', ln)
        if m:
            hooks.append(m.group(1))
            continue
        out.append(ln)
    for name in hooks:
        lines, out = out, []
        i = 0
        while i < len(lines):
            ln = lines[i]
            if re.search(r'\b' + name + r'\b', ln):
                if not re.match(r'\s*' + name + r'\(', ln):
                    fail(path, 0, f'{name}, an empty hook, used other than as a '
                         f'statement: "{ln.strip()}"')
                end = statement_end(lines, i)
                if end is None:
                    fail(path, 0, f'{name}: cannot find the end of "{ln.strip()}"')
                i = end + 1
                continue
            out.append(ln)
            i += 1
    return out


SIMPLE_KW = re.compile(r'\s*(if|else|for|while|do|switch|case|default)\b')


def empty_blocks(lines, path):
    """"{ }" statements and "else { }" the annotations left go."""
    out = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ''
        ind = indent_of(ln)
        if re.fullmatch(r'\s*}\s*', nxt) and indent_of(nxt) == ind:
            body = ln.strip()
            if body == '{':
                prev = next((p for p in reversed(out) if p.strip()), '')
                if not re.search(r'[;{}]\s*$', code_only(prev)):
                    fail(path, 0, f'an empty block after "{prev.strip()}"')
                i += 2
                continue
            if body == '} else {':
                out.append(ind + '}')
                i += 2
                continue
            if body == 'else {':
                i += 2
                continue
            if body.endswith('{') and not body.startswith(('struct', 'enum', 'union')) \
                    and not re.search(r'=\s*\{$', body):
                fail(path, 0, f'an empty body after "{body}"')
        out.append(ln)
        i += 1
    return out


def unbrace(lines):
    """An if/for/while body of one simple statement loses its braces when
    the if has no else arm and is not itself an else arm."""
    out = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if code_only(ln).rstrip().endswith(') {'):
            depth = paren_balance(code_only(ln))
            start, k = ln, len(out) - 1
            while depth < 0 and k >= 0:
                depth += paren_balance(code_only(out[k]))
                start, k = out[k], k - 1
            m = re.match(r'(\s*)(if|for|while)\s*\(', start)
            j = i + 1
            if depth == 0 and m and j < len(lines):
                ind = m.group(1)
                body = lines[j]
                end = None
                if indent_of(body) == ind + '\t' and not SIMPLE_KW.match(body) and \
                        not body.strip().startswith(('/*', '//', '#', '{', '}')):
                    end = statement_end(lines, j)
                if end is not None and end + 1 < len(lines) and \
                        lines[end + 1] == ind + '}' and \
                        not (end + 2 < len(lines) and
                             lines[end + 2].strip().startswith('else')):
                    out.append(re.sub(r'\s*\{$', '', ln))
                    out.extend(lines[j:end + 1])
                    i = end + 2
                    continue
        out.append(ln)
        i += 1
    return out


# ------------------------------------------------------- comments

def visual(s, col=0):
    for ch in s:
        col = (col // TAB + 1) * TAB if ch == '\t' else col + 1
    return col


def indent_to(col):
    return '\t' * (col // TAB) + ' ' * (col % TAB)


def wrap(words, first_col, width=LINE_MAX):
    """Greedy fill of words after a prefix that ends at first_col."""
    lines, cur = [], ''
    for w in words:
        cand = w if not cur else cur + ' ' + w
        if cur and first_col + len(cand) > width:
            lines.append(cur)
            cur = w
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines


def comment_words(text):
    """The words of a block comment, its layout dropped."""
    body = text[2:-2]
    out = []
    for ln in body.split('\n'):
        ln = ln.strip()
        if ln.startswith('*'):
            ln = ln[1:]
        out.extend(ln.split())
    return out


def kernel_comments(text, path):
    """Multi-line block comments in the kernel's style: "/*" and " */" on
    lines of their own; one after code moves above that line."""
    segs = lex(text, path)
    out = []
    line_start = 0        # index in out of the current line's first piece
    above = []            # comment lines for above the current line
    for s in segs:
        if s.kind == 'nl':
            if above:
                cur = ''.join(out[line_start:]).rstrip()
                ind = indent_of(cur)
                del out[line_start:]
                out.extend(ind + a + '\n' for a in above)
                out.append(cur)
                above = []
            out.append('\n')
            line_start = len(out)
            continue
        if s.kind != 'comment' or '\n' not in s.text:
            out.append(s.text)
            continue
        before = ''.join(out[line_start:])
        if before.strip():
            words = comment_words(s.text)
            col = visual(indent_of(before))
            one = '/* ' + ' '.join(words) + ' */'
            if col + len(one) <= LINE_MAX:
                above.append(one)
            else:
                above.append('/*')
                above.extend(' * ' + w for w in wrap(words, col + 3))
                above.append(' */')
            while len(out) > line_start and not out[-1].strip():
                out.pop()
            continue
        lns = s.text.split('\n')
        first = lns[0][2:].strip()
        last = lns[-1].strip()[:-2].strip()
        if last.startswith('*'):
            last = last[1:].strip()
        if not first and not last:
            out.append(s.text)
            continue
        ind = before
        for m in lns[1:-1]:
            if not m.strip().startswith('*'):
                fail(path, s.line, 'a block comment line without its leading "*"')
        new = ['/*']
        if first:
            new.append(ind + ' * ' + first)
        new.extend((ind + ' ' + m.strip()).rstrip() for m in lns[1:-1])
        if last:
            new.append(ind + ' * ' + last)
        new.append(ind + ' */')
        out.append('\n'.join(new))
    return ''.join(out)


# ----------------------------------------------- constants, types

def bit_constants(text):
    """#define NAME (1u << N) is spelled NAME 0x..u (BIT_MACRO)."""
    def one(m):
        suffix, n = m.group(2), int(m.group(3))
        width = 64 if 'll' in suffix.lower() else 32 if suffix.lower() in ('u', '') else 64
        if n >= width:
            raise KcoreError(f'1{suffix} << {n} does not fit')
        return m.group(1) + f'0x{1 << n:x}{suffix}'
    return re.sub(r'^(#\s*define\s+\w+\s+)\(\s*1([uUlL]*)\s*<<\s*(\d+)\s*\)',
                  one, text, flags=re.M)


def map_types(text, path, names=None, kept=None, tool='kcore.py'):
    """uint32_t -> u32 and so on, in the code (not in comments or
    literals); a continuation line aligned with an open parenthesis that
    moved is aligned with it again.  names: the identifiers renamed
    (default TYPE_MAP); kept: the "*_t" names left as they are (default
    TYPES_KEPT); any other "*_t" name is an error."""
    names = TYPE_MAP if names is None else names
    kept = TYPES_KEPT if kept is None else kept
    segs = lex(text, path)
    lines = [[]]          # per line: (kind, source text, output text)
    for s in segs:
        if s.kind == 'nl':
            lines.append([])
            continue
        if s.kind == 'code':
            for name in re.findall(r'\b\w+_t\b', s.text):
                if name not in names and name not in kept:
                    fail(path, s.line, f'type {name}: {tool} knows no kernel name for it')
            t = re.sub(r'\b(' + '|'.join(names) + r')\b',
                       lambda m: names[m.group(1)], s.text)
            lines[-1].append(('k', s.text, t))
            continue
        kind = 'w' if s.kind == 'ws' else 'c'
        parts = s.text.split('\n')
        lines[-1].append((kind, parts[0], parts[0]))
        for p in parts[1:]:
            lines.append([('c', p, p)])
    stack = []            # open parentheses: (source column, output column)
    out = []
    for pieces in lines:
        if stack and pieces and pieces[0][0] == 'w':
            scol = visual(pieces[0][1])
            ocol = stack[-1][1] + 1
            if scol == stack[-1][0] + 1:
                pieces = [('w', pieces[0][1], indent_to(ocol))] + pieces[1:]
        opens, closes = [], 0
        scol = ocol = 0
        for n, (kind, st, ot) in enumerate(pieces):
            if kind == 'w' and n > 0 and '\t' in st:
                # Alignment after code (a trailing comment): the same column.
                want = visual(st, scol)
                if ocol < want:
                    ot, col = '', ocol
                    while (col // TAB + 1) * TAB <= want:
                        ot += '\t'
                        col = (col // TAB + 1) * TAB
                    ot += ' ' * (want - col)
                    pieces[n] = (kind, st, ot)
            if kind != 'k':
                scol, ocol = visual(st, scol), visual(ot, ocol)
                continue
            # The same code, less or more letters in its identifiers.
            for tok_s, tok_o in zip(re.findall(r'\w+|\S|\s', st), re.findall(r'\w+|\S|\s', ot)):
                if tok_s == '(':
                    opens.append((scol, ocol))
                elif tok_s == ')':
                    if opens:
                        opens.pop()
                    else:
                        closes += 1
                scol, ocol = visual(tok_s, scol), visual(tok_o, ocol)
        del stack[len(stack) - min(closes, len(stack)):]
        stack.extend(opens)
        out.append(''.join(ot for _, _, ot in pieces))
    return '\n'.join(out)


# --------------------------------------------------------- header

def header(name, is_h):
    spdx = ('/* SPDX-License-Identifier: GPL-2.0-only */' if is_h else
            '// SPDX-License-Identifier: GPL-2.0-only')
    return [
        spdx,
        '/*',
        f' * Generated from src/{name} of hvipi by kernel-glue/scripts/kcore.py:',
        ' * do not edit.  The ACSL contracts of this code and their Frama-C/WP',
        ' * proofs are in that repository, where',
        ' *',
        ' *   kernel-glue/scripts/kcore.py --check DIR',
        ' *',
        ' * checks this copy against the sources (DIR the directory of this',
        ' * file) and kernel-glue/scripts/kcore-equiv.py --kernel DIR checks that',
        ' * it computes what the proven text computes.',
        ' */',
    ]


def strip_spdx(lines, path):
    if not lines or 'SPDX-License-Identifier:' not in lines[0]:
        fail(path, 1, 'no SPDX line first')
    return lines[1:]


# ----------------------------------------------------------- driver

def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def generate_file(src, name, found_macros):
    path = os.path.join(src, name)
    is_h = name.endswith('.h')
    segs = lex(read(path), path)
    resolve_conditionals(segs, path, keep_guard=is_h)
    resolve_includes(segs, path, src)
    remove_acsl(segs)
    remove_acsl_only_macros(segs, path, found_macros)
    text = drop_marks(render(segs))
    text = remove_proof_marks(text, path)
    lines = blank_lines(text.split('\n'))
    lines = remove_hooks(lines, path)
    lines = empty_blocks(lines, path)
    lines = unbrace(lines)
    lines = blank_lines(lines)
    text = '\n'.join(lines)
    text = kernel_comments(text, path)
    text = bit_constants(text)
    text = map_types(text, path)
    lines = strip_spdx(text.split('\n'), path)
    lines = header(name, is_h) + lines
    for n, ln in enumerate(lines, 1):
        if ln != ln.rstrip():
            fail(path, 0, f'output line {n} ends in white space')
    return '\n'.join(lines) + '\n'


def glue_c_text():
    """The C of the glue the kernel builds with the core: its sources and
    the series, comments dropped."""
    texts = []
    gdir = os.path.join(TOP, 'kernel-glue')
    for root, _, files in os.walk(gdir):
        for f in sorted(files):
            if f.endswith(('.c', '.h', '.patch')):
                texts.append(read(os.path.join(root, f)))
    return re.sub(r'/\*.*?\*/', ' ', '\n'.join(texts), flags=re.S)


def generate(src=None):
    """{name: text} of the kernel copy."""
    src = src or os.path.join(TOP, 'src')
    found = set()
    out = {name: generate_file(src, name, found) for name in OUTPUTS}
    missing = sorted(set(ACSL_ONLY_MACROS) - found)
    if missing:
        raise KcoreError(f'ACSL_ONLY_MACROS not defined in the sources: {", ".join(missing)}')
    glue = glue_c_text()
    for name in sorted(ACSL_ONLY_MACROS):
        for where, text in list(out.items()) + [('kernel-glue', glue)]:
            if re.search(r'\b' + name + r'\b', code_only_text(text)):
                raise KcoreError(f'{name} (ACSL_ONLY_MACROS) is used in the C of {where}')
    return out


def code_only_text(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def first_difference(want, have):
    wl, hl = want.split('\n'), have.split('\n')
    for n, (a, b) in enumerate(zip(wl, hl), 1):
        if a != b:
            return n, a, b
    n = min(len(wl), len(hl)) + 1
    return n, (wl[n - 1] if n <= len(wl) else '<end of file>'), \
        (hl[n - 1] if n <= len(hl) else '<end of file>')


def emit(tool, out, out_dir, check_dir, source_of):
    """--out and --check of a generator: write out ({name: text}, in its
    order) into out_dir, or check that check_dir holds exactly that
    (exit status 1, naming the first difference, when it does not).
    source_of(name): the source of a file, for the message."""
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        for name in out:
            with open(os.path.join(out_dir, name), 'w', encoding='utf-8', newline='\n') as f:
                f.write(out[name])
        print(f'{tool}: wrote {", ".join(os.path.join(out_dir, n) for n in out)}')
        return 0
    for name in out:
        path = os.path.join(check_dir, name)
        try:
            have = read(path)
        except OSError as e:
            print(f'{tool}: {path}: {e.strerror}', file=sys.stderr)
            return 1
        if have != out[name]:
            n, want, got = first_difference(out[name], have)
            print(f'{tool}: {path}:{n}: not what {tool}.py writes from {source_of(name)}:\n'
                  f'  expected: {want!r}\n  found:    {got!r}', file=sys.stderr)
            return 1
    print(f'{tool}: {", ".join(os.path.join(check_dir, n) for n in out)}: '
          f'the generated copy of the current {os.path.dirname(source_of(next(iter(out))))}/')
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--out', metavar='DIR', help='write DIR/hvipi.c and DIR/hvipi.h')
    g.add_argument('--check', metavar='DIR', help='check DIR/hvipi.c and DIR/hvipi.h')
    ap.add_argument('--src', metavar='SRC', help="the sources (default: the repository's src/)")
    a = ap.parse_args(argv)
    try:
        out = generate(a.src)
    except KcoreError as e:
        print(f'kcore: {e}', file=sys.stderr)
        return 2
    return emit('kcore', out, a.out, a.check, lambda name: f'src/{name}')


if __name__ == '__main__':
    sys.exit(main())
