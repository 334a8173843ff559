# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Write the copy of src/ and spec/ that E-ACSL reads, with the annotations
of src/ rewritten into forms E-ACSL 25 can translate.  Every rewrite keeps
the meaning of the annotation (ACSL semantics); a construct this script
does not understand is left exactly as it is.

The rewrites, applied to the clauses (requires, ensures, assumes, assert,
loop invariant) of the annotations in src/*.c and src/*.h:

 1. Unfolding.  An application p{L}(a1, .., an) (explicit label or not) of
    a predicate or logic function that takes a label (so it may read
    memory), is not recursive and is defined in spec/*.h or in a global
    annotation of src/, is replaced by its body with the parameters
    replaced by the arguments.  A cpp macro argument that stands for
    several arguments (HVIPI_SEND) is spread first, as cpp would.
    Binders of the body that would capture a free variable of an argument
    are renamed.  Labels, as ACSL defines the application: the body is
    read in state L, the arguments in the current state.  So when L is
    not the current state (target{Pre} in an ensures, say) the body goes
    into \\at(body, L), and every argument that depends on the state
    (reads memory, names a C variable other than a formal of a contract,
    \\result) is first bound in the current state by \\let x = a; the
    state-independent ones (constants, logic variables, formals in a
    contract, \\old/\\at terms) are put in as they are; the leading
    conjuncts of the body that do not depend on the state (the bounds of
    target) are taken out: \\at(B && P, L) is B && \\at(P, L).  When L is the
    current state (no label, or the body of an enclosing unfolding) the
    body is put in as is.  Applications inside the body are unfolded in
    turn, in the body's state.
 2. Quantifier guards.  E-ACSL needs the bounds of the bound variables
    alone before the ==> of a \\forall (before the && of an \\exists).
    Where the hypothesis is a conjunction that starts with such bounds
    (and then has more conjuncts), it is split by currying:
      \\forall x; (B && A) ==> P   becomes   \\forall x; B ==> (A ==> P)
      \\forall x; !(B && A)        becomes   \\forall x; B ==> !A
    (a conjunction is flattened without reordering: the evaluation order
    of the conjuncts is kept).  When the first conjunct of the hypothesis
    is an application of a label-free, non-recursive predicate whose body
    starts with the bound (fast_reads(r8, v): 0 <= v < 64 && ..,
    bit64(w, k): 0 <= k < 64 && ..), that one application is unfolded.
    A quantifier whose bounds are not found stays as it was.
 3. \\exists bodies.  E-ACSL 25 compiles \\exists x; B && A1 && .. && An
    (B the bounds) as if A1 .. An-1 were not there (tests/eacsl/README.md,
    defect 7).  Such a body is written B && !!(A1 && .. && An), which
    means the same and which E-ACSL compiles whole.

Applications that are not unfolded (label-free functions such as bit64,
bits_below, ctl_is; recursive ones; an argument count that does not
match; a definition with more than one label) are left as written, and so
is every clause that needs none of the rewrites, byte for byte.  Also
left as written: an application under a label with an argument that is a
formal a precondition of the same contract allows to be null
(requires p == \\null || ..): E-ACSL evaluates \\at(.., Pre) on entry
whatever guards it, and would read through the null pointer; and every
clause named in --keep (FUNCTION:CLAIM, FUNCTION:BEHAVIOR:CLAIM,
FUNCTION:BEHAVIOR:CLAIM#N for the N-th clause of that name, FUNCTION:*),
which the Makefile uses for the clauses too slow to check once unfolded.
A rewritten clause keeps its first line and its number of lines, so line
numbers of the copy are those of src/.

Besides, in the copy of spec/hvipi_bits.h, bits_below's recursive body
becomes the equivalent \\sum (tests/eacsl/README.md: E-ACSL 25 does not
terminate on the recursive one); that line must be found exactly once.
And the axiomatic blocks of UNWRAP (spec/hvipi_flush.h's RepControl:
definitions and lemmas, no axiom, in a block only so that WP gives its
lemmas to the goals that use its symbols) are unwrapped in the copy:
their opening and closing lines become comments, so the definitions are
global ones there (E-ACSL 25 calls the C functions it generates for a
definition inside an axiomatic block without declaring them, and the
instrumented file does not compile).  Same meaning, same line count.

Checks (the script stops with an error, writing nothing, if one fails):
the C code outside the annotations is the same in the copy as in src/,
and so is the number of lines; every rewritten clause parses back to
the tree it was printed from (else that clause is left as written);
spec/ is copied unchanged but for the bits_below line.

Usage: inline.py [--keep LIST] ROOT OUT [LOG]
           write OUT/src, OUT/spec from ROOT/src, ROOT/spec; the list of
           rewrites to LOG; print the number of rewritten clauses
       inline.py [--keep LIST] --check ROOT OUT
           exit 1 unless OUT/src and OUT/spec are exactly what the first
           form writes (same LIST)
"""
import os
import re
import sys

BITS_FROM = '    k <= 0 ? 0 : bits_below(w, k - 1) + ((w >> (k - 1)) & 1);\n'
BITS_TO = '    k <= 0 ? 0 : \\sum(0, k - 1, \\lambda integer i; (w >> i) & 1);\n'


class Unsupported(Exception):
    pass


# ---------------------------------------------------------------- lexer

TOKEN = re.compile(r'''
    (?P<ws>[ \t\r\n@]+|//[^\n]*)
  | (?P<num>0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*)
  | (?P<id>\\?[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op><==>|==>|<-->|-->|\.\.|->|<<|>>|<=|>=|==|!=|&&|\|\||\^\^|[-+*/%<>!~&|^?:;,.()\[\]{}=])
''', re.X)


def lex(text, base=0):
    """Tokens of annotation text (@ is blank, as in ACSL): (kind, text,
    start, end) with offsets shifted by base."""
    toks, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m:
            raise Unsupported('cannot lex %r' % text[i:i + 20])
        if m.lastgroup != 'ws':
            toks.append((m.lastgroup, m.group(), base + i, base + m.end()))
        i = m.end()
    return toks


# ---------------------------------------------------------------- AST
# ('num', s) ('id', s) ('app', name, label, [args]) ('index', b, i)
# ('field', b, name, op) ('un', op, e) ('bin', op, l, r)
# ('chain', [e..], [op..]) ('tern', c, a, b) ('range', lo, hi)
# ('quant', kind, [(type, name)..], body) ('let', name, e, body)

BINDERS = ('\\forall', '\\exists', '\\lambda')
# binary levels, lowest first: (ops, associativity)
LEVELS = [(('<==>',), 'left'), (('==>',), 'right'), (('||',), 'left'),
          (('^^',), 'left'), (('&&',), 'left'), (('|',), 'left'),
          (('^',), 'left'), (('&',), 'left'), (('==', '!='), 'eq'),
          (('<', '<=', '>', '>='), 'chain'), (('<<', '>>'), 'left'),
          (('+', '-'), 'left'), (('*', '/', '%'), 'left')]


class Parser:
    def __init__(self, toks, macros):
        self.t, self.i, self.macros = toks, 0, macros

    def peek(self, k=0):
        j = self.i + k
        return self.t[j][1] if j < len(self.t) else None

    def kind(self, k=0):
        j = self.i + k
        return self.t[j][0] if j < len(self.t) else None

    def take(self, want=None):
        if self.i >= len(self.t):
            raise Unsupported('unexpected end')
        tok = self.t[self.i]
        if want is not None and tok[1] != want:
            raise Unsupported('expected %s, got %s' % (want, tok[1]))
        self.i += 1
        return tok[1]

    def expr(self):
        """A term or predicate, binders included (they extend right)."""
        if self.peek() in BINDERS:
            kind = self.take()
            vs = self.binder_vars()
            return ('quant', kind, vs, self.expr())
        if self.peek() == '\\let':
            self.take()
            name = self.take()
            self.take('=')
            val = self.expr_nolet()
            self.take(';')
            return ('let', name, val, self.expr())
        return self.expr_nolet()

    def binder_vars(self):
        vs, ty = [], None
        while True:
            words = []
            while self.peek() not in (',', ';'):
                if self.kind() != 'id' and self.peek() != '*':
                    raise Unsupported('binder syntax')
                words.append(self.take())
            if not words:
                raise Unsupported('binder syntax')
            if len(words) > 1:
                ty = ' '.join(words[:-1])
            if ty is None:
                raise Unsupported('binder without type')
            vs.append((ty, words[-1]))
            if self.take() == ';':
                return vs

    def expr_nolet(self):
        c = self.level(0)
        if self.peek() == '?':
            self.take()
            a = self.expr()
            self.take(':')
            b = self.expr()
            return ('tern', c, a, b)
        return c

    def level(self, n):
        if n == len(LEVELS):
            return self.unary()
        ops, assoc = LEVELS[n]
        left = self.level(n + 1)
        if assoc == 'chain':
            es, os_ = [left], []
            while self.peek() in ops:
                os_.append(self.take())
                es.append(self.level(n + 1))
            return left if not os_ else ('chain', es, os_)
        if assoc == 'right':
            if self.peek() in ops:
                op = self.take()
                return ('bin', op, left, self.operand(n))
            return left
        while self.peek() in ops:
            op = self.take()
            right = self.operand(n + 1)
            if assoc == 'eq' and self.peek() in ops:
                raise Unsupported('chained == / !=')
            left = ('bin', op, left, right)
        return left

    def operand(self, n):
        # a binder as right operand extends to the end
        if self.peek() in BINDERS or self.peek() == '\\let':
            return self.expr()
        return self.level(n)

    def unary(self):
        if self.peek() in ('!', '-', '~', '*', '&', '+'):
            op = self.take()
            return ('un', op, self.unary())
        if self.peek() in BINDERS or self.peek() == '\\let':
            return self.expr()
        return self.postfix(self.primary())

    def primary(self):
        k, s = self.kind(), self.peek()
        if k == 'num':
            self.take()
            return ('num', s)
        if s == '(':
            self.take()
            e = self.expr()
            if self.peek() == '..':
                self.take()
                e = ('range', e, self.expr())
            self.take(')')
            return e
        if k == 'id':
            self.take()
            label = None
            if self.peek() == '{':
                self.take()
                label = self.take()
                self.take('}')
                if self.peek() != '(':
                    raise Unsupported('label without arguments')
            if self.peek() == '(':
                self.take()
                args = []
                if self.peek() != ')':
                    while True:
                        a = self.expr()
                        if self.peek() == '..':
                            self.take()
                            a = ('range', a, self.expr())
                        args.append(a)
                        if self.take() == ')':
                            break
                        if self.t[self.i - 1][1] != ',':
                            raise Unsupported('argument list')
                spread = []
                for a in args:
                    if a[0] == 'id' and a[1] in self.macros and \
                            isinstance(self.macros[a[1]], list):
                        spread.extend(self.macros[a[1]])
                    else:
                        spread.append(a)
                return ('app', s, label, spread)
            return ('id', s)
        raise Unsupported('unexpected %r' % s)

    def postfix(self, e):
        while True:
            if self.peek() == '[':
                self.take()
                i = self.expr()
                if self.peek() == '..':
                    self.take()
                    i = ('range', i, self.expr())
                self.take(']')
                e = ('index', e, i)
            elif self.peek() in ('.', '->'):
                op = self.take()
                if self.kind() != 'id':
                    raise Unsupported('field')
                e = ('field', e, self.take(), op)
            else:
                return e


# ---------------------------------------------------------------- printer

def show(e):
    """Print e; every compound operand is parenthesized, but && in && and
    || in || (associative), so the tree reads back the same."""
    t = e[0]
    if t in ('num', 'id'):
        return e[1]
    if t == 'app':
        lab = '{%s}' % e[2] if e[2] else ''
        return '%s%s(%s)' % (e[1], lab, ', '.join(show(a) for a in e[3]))
    if t == 'index':
        return '%s[%s]' % (sub(e[1]), show(e[2]))
    if t == 'field':
        return '%s%s%s' % (sub(e[1]), e[3], e[2])
    if t == 'un':
        return e[1] + sub(e[2])
    if t == 'range':
        return '%s .. %s' % (sub(e[1]), sub(e[2]))
    if t == 'bin':
        l, r = e[2], e[3]
        ls = show(l) if (l[0] == 'bin' and l[1] == e[1] and e[1] in ('&&', '||')) else sub(l)
        rs = show(r) if (r[0] == 'bin' and r[1] == e[1] and e[1] in ('&&', '||')) else sub(r)
        return '%s %s %s' % (ls, e[1], rs)
    if t == 'chain':
        out = sub(e[1][0])
        for op, x in zip(e[2], e[1][1:]):
            out += ' %s %s' % (op, sub(x))
        return out
    if t == 'tern':
        return '%s ? %s : %s' % (sub(e[1]), sub(e[2]), sub(e[3]))
    if t == 'quant':
        vs, out, ty = e[2], [], None
        for vty, name in vs:
            out.append(name if vty == ty else '%s %s' % (vty, name))
            ty = vty
        return '%s %s; %s' % (e[1], ', '.join(out), show(e[3]))
    if t == 'let':
        return '\\let %s = %s; %s' % (e[1], show(e[2]), show(e[3]))
    raise Unsupported('print %s' % t)


def sub(e):
    if e[0] in ('num', 'id', 'app', 'index', 'field'):
        return show(e)
    if e[0] == 'un' and e[2][0] in ('num', 'id', 'app', 'index', 'field', 'un'):
        return show(e)
    return '(' + show(e) + ')'


# ---------------------------------------------------------------- logic

def free_vars(e, bound=frozenset()):
    t = e[0]
    if t == 'id':
        return set() if e[1] in bound else {e[1]}
    if t == 'num':
        return set()
    if t == 'quant':
        return free_vars(e[3], bound | {n for _, n in e[2]})
    if t == 'let':
        return free_vars(e[2], bound) | free_vars(e[3], bound | {e[1]})
    if t == 'app':
        out = set()
        for a in e[3]:
            out |= free_vars(a, bound)
        return out
    if t == 'field':
        return free_vars(e[1], bound)
    out = set()
    for x in e[1:]:
        if isinstance(x, tuple):
            out |= free_vars(x, bound)
        elif isinstance(x, list):
            for y in x:
                if isinstance(y, tuple):
                    out |= free_vars(y, bound)
    return out


def all_names(e, acc):
    if isinstance(e, tuple):
        for x in e:
            all_names(x, acc)
    elif isinstance(e, list):
        for x in e:
            all_names(x, acc)
    elif isinstance(e, str):
        acc.add(e)
    return acc


def subst(e, env, avoid, fresh):
    """Replace free identifiers of e by env's terms; rename binders of e
    that would capture a free variable of a substituted term."""
    t = e[0]
    if t == 'id':
        return env.get(e[1], e)
    if t == 'num':
        return e
    if t == 'quant':
        env2, vs = dict(env), []
        for ty, n in e[2]:
            env2.pop(n, None)
        for ty, n in e[2]:
            if n in avoid:
                n2 = fresh(n)
                env2[n] = ('id', n2)
                vs.append((ty, n2))
            else:
                vs.append((ty, n))
        return ('quant', e[1], vs, subst(e[3], env2, avoid, fresh))
    if t == 'let':
        val = subst(e[2], env, avoid, fresh)
        env2 = dict(env)
        env2.pop(e[1], None)
        n = e[1]
        if n in avoid:
            n = fresh(n)
            env2[e[1]] = ('id', n)
        return ('let', n, val, subst(e[3], env2, avoid, fresh))
    if t == 'app':
        return ('app', e[1], e[2], [subst(a, env, avoid, fresh) for a in e[3]])
    if t == 'field':
        return ('field', subst(e[1], env, avoid, fresh), e[2], e[3])
    out = [t]
    for x in e[1:]:
        if isinstance(x, tuple):
            out.append(subst(x, env, avoid, fresh))
        elif isinstance(x, list):
            out.append([subst(y, env, avoid, fresh) if isinstance(y, tuple) else y
                        for y in x])
        else:
            out.append(x)
    return tuple(out)


class Defs:
    """The logic definitions: name -> (labels, [(type, param)], body)."""

    def __init__(self):
        self.d = {}
        self.kind = {}

    def recursive(self, name):
        seen, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n not in self.d:
                continue
            for m in apps_in(self.d[n][2]):
                if m == name:
                    return True
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return False


def apps_in(e, acc=None):
    acc = set() if acc is None else acc
    if isinstance(e, tuple):
        if e and e[0] == 'app':
            acc.add(e[1])
        for x in e:
            apps_in(x, acc)
    elif isinstance(e, list):
        for x in e:
            apps_in(x, acc)
    return acc


def parse_defs(text, defs, macros):
    """Collect predicate / logic definitions of the /*@ */ blocks of text."""
    for m in re.finditer(r'/\*@(.*?)\*/', text, re.S):
        try:
            toks = lex(m.group(1))
        except Unsupported:
            continue
        p = Parser(toks, macros)
        while p.i < len(p.t):
            w = p.peek()
            if w not in ('predicate', 'logic', 'lemma'):
                break
            try:
                p.take()
                if w == 'lemma':
                    p.take()
                    p.take(':')
                    p.expr()
                    p.take(';')
                    continue
                if w == 'logic':
                    while p.kind(1) == 'id' and p.peek(1) not in ('{', '('):
                        p.take()  # the result type's words
                name = p.take()
                labels = []
                if p.peek() == '{':
                    p.take()
                    while True:
                        labels.append(p.take())
                        if p.take() == '}':
                            break
                params = []
                if p.peek() == '(':
                    p.take()
                    while True:
                        words = []
                        while p.peek() not in (',', ')'):
                            words.append(p.take())
                        params.append((' '.join(words[:-1]), words[-1]))
                        if p.take() == ')':
                            break
                p.take('=')
                body = p.expr()
                p.take(';')
                defs.d[name] = (labels, params, body)
                defs.kind[name] = w
            except Unsupported:
                break


def parse_macros(text):
    macros = {}
    for m in re.finditer(r'^#define\s+(\w+)[ \t]+([^\n]*)$', text, re.M):
        body = re.sub(r'/\*.*?\*/', '', m.group(2)).strip()
        try:
            toks = lex(body)
        except Unsupported:
            continue
        if any(t[1] == ',' for t in toks):
            p = Parser(toks, {})
            try:
                args = [p.expr()]
                while p.i < len(toks):
                    p.take(',')
                    args.append(p.expr())
                macros[m.group(1)] = args
            except Unsupported:
                pass
        elif all(t[0] == 'num' or t[1] in '()<<>>|&+-*~' for t in toks):
            macros[m.group(1)] = 'const'
    return macros


# ---------------------------------------------------------------- rewriting

class Rewriter:
    def __init__(self, defs, macros, taken):
        self.defs, self.macros, self.taken = defs, macros, taken
        self.notes = []
        self.nullable = set()
        # labels at which cap() may guard an \\at: Pre and Old; in a
        # function body also its C labels (the formals it reads are then
        # ones the body does not assign, the same at every label)
        self.labels = ('Pre', 'Old')

    def fresh(self, base):
        k = 1
        while '%s_%d' % (base, k) in self.taken:
            k += 1
        n = '%s_%d' % (base, k)
        self.taken.add(n)
        return n

    def independent(self, e, logic, contract):
        """e has the same value in every state: constants, logic
        variables, formals in a contract (they stand for their value on
        entry), \\old and \\at terms, and operators over those."""
        t = e[0]
        if t == 'num':
            return True
        if t == 'id':
            n = e[1]
            return (n in logic or self.macros.get(n) == 'const' or
                    n in ('\\null', '\\true', '\\false') or
                    (contract is not None and n in contract))
        if t == 'app':
            if e[1] in ('\\old', '\\at'):
                return True
            if e[1].startswith('\\'):
                return False
            d = self.defs.d.get(e[1])
            if d is None or d[0]:
                return False
            return all(self.independent(a, logic, contract) for a in e[3])
        if t in ('un', 'bin', 'chain', 'tern'):
            if t == 'un' and e[1] in ('*', '&'):
                return False
            parts = [x for x in e[1:] if isinstance(x, tuple)]
            for x in e[1:]:
                if isinstance(x, list):
                    parts += [y for y in x if isinstance(y, tuple)]
            return all(self.independent(x, logic, contract) for x in parts)
        return False

    def expand(self, e, here, logic, contract):
        """Unfold in e; here: the state e is read in ('Here' at the top
        of a clause, else the label of an enclosing \\at); logic: the
        logic variables in scope."""
        t = e[0]
        if t in ('num', 'id'):
            return e
        if t == 'quant':
            vs = {n for _, n in e[2]}
            body = self.expand(e[3], here, logic | vs, contract)
            return self.cap(self.guard(('quant', e[1], e[2], body)), logic, contract)
        if t == 'let':
            return ('let', e[1], self.expand(e[2], here, logic, contract),
                    self.expand(e[3], here, logic | {e[1]}, contract))
        if t == 'app':
            if e[1] == '\\at' and len(e[3]) == 2 and e[3][1][0] == 'id':
                lab = e[3][1][1]
                return ('app', '\\at', None,
                        [self.expand(e[3][0], lab, logic, contract), e[3][1]])
            if e[1] == '\\old' and len(e[3]) == 1:
                return ('app', '\\old', None,
                        [self.expand(e[3][0], 'Pre', logic, contract)])
            args = [self.expand(a, here, logic, contract) for a in e[3]]
            d = self.defs.d.get(e[1])
            if d and len(d[0]) == 1 and len(d[1]) == len(args) and \
                    not self.defs.recursive(e[1]):
                return self.unfold(e[1], e[2], args, here, logic, contract)
            if d and d[0]:
                self.notes.append('left as is: %s (%s)' % (
                    e[1], 'recursive' if self.defs.recursive(e[1]) else
                    'arguments or labels do not match'))
            return ('app', e[1], e[2], args)
        if t == 'field':
            return ('field', self.expand(e[1], here, logic, contract), e[2], e[3])
        out = [t]
        for x in e[1:]:
            if isinstance(x, tuple):
                out.append(self.expand(x, here, logic, contract))
            elif isinstance(x, list):
                out.append([self.expand(y, here, logic, contract)
                            if isinstance(y, tuple) else y for y in x])
            else:
                out.append(x)
        return tuple(out)

    def unfold(self, name, label, args, here, logic, contract):
        labels, params, body = self.defs.d[name]
        at = label if label is not None else here
        wrap = at != here
        # E-ACSL evaluates an \\at(.., Pre) of a postcondition on entry,
        # whatever guards it: with an argument that may be null, the \\at
        # gets `arg != \\null &&` inside, so nothing is read through null
        # (the clause is then as strong or stronger: a null argument makes
        # it false instead of undefined)
        nulls = [a for a in args if wrap and a[0] == 'id' and a[1] in self.nullable]
        env, lets = {}, []
        for (_, p), a in zip(params, args):
            if wrap and not self.independent(a, logic, contract):
                v = self.fresh(p)
                lets.append((v, a))
                env[p] = ('id', v)
            else:
                env[p] = a
        avoid = set()
        for a in env.values():
            avoid |= free_vars(a)
        avoid |= logic
        b = subst(body, env, avoid, self.fresh)
        b = relabel(b, labels[0], at)
        inner = logic | {v for v, _ in lets}
        b = self.expand(b, at, inner, contract)
        if wrap:
            # \\at(B && P, L) is B && \\at(P, L) when B does not depend on
            # the state: leading state-independent conjuncts (the bounds
            # of target, say) are taken out, so that a quantifier sees them
            conj, k = flatten(b), 0
            while k < len(conj) and self.independent(conj[k], inner, contract):
                k += 1
            if k == len(conj):
                k = 0
            inner = [('bin', '!=', a, ('id', '\\null')) for a in nulls] + conj[k:]
            rest = ('app', '\\at', None, [conjoin(inner), ('id', at)])
            b = conjoin(conj[:k] + [rest])
        for v, a in reversed(lets):
            b = ('let', v, a, b)
        self.notes.append('unfolded %s%s%s' % (
            name, '{%s} into \\at(.., %s)' % (at, at) if wrap else '',
            ' guarded by %s != \\null' % ', '.join(show(a) for a in nulls) if nulls else ''))
        return b

    def guard(self, q):
        kind, vs, body = q[1], q[2], q[3]
        names = [n for _, n in vs]
        if kind == '\\forall':
            if body[0] == 'bin' and body[1] == '==>':
                hyp, concl, neg = body[2], body[3], False
            elif body[0] == 'un' and body[1] == '!':
                hyp, concl, neg = body[2], None, True
            else:
                return q
        elif kind == '\\exists':
            hyp, concl, neg = body, None, False
        else:
            return q
        conj = flatten(hyp)
        if kind == '\\forall' and not neg and all(is_bound(c, names) for c in conj) \
                and covers(conj, names):
            return q
        pre, k, unfolded = [], 0, False
        while k < len(conj) and not covers(pre, names):
            c = conj[k]
            if is_bound(c, names):
                pre.append(c)
                k += 1
                continue
            u = self.unfold_for_bound(c, names)
            if u is None:
                return q
            conj[k:k + 1] = flatten(u)
            unfolded = True
        if not covers(pre, names):
            return q
        rest = conj[k:]
        if kind == '\\exists':
            # E-ACSL 25 keeps, of the conjuncts of an \\exists, only the
            # bounds and the last one (it drops the others without a
            # word): the rest goes in as one conjunct, !!(A && B)
            if not rest:
                return q
            last = rest[0] if len(rest) == 1 else \
                ('un', '!', ('un', '!', conjoin(rest)))
            new = ('bin', '&&', conjoin(pre), last)
            if assoc(new) == assoc(body):
                return q
        elif neg:
            if not rest:
                return q
            new = ('bin', '==>', conjoin(pre), ('un', '!', conjoin(rest)))
        elif rest:
            new = ('bin', '==>', conjoin(pre), ('bin', '==>', conjoin(rest), concl))
        else:
            new = ('bin', '==>', conjoin(pre), concl)
        self.notes.append('guard of %s %s split%s' % (
            kind, ', '.join(names), ' (unfolding for the bound)' if unfolded else ''))
        return ('quant', kind, vs, new)

    def cap(self, q, logic, contract):
        """E-ACSL 25 evaluates \\at(E, Pre) / \\old(E) under a quantifier
        only when the quantifier's bounds are constants ("\\at with logic
        variable linked to C variable" otherwise).  In a contract, a bound
        hi that is a formal (nr_cpu_ids, page_size / 8, nbanks) is capped:

          \\forall x; lo <= x < hi ==> P
            becomes
          hi <= CAP && 0 <= lo &&
          \\forall x; 0 <= x < CAP ==> (lo <= x < hi ==> P')

        where P' guards each \\at(E, L) that reads x: \\at(x < hi && E, L)
        (a predicate) or \\at(x < hi ? E : 0, L) (a term), so nothing is
        read outside the inputs when E-ACSL evaluates it on entry for every
        x below CAP.  With hi <= CAP and 0 <= lo checked in the clause
        itself, the two are equivalent; a call with hi > CAP fails the
        clause (the tests stay below CAPS)."""
        if contract is None or q[0] != 'quant':
            return q
        kind, vs, body = q[1], q[2], q[3]
        names = [n for _, n in vs]
        if kind == '\\forall' and body[0] == 'bin' and body[1] == '==>':
            hyp, concl = body[2], body[3]
        elif kind == '\\exists' and body[0] == 'bin' and body[1] == '&&':
            hyp, concl = body[2], body[3]
        else:
            return q
        conj = flatten(hyp)
        if not all(is_bound(c, names) for c in conj) or not covers(conj, names):
            return q
        if not any(free_vars(a[3][0]) & set(names) for a in top_ats(concl, self.labels)):
            return q
        lo, hi = bounds(conj, names)
        caps, checks = {}, []
        for n in names:
            for b, _ in lo[n] + hi[n]:
                if b[0] != 'num' and (free_vars(b) & set(names)):
                    return q
            if any(b[0] == 'num' for b, _ in hi[n]):
                continue
            if len(hi[n]) != 1:
                return q
            b, strict = hi[n][0]
            key = show(strip_old(b))
            if key not in CAPS or not self.independent(b, logic, contract):
                return q
            caps[n] = (b, strict, CAPS[key])
            checks.append(('chain', [b, ('num', str(CAPS[key]))],
                           ['<=' if strict else '<']))
            for l, lstrict in lo[n]:
                if l[0] == 'num':
                    if int(l[1], 0) < 0:
                        return q
                else:
                    checks.append(('chain', [('num', '0'), l], ['<=' if not lstrict else '<']))
        if not caps:
            return q
        outer = [('chain', [('num', '0'), ('id', n), ('num', str(caps[n][2]))], ['<=', '<'])
                 for n in names if n in caps]
        outer += [c for c in conj if not any(x[0] == 'id' and x[1] in caps for x in c[1])]
        inner = [c for c in conj if any(x[0] == 'id' and x[1] in caps for x in c[1])]

        def guard_at(a):
            used = [n for n in names if n in caps and n in free_vars(a[3][0])]
            if not used:
                return a
            g = conjoin([('chain', [('id', n), strip_old(caps[n][0])],
                          ['<' if caps[n][1] else '<=']) for n in used])
            e = a[3][0]
            if is_pred(e, self.defs):
                e = ('bin', '&&', g, e)
            else:
                e = ('tern', g, e, ('num', '0'))
            return ('app', a[1], a[2], [e] + a[3][1:])

        new_concl = map_top_ats(concl, guard_at, self.labels)
        if kind == '\\forall':
            nb = ('bin', '==>', conjoin(outer), ('bin', '==>', conjoin(inner), new_concl))
        else:
            nb = ('bin', '&&', conjoin(outer),
                  ('un', '!', ('un', '!', ('bin', '&&', conjoin(inner), new_concl))))
        self.notes.append('bound of %s capped at %s for \\at' % (
            ', '.join(caps), ', '.join(str(caps[n][2]) for n in caps)))
        return conjoin(checks + [('quant', kind, vs, nb)])

    def unfold_for_bound(self, c, names):
        """Unfold a label-free, non-recursive predicate application if its
        body starts with a bound of a quantified variable."""
        if c[0] != 'app':
            return None
        d = self.defs.d.get(c[1])
        if not d or d[0] or c[2] or len(d[1]) != len(c[3]) or \
                self.defs.recursive(c[1]):
            return None
        env = {p: a for (_, p), a in zip(d[1], c[3])}
        avoid = set()
        for a in env.values():
            avoid |= free_vars(a)
        b = subst(d[2], env, avoid, self.fresh)
        if not is_bound(flatten(b)[0], names):
            return None
        self.notes.append('unfolded %s for its bound' % c[1])
        return b


# The caps of cap(): a bound (printed, \\old removed) -> a constant the
# tests never exceed: nr_cpu_ids <= 8192 (tests/random), pages of at
# most 4096 bytes, at most 64 banks (a precondition of the functions
# that take nbanks).
CAPS = {'nr_cpu_ids': 8192, 'page_size / 8': 512, 'nbanks': 64}
PRED_OPS = ('&&', '||', '==>', '<==>', '^^', '==', '!=')


def strip_old(e):
    if isinstance(e, tuple):
        if e and e[0] == 'app' and e[1] == '\\old' and len(e[3]) == 1:
            return strip_old(e[3][0])
        return tuple(strip_old(x) for x in e)
    if isinstance(e, list):
        return [strip_old(x) for x in e]
    return e


def is_pred(e, defs):
    t = e[0]
    if t in ('quant', 'chain'):
        return True
    if t == 'bin':
        return e[1] in PRED_OPS
    if t == 'un':
        return e[1] == '!'
    if t == 'app':
        return defs.kind.get(e[1]) == 'predicate' or e[1] in ('\\valid', '\\valid_read')
    if t == 'let':
        return is_pred(e[3], defs)
    if t == 'id':
        return e[1] in ('\\true', '\\false')
    return False


def is_pre_at(e, labels=('Pre', 'Old')):
    """e is \\old(E) or \\at(E, L) with L in labels."""
    return e[0] == 'app' and (e[1] == '\\old' or (
        e[1] == '\\at' and len(e[3]) == 2 and e[3][1][0] == 'id' and e[3][1][1] in labels))


def map_top_ats(e, f, labels=('Pre', 'Old')):
    """e with f applied to each outermost \\old / \\at(.., L) term."""
    if isinstance(e, tuple):
        if e and is_pre_at(e, labels):
            return f(e)
        return tuple(map_top_ats(x, f, labels) for x in e)
    if isinstance(e, list):
        return [map_top_ats(x, f, labels) for x in e]
    return e


def top_ats(e, labels=('Pre', 'Old')):
    acc = []
    map_top_ats(e, lambda a: acc.append(a) or a, labels)
    return acc


def relabel(e, old, new):
    if isinstance(e, tuple):
        if e and e[0] == 'app':
            lab = new if e[2] == old else e[2]
            args = [relabel(a, old, new) for a in e[3]]
            if e[1] == '\\at' and len(args) == 2 and args[1] == ('id', old):
                args[1] = ('id', new)
            return ('app', e[1], lab, args)
        return tuple(relabel(x, old, new) for x in e)
    if isinstance(e, list):
        return [relabel(x, old, new) for x in e]
    return e


def assoc(e):
    """e with && and || chains made n-ary: the printer writes them
    without inner parentheses (both are associative, and the order of
    the operands is kept)."""
    if isinstance(e, tuple):
        if e and e[0] == 'bin' and e[1] in ('&&', '||'):
            ops = []
            for x in (e[2], e[3]):
                a = assoc(x)
                ops += a[2] if a[0] == 'nary' and a[1] == e[1] else [a]
            return ('nary', e[1], ops)
        return tuple(assoc(x) for x in e)
    if isinstance(e, list):
        return [assoc(x) for x in e]
    return e


def flatten(e):
    if e[0] == 'bin' and e[1] == '&&':
        return flatten(e[2]) + flatten(e[3])
    return [e]


def conjoin(cs):
    out = cs[0]
    for c in cs[1:]:
        out = ('bin', '&&', out, c)
    return out


def is_bound(c, names):
    """A comparison chain with a quantified variable as an operand."""
    if c[0] != 'chain':
        return False
    return any(x[0] == 'id' and x[1] in names for x in c[1])


def bounds(cs, names):
    """({name: [(lower bound, strict)]}, {name: [(upper bound, strict)]})
    of the quantified names in the comparison chains cs."""
    lo, hi = {n: [] for n in names}, {n: [] for n in names}
    for c in cs:
        es, ops = c[1], c[2]
        for i, x in enumerate(es):
            if x[0] != 'id' or x[1] not in names:
                continue
            if i > 0:
                (lo if ops[i - 1] in ('<', '<=') else hi)[x[1]].append(
                    (es[i - 1], ops[i - 1] in ('<', '>')))
            if i < len(ops):
                (hi if ops[i] in ('<', '<=') else lo)[x[1]].append(
                    (es[i + 1], ops[i] in ('<', '>')))
    return lo, hi


def covers(cs, names):
    lo, hi = bounds(cs, names)
    return all(lo[n] and hi[n] for n in names)


# ---------------------------------------------------------------- files

CLAUSES = ('requires', 'ensures', 'assumes', 'assert', 'check', 'invariant')
SKIP = ('assigns', 'variant', 'decreases', 'terminates', 'allocates', 'frees',
        'complete', 'disjoint', 'exits', 'returns', 'breaks', 'continues')


def formals(text, pos):
    """The parameter names of the function declared after a contract."""
    m = re.compile(r'\s*(?:static\s+)?[\w\s\*]+?\b(\w+)\s*\(([^)]*)\)').match(text, pos)
    if not m:
        return None
    return param_names(m.group(2))


def param_names(plist):
    """The names of a C parameter list."""
    names = set()
    for p in plist.split(','):
        w = re.findall(r'\w+', re.sub(r'\[[^]]*\]', '', p))
        if w and w != ['void']:
            names.add(w[-1])
    return names


def function_at(text, pos, contract_end, in_body):
    """The function a block belongs to: the one declared right after a
    contract, the last one defined above an annotation in a body."""
    if not in_body:
        m = re.compile(r'\s*(?:static\s+)?[\w\s\*]+?\b(\w+)\s*\(').match(text, contract_end)
        return m.group(1) if m else ''
    defs = re.findall(r'^[a-z][^\n;]*?\b(\w+)\((?=[^\n]*$)', text[:pos], re.M)
    return defs[-1] if defs else ''


def definition(text, fn):
    """(formals, body with its annotations) of the definition of fn in
    text, or None."""
    m = re.search(r'^[a-z][^;{]*?\b' + re.escape(fn) + r'\(([^)]*)\)\s*\{', text, re.M)
    if not m:
        return None
    end = text.find('\n}', m.end())
    if end < 0:
        return None
    return param_names(m.group(1)), text[m.end():end]


def unassigned_formals(text, fn):
    """The formals of fn that its body never assigns (no =, op=, ++, --,
    and no & taken): in its body they have the same value at every
    label, as in a contract.  None if fn is not defined in text."""
    d = definition(text, fn)
    if d is None:
        return None
    names, body = d[0], strip_annotations(d[1])
    out = set()
    for n in names:
        n_ = re.escape(n)
        w = r'(?<!->)(?<!\.)\b' + n_ + r'\b'   # n, not a field named n
        if re.search(w + r'\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|'
                     r'(?:\+\+|--)\s*' + w + '|' + w + r'\s*(?:\+\+|--)|'
                     r'&\s*' + w, body):
            continue
        out.add(n)
    return out


def c_labels(text, fn):
    """The C and ghost labels of the body of fn."""
    d = definition(text, fn)
    if d is None:
        return []
    found = re.findall(r'^\s*([A-Za-z_]\w*)\s*:(?!:)', strip_annotations(d[1]), re.M) + \
        re.findall(r'/\*@\s*ghost\s+([A-Za-z_]\w*)\s*:\s*;', d[1])
    return [l for l in found
            if l not in ('default', 'case', 'Here', 'Post', 'Init', 'LoopEntry',
                         'LoopCurrent', 'Pre', 'Old')]


def contract_nullables(texts):
    """fn -> the formals that a precondition of fn's contract allows to be
    null (requires p == \\null || ..), over the src/ files: an assertion
    in fn's body that reads one of them under a label gets the same guard
    as a clause of the contract (the contract is in the header, the body
    in the .c file)."""
    out = {}
    for k, t in texts.items():
        if not k.startswith('src/'):
            continue
        for m in re.finditer(r'/\*@(.*?)\*/', t, re.S):
            if 'requires' not in m.group(1):
                continue
            fn = function_at(t, m.start(), m.end(), False)
            for n in re.findall(r'\brequires\s+(?:\w+\s*:(?!:)\s*)?(\w+)\s*==\s*\\null\s*\|\|',
                                m.group(1)):
                out.setdefault(fn, set()).add(n)
    return out


def rewrite_file(text, defs, macros, log, fname, keep=(), fn_nullable=None):
    body_ctx, body_labels = {}, {}
    for fn in set(re.findall(r'^[a-z][^\n;]*?\b(\w+)\((?=[^\n]*$)', text, re.M)):
        u = unassigned_formals(text, fn)
        if u is not None:
            body_ctx[fn] = u
            body_labels[fn] = ('Pre', 'Old') + tuple(c_labels(text, fn))
    taken = set(re.findall(r'[A-Za-z_]\w*', text))
    for n, d in defs.d.items():
        all_names(d, taken)
    out, last = [], 0
    for m in re.finditer(r'/\*@(.*?)\*/', text, re.S):
        body_start = m.start(1)
        block = m.group(1)
        if re.match(r'\s*(ghost|logic|predicate|lemma|axiomatic|type|global)\b', block):
            continue
        try:
            toks = lex(block, body_start)
        except Unsupported as e:
            log.append('%s: block at offset %d left as is: %s' % (fname, m.start(), e))
            continue
        contract = formals(text, m.end())
        in_body = not toks or toks[0][1] in ('assert', 'check', 'loop')
        p = Parser(toks, macros)
        edits, bhv = [], None
        try:
            while p.i < len(toks):
                w = p.peek()
                if w == 'loop':
                    p.take()
                    w = p.peek()
                if w in CLAUSES:
                    p.take()
                    names = []
                    while p.kind() == 'id' and p.peek(1) == ':':
                        names.append(p.take())
                        p.take()
                    start = p.i
                    e = p.expr()
                    end = p.i
                    p.take(';')
                    edits.append((start, end, e, w, names + ([bhv] if bhv else [])))
                elif w in SKIP:
                    while p.take() != ';':
                        pass
                elif w == 'behavior':
                    p.take()
                    bhv = p.take()
                    p.take(':')
                else:
                    raise Unsupported('clause %r' % w)
        except Unsupported as e:
            log.append('%s:%d: rest of the annotation left as is: %s' % (
                fname, text.count('\n', 0, toks[p.i][2] if p.i < len(toks) else m.end()) + 1, e))
        # formals that a precondition allows to be null: p == \\null || ..
        nullable = set()
        for start, end, e, w, _ in edits:
            if w == 'requires' and e[0] == 'bin' and e[1] == '||' and \
                    e[2][0] == 'bin' and e[2][1] == '==' and e[2][2][0] == 'id' and \
                    e[2][3] == ('id', '\\null'):
                nullable.add(e[2][2][1])
        fn = function_at(text, m.start(), m.end(), in_body)
        seen = {}
        for start, end, e, w, names in edits:
            keys = {fn + ':*'} | {'%s:%s' % (fn, n) for n in names}
            if len(names) == 2:
                key = '%s:%s:%s' % (fn, names[1], names[0])
                seen[key] = seen.get(key, 0) + 1
                keys |= {key, '%s#%d' % (key, seen[key])}
            if keys & set(keep):
                log.append('%s:%d: %s %s kept as written (--keep)' % (
                    fname, text.count('\n', 0, toks[start][2]) + 1, w, ':'.join([fn] + names[::-1])))
                continue
            rw = Rewriter(defs, macros, taken)
            rw.nullable = nullable
            ctx = (contract or set()) if not in_body else body_ctx.get(fn)
            if in_body and ctx is not None:
                rw.nullable = nullable | ((fn_nullable or {}).get(fn, set()) & ctx)
                rw.labels = body_labels[fn]
            try:
                new = rw.expand(e, 'Here', frozenset(), ctx)
            except Unsupported as ex:
                log.append('%s: clause left as is: %s' % (fname, ex))
                continue
            if new == e:
                kept = sorted(set(n for n in rw.notes if n.startswith('left as is')))
                if kept:
                    log.append('%s:%d: %s unchanged: %s' % (
                        fname, text.count('\n', 0, toks[start][2]) + 1, w, '; '.join(kept)))
                continue
            s, t = toks[start][2], toks[end - 1][3]
            line = text.count('\n', 0, s) + 1
            printed = show(new)
            try:
                check = Parser(lex(printed), macros)
                again = check.expr()
                if check.i != len(check.t) or assoc(again) != assoc(new) or \
                        show(again) != printed:
                    raise Unsupported('reparse')
            except Unsupported as ex:
                log.append('%s:%d: rewrite does not parse back, left as is: %s' % (fname, line, ex))
                continue
            notes = sorted(set(rw.notes))
            log.append('%s:%d: %s %s' % (fname, line, w, '; '.join(notes)))
            out.append((s, t, printed))
    # apply, keeping the number of lines of every clause
    res, pos = [], 0
    for s, t, printed in sorted(out):
        old = text[s:t]
        res.append(text[pos:s])
        res.append(wrap_lines(printed, old))
        pos = t
    res.append(text[pos:])
    return ''.join(res)


def wrap_lines(printed, old):
    """printed, over as many lines as old had; the continuation lines
    take the prefix (indentation, @) of old's second line."""
    lines = old.split('\n')
    n = len(lines)
    if n == 1:
        return printed
    cont = re.match(r'[ \t]*@?[ \t]*', lines[1]).group()
    width = max(40, -(-len(printed) // n))
    outl, cur = [], ''
    for w in printed.split(' '):
        if cur and len(cur) + 1 + len(w) > width and len(outl) < n - 1:
            outl.append(cur)
            cur = w
        else:
            cur = (cur + ' ' + w) if cur else w
    outl.append(cur)
    outl += [''] * (n - len(outl))
    return '\n'.join([outl[0]] + [(cont + l) if l else cont.rstrip()
                                   for l in outl[1:]])


# E-ACSL 25 overflows its stack on any term that reads a _Bool field of a
# struct (\\result.any, s.any).  A function that returned such a struct
# could be left out of the instrumentation (EACSL_EXCLUDE) and have its
# contract checked at its call site instead: right after
# `struct T s = fn(..);` an assertion per ensures, with \\result.f read as
# s.f, and a _Bool field read as the byte that holds it
# (*(unsigned char *)&s.f, 0 or 1, which E-ACSL takes).  The arguments must
# be the formals' own names, and the clauses free of \\old and \\at: then
# each assertion is the ensures itself in the caller's state just after the
# return.  Its requires become assertions just before the call.
# CALLSITE_FN names that function; None since the single-pass core
# (hvipi_collect() fills a struct hvipi_set through a pointer, and its
# contract speaks of the caller's state at entry, {Pre}): the collect
# functions are excluded (EACSL_EXCLUDE) and not checked at a call site.
CALLSITE_FN = None


def callsite(text, log):
    fn = CALLSITE_FN
    m = re.search(r'^static struct (\w+) ' + fn + r'\(([^)]*)\)', text, re.M)
    if not m:
        raise SystemExit('inline.py: no definition of %s (changed?)' % fn)
    stype, params = m.group(1), m.group(2)
    forms = [re.findall(r'\w+', p_)[-1] for p_ in params.split(',')]
    sm = re.search(r'^struct ' + stype + r' \{(.*?)^\};', text, re.M | re.S)
    if not sm:
        raise SystemExit('inline.py: no struct %s (changed?)' % stype)
    bools = set(re.findall(r'^\s*bool\s+(\w+);', sm.group(1), re.M))
    cm = text.rfind('/*@', 0, m.start())
    contract = text[cm:text.index('*/', cm) + 2]
    if text[cm:m.start()].count('*/') != 1 or text[text.index('*/', cm) + 2:m.start()].strip():
        raise SystemExit('inline.py: the contract of %s is not right above it' % fn)
    body = re.sub(r'^\s*@', ' ', contract[3:-2], flags=re.M)
    pre, post = [], []
    for c in re.finditer(r'\b(requires|ensures)\s+(?:(\w+)\s*:(?!:))?(.*?);(?=\s*(?:requires|ensures|assigns|$))',
                         body, re.S):
        kind, name, pred = c.group(1), c.group(2), ' '.join(c.group(3).split())
        if '\\old' in pred or '\\at' in pred:
            log.append('src/hvipi.c: %s %s of %s not checked at the call site (\\old or \\at)'
                       % (kind, name, fn))
            continue
        (pre if kind == 'requires' else post).append((name, pred))
    calls = list(re.finditer(r'^(\t+)struct ' + stype + r' (\w+) = ' + fn +
                             r'\(([^;]*)\);$', text, re.M))
    if not calls:
        raise SystemExit('inline.py: no call `struct %s v = %s(..);` (changed?)' % (stype, fn))
    out, pos = [], 0
    for k in calls:
        args = [a.strip() for a in k.group(3).split(',')]
        if args != forms:
            log.append('src/hvipi.c:%d: call of %s with other names than its formals: not checked'
                       % (text.count('\n', 0, k.start()) + 1, fn))
            continue
        v = k.group(2)

        def res(mm):
            f = mm.group(1)
            return ('(*(unsigned char *)&%s.%s)' % (v, f)) if f in bools else '%s.%s' % (v, f)
        before = ''.join('/*@ assert %s_requires_%d: %s; */' % (fn, i + 1, p_)
                         for i, (_, p_) in enumerate(pre))
        after = ''.join('/*@ assert %s_%s: %s; */' % (fn, n or 'ensures_%d' % (i + 1),
                                                      re.sub(r'\\result\.(\w+)', res, p_))
                        for i, (n, p_) in enumerate(post))
        out.append(text[pos:k.start()])
        out.append(k.group(1) + before + k.group(0)[len(k.group(1)):] + after)
        pos = k.end()
        log.append('src/hvipi.c:%d: contract of %s checked at its call site: %d requires, %d ensures'
                   % (text.count('\n', 0, k.start()) + 1, fn, len(pre), len(post)))
    out.append(text[pos:])
    return ''.join(out)


# Predicates of spec/ declared in an axiomatic block with no definition
# (the partition's VPs: spec/hvipi_receiver.h).  E-ACSL 25 cannot evaluate
# them (it emits a C function with no return), so a requires or ensures
# that names one becomes \\true in the copy, its lines kept; the log says
# which.  They are the "all" format's receiver clauses and the glue's
# present_partition precondition: proven by WP, not checked at run time.
UNINTERPRETED = ('all_reads', 'present_is_partition', 'partition_vp')
# The flush receiver's reading (flush_reads, and the plan-level macro
# HVIPI_FLUSH_REACHES of src/hvipi.h) names the partition for a call with
# ALL_PROCESSORS, so the flush planner's no_vp_lost and no_spurious_vp,
# and its writers' reads clauses over it, are \true in the copy as well;
# the plan's VP set is checked against the receiver model's reading by
# the harnesses (tests/kernel_ref/flush_plan_ref.c, the fuzz target).
UNINTERPRETED += ('flush_reads', 'HVIPI_FLUSH_REACHES')
# The pinned-field predicates of spec/hvipi_xmm.h (over a struct pointer,
# plan_input_pinned with two labels): E-ACSL 25 overflows its stack on
# them (seen on hvipi_plan_one), so their clauses become \true in the
# copy too.  Every plan of the tests is checked against the same rules
# by tests/common/check.c (ck_pinned).
UNINTERPRETED += ('plan_regs_pinned', 'plan_control_pinned',
                  'plan_banks_pinned', 'plan_input_pinned')


def drop_uninterpreted(text, log, fname):
    out, pos = [], 0
    for m in re.finditer(r'/\*@(.*?)\*/', text, re.S):
        block = m.group(1)
        if re.match(r'\s*(ghost|logic|predicate|lemma|axiomatic|type|global)\b', block):
            continue
        for c in re.finditer(r'\b(requires|ensures)(\s+\w+\s*:(?!:))?(.*?);'
                             r'(?=(?:\s|@)*(?:(?:requires|ensures|assigns|assumes|behavior|'
                             r'complete|disjoint)\b|$))', block, re.S):
            if not any(re.search(r'\b%s\s*(\{[^}]*\}\s*)?\(' % u, c.group(3))
                       for u in UNINTERPRETED):
                continue
            a = m.start(1) + c.start(3)
            b = m.start(1) + c.end(3)
            out.append(text[pos:a])
            out.append(' \\true' + '\n  @' * text[a:b].count('\n'))
            pos = b
            log.append('%s:%d: %s%s names an uninterpreted predicate: \\true in the copy'
                       % (fname, text.count('\n', 0, a) + 1, c.group(1),
                          (c.group(2) or '').rstrip(': ').rstrip()))
    out.append(text[pos:])
    return ''.join(out)


# Axiomatic blocks of spec/ that hold only definitions and lemmas, unwrapped
# in the copy (see the docstring): (file, block name).
UNWRAP = (('spec/hvipi_flush.h', 'RepControl'),
          ('spec/hvipi_lemmas.h', 'ByteSteps'))

# Ghost code that E-ACSL 25 would not run, turned into plain C in the
# copy: (file, pattern, replacement, times it must match; 0: at least once).
#  - hvipi_collect()'s ghost local `from` (the start of its pass over empty
#    words), declared in an inner block, which E-ACSL instruments but does
#    not declare; the core never reads it.
#  - the read_once cursors (hvipi_words_next, hvipi_present_next,
#    hvipi_vp_next) and their updates: E-ACSL turns ghost code into code
#    only in the functions it instruments, and hvipi_collect()
#    (EACSL_EXCLUDE), whose loads move the cursors, is not one of them; as
#    plain C every update runs and the postcondition read_once is checked
#    on the cursor the core moved.  A send starts with the three at 0
#    (fresh_send): eacsl_glue.c sets them before each call, as the start
#    of a send.
GHOST_TO_C = (
    ('src/hvipi.c', r'/\*@ ghost uint32_t from = cpu; \*/',
     'uint32_t from = cpu; (void)from; /* ghost in src/ */', 1),
    ('src/hvipi.h', r'/\*@ ghost extern uint32_t (hvipi_\w+_next); \*/',
     r'extern uint32_t \1; /* ghost in src/ */', 3),
    ('src/hvipi.c', r'/\*@ ghost uint32_t (hvipi_\w+_next); \*/',
     r'uint32_t \1; /* ghost in src/ */', 3),
    ('src/hvipi.c', r'/\*@ ghost (hvipi_\w+_next = [^;]*;) \*/',
     r'\1 /* ghost in src/ */', 0),
    ('src/hvipi.h', r'/\*@ ghost (hvipi_\w+_next = [^;]*;) \*/',
     r'\1 /* ghost in src/ */', 0),
#  - the ghost functions (hvipi_set_bit() and its steps, hvipi_bits_gap(),
#    hvipi_diff_bit()):
#    E-ACSL 25 drops their locals and would not compile them.  They are
#    proof steps, never compiled: in the copy their lines are blank and the
#    calls of hvipi_bits_gap() comments, and the word path's witness
#    `first`, which its assertions name, is the lowest set bit found by a
#    plain loop (the word is not 0 there: requires nonzero).
    ('src/hvipi.c', r'(?s)/\*@ ghost\n  @ /@.*?\n  @\*/',
     lambda m: '\n' * m.group(0).count('\n'), 3),
    ('src/hvipi.c', r'/\*@ ghost (hvipi_bits_gap\([^;]*\);) \*/',
     r'/* ghost in src/: \1 */', 3),
    ('src/hvipi.c', r'/\*@ ghost uint32_t first = hvipi_set_bit\(word\); \*/',
     'uint32_t first = 0; while (!((word >> first) & 1u)) first++; /* ghost in src/ */', 1),
#  - the same witness for a kept word (hvipi_start_set()) and for the last
#    word compared (hvipi_all_found()), and hvipi_compare_word()'s ghost
#    block (the bit where two differing words differ), blank: none of the
#    three functions is instrumented (EACSL_EXCLUDE), but the parser types
#    their ghost code and annotations.
    ('src/hvipi.c', r'/\*@ ghost uint32_t i = hvipi_set_bit\(s->word\[k\]\); \*/',
     'uint32_t i = 0; while (!((s->word[k] >> i) & 1u)) i++; /* ghost in src/ */', 1),
    ('src/hvipi.c', r'/\*@ ghost uint32_t i = hvipi_set_bit\(s->word\[same - 1u\]\); \*/',
     'uint32_t i = 0; while (!((s->word[same - 1u] >> i) & 1u)) i++; /* ghost in src/ */', 1),
    ('src/hvipi.c', r'(?s)/\*@ ghost\n\t  @ if \(r\.m != r\.p\) \{.*?\n\t  @\*/',
     lambda m: '\n' * m.group(0).count('\n'), 1),
)


def unwrap_axiomatic(text, name, fname):
    """The block `axiomatic NAME {` .. its closing `}` (alone on its line,
    at the opening line's indentation) with those two lines commented."""
    m = re.search(r'^([ \t]*)axiomatic %s \{[ \t]*$' % re.escape(name), text, re.M)
    if not m:
        raise SystemExit('inline.py: %s: axiomatic %s not found (changed?)' % (fname, name))
    c = re.compile(r'^%s\}[ \t]*$' % re.escape(m.group(1)), re.M).search(text, m.end())
    if not c:
        raise SystemExit('inline.py: %s: the end of axiomatic %s not found' % (fname, name))
    return (text[:m.start()] + m.group(1) + '// axiomatic %s { (unwrapped for E-ACSL)' % name +
            text[m.end():c.start()] + m.group(1) + '// } (end of %s)' % name + text[c.end():])


def strip_annotations(text):
    return re.sub(r'/\*@.*?\*/|//@[^\n]*', '', text, flags=re.S)


def generate(root, keep=()):
    """{relative path: content} of the copy, and the log."""
    log, files = [], {}
    spec = sorted(f for f in os.listdir(os.path.join(root, 'spec')) if f.endswith('.h'))
    src = sorted(f for f in os.listdir(os.path.join(root, 'src'))
                 if f.endswith('.h') or f.endswith('.c'))
    texts = {}
    for d, fs in (('spec', spec), ('src', src)):
        for f in fs:
            texts[d + '/' + f] = open(os.path.join(root, d, f)).read()
    macros = {}
    for k in texts:
        if k.startswith('src/'):
            macros.update(parse_macros(texts[k]))
    defs = Defs()
    for k in sorted(texts):
        parse_defs(texts[k], defs, macros)
    for k, t in texts.items():
        if k.startswith('spec/'):
            files[k] = t
    n = files['spec/hvipi_bits.h'].count(BITS_FROM)
    if n != 1:
        raise SystemExit('inline.py: the bits_below line is found %d times in '
                         'spec/hvipi_bits.h, not once (changed?)' % n)
    files['spec/hvipi_bits.h'] = files['spec/hvipi_bits.h'].replace(BITS_FROM, BITS_TO)
    for k, name in UNWRAP:
        files[k] = unwrap_axiomatic(files[k], name, k)
    for k, pat, rep, want in GHOST_TO_C:
        texts[k], n = re.subn(pat, rep, texts[k])
        if n == 0 or (want and n != want):
            raise SystemExit('inline.py: %s: %s found %d times, not %s (changed?)'
                             % (k, pat, n, want or 'at least once'))
    fn_nullable = contract_nullables(texts)
    for k, t in texts.items():
        if not k.startswith('src/'):
            continue
        new = rewrite_file(drop_uninterpreted(t, log, k), defs, macros, log, k, keep,
                           fn_nullable)
        if strip_annotations(new) != strip_annotations(t):
            raise SystemExit('inline.py: %s: the C code would change' % k)
        if new.count('\n') != t.count('\n'):
            raise SystemExit('inline.py: %s: the line count would change' % k)
        files[k] = new
    if CALLSITE_FN and 'src/hvipi.c' in files and \
            not ({CALLSITE_FN + ':*', CALLSITE_FN + ':callsite'} & set(keep)):
        files['src/hvipi.c'] = callsite(files['src/hvipi.c'], log)
    return files, log


def main(argv):
    keep = set()
    while argv and argv[0] == '--keep':
        keep |= set(argv[1].replace(',', ' ').split())
        argv = argv[2:]
    if argv and argv[0] == '--check':
        root, out = argv[1], argv[2]
        files, _ = generate(root, keep)
        have = set()
        for d in ('src', 'spec'):
            for f in os.listdir(os.path.join(out, d)):
                have.add(d + '/' + f)
        bad = sorted(have ^ set(files))
        for k, t in sorted(files.items()):
            p = os.path.join(out, k)
            if not os.path.exists(p) or open(p).read() != t:
                bad.append(k)
        if bad:
            print('inline.py: the copy in %s is not what inline.py writes: %s' % (
                out, ', '.join(sorted(set(bad)))))
            return 1
        return 0
    root, out = argv[0], argv[1]
    files, log = generate(root, keep)
    for k, t in sorted(files.items()):
        p = os.path.join(out, k)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w') as f:
            f.write(t)
    if len(argv) > 2:
        with open(argv[2], 'w') as f:
            f.write('\n'.join(log) + '\n')
    print(sum(1 for l in log if not re.search(
        r'left as is|kept as written|unchanged:|does not parse', l)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
