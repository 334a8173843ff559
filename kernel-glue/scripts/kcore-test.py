#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kcore-test.py: the checks of the generated kernel copies of the core
(kcore.py) and of the receiver models (krx.py), as the kcore suite of
make test.

  kcore-test.py [--build BUILD]        every check below
  kcore-test.py --checkpatch DIR       checkpatch --strict on the copies
                                       in DIR (hvipi.c, hvipi.h, and
                                       krx.py's four), with the exceptions

The checks of the core's copy, each counted:
  determinism    two runs of kcore.py --out, in other directories and with
                 another PYTHONHASHSEED, write byte-identical files
  check          kcore.py --check passes on a fresh copy, and fails, naming
                 the line, on a copy with one byte changed
  checkpatch     the Linux 6.1 tree's scripts/checkpatch.pl --strict
                 --no-tree --show-types --terse -f on each file: every
                 finding matched by a line of
                 kernel-glue/intree/checkpatch-exceptions.txt, and every
                 line there matching a finding (its substring names exactly
                 one line of its file)
  equivalence    kcore-equiv.py on the fresh copy
  self-test      kcore-equiv.py --self-test, one count per check it runs

and of the receiver models' (krx.py: rx.h, rx_flush.h, testhv_rx.c,
testhv_rx_flush.c), each counted:
  krx determinism, krx check, krx checkpatch   as above, krx.py for
                 kcore.py (the changed byte in testhv_rx.c)
  krx tokens     each copy is its source token for token, comments and
                 #include lines aside, but for the renames krx.py names
                 (kcore.TYPE_MAP, krx.BUILTINS)
  krx module     the four copies and a stub that calls rx_decode() and
                 rxf_decode() build as an out-of-tree module with W=1
                 against the newest /usr/src/linux-headers-*-amd64 (KDIR
                 overrides): no warning (compiler, objtool, modpost), the
                 .ko written (about 3 s)
and one more: every line of the exceptions file names one of the copies.

checkpatch.pl, spelling.txt and const_structs.checkpatch are extracted
once from Debian's linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz, or
the tarball LINUX_SOURCE_TARBALL names) into BUILD/tests/kcore/checkpatch/.
Needs gcc, make, perl, python3, tar, xz and linux-headers-amd64.  Writes
"PASSED FAILED" to the file HVIPI_COUNTS names, and the failures to the
.fails file beside it.
"""

import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
KCORE = os.path.join(HERE, 'kcore.py')
KRX = os.path.join(HERE, 'krx.py')
EQUIV = os.path.join(HERE, 'kcore-equiv.py')
EXCEPTIONS = os.path.join(TOP, 'kernel-glue', 'intree', 'checkpatch-exceptions.txt')
TARBALL = os.environ.get('LINUX_SOURCE_TARBALL', '/usr/src/linux-source-6.1.tar.xz')
CHECKPATCH_FILES = ('checkpatch.pl', 'spelling.txt', 'const_structs.checkpatch')
OUTPUTS = ('hvipi.c', 'hvipi.h')

sys.path.insert(0, HERE)
import kcore  # noqa: E402
import krx  # noqa: E402


class Suite:
    def __init__(self):
        self.passed, self.failed = 0, []

    def check(self, ok, what, detail=''):
        if ok:
            self.passed += 1
            print(f'kcore: PASS {what}')
        else:
            self.failed.append(what + (f': {detail}' if detail else ''))
            print(f'kcore: FAIL {what}' + (f'\n{detail}' if detail else ''))
        return ok


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ------------------------------------------------------------ checkpatch

def extract_checkpatch(dest):
    """scripts/ with the three files of the tarball, once per tarball."""
    scripts = os.path.join(dest, 'scripts')
    try:
        st = os.stat(TARBALL)
    except OSError:
        raise RuntimeError(f'{TARBALL}: no such file (apt-get install linux-source-6.1, '
                           'or set LINUX_SOURCE_TARBALL)')
    stamp = f'{TARBALL} {st.st_size} {int(st.st_mtime)}\n'
    stamp_file = os.path.join(dest, 'SOURCE')
    if all(os.path.isfile(os.path.join(scripts, f)) for f in CHECKPATCH_FILES) and \
            os.path.isfile(stamp_file) and open(stamp_file).read() == stamp:
        return scripts
    print(f'kcore: extracting scripts/checkpatch.pl and its two data files from {TARBALL}')
    p = subprocess.Popen(['tar', '-tJf', TARBALL], stdout=subprocess.PIPE, text=True)
    first = p.stdout.readline().strip()
    p.kill()
    p.wait()
    top = first.split('/')[0]
    if not top:
        raise RuntimeError(f'cannot list {TARBALL}')
    tmp = dest + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    r = run(['tar', '-xJf', TARBALL, '-C', tmp, '--occurrence=1'] +
            [f'{top}/scripts/{f}' for f in CHECKPATCH_FILES])
    if r.returncode != 0:
        raise RuntimeError(f'tar -xJf {TARBALL} failed: {r.stderr.strip()}')
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    shutil.move(os.path.join(tmp, top, 'scripts'), scripts)
    shutil.rmtree(tmp)
    with open(stamp_file, 'w') as f:
        f.write(stamp)
    return scripts


def read_exceptions():
    """[(file, type, substring, reason, line number)]"""
    out = []
    with open(EXCEPTIONS) as f:
        for n, ln in enumerate(f, 1):
            ln = ln.rstrip('\n')
            if not ln.strip() or ln.startswith('#'):
                continue
            parts = ln.split('\t')
            if len(parts) != 4 or not all(p.strip() for p in parts):
                raise RuntimeError(f'{EXCEPTIONS}:{n}: not "file<TAB>TYPE<TAB>substring<TAB>reason"')
            out.append((parts[0], parts[1], parts[2], parts[3], n))
    return out


FINDING = re.compile(r'^(.*?):(\d+): (ERROR|WARNING|CHECK):([A-Z0-9_]+): (.*)$')
TOTAL = re.compile(r'^total: (\d+) errors, (\d+) warnings, (\d+) checks')


def checkpatch(scripts, kdir, suite, names=OUTPUTS, tag=''):
    """checkpatch on kdir's files names, each finding against the
    exceptions for them."""
    exc = [e for e in read_exceptions() if e[0] in names]
    used = [0] * len(exc)
    for name in names:
        path = os.path.abspath(os.path.join(kdir, name))
        r = run(['perl', os.path.join(scripts, 'checkpatch.pl'), '--strict', '--no-tree',
                 '--show-types', '--terse', '-f', path], cwd=os.path.dirname(scripts))
        lines = open(path).read().split('\n')
        findings, total = [], None
        for ln in r.stdout.split('\n'):
            m = FINDING.match(ln)
            if m:
                findings.append((int(m.group(2)), m.group(4), ln))
            t = TOTAL.match(ln)
            if t:
                total = sum(int(x) for x in t.groups())
        if total is None and r.returncode == 0 and not r.stdout.strip():
            total = 0       # --terse prints nothing on a clean file
        if total is None or total != len(findings):
            suite.check(False, f'{tag}checkpatch --strict {name}',
                        f'cannot read its output (exit {r.returncode}):\n{r.stdout}{r.stderr}')
            continue
        bad = []
        for line, typ, text in findings:
            src = lines[line - 1] if 0 < line <= len(lines) else ''
            hit = [i for i, e in enumerate(exc)
                   if e[0] == name and e[1] == typ and e[2] in src]
            if hit:
                for i in hit:
                    used[i] += 1
                print(f'kcore:   {name}:{line}: {typ}: allowed, '
                      f'{EXCEPTIONS_REL}:{exc[hit[0]][4]}: {exc[hit[0]][3]}')
            else:
                bad.append(f'  {text.replace(path, name)}\n    {src.strip()}')
        suite.check(not bad, f'{tag}checkpatch --strict {name}: {len(findings)} findings, '
                    f'{len(findings) - len(bad)} of them in {EXCEPTIONS_REL}',
                    'findings no exception line allows:\n' + '\n'.join(bad))
    stale = []
    for i, (f, typ, sub, _, n) in enumerate(exc):
        path = os.path.join(kdir, f)
        hits = [k for k, ln in enumerate(open(path).read().split('\n'), 1) if sub in ln] \
            if f in names else []
        if len(hits) != 1:
            stale.append(f'  line {n}: "{sub}" names {len(hits)} lines of {f}, not one')
        elif used[i] == 0:
            stale.append(f'  line {n}: no {typ} finding on {f}:{hits[0]}')
    suite.check(not stale, f'{EXCEPTIONS_REL}: each of its {len(exc)} lines for '
                f'{", ".join(names)} names one line and allows a finding there',
                '\n'.join(stale))


EXCEPTIONS_REL = os.path.relpath(EXCEPTIONS, TOP)


# ----------------------------------------------------- receiver models

def c_tokens(text, path):
    """The C tokens of text: comments and the lines of #include
    directives left out, a string literal one token."""
    segs = kcore.lex(text, path)
    dirs = kcore.directives(segs)
    includes = {k for k, ds in dirs.items()
                if kcore.dir_parse(kcore.dir_text(ds))[0] == 'include'}
    out = []
    for s in segs:
        if s.dir in includes:
            continue
        if s.kind == 'str':
            out.append(s.text)
        elif s.kind == 'code':
            out.extend(re.findall(r'\w+|\S', s.text))
    return out


def krx_tokens(kdir, suite):
    """Each copy is its source token for token but for krx.py's renames."""
    renames = dict(kcore.TYPE_MAP)
    renames.update((b, k) for b, (k, _) in krx.BUILTINS.items())
    for src_name, name in krx.FILES:
        src = os.path.join(TOP, krx.SRC_REL, src_name)
        want = [renames.get(tok, tok) for tok in c_tokens(open(src).read(), src)]
        path = os.path.join(kdir, name)
        have = c_tokens(open(path).read(), path)
        detail = ''
        if want != have:
            n = next((i for i, (a, b) in enumerate(zip(want, have)) if a != b),
                     min(len(want), len(have)))
            detail = (f'token {n}: {krx.SRC_REL}/{src_name} (renamed) has '
                      f'{want[n:n + 6]}, {name} {have[n:n + 6]}')
        suite.check(want == have, f'krx tokens: {name} is {krx.SRC_REL}/{src_name} token for '
                    f'token ({len(have)}), but for the renames', detail)


STUB = """// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>

#include "rx.h"
#include "rx_flush.h"

static struct rx_call krx_call;
static struct rx_result krx_result;
static struct rxf_call krxf_call;
static struct rxf_result krxf_result;

static int __init krx_stub_init(void)
{
	int st = rx_decode(&krx_call, &krx_result);

	return st + rxf_decode(&krxf_call, &krxf_result) ? 0 : -EINVAL;
}
module_init(krx_stub_init);
MODULE_LICENSE("GPL");
"""


def kernel_headers():
    """KDIR, or the newest /usr/src/linux-headers-*-amd64."""
    if os.environ.get('KDIR'):
        return os.environ['KDIR']
    base = '/usr/src'
    cands = [d for d in os.listdir(base) if re.fullmatch(r'linux-headers-.*-amd64', d)] \
        if os.path.isdir(base) else []

    def version(d):
        return [int(x) if x.isdigit() else x for x in re.findall(r'\d+|[a-z]+', d)]
    return os.path.join(base, max(cands, key=version)) if cands else None


def krx_module(kdir, work, suite):
    """The copies build as kernel code: a throwaway module, W=1."""
    what = 'krx module: the four copies and a stub build with W=1 as an out-of-tree module'
    hdrs = kernel_headers()
    if not hdrs or not os.path.isdir(hdrs):
        suite.check(False, what, f'no kernel headers at {hdrs or "/usr/src/linux-headers-*-amd64"} '
                    '(install linux-headers-amd64, or set KDIR)')
        return
    mod = os.path.join(work, 'krx-module')
    shutil.rmtree(mod, ignore_errors=True)
    os.makedirs(mod)
    for name in krx.OUTPUTS:
        shutil.copy(os.path.join(kdir, name), mod)
    with open(os.path.join(mod, 'stub.c'), 'w') as f:
        f.write(STUB)
    with open(os.path.join(mod, 'Kbuild'), 'w') as f:
        f.write('obj-m := krx_stub.o\n'
                'krx_stub-y := stub.o testhv_rx.o testhv_rx_flush.o\n')
    t0 = time.monotonic()
    # The kernel's make is ours: nothing of an outer make (make test's -j2
    # jobserver) may reach it, or it warns that the jobserver is gone.
    menv = {k: v for k, v in os.environ.items()
            if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEFILES', 'MAKEOVERRIDES')}
    r = run(['make', '-C', hdrs, f'M={mod}', 'W=1', 'modules'], env=menv)
    log = r.stdout + r.stderr
    with open(os.path.join(mod, 'build.log'), 'w') as f:
        f.write(log)
    warnings = [ln for ln in log.split('\n') if re.search(r'warning', ln, re.I)]
    ok = r.returncode == 0 and not warnings and \
        os.path.isfile(os.path.join(mod, 'krx_stub.ko'))
    print(f'kcore:   krx module: {os.path.basename(hdrs)}, {time.monotonic() - t0:.1f} s, '
          f'{len(warnings)} warnings')
    suite.check(ok, f'{what} against {os.path.basename(hdrs)}: no warning',
                f'exit {r.returncode}, {len(warnings)} warnings:\n{log}')


def krx_checks(work, scripts, suite):
    a, b, c = (os.path.join(work, d) for d in ('krx-a', 'krx-b', 'krx-c'))
    for d in (a, b, c):
        shutil.rmtree(d, ignore_errors=True)

    # determinism
    r1 = run([sys.executable, KRX, '--out', a], cwd=TOP)
    env = dict(os.environ, PYTHONHASHSEED='12345')
    r2 = run([sys.executable, KRX, '--out', b], cwd='/', env=env)
    same = r1.returncode == 0 and r2.returncode == 0 and \
        all(filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False)
            for n in krx.OUTPUTS)
    if not suite.check(same, 'krx determinism: two runs of krx.py --out (other directory, '
                       'other PYTHONHASHSEED) write the same bytes', r1.stderr + r2.stderr):
        return
    for s, n in krx.FILES:
        with open(os.path.join(TOP, krx.SRC_REL, s)) as f:
            sl = f.read().split('\n')
        with open(os.path.join(a, n)) as f:
            ol = f.read().split('\n')
        print(f'kcore:   {n}: {len(ol) - 1} lines ({krx.SRC_REL}/{s}: {len(sl) - 1})')

    # --check
    r = run([sys.executable, KRX, '--check', a])
    suite.check(r.returncode == 0, 'krx check: krx.py --check passes on a fresh copy', r.stderr)
    shutil.copytree(a, c)
    path = os.path.join(c, 'testhv_rx.c')
    text = open(path).read()
    k = text.index('0x000bu')
    with open(path, 'w') as f:
        f.write(text[:k] + '0x000cu' + text[k + 7:])
    line = text[:k].count('\n') + 1
    r = run([sys.executable, KRX, '--check', c])
    suite.check(r.returncode == 1 and f'testhv_rx.c:{line}:' in r.stderr,
                'krx check: krx.py --check fails on a copy with one byte changed, naming '
                f'testhv_rx.c:{line}', f'exit {r.returncode}: {r.stderr}')

    krx_tokens(a, suite)
    if scripts:
        checkpatch(scripts, a, suite, krx.OUTPUTS, 'krx ')
    krx_module(a, work, suite)


def exceptions_named(suite):
    """Every line of the exceptions names a generated file, or is one of the
    series' own (a path in the kernel tree, or msg: series-checkpatch.py,
    run by make intree-boot, checks those)."""
    known = set(OUTPUTS) | set(krx.OUTPUTS)
    bad = [f'  line {e[4]}: {e[0]}' for e in read_exceptions()
           if e[0] not in known and '/' not in e[0] and e[0] != 'msg']
    suite.check(not bad, f'{EXCEPTIONS_REL}: each line names one of the generated files '
                f'({", ".join(sorted(known))}), a path of the series or msg',
                '\n'.join(bad))


# ----------------------------------------------------------------- suite

def all_checks(build, suite):
    work = os.path.join(build, 'tests', 'kcore')
    try:
        scripts = extract_checkpatch(os.path.join(work, 'checkpatch'))
    except RuntimeError as e:
        scripts = None
        suite.check(False, 'checkpatch: scripts/checkpatch.pl of linux-source-6.1', str(e))
    core_checks(work, scripts, suite)
    krx_checks(work, scripts, suite)
    exceptions_named(suite)


def core_checks(work, scripts, suite):
    a, b, c = (os.path.join(work, d) for d in ('a', 'b', 'c'))
    for d in (a, b, c):
        shutil.rmtree(d, ignore_errors=True)

    # determinism
    r1 = run([sys.executable, KCORE, '--out', a], cwd=TOP)
    env = dict(os.environ, PYTHONHASHSEED='12345')
    r2 = run([sys.executable, KCORE, '--out', b], cwd='/', env=env)
    same = r1.returncode == 0 and r2.returncode == 0 and \
        all(filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False) for n in OUTPUTS)
    if not suite.check(same, 'determinism: two runs of kcore.py --out (other directory, other '
                       'PYTHONHASHSEED) write the same bytes', r1.stderr + r2.stderr):
        return
    for n in OUTPUTS:
        src = os.path.join(TOP, 'src', n)
        with open(src) as f:
            sl = f.read().split('\n')
        with open(os.path.join(a, n)) as f:
            ol = f.read().split('\n')
        print(f'kcore:   {n}: {len(ol) - 1} lines (src/{n}: {len(sl) - 1})')

    # --check
    r = run([sys.executable, KCORE, '--check', a])
    suite.check(r.returncode == 0, 'kcore.py --check passes on a fresh copy', r.stderr)
    shutil.copytree(a, c)
    path = os.path.join(c, 'hvipi.c')
    text = open(path).read()
    k = text.index('\treturn d / 4096u')
    with open(path, 'w') as f:
        f.write(text[:k] + text[k:].replace('4096u', '4097u', 1))
    line = text[:k].count('\n') + 1
    r = run([sys.executable, KCORE, '--check', c])
    suite.check(r.returncode == 1 and f'hvipi.c:{line}:' in r.stderr,
                f'kcore.py --check fails on a copy with one byte changed, naming hvipi.c:{line}',
                f'exit {r.returncode}: {r.stderr}')

    # checkpatch
    if scripts:
        checkpatch(scripts, a, suite)

    # equivalence
    r = run([sys.executable, EQUIV, '--kernel', a])
    print(r.stdout.rstrip())
    suite.check(r.returncode == 0, 'kcore-equiv.py: the copy computes what the proven text '
                'computes', r.stderr)

    # self-test
    r = run([sys.executable, EQUIV, '--self-test'])
    n = 0
    for ln in r.stdout.split('\n'):
        m = re.match(r'kcore-equiv: self-test: (PASS|FAIL) (.*)', ln)
        if m:
            n += 1
            suite.check(m.group(1) == 'PASS', 'kcore-equiv.py --self-test: ' + m.group(2))
        elif ln.startswith('kcore-equiv:   '):
            print(ln)
    suite.check(r.returncode == 0 and n > 1, 'kcore-equiv.py --self-test exits 0',
                f'exit {r.returncode}, {n} checks: {r.stdout}{r.stderr}')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(TOP, 'build'), help='the build directory')
    ap.add_argument('--checkpatch', metavar='DIR',
                    help="only checkpatch the copies in DIR (kcore.py's, krx.py's)")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    suite = Suite()
    build = os.path.abspath(a.build)
    if a.checkpatch:
        try:
            scripts = extract_checkpatch(os.path.join(build, 'tests', 'kcore', 'checkpatch'))
        except RuntimeError as e:
            print(f'kcore: {e}', file=sys.stderr)
            return 1
        found = False
        for names, tag in ((OUTPUTS, ''), (krx.OUTPUTS, 'krx ')):
            have = [n for n in names if os.path.isfile(os.path.join(a.checkpatch, n))]
            if have:
                found = True
                checkpatch(scripts, a.checkpatch, suite, tuple(have), tag)
        if not found:
            print(f'kcore: {a.checkpatch}: none of the generated files', file=sys.stderr)
            return 1
    else:
        all_checks(build, suite)
    failed = len(suite.failed)
    print(f'kcore: {time.monotonic() - t0:.1f} s')
    print(f'{suite.passed} passed, {failed} failed')
    counts = os.environ.get('HVIPI_COUNTS')
    if counts:
        with open(counts, 'w') as f:
            f.write(f'{suite.passed} {failed}\n')
        fails = os.path.splitext(counts)[0] + '.fails'
        if failed:
            with open(fails, 'w') as f:
                f.write('\n'.join(suite.failed) + '\n')
        elif os.path.exists(fails):
            os.remove(fails)
    return 0 if failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
