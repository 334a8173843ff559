#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: the incremental `make prove` of a developer's tree.
#
# WP proves a function from its own body and contract and from the
# contracts, types, logic and ghost declarations around it, never from
# another function's body.  So a function's proof inputs are: the proof
# setup of proofs/manifest.sh without src/hvipi.c, the headers and spec/,
# and src/hvipi.c with every *other* function's body left out.  Their
# SHA-256 is the function's fingerprint.  An edit inside one body changes
# one fingerprint; an edit of a contract, a type, a macro, spec/ or the
# proof setup changes them all.
#
#   incremental.py fingerprints            print "<function> <sha256>"
#   incremental.py save OUT                after a passing gate: keep each
#                                          function's goals (log lines, WP
#                                          report node, retry too) under
#                                          OUT/incr/, with the fingerprint
#                                          reuse took at the run's start
#   incremental.py reuse OUT               (at the start of a run: records
#                                          the tree's fingerprints) print the
#                                          functions whose kept
#                                          proof matches the tree's fingerprint
#                                          and write their goals as
#                                          OUT/wp-reused.log,
#                                          OUT/wp-report-reused.json (and
#                                          the retry's, if any) for the gate
#
# prove.sh uses it unless HVIPI_INCREMENTAL=0; refresh-cache.sh and a clean
# clone (CI) have no OUT/incr, so their runs are cold: the authority.
"""Per-function reuse of a passing WP proof whose inputs did not change."""

import hashlib
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gate  # noqa: E402

SRC = "src/hvipi.c"
DEF_RE = re.compile(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b(hvipi_\w+)\s*\(")


def gated():
    with open(os.path.join(HERE, "functions.txt"), encoding="utf-8") as f:
        return [ln.split()[0] for ln in f if ln.strip() and not ln.startswith("#")]


def bodies(text):
    """{function: (start, end)} of the bodies (from '{' to '}') of the
    function definitions of a C file: a definition starts at column 0 with
    its name and its body's braces are at column 0."""
    out = {}
    lines = text.splitlines(keepends=True)
    offs, pos = [], 0
    for ln in lines:
        offs.append(pos)
        pos += len(ln)
    i = 0
    while i < len(lines):
        m = DEF_RE.match(lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            j = i
            while j < len(lines) and lines[j].rstrip() != "{":
                if lines[j].rstrip().endswith(";"):
                    break
                j += 1
            if j < len(lines) and lines[j].rstrip() == "{":
                k = j + 1
                while k < len(lines) and lines[k].rstrip() != "}":
                    k += 1
                if k < len(lines):
                    out[m.group(1)] = (offs[j], offs[k] + len(lines[k]))
                    i = k + 1
                    continue
        i += 1
    return out


def only_body(text, spans, fn):
    """TEXT with every function body of SPANS (bodies()) but FN's
    emptied to {}."""
    parts, last = [], 0
    for other, (a, b) in sorted(spans.items(), key=lambda x: x[1][0]):
        if other == fn:
            continue
        parts.append(text[last:a])
        parts.append("{}\n")
        last = b
    parts.append(text[last:])
    return "".join(parts)


def fingerprints(top=TOP):
    man = subprocess.run(["sh", os.path.join(top, "proofs/manifest.sh"), top],
                         capture_output=True, text=True, check=True).stdout
    setup = "".join(ln + "\n" for ln in man.splitlines()
                    if not ln.endswith("  " + SRC))
    # The smoke tests' timeout (prove.sh) decides what a kept smoke test
    # says: a proof kept from a run with another one is not reused.
    setup += "smoke-timeout " + os.environ.get("HVIPI_SMOKE_TIMEOUT", "1") + "\n"
    with open(os.path.join(top, SRC), encoding="utf-8") as f:
        text = f.read()
    spans = bodies(text)
    out = {}
    for fn in gated():
        if fn not in spans:
            out[fn] = None          # not found: never reused
            continue
        h = hashlib.sha256()
        h.update(setup.encode())
        h.update(("\0" + fn + "\0").encode())
        h.update(only_body(text, spans, fn).encode())
        out[fn] = h.hexdigest()
    return out


def split_log(path, fns, owner):
    """{function: [lines]} of a WP log: each goal line with the prover
    lines under it, and the smoke-test lines.  @owner maps a report's
    property to its function: a dead-call smoke test is named after the
    callee (typed_<callee>_wp_smoke_dead_call_s<n>), not the caller."""
    out = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    cur = None
    for line in lines:
        m = gate.GOAL_RE.match(line) or gate.SMOKE_RE.match(line)
        if m:
            name = m.group(2)
            cur = owner.get(name[len("typed_"):]) or gate.property_of(name, fns)
            if cur:
                out.setdefault(cur, []).append(line)
        elif cur and line[:1] in (" ", "\t"):
            out[cur].append(line)
        else:
            cur = None
    return out


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def save(outdir):
    fns = gated()
    # The fingerprints taken when this run started (reuse): an edit made
    # while it proved must not be kept as proven.
    fps = load(os.path.join(outdir, "incr-start.json"))
    if not isinstance(fps, dict):
        print("hvipi: incremental: no fingerprints from the start of this run; nothing kept")
        return 0
    incr = os.path.join(outdir, "incr")
    os.makedirs(incr, exist_ok=True)
    names = sorted(os.listdir(outdir))

    def matching(pattern):
        return [p for p in names if re.fullmatch(pattern, p)]

    # Each report and log is read once, then taken apart by function.
    kinds = {}
    for kind, rep_re, log_re in (
            ("main", r"wp-report-(\d+|reused)\.json", r"wp-(\d+|reused)\.log"),
            ("retry", r"wp-retry(-\d+|-reused)?\.json", r"wp-retry(-\d+|-reused)?\.log")):
        reports = [load(os.path.join(outdir, r)) or {} for r in matching(rep_re)]
        owner = {prop: fn for rep in reports
                 for fn, node in rep.get("wp:functions", {}).items()
                 for prop, _ in gate.properties(node)}
        logs = [split_log(os.path.join(outdir, lg), fns, owner)
                for lg in matching(log_re)]
        kinds[kind] = (reports, logs)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    saved = 0
    for fn in fns:
        if not fps.get(fn):
            continue
        rec = {"function": fn, "fingerprint": fps[fn], "saved": stamp}
        for kind, (reports, logs) in kinds.items():
            nodes = [rep["wp:functions"][fn] for rep in reports
                     if rep.get("wp:functions", {}).get(fn)]
            lines = [ln for by_fn in logs for ln in by_fn.get(fn, [])]
            rec[kind] = {"nodes": nodes, "log": lines}
        if not rec["main"]["nodes"] or not rec["main"]["log"]:
            continue
        # A function proved in the same run as before keeps its date.
        old = load(os.path.join(incr, fn + ".json")) or {}
        if old.get("fingerprint") == fps[fn] and old.get("proved"):
            rec["proved"] = old["proved"]
        else:
            rec["proved"] = stamp
        with open(os.path.join(incr, fn + ".json"), "w", encoding="utf-8") as f:
            json.dump(rec, f)
        saved += 1
    print(f"hvipi: incremental: kept the proofs of {saved} function(s) in {incr}")
    return 0


def report_of(nodes):
    """A WP report of kept function nodes, with the wp:global totals the
    gate checks them against (every property, smoke tests included)."""
    total = valid = 0
    for node in nodes.values():
        for _prop, stats in gate.properties(node):
            main = stats.get("wp:main") or {}
            total += main.get("total", 0)
            valid += main.get("valid", 0)
    return {"wp:global": {"wp:main": {"total": total, "valid": valid}},
            "wp:functions": nodes}


def reuse(outdir):
    fns = gated()
    fps = fingerprints()
    with open(os.path.join(outdir, "incr-start.json"), "w", encoding="utf-8") as f:
        json.dump(fps, f)
    incr = os.path.join(outdir, "incr")
    main_nodes, main_log, retry_nodes, retry_log, names = {}, [], {}, [], []
    for fn in fns:
        rec = load(os.path.join(incr, fn + ".json"))
        if not rec or not fps.get(fn) or rec.get("fingerprint") != fps[fn]:
            continue
        nodes = rec["main"]["nodes"]
        if len(nodes) != 1:
            continue
        main_nodes[fn] = nodes[0]
        main_log += rec["main"]["log"]
        if rec["retry"]["nodes"]:
            retry_nodes[fn] = rec["retry"]["nodes"][0]
            retry_log += rec["retry"]["log"]
        names.append((fn, rec.get("proved", "?")))
    for p in ("wp-reused.log", "wp-report-reused.json",
              "wp-retry-reused.log", "wp-retry-reused.json"):
        try:
            os.remove(os.path.join(outdir, p))
        except OSError:
            pass
    if names:
        with open(os.path.join(outdir, "wp-reused.log"), "w", encoding="utf-8") as f:
            f.write("\n".join(main_log) + "\n")
        with open(os.path.join(outdir, "wp-report-reused.json"), "w", encoding="utf-8") as f:
            json.dump(report_of(main_nodes), f)
        if retry_nodes:
            with open(os.path.join(outdir, "wp-retry-reused.log"), "w", encoding="utf-8") as f:
                f.write("\n".join(retry_log) + "\n")
            with open(os.path.join(outdir, "wp-retry-reused.json"), "w", encoding="utf-8") as f:
                json.dump(report_of(retry_nodes), f)
    for fn, when in names:
        print(fn, when)
    return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "fingerprints":
        for fn, fp in fingerprints().items():
            print(fn, fp or "-")
        return 0
    if len(sys.argv) == 3 and sys.argv[1] in ("save", "reuse"):
        return (save if sys.argv[1] == "save" else reuse)(os.path.abspath(sys.argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
