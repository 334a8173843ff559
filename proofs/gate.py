#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi proof gate: read the Frama-C WP JSON reports and logs, the WP
# smoke-test report and log, the EVA summary and the committed goal floors;
# print a per-function table and exit 0 only if everything is proved.
# Fail-closed: a missing or unreadable input is a failure.
"""Gate on Frama-C WP/EVA results (see proofs/prove.sh)."""

import argparse
import json
import re
import sys

LEMMAS = "lemmas"
COLUMNS = ("Qed", "Z3", "CVC5", "Script")
FLOORS_HEADER = """\
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# hvipi WP goal floors: `function min_goals`, one per line; "lemmas" counts
# every lemma.  Written by `proofs/gate.py --write-floors` from a run in
# which every goal was proved.  A function whose WP goal count drops below
# its floor fails the gate, so an emptied body, a dropped contract or a
# deleted loop invariant cannot pass by having less to prove.  Every
# function WP reports must have an entry; a new function needs one.
"""

# [wp] [Z3 4.8.12] Goal typed_f_ensures : Valid (Qed:4ms) (90ms) (1234)
# [wp] [Failed] Goal typed_f_ensures_bad        (prover lines follow)
GOAL_RE = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+)(?: : (\w+))?(.*)$")
SMOKE_RE = re.compile(r"^\[wp\] \[([^\]]+)\] Smoke-test (\S+)")
TIME_RE = re.compile(r"\((?:Qed:)?(?:(\d+)')?(\d+(?:\.\d+)?)(µs|us|ms|s)?\)")
SMOKE = "_wp_smoke_"                 # in the name of a smoke test's property
UNIT = {"µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, None: 1.0}


class Row:
    """Goal counts of one function (or of all lemmas)."""

    def __init__(self):
        self.goals = self.valid = 0
        self.by = dict.fromkeys(COLUMNS, 0)
        self.seconds = 0.0


def prover_name(key):
    """'Z3:4.8.12' -> 'Z3', 'qed' -> 'Qed', 'script' -> 'Script'."""
    base = key.split(":")[0].split(" ")[0]
    return {"qed": "Qed", "script": "Script"}.get(base.lower(), base)


def load_json(path, fails):
    """Return the parsed report, {} for a report without goals (WP writes
    'null'), None (and a failure) if it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f) or {}
    except (OSError, ValueError) as e:
        fails.append(f"FAIL: cannot read report {path}: {e}")
        return None


def properties(node):
    """Yield (property, stats) of a function/axiomatic node; descend into
    nested sections, skip the 'wp:section' summaries."""
    for key, val in node.items():
        if key == "wp:section" or not isinstance(val, dict):
            continue
        if any(isinstance(v, dict) and "total" in v for v in val.values()):
            yield key, val
        else:
            yield from properties(val)


def units_of(rep):
    """(function or LEMMAS, node) of a WP report."""
    units = list(rep.get("wp:functions", {}).items())
    return units + [(LEMMAS, n) for n in rep.get("wp:axiomatics", {}).values()]


def goal_reports(paths, fails, what="report"):
    """Yield (path, report) of the WP reports that have goals; a report
    that cannot be read or has none is a failure."""
    for path in paths:
        rep = load_json(path, fails)
        if rep is None:
            continue
        if not isinstance(rep, dict) or "wp:global" not in rep:
            fails.append(f"FAIL: {what} {path} has no goals")
            continue
        yield path, rep


def read_retry(paths, fails):
    """{(function, property): stats} of the retry reports."""
    out = {}
    for _path, rep in goal_reports(paths, fails, "retry report"):
        for fn, node in units_of(rep):
            for prop, stats in properties(node):
                out[(fn, prop)] = stats
    return out


def valid_of(stats):
    main = (stats or {}).get("wp:main") or {}
    return main.get("valid", 0), main.get("total", -1)


def read_reports(paths, rows, provers, only, fails, retry=None, retried=None):
    """Merge the WP reports into rows; return {property: function} and the
    properties not proved.  A property of the retry reports replaces the
    same property of a main report when it has as many goals and more of
    them valid (retried counts the goals so rescued)."""
    props, bad = {}, []
    retry = retry or {}
    for path, rep in goal_reports(paths, fails):
        glob = rep["wp:global"].get("wp:main", {})
        counted = merged_valid = 0
        for fn, node in units_of(rep):
            row = rows.setdefault(fn, Row())
            for prop, stats in properties(node):
                if SMOKE in prop:
                    # A smoke test of the same run (read_smoke checks it):
                    # in wp:global, not one of the function's goals.
                    main = stats.get("wp:main") or {}
                    counted += main.get("total", 0)
                    merged_valid += main.get("valid", 0)
                    continue
                again = retry.get((fn, prop))
                if again is not None:
                    (v0, t0), (v1, t1) = valid_of(stats), valid_of(again)
                    if t1 == t0 and v1 > v0:
                        stats = again
                        if retried is not None:
                            retried[prop] = v1 - v0
                main = stats.get("wp:main")
                if main is None:
                    fails.append(f"FAIL: {path}: property {prop} has no wp:main")
                    continue
                total, valid = main.get("total", 0), main.get("valid", 0)
                merged_valid += valid
                props[prop] = fn
                row.goals += total
                row.valid += valid
                counted += total
                if valid != total:
                    bad.append((fn, prop, valid, total, verdicts(stats)))
                ok = {}
                for key, st in stats.items():
                    if key != "wp:main":
                        name = prover_name(key)
                        ok[name] = ok.get(name, 0) + st.get("valid", 0)
                        provers[name] = provers.get(name, 0) + st.get("valid", 0)
                for name in COLUMNS:
                    row.by[name] += ok.get(name, 0)
                if "Z3" in ok and "CVC5" in ok:
                    # Qed/Script goals are not also counted for a solver, so
                    # smt goals = proved by Z3 or CVC5; the rest is exact.
                    smt = valid - ok.get("Qed", 0) - ok.get("Script", 0)
                    only["Z3"] += max(0, smt - ok["CVC5"])
                    only["CVC5"] += max(0, smt - ok["Z3"])
        if counted != glob.get("total", -1):
            fails.append(f"FAIL: {path}: {counted} goals under functions and "
                         f"lemmas but wp:global says {glob.get('total')}")
        if merged_valid != glob.get("total", -1):
            fails.append(f"FAIL: {path}: {merged_valid} of "
                         f"{glob.get('total', '?')} goals valid"
                         + (" after the retry" if retry else ""))
    return props, bad


def verdicts(stats):
    """'Z3: unknown, CVC5: timeout' from a property's report entry."""
    out = []
    for key, st in stats.items():
        if key != "wp:main" and st.get("valid", 0) != st.get("total", 0):
            out.append(prover_name(key) + ": " + "/".join(
                k for k in st if k not in ("total", "valid", "rank")))
    return ", ".join(out)


def read_log(path, fails):
    """Return {goal: (status, seconds, [prover results])} from a WP log."""
    goals, cur = {}, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fails.append(f"FAIL: cannot read log {path}: {e}")
        return goals
    for line in lines:
        m = GOAL_RE.match(line)
        if m:
            tag, name, status, rest = m.groups()
            status = status or tag
            old = goals.get(name)
            if old and old[0] != "Valid":
                status = old[0]          # a goal listed twice: worst wins
            cur = goals[name] = [status, seconds(rest), []]
        elif cur is not None and line[:1] in (" ", "\t") and ":" in line:
            prover, _, result = line.strip().partition(":")
            cur[1] += seconds(result)
            cur[2].append(f"{prover_name(prover)}: {TIME_RE.sub('', result).strip()}")
        else:
            cur = None
    return goals


def seconds(text):
    return sum((int(mi or 0) * 60 + float(v)) * UNIT[u]
               for mi, v, u in TIME_RE.findall(text) if u or mi)


def property_of(goal, props):
    """typed_<property>[_part<n>|_established|...] -> report property."""
    return max((p for p in props if goal == "typed_" + p or
                goal.startswith("typed_" + p + "_")), key=len, default=None)


def read_smoke(logs, reports, fails):
    """Return (passed, total) of the smoke tests in the logs and reports
    (the WP runs with -wp-smoke-tests); every smoke test must pass."""
    status = {}
    for log in logs:
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = SMOKE_RE.match(line)
                    if m:
                        tag, name = m.groups()
                        if status.get(name, "Passed") == "Passed":
                            status[name] = tag   # printed twice when failed
        except OSError as e:
            fails.append(f"FAIL: cannot read smoke log {log}: {e}")
            return 0, 0
    for name, tag in sorted(status.items()):
        if tag != "Passed":
            fails.append(f"FAIL: smoke test {name} {tag.lower()}: its goal was "
                         "proved, so code is dead or assumptions are inconsistent")
    if not status:
        fails.append(f"FAIL: no smoke tests in {', '.join(logs)} (check the -wp-prop selection)")
    in_json, read = 0, True
    for report in reports:
        rep = load_json(report, fails)
        read = read and rep is not None
        for node in (rep or {}).get("wp:functions", {}).values():
            for prop, stats in properties(node):
                if SMOKE in prop:     # WP reports a passed smoke test valid
                    main = stats.get("wp:main", {})
                    in_json += main.get("total", 0)
                    if main.get("valid", 0) != main.get("total", 0) and \
                            not any(prop in n for n in status):
                        fails.append(f"FAIL: smoke test {prop} failed in {report}")
    if read and in_json != len(status):
        fails.append(f"FAIL: {in_json} smoke tests in {', '.join(reports)} but "
                     f"{len(status)} in {', '.join(logs)}")
    passed = sum(1 for t in status.values() if t == "Passed")
    return passed, len(status)


def read_lines(path, fails, what):
    """Return {key: rest of line} of a `key value...` file, # comments."""
    try:
        with open(path, encoding="utf-8") as f:
            fields = [ln.split("#")[0].split(None, 1) for ln in f]
    except OSError as e:
        fails.append(f"FAIL: cannot read {what} {path}: {e}")
        return None
    return {k[0]: (k[1:] or [""])[0].strip() for k in fields if k}


def read_floors(path, fails):
    floors = read_lines(path, fails, "floors file")
    for fn, val in list((floors or {}).items()):
        if not val.isdigit():
            fails.append(f"FAIL: {path}: bad floor {fn} {val!r}")
            del floors[fn]
    return floors and {fn: int(val) for fn, val in floors.items()}


def check_eva(path, fails):
    eva = read_lines(path, fails, "EVA summary")
    if eva is None:
        return {}
    # EVA's claim is the absence of run-time errors (alarms).  The status
    # of ACSL properties is WP's job: EVA's "red" statuses (a behavior's
    # ensures checked in states where it is inactive) are only reported.
    want = {"alarms": "0", "frama_c_rc": "0", "unreached_functions": ""}
    for key, good in want.items():
        if eva.get(key, good if key != "alarms" else None) != good:
            fails.append(f"FAIL: EVA {key}: {eva.get(key, 'missing')!r}, "
                         f"want {good!r}")
    if "coverage_percent" not in eva:
        fails.append(f"FAIL: no coverage_percent in EVA summary {path}")
    return eva


def write_floors(path, rows, old):
    with open(path, "w", encoding="utf-8") as f:
        f.write(FLOORS_HEADER)
        for fn in sorted(rows, key=lambda n: (n == LEMMAS, n)):
            f.write(f"{fn} {rows[fn].goals}\n")
    for fn in sorted(old):
        new = rows[fn].goals if fn in rows else 0
        if new < old[fn]:
            print(f"note: floor of {fn} lowered from {old[fn]} to {new}")


def check_logs(paths, rows, props, bad, fails, retry_paths=()):
    """Name the goals not proved; add prover times to the rows.  A goal
    the retry logs prove replaces the same goal not proved before."""
    goals = {}
    for path in paths:
        found = read_log(path, fails)
        if not found:
            fails.append(f"FAIL: log {path} names no goal")
        goals.update(found)
    for path in retry_paths:
        for name, res in read_log(path, fails).items():
            if res[0] == "Valid" and name in goals and goals[name][0] != "Valid":
                goals[name] = res
    counted = sum(r.goals for r in rows.values())
    if len(goals) != counted:
        fails.append(f"FAIL: the logs name {len(goals)} goals, the reports "
                     f"count {counted}")
    named = set()                        # bad properties named by a log
    for name, (status, secs, results) in sorted(goals.items()):
        prop = property_of(name, props)
        if prop:
            rows[props[prop]].seconds += secs
        if status != "Valid":
            named.add(prop)
            why = ", ".join(results) or next(
                (b[4] for b in bad if b[1] == prop), "") or status
            fails.append(f"FAIL: goal {name} not proved ({why})")
    for fn, prop, valid, total, why in bad:
        if prop not in named:
            fails.append(f"FAIL: {fn}: property {prop}: {valid} of {total} "
                         f"goals valid ({why})")


def check_floors(path, rows, fails):
    floors = read_floors(path, fails)
    if floors is None:
        return {}
    for fn, floor in sorted(floors.items()):
        if fn not in rows:
            fails.append(f"FAIL: function {fn} has a floor ({floor}) "
                         "but no goals in the reports")
        elif rows[fn].goals < floor:
            fails.append(f"FAIL: function {fn} has {rows[fn].goals} goals, "
                         f"floor {floor}")
    for fn in sorted(set(rows) - set(floors)):
        fails.append(f"FAIL: function {fn} has no floor in {path} "
                     "(add one, e.g. with --write-floors)")
    return floors


def table(rows, floors):
    def line(name, r, floor):
        return (f"{name:<{width}} {r.goals:>6} {r.valid:>6}" +
                "".join(f" {r.by[c]:>6}" for c in COLUMNS) +
                f" {r.seconds:>8.2f} {floor:>6}")
    width = max([len("function")] + [len(n) for n in rows])
    head = f"{'function':<{width}} {'goals':>6} {'valid':>6}" + \
        "".join(f" {c:>6}" for c in COLUMNS) + f" {'time/s':>8} {'floor':>6}"
    out, tot = [head, "-" * len(head)], Row()
    for fn in sorted(rows, key=lambda n: (n == LEMMAS, n)):
        r = rows[fn]
        out.append(line(fn, r, f"{floors[fn]}" if fn in floors else "-"))
        tot.goals, tot.valid = tot.goals + r.goals, tot.valid + r.valid
        tot.seconds += r.seconds
        for c in COLUMNS:
            tot.by[c] += r.by[c]
    return out + ["-" * len(head),
                  line("total", tot, f"{sum(floors.values())}"), ""]


def unproved_functions(path):
    """Print, comma-separated, the functions of a WP report with a goal
    that is not valid (prove.sh retries them); exit 1 if unreadable."""
    fails = []
    rep = load_json(path, fails)
    if not isinstance(rep, dict):
        print("\n".join(fails) or f"FAIL: {path}: no report", file=sys.stderr)
        return 1
    names = []
    for fn, node in rep.get("wp:functions", {}).items():
        for prop, stats in properties(node):
            if SMOKE in prop:
                continue                 # a smoke test is not retried
            valid, total = valid_of(stats)
            if valid != total and fn not in names:
                names.append(fn)
    print(",".join(names))
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--unproved-functions":
        return unproved_functions(sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--log", action="append", default=[], required=True)
    ap.add_argument("--report", action="append", default=[], required=True)
    ap.add_argument("--retry-report", action="append", default=[],
                    help="WP report of the retry with the longer timeout")
    ap.add_argument("--retry-log", action="append", default=[])
    ap.add_argument("--smoke", action="append", default=[],
                    help="WP JSON report with the smoke tests (may be a --report)")
    ap.add_argument("--smoke-log", action="append", default=[],
                    help="WP log with the smoke tests (may be a --log)")
    ap.add_argument("--prover-choice", action="store_true",
                    help="the main run gave each goal to one recorded prover "
                    "first (proofs/provers.py): which goals only one prover "
                    "proves is then not measured")
    ap.add_argument("--floors", required=True)
    ap.add_argument("--eva", required=True)
    ap.add_argument("--seconds", type=float)
    ap.add_argument("--summary")
    ap.add_argument("--write-floors", action="store_true")
    args = ap.parse_args()

    fails, rows, provers = [], {}, {}
    only = {"Z3": 0, "CVC5": 0}
    retried = {}
    retry = read_retry(args.retry_report, fails)
    props, bad = read_reports(args.report, rows, provers, only, fails,
                              retry, retried)

    check_logs(args.log, rows, props, bad, fails, args.retry_log)
    if args.write_floors and fails:
        fails.append(f"FAIL: not writing {args.floors}: goals are not all proved")
    elif args.write_floors:
        write_floors(args.floors, rows, read_floors(args.floors, []) or {})
    floors = check_floors(args.floors, rows, fails)

    smoke = None
    if args.smoke or args.smoke_log:
        if not (args.smoke and args.smoke_log):
            fails.append("FAIL: --smoke and --smoke-log must be given together")
        else:
            smoke = read_smoke(args.smoke_log, args.smoke, fails)

    eva = check_eva(args.eva, fails)

    out = table(rows, floors)
    for name in sorted(provers):
        out.append(f"{name} proved {provers[name]} goal(s)")
    if args.prover_choice:
        out.append("goals proved only by Z3 or only by CVC5: not measured "
                   "(per-goal prover choice runs one prover a goal; "
                   "HVIPI_PROVER_CHOICE=0 races both)")
    else:
        out.append(f"goals proved only by Z3: {only['Z3']}, only by CVC5: {only['CVC5']}")
    if args.retry_report:
        out.append(f"retry with the longer timeout: {sum(retried.values())} "
                   f"goal(s) proved in {len(retried)} propert(y/ies)"
                   + "".join(f"\n  {p}: {n}" for p, n in sorted(retried.items())))
    else:
        out.append("retry with the longer timeout: not needed")
    out.append(f"smoke tests passed: {smoke[0]}/{smoke[1]}" if smoke
               else "smoke tests: not run")
    alarms, cover, secs = (eva.get(k, "?") for k in
                           ("alarms", "coverage_percent", "seconds"))
    out.append(f"EVA: alarms {alarms}, coverage {cover}%, {secs} s")
    if args.seconds is not None:
        out.append(f"total seconds: {args.seconds:g}")
    out += [""] + fails
    out.append("gate: PASS" if not fails else f"gate: FAIL ({len(fails)} reason(s))")
    text = "\n".join(out) + "\n"
    print(text, end="")
    if args.summary:
        try:
            with open(args.summary, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print(f"FAIL: cannot write summary {args.summary}: {e}")
            return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
