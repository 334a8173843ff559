#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""hvipi: the proof numbers the report and README.md state, kept honest.

The single source of truth is the committed cache, proofs/cache/: its
MANIFEST names the sources it was proved from (proofs/manifest.sh) and
its COLD-RUN holds the gate's numbers of the cold run that wrote it
(proofs/refresh-cache.sh: the total line, the smoke tests and one `row:`
line per function of the gate's table).  No solver and no WP run is
needed to read them.

`make report` (proofs/report.py) writes proofs/PROOF_REPORT.md: its
function table states the per-function numbers, its claims table the
status of each claim, and it ends with a block (an HTML comment) that
records the sources' manifest digest, the digest of COLD-RUN, the smoke
tests, EVA's alarms and the digest of everything above its last line.
It also writes README.md's proof-numbers block, the lines between

    <!-- proof-numbers:begin (make report writes this; make report-check checks it) -->
    <!-- proof-numbers:end -->

(readme_block(): total goals, goals per prover, smoke tests, EVA alarms,
claims proven, a link to the report).

`make report-check` (proofs/report.py --check, this file's check())
fails when any of them no longer agrees:

  - the sources differ from the manifest the report records, or from
    proofs/cache/MANIFEST (the cache is stale);
  - the report was written from another COLD-RUN, records a failed
    replay, or was edited by hand since make report wrote it;
  - a claim of the report is not "proven", or the report's claims are
    not the ones proofs/report.py states;
  - EVA raised an alarm;
  - the report's function table differs from COLD-RUN's rows, does not
    cover the gate's functions, or a function is below its goal floor;
  - README.md lacks the two marker lines, or the lines between them are
    not what make report would write from the report and COLD-RUN.
"""

import hashlib
import os
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = "proofs/PROOF_REPORT.md"
README = "README.md"
COLD = "proofs/cache/COLD-RUN"
CACHE_MANIFEST = "proofs/cache/MANIFEST"
BLOCK = "<!-- report-check"
DIGEST_KEY = "text-sha256"
COLS = ("goals", "valid", "Qed", "Z3", "CVC5", "Script")
README_BEGIN = ("<!-- proof-numbers:begin (make report writes this; "
                "make report-check checks it) -->")
README_END = "<!-- proof-numbers:end -->"
# The report's function table: its header starts so, a row is the
# function (in backquotes) and the six counts of COLS, then more columns.
FN_HEAD = "| function | goals | valid | Qed | Z3 | CVC5 | Script |"
FN_ROW = re.compile(r"^\|\s*`?([\w]+)`?\s*" + r"\|\s*(\d+)\s*" * 6 + r"\|")
# The report's claims table: | `id` | status | ...
CLAIMS_HEAD = "| claim | status |"
CLAIM_ROW = re.compile(r"^\|\s*`([a-z_]+)`\s*\|\s*([^|]*?)\s*\|")
# A row of proofs/gate.py's table: name, the six counts, time, floor.
GATE_ROW = re.compile(r"^(\S+)" + r"\s+(\d+)" * 6 + r"\s+[\d.]+\s+(?:\d+|-)\s*$")


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def read(rel):
    try:
        with open(os.path.join(TOP, rel), encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def current_manifest():
    run = subprocess.run(["sh", os.path.join(TOP, "proofs/manifest.sh")],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"proofs/manifest.sh failed: {run.stderr.strip()}")
    return run.stdout


def manifest_files(text):
    """{path: sha256} of a manifest (sha256sum lines)."""
    out = {}
    for line in (text or "").splitlines():
        digest, _, path = line.partition("  ")
        if path:
            out[path] = digest
    return out


def changed_files(old, new):
    a, b = manifest_files(old), manifest_files(new)
    return sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))


def gate_rows(lines):
    """({function: counts}, total counts or None) of gate.py table rows."""
    rows, total = {}, None
    for line in lines:
        m = GATE_ROW.match(line)
        if not m:
            continue
        counts = tuple(int(x) for x in m.groups()[1:])
        if m.group(1) == "total":
            total = counts
        elif m.group(1) not in ("function",):
            rows[m.group(1)] = counts
    return rows, total


def read_cold(text):
    """What proofs/cache/COLD-RUN records: its fields, the total counts,
    the smoke tests (passed, total) and the per-function rows."""
    fields, summary, rowlines = {}, [], []
    for line in (text or "").splitlines():
        key, _, val = line.partition(": ")
        if key == "summary":
            summary.append(val)
        elif key == "row":
            rowlines.append(val)
        elif val:
            fields[key] = val
    _, total = gate_rows(summary)
    rows, _ = gate_rows(rowlines)
    smoke = None
    for line in summary:
        m = re.match(r"smoke tests passed: (\d+)/(\d+)", line)
        if m:
            smoke = (int(m.group(1)), int(m.group(2)))
    return {"fields": fields, "total": total, "smoke": smoke, "rows": rows}


def gated():
    """The functions of proofs/functions.txt and proofs/load-models.txt
    (the loads' models, proven in their own run), and the lemmas."""
    text = (read("proofs/functions.txt") or "") + (read("proofs/load-models.txt") or "")
    return {ln.strip() for ln in text.splitlines()
            if ln.strip() and not ln.startswith("#")} | {"lemmas"}


def floors():
    out = {}
    for line in (read("proofs/floors.txt") or "").splitlines():
        f = line.split("#")[0].split()
        if len(f) == 2 and f[1].isdigit():
            out[f[0]] = int(f[1])
    return out


def order(rows):
    """The table's order: most goals first, the lemmas last."""
    return sorted(rows, key=lambda fn: (fn == "lemmas", -rows[fn][0], fn))


def fmt(counts):
    return " ".join(str(c) for c in counts)


# ---- writing (make report) ------------------------------------------------

def numbers(summary_text, cold_text):
    """The rows the report states, and where they come from: COLD-RUN's
    rows, or the replay's gate table when COLD-RUN has none.  Also returns
    notes on rows where the replay and the cold run differ in goals or
    valid goals (they prove the same goals)."""
    cold = read_cold(cold_text)
    replay, _ = gate_rows(summary_text.splitlines())
    notes = []
    if cold["rows"]:
        for fn in sorted(set(cold["rows"]) | set(replay)):
            a, b = cold["rows"].get(fn), replay.get(fn)
            if a is None or b is None or a[:2] != b[:2]:
                notes.append(f"{fn}: cold run {a and fmt(a[:2]) or 'none'}, "
                             f"replay {b and fmt(b[:2]) or 'none'} (goals valid)")
        return cold["rows"], "cold run", notes
    return replay, "replay", notes


def stamp(text, manifest, cold_text, source, replay_ok, eva_alarms):
    """The block that ends the report (make report-check reads it); its
    last line is the digest of TEXT and of the block's other lines."""
    cold = read_cold(cold_text)
    smoke = cold["smoke"] or (0, 0)
    out = [BLOCK + ": written by `make report` (proofs/report.py); "
           "`make report-check` compares it with the sources, proofs/cache/ "
           "and README.md, and everything above its last line with that "
           "line's digest.  Do not edit.",
           f"replay: {'PASS' if replay_ok else 'FAIL'}",
           f"sources-manifest-sha256: {sha(manifest)}",
           f"cold-run-sha256: {sha(cold_text or '')}",
           f"rows-from: {source}",
           f"smoke: {smoke[0]} {smoke[1]}",
           f"eva-alarms: {eva_alarms}"]
    head = text + "\n".join(out) + "\n"
    return head + f"{DIGEST_KEY}: {sha(head)}\n-->\n"


def readme_block(cold, rows, eva_alarms, claims):
    """The lines README.md holds between its markers: COLD-RUN's totals
    and smoke tests (COLD), the lemmas' row (ROWS), EVA's alarms and the
    claims [(id, status)] of the report."""
    tot, smoke = cold["total"], cold["smoke"] or (0, 0)
    lem = rows.get("lemmas", (0, 0))
    proven = [c for c, st in claims if st == "proven"]
    others = [c for c, st in claims if st != "proven"]
    lines = [
        f"**WP: {tot[1]} / {tot[0]} goals valid** (lemmas included: "
        f"{lem[1]} / {lem[0]}).",
        f"Goals by prover, as the cold run that wrote `proofs/cache/` "
        f"proved them: Qed {tot[2]}, Z3 {tot[3]}, CVC5 {tot[4]}, Script {tot[5]}.",
        f"**Smoke tests: {smoke[0]} / {smoke[1]} passed.  "
        f"EVA: {eva_alarms} alarms.**",
        f"**Claims: {len(proven)} of {len(claims)} proven**"
        + (f" (not proven: {', '.join(others)})" if others else "")
        + "; each claim, the clauses that carry it and the goals of each "
        "function: [proofs/PROOF_REPORT.md](proofs/PROOF_REPORT.md).",
    ]
    return lines


def readme_markers(text):
    """(start, end) line indexes of README.md's begin and end markers, or
    a string saying what is wrong with them."""
    lines = text.split("\n")
    begins = [i for i, ln in enumerate(lines) if ln.strip() == README_BEGIN]
    ends = [i for i, ln in enumerate(lines) if ln.strip() == README_END]
    if len(begins) != 1 or len(ends) != 1:
        return (f"{README} must hold each marker line exactly once "
                f"({len(begins)} x `{README_BEGIN}`, {len(ends)} x `{README_END}`)")
    if ends[0] < begins[0]:
        return f"{README}: the end marker comes before the begin marker"
    return begins[0], ends[0]


def update_readme(text, block):
    """README.md with the lines between its markers set to BLOCK;
    (text, None) or (text unchanged, what is wrong with the markers)."""
    found = readme_markers(text)
    if isinstance(found, str):
        return text, found
    lines = text.split("\n")
    lines[found[0] + 1:found[1]] = block
    return "\n".join(lines), None


# ---- reading the report ---------------------------------------------------

def parse_block(report):
    """(text above the digest line, {key: [values]}) of the report's
    block; the block is None if there is none."""
    at = report.rfind("\n" + BLOCK)
    if at < 0:
        return report, None
    block = {}
    for line in report[at + 1:].splitlines()[1:]:
        key, _, val = line.partition(": ")
        if val:
            block.setdefault(key, []).append(val)
    dig = report.rfind("\n" + DIGEST_KEY + ": ")
    head = report[:dig + 1] if dig > at else report
    return head, block


def table_after(text, header):
    """The lines of the markdown table whose header line starts with
    HEADER (after its separator line)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(header):
            out = []
            for ln in lines[i + 2:]:
                if not ln.startswith("|"):
                    break
                out.append(ln)
            return out
    return None


def report_rows(text):
    """{function: the six counts} of the report's function table, or None
    when it has no such table."""
    lines = table_after(text, FN_HEAD)
    if lines is None:
        return None
    rows = {}
    for ln in lines:
        m = FN_ROW.match(ln)
        if m:
            rows[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
    return rows


def report_claims(text):
    """[(id, status)] of the report's claims table, or None."""
    lines = table_after(text, CLAIMS_HEAD)
    if lines is None:
        return None
    return [m.groups() for m in map(CLAIM_ROW.match, lines) if m]


# ---- checking (make report-check) -----------------------------------------

def compare_rows(fails, what, have, ref, want, cols=6):
    """Name each function whose numbers (the first cols counts) differ
    between what (have) and ref (want)."""
    names = " ".join(COLS[:cols])
    out = []
    for fn in sorted(set(have) | set(want)):
        a, b = have.get(fn), want.get(fn)
        if a is None:
            out.append(f"{what} has no row {fn}; {ref}: {fmt(b[:cols])} ({names})")
        elif b is None:
            out.append(f"{what} has a row {fn!r} that {ref} has not")
        elif a[:cols] != b[:cols]:
            out.append(f"{what}: {fn} {fmt(a[:cols])}, {ref}: {fmt(b[:cols])} ({names})")
    # A few rows name the problem; forty say no more than five.
    if len(out) > 6:
        out[5:] = [f"{what}: {len(out) - 5} more rows differ from {ref}"]
    fails += out


def expected_readme(report=None, cold_text=None):
    """The lines make report writes between README.md's markers, from the
    committed report and COLD-RUN; (lines, None) or (None, why not)."""
    report = read(REPORT) if report is None else report
    cold_text = read(COLD) if cold_text is None else cold_text
    cold = read_cold(cold_text)
    if report is None:
        return None, f"{REPORT} is missing"
    if cold["total"] is None:
        return None, f"{COLD} has no gate total line"
    head, block = parse_block(report)
    claims = report_claims(head) or []
    rows = report_rows(head) or {}
    eva = (block or {}).get("eva-alarms", ["?"])[0]
    return readme_block(cold, rows, eva, claims), None


def check(claim_ids):
    """Return the list of failures (empty: the report and README agree
    with the sources and proofs/cache/, and every claim is proven).
    CLAIM_IDS: the claims proofs/report.py states, in order."""
    fails = []
    try:
        manifest = current_manifest()
    except (OSError, RuntimeError) as e:
        return [str(e)]
    cur = sha(manifest)
    cache_manifest = read(CACHE_MANIFEST)
    cold_text = read(COLD)
    cold = read_cold(cold_text)

    # The cache itself: proved from these sources, by the cold run COLD-RUN
    # describes.
    if cache_manifest is None:
        fails.append(f"{CACHE_MANIFEST} is missing: run `make refresh-cache`")
    elif cache_manifest != manifest:
        fails.append(f"proofs/cache is stale: {', '.join(changed_files(cache_manifest, manifest))} "
                     "changed since it was refreshed; run `make refresh-cache`, then `make report`")
    if cold_text is None or cold["total"] is None:
        fails.append(f"{COLD} is missing or has no gate total line: run `make refresh-cache`")
    elif cache_manifest is not None and cold["fields"].get("manifest-sha256") != sha(cache_manifest):
        fails.append(f"{COLD} is of the manifest {cold['fields'].get('manifest-sha256', '?')[:16]}..., "
                     f"{CACHE_MANIFEST} is {sha(cache_manifest)[:16]}...: run `make refresh-cache`")

    report = read(REPORT)
    if report is None:
        return fails + [f"{REPORT} is missing: run `make report`"]
    head, block = parse_block(report)
    if block is None:
        return fails + [f"{REPORT} has no report-check block (an older "
                        "proofs/report.py wrote it): run `make report`"]
    one = lambda k: (block.get(k) or [""])[0]  # noqa: E731
    if one("sources-manifest-sha256") != cur:
        fails.append(f"{REPORT} describes other sources (manifest sha256 "
                     f"{one('sources-manifest-sha256')[:16]}..., the current sources' "
                     f"{cur[:16]}...): run `make report`")
    if one(DIGEST_KEY) != sha(head):
        fails.append(f"{REPORT} was edited after `make report` wrote it "
                     "(its text does not match its recorded digest)")
    if cold_text is not None and one("cold-run-sha256") != sha(cold_text):
        fails.append(f"{REPORT} was written from another {COLD} "
                     "(the cache was refreshed since): run `make report`")
    if one("replay") != "PASS":
        fails.append(f"{REPORT} records a replay that did not pass")
    if one("eva-alarms") != "0":
        fails.append(f"{REPORT} records EVA alarms: {one('eva-alarms') or 'none recorded'} "
                     "(the gate requires 0)")

    # Every claim proven, and the claims the report states are the ones
    # report.py defines.
    claims = report_claims(head)
    if not claims:
        fails.append(f"{REPORT} has no claims table")
    else:
        have = [c for c, _ in claims]
        lack = [c for c in claim_ids if c not in have]
        extra = [c for c in have if c not in claim_ids]
        if lack:
            fails.append(f"{REPORT} does not state the claims {', '.join(lack)}")
        if extra:
            fails.append(f"{REPORT} states claims proofs/report.py does not: {', '.join(extra)}")
        for cid, status in claims:
            if status != "proven":
                fails.append(f"claim `{cid}` is not proven: the report says \"{status}\"")

    # The report's numbers against COLD-RUN (the source of truth).
    rows = report_rows(head)
    if not rows:
        fails.append(f"{REPORT} states no per-function numbers (no table `{FN_HEAD}`)")
        rows = {}
    if cold["total"] is not None and rows:
        if cold["rows"]:
            compare_rows(fails, f"{REPORT}'s function table", rows, COLD, cold["rows"])
        else:
            tot = tuple(sum(r[i] for r in rows.values()) for i in range(2))
            if tot != cold["total"][:2]:
                fails.append(f"{REPORT} counts {tot[0]} goals ({tot[1]} valid), "
                             f"{COLD} {cold['total'][0]} ({cold['total'][1]} valid)")
            if one("rows-from") == "cold run":
                fails.append(f"{REPORT} takes its rows from a cold run, {COLD} has none")
    if cold["smoke"] is not None:
        smoke = tuple(int(x) for x in one("smoke").split()[:2]) or None
        if smoke != cold["smoke"]:
            fails.append(f"{REPORT} says {one('smoke') or '?'} smoke tests (passed total), "
                         f"{COLD} {cold['smoke'][0]} {cold['smoke'][1]}")
    # The gate's functions and floors.
    if rows:
        want = gated()
        if set(rows) != want:
            extra, lack = sorted(set(rows) - want), sorted(want - set(rows))
            fails.append(f"{REPORT}'s functions differ from proofs/functions.txt: "
                         + ", ".join([f"not gated {f}" for f in extra] +
                                     [f"missing {f}" for f in lack]))
        for fn, floor in sorted(floors().items()):
            if fn in rows and rows[fn][0] < floor:
                fails.append(f"{REPORT}: {fn} has {rows[fn][0]} goals, below its floor {floor}")

    # README.md: the lines between its markers are what make report writes.
    readme = read(README) or ""
    found = readme_markers(readme)
    if isinstance(found, str):
        fails.append(found)
    else:
        want, why = expected_readme(report, cold_text)
        have = readme.split("\n")[found[0] + 1:found[1]]
        if want is None:
            fails.append(f"{README}'s proof-numbers block cannot be checked: {why}")
        elif have != want:
            n = max(len(have), len(want))
            have_, want_ = have + ["(none)"] * n, want + ["(none)"] * n
            diff = [f"  line {i + 1}: has {have_[i]!r}, make report writes {want_[i]!r}"
                    for i in range(n) if have_[i] != want_[i]][:3]
            fails.append(f"{README}'s proof-numbers block is not what `make report` "
                         "writes from the report and COLD-RUN (rewrite it with "
                         "`python3 proofs/report.py --readme`):\n" + "\n".join(diff))
    return fails
