# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Which annotations of the core does the E-ACSL build execute, which not?

Inputs, all from the build:
  props.csv   frama-c -report-csv on the copy of the core that E-ACSL reads
              (every property: file, line, function, kind, text)
  log         the frama-c -e-acsl log (its "Ignoring annotation" warnings)
  code        the instrumented C file (one block per runtime check, with
              kind, file, function, line and label)
  excluded    the functions left out of -e-acsl-functions (commas or spaces)

Each property of src/ and spec/ (the Frama-C libc is left out) is put in
one class:
  executed      a runtime check of it is in the code
  condition     a behavior's assumes: E-ACSL evaluates it to select the
                behavior's ensures
  dead          an ensures (or complete/disjoint) of a behavior whose
                assumes E-ACSL could not translate: the check is generated
                but its condition is never true, so it never runs
  skipped       E-ACSL warned and ignored it (the reason is given)
  excluded      in a function left out of the instrumentation
  not-reported  none of the above (listed so that nothing is hidden)

Usage: annotations.py props.csv log code excluded OUT
Prints the summary; writes the summary and the full table to OUT.
"""
import collections
import re
import sys

ENTRY = ('hvipi_plan_mask', 'hvipi_plan_one', 'hvipi_control',
         'hvipi_status_ok', 'hvipi_plan_flush')


def read_props(path):
    rows = []
    for line in open(path).read().split('\n')[1:]:
        cols = line.split('\t')
        if len(cols) >= 7:
            rows.append(cols[:6] + ['\t'.join(cols[6:])])
        elif rows and line:
            rows[-1][6] += ' ' + line.strip()
    props = []
    for d, f, ln, fct, kind, _status, text in rows:
        if not (d.endswith('src') or d.endswith('spec')):
            continue
        props.append(dict(file=f, line=int(ln), fct=fct, kind=kind,
                          text=' '.join(text.split())))
    return props


def read_warnings(path):
    warn = collections.defaultdict(list)
    log = open(path).read()
    for m in re.finditer(r'\[e-acsl\] (\S+):(\d+): Warning: ?\n((?:  .*\n)+)', log):
        text = ' '.join(l.strip() for l in m.group(3).splitlines())
        if 'Ignoring' not in text:
            continue
        c = re.search(r"construct `([^`']*)'", text)
        if 'complete and disjoint' in text:
            why = ('complete/disjoint not checked: some assumes clauses '
                   'could not be translated')
        elif 'quantification' in text and 'invalid' in text:
            why = 'quantifier guard not in the form E-ACSL needs'
        elif c:
            why = c.group(1)
        else:
            why = text.split('.')[0]
        key = (m.group(1).split('/')[-1], int(m.group(2)))
        if why not in warn[key]:
            warn[key].append(why)
    return warn


def read_checks(path):
    checks = set()
    lines = open(path).read().split('\n')
    for i, line in enumerate(lines):
        m = re.match(r'\s*(\w+)\.kind = "([^"]*)";', line)
        if not m:
            continue
        var, kind, f = m.group(1), m.group(2), {}
        for nxt in lines[i + 1:i + 12]:
            g = re.match(r'\s*' + var + r'\.(\w+) = (.*);$', nxt)
            if g:
                f[g.group(1)] = g.group(2).strip('"')
            elif '__e_acsl_assert(' in nxt:
                break
        if kind == 'RTE' or 'line' not in f:
            continue
        checks.add((f.get('file', '').split('/')[-1], int(f['line']),
                    f.get('fct', ''), f.get('pred_txt', '')))
    return checks


def attribute(props, warn):
    """E-ACSL reports a skipped clause at the line of the offending term,
    which may be below the clause's first line: give each warning to the
    last property starting at or above it (assigns warnings to assigns
    properties, the others to the rest); a complete/disjoint warning is
    reported above the contract and goes to the function below it."""
    per = {}
    fct_warn = collections.defaultdict(list)
    starts = collections.defaultdict(list)
    for i, p in enumerate(props):
        starts[p['file']].append((p['line'], i))
    for f in starts:
        starts[f].sort()
    for (f, w), whys in warn.items():
        for why in whys:
            if 'complete' in why:
                below = [i for ln, i in starts.get(f, []) if ln >= w]
                if below:
                    fct_warn[props[below[0]]['fct']].append(why)
                continue
            above = [ln for ln, _ in starts.get(f, []) if ln <= w]
            if not above:
                continue
            at = max(above)
            assigns = 'assigns' in why
            for ln, i in starts[f]:
                if ln != at:
                    continue
                is_assigns = props[i]['kind'] in ('assigns clause', 'from clause')
                if is_assigns == assigns and why not in per.setdefault(i, []):
                    per[i].append(why)
    return per, fct_warn


def classify(props, warn, checks, excluded):
    lines_checked = {(f, l) for f, l, _, _ in checks}
    whole = {(fct, p) for f, l, fct, p in checks}
    per, fct_warn = attribute(props, warn)
    out = []
    by_fct = collections.defaultdict(list)
    for i, p in enumerate(props):
        by_fct[p['fct']].append((p, per.get(i, [])))
    for fct, ps in by_fct.items():
        ps.sort(key=lambda x: x[0]['line'])
        dead = False
        for p, whys in ps:
            key = (p['file'], p['line'])
            kind = p['kind']
            if fct in excluded:
                cls, why = 'excluded', 'function left out (-e-acsl-functions)'
            elif kind in ('assigns clause', 'from clause'):
                cls, why = 'skipped', 'assigns'
            elif kind == 'behavior assumption':
                dead = bool(whys)
                cls, why = (('skipped', '; '.join(whys)) if dead
                            else ('condition', ''))
            elif kind in ('complete behaviors', 'disjoint behaviors'):
                word = kind.split()[0]
                if (fct, 'all behaviors ' + word) in whole:
                    cls, why = 'executed', ''
                else:
                    cls, why = 'skipped', '; '.join(fct_warn[fct]) or \
                        'not generated'
            elif whys:
                cls, why = 'skipped', '; '.join(whys)
            elif key in lines_checked:
                if dead and kind == 'postcondition':
                    cls, why = 'dead', "its behavior's assumes is not translated"
                else:
                    cls, why = 'executed', ''
            else:
                cls, why = 'not-reported', ''
            out.append(dict(p, cls=cls, why=why))
    out.sort(key=lambda p: (p['file'], p['line'], p['kind']))
    return out


def summary(rows):
    text = []
    for title, sel in (('entry points (' + ', '.join(ENTRY) + ')',
                        lambda r: r['fct'] in ENTRY),
                       ('internal functions', lambda r: r['fct'] not in ENTRY),
                       ('all', lambda r: True)):
        rs = [r for r in rows if sel(r)]
        c = collections.Counter(r['cls'] for r in rs)
        text.append('%s: %d properties: %s' % (
            title, len(rs), ', '.join('%s %d' % (k, c[k]) for k in (
                'executed', 'condition', 'dead', 'skipped', 'excluded',
                'not-reported') if c[k])))
        why = collections.Counter(r['why'] for r in rs if r['cls'] == 'skipped')
        for w, n in why.most_common():
            text.append('    skipped %3d: %s' % (n, w))
    return text


def main(props_path, log_path, code_path, excluded, out_path):
    rows = classify(read_props(props_path), read_warnings(log_path),
                    read_checks(code_path), set(re.split(r'[,\s]+', excluded.strip())) - {''})
    head = summary(rows)
    with open(out_path, 'w') as f:
        f.write('\n'.join(head) + '\n\n')
        for r in rows:
            f.write('%-10s %s:%d %s [%s] %s%s\n' % (
                r['cls'], r['file'], r['line'], r['fct'], r['kind'],
                r['text'][:160], ('\n           why: ' + r['why']) if r['why'] else ''))
    print('\n'.join(head))
    if any(r['cls'] == 'not-reported' for r in rows):
        print('annotations: some properties are neither checked nor reported '
              'as skipped; see %s' % out_path)


if __name__ == '__main__':
    main(*sys.argv[1:6])
