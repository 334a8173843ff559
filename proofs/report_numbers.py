#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""hvipi: the proof numbers the report and README.md state, kept honest.

The single source of truth is the committed cache, proofs/cache/: its
MANIFEST names the sources it was proved from (proofs/manifest.sh) and
its COLD-RUN holds the gate's numbers of the cold run that wrote it
(proofs/refresh-cache.sh: the total line, the smoke tests and, since
issue 30, one `row:` line per function of the gate's table).  No solver
and no WP run is needed to read them.

`make report` (proofs/report.py) ends proofs/PROOF_REPORT.md with a
block (an HTML comment) that records the manifest of the sources it
describes, the digest of COLD-RUN, the per-function numbers it states
and the digest of its own text, and writes the same numbers into
README.md's proof table and the totals of its "Last run" paragraph.
`make report-check` (proofs/report.py --check, this file's check())
fails when any of them no longer agrees:

  - the sources differ from the manifest the report records, or from
    proofs/cache/MANIFEST (the cache is stale);
  - the report was written from another COLD-RUN, or edited by hand
    since make report wrote it;
  - the report's or README.md's numbers differ from COLD-RUN's (its
    per-function rows when it has them, its totals and smoke tests
    always) or from each other, or do not cover the gate's functions.

A cache refreshed before COLD-RUN had rows gives the per-function rows
of the replay make report ran on that cache (same goals; the replay's
prover columns count a goal for each prover whose cached verdict it
found); their totals are still checked against COLD-RUN.
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
COLS = ("goals", "valid", "Qed", "Z3", "CVC5", "Script")
README_HEAD = "| function | goals | valid | Qed | Z3 | CVC5 | script |"
# A row of proofs/gate.py's table: name, the six counts, time, floor.
GATE_ROW = re.compile(r"^(\S+)" + r"\s+(\d+)" * 6 + r"\s+[\d.]+\s+(?:\d+|-)\s*$")
README_ROW = re.compile(r"^\|\s*(\S+)\s*" + r"\|\s*(\d+)\s*" * 6 + r"\|\s*$")
# The totals of README.md's "Last run" paragraph (first occurrence each).
README_WP = re.compile(r"\*\*WP (\d+) / (\d+) goals valid,(\s+)(\d+) / (\d+)(\s+)lemmas included\*\*")
README_SMOKE = re.compile(r"\*\*(\d+) / (\d+) smoke tests\*\*")
README_PROVERS = re.compile(r"Qed (\d+),(\s+)Z3 (\d+),(\s+)CVC5 (\d+),(\s+)Script (\d+)")


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
    """The functions of proofs/functions.txt, and the lemmas."""
    text = read("proofs/functions.txt") or ""
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
    """README's order: most goals first, the lemmas last."""
    return sorted(rows, key=lambda fn: (fn == "lemmas", -rows[fn][0], fn))


def fmt(counts):
    return " ".join(str(c) for c in counts)


# ---- writing (make report) ------------------------------------------------

def numbers(summary_text, cold_text):
    """The rows the report and README state, and where they come from:
    COLD-RUN's rows, or the replay's gate table when COLD-RUN has none.
    Also returns notes on rows where the replay and the cold run differ in
    goals or valid goals (they prove the same goals)."""
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


def stamp(body, manifest, cold_text, rows, source, replay_ok):
    """The block that ends the report (make report-check reads it)."""
    cold = read_cold(cold_text)
    smoke = cold["smoke"] or (0, 0)
    out = [BLOCK + ": written by `make report` (proofs/report.py); "
           "`make report-check` compares it with the sources, proofs/cache/ "
           "and README.md, and the text above with its digest.  Do not edit.",
           f"replay: {'PASS' if replay_ok else 'FAIL'}",
           f"sources-manifest-sha256: {sha(manifest)}",
           f"cold-run-sha256: {sha(cold_text or '')}",
           f"rows-from: {source}",
           f"smoke: {smoke[0]} {smoke[1]}"]
    out += [f"manifest: {ln}" for ln in manifest.splitlines()]
    out += [f"row: {fn} {fmt(rows[fn])}" for fn in order(rows)]
    out.append(f"text-sha256: {sha(body)}")
    out.append("-->")
    return "\n".join(out) + "\n"


def readme_table(text):
    """(start, end, rows) of README.md's proof table: the row lines after
    the header and its separator; None if there is no such table."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == README_HEAD:
            j = i + 2
            rows = {}
            while j < len(lines) and lines[j].startswith("|"):
                m = README_ROW.match(lines[j])
                if m:
                    rows[m.group(1)] = tuple(int(x) for x in m.groups()[1:])
                else:
                    rows[lines[j]] = None       # a row that is not numbers
                j += 1
            return i + 2, j, rows
    return None


def proof_section(text):
    """(start, end) of README.md's "Claims and proof status" section."""
    m = re.search(r"^## Claims and proof status\s*$", text, re.M)
    if not m:
        return None
    nxt = re.search(r"^## ", text[m.end():], re.M)
    return m.start(), m.end() + nxt.start() if nxt else len(text)


def update_readme(text, rows, cold_text):
    """README.md with its proof table and "Last run" totals set from the
    report's numbers; (text, [what could not be found])."""
    missing = []
    found = readme_table(text)
    if found is None:
        missing.append(f"the proof table (header {README_HEAD})")
    else:
        start, end, _ = found
        lines = text.split("\n")
        lines[start:end] = [f"| {fn} | " + " | ".join(str(c) for c in rows[fn]) + " |"
                            for fn in order(rows)]
        text = "\n".join(lines)
    cold = read_cold(cold_text)
    sec = proof_section(text)
    if sec is None or cold["total"] is None:
        return text, missing + ["the section \"Claims and proof status\" or COLD-RUN's total"]
    lem = rows.get("lemmas", (0, 0))
    tot, smoke = cold["total"], cold["smoke"] or (0, 0)
    part = text[sec[0]:sec[1]]
    part = README_WP.sub(lambda m: f"**WP {tot[1]} / {tot[0]} goals valid,{m.group(3)}"
                         f"{lem[1]} / {lem[0]}{m.group(6)}lemmas included**", part, count=1)
    part = README_SMOKE.sub(f"**{smoke[0]} / {smoke[1]} smoke tests**", part, count=1)
    part = README_PROVERS.sub(lambda m: f"Qed {tot[2]},{m.group(2)}Z3 {tot[3]},{m.group(4)}"
                              f"CVC5 {tot[4]},{m.group(6)}Script {tot[5]}", part, count=1)
    return text[:sec[0]] + part + text[sec[1]:], missing


# ---- checking (make report-check) -----------------------------------------

def parse_block(report):
    """(body, {key: [values]}) of the report's block; block None if none."""
    at = report.rfind("\n" + BLOCK)
    if at < 0:
        return report, None
    body = report[:at + 1]
    block = {}
    for line in report[at + 1:].splitlines()[1:]:
        key, _, val = line.partition(": ")
        if val:
            block.setdefault(key, []).append(val)
    return body, block


def section(text, title):
    m = re.search(r"^## " + re.escape(title) + r".*$", text, re.M)
    if not m:
        return ""
    nxt = re.search(r"^## ", text[m.end():], re.M)
    return text[m.end():m.end() + nxt.start()] if nxt else text[m.end():]


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


def check():
    """Return the list of failures (empty: the report and README agree
    with the sources and proofs/cache/)."""
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
    body, block = parse_block(report)
    one = (lambda k: (block.get(k) or [""])[0]) if block else (lambda k: "")
    if block is None:
        fails.append(f"{REPORT} has no report-check block (it was written by an "
                     "older proofs/report.py): run `make report`")
        # What the old report still says: the 16 first digits of the
        # manifest it was written from.
        m = re.search(r"manifest \(sha256 ([0-9a-f]{8,64})\.\.\.\)", body)
        if m and not cur.startswith(m.group(1)):
            fails.append(f"{REPORT} describes the sources whose manifest is "
                         f"{m.group(1)}..., the current sources' is {cur[:16]}...")
    else:
        if one("sources-manifest-sha256") != cur:
            old = "\n".join(v for v in block.get("manifest", []))
            fails.append(f"{REPORT} describes other sources: "
                         f"{', '.join(changed_files(old + chr(10), manifest)) or 'the manifest'} "
                         "changed since `make report` wrote it")
        if one("text-sha256") != sha(body):
            fails.append(f"{REPORT} was edited after `make report` wrote it "
                         "(its text does not match its recorded digest)")
        if cold_text is not None and one("cold-run-sha256") != sha(cold_text):
            fails.append(f"{REPORT} was written from another {COLD} "
                         "(the cache was refreshed since): run `make report`")
        if one("replay") != "PASS":
            fails.append(f"{REPORT} records a replay that did not pass")
    # A report whose claims table says "not proven" (e.g. written from a
    # replay without the Report plugin's CSV) does not describe a passing
    # gate, whatever its numbers say.
    unproven = re.findall(r"^\| `([a-z_]+)` \| not proven", report, re.M)
    if unproven:
        fails.append(f"{REPORT} states claims not proven: {', '.join(unproven)}")

    # The numbers the report states: its block's rows, or for an old
    # report the goals of its replay table.
    visible, _ = gate_rows(section(body, "Gate summary").splitlines())
    if block is not None:
        rows = {}
        for val in block.get("row", []):
            f = val.split()
            rows[f[0]] = tuple(int(x) for x in f[1:7])
        source = one("rows-from")
    else:
        rows, source = visible, "replay"
    if not rows:
        fails.append(f"{REPORT} states no per-function numbers")

    # The report against COLD-RUN (the source of truth).
    if cold["total"] is not None and rows:
        tot = tuple(sum(r[i] for r in rows.values()) for i in range(6))
        if cold["rows"]:
            compare_rows(fails, REPORT, rows, COLD, cold["rows"])
        elif tot[:2] != cold["total"][:2]:
            fails.append(f"{REPORT} counts {tot[0]} goals ({tot[1]} valid), "
                         f"{COLD} {cold['total'][0]} ({cold['total'][1]} valid)")
        if source == "cold run" and not cold["rows"]:
            fails.append(f"{REPORT} takes its rows from a cold run, {COLD} has none")
        shown = re.search(r"^total\s+(\d+)\s+(\d+)", section(body, "Where the verdicts"), re.M)
        if shown and (int(shown.group(1)), int(shown.group(2))) != cold["total"][:2]:
            fails.append(f"{REPORT}'s cold-run summary says {shown.group(1)} goals, "
                         f"{COLD} {cold['total'][0]}")
    if cold["smoke"] is not None:
        said = re.search(r"smoke tests passed: (\d+)/(\d+)", section(body, "Where the verdicts"))
        if block is not None:
            smoke = tuple(int(x) for x in one("smoke").split()[:2] or (0, 0))
        else:
            smoke = said and (int(said.group(1)), int(said.group(2)))
        if smoke != cold["smoke"]:
            fails.append(f"{REPORT} says {smoke[0] if smoke else '?'}/{smoke[1] if smoke else '?'} "
                         f"smoke tests, {COLD} {cold['smoke'][0]}/{cold['smoke'][1]}")
    # The report's visible replay table against its own numbers (goals
    # and valid goals: the replay proves the same goals as the cold run).
    if block is not None and rows:
        compare_rows(fails, f"{REPORT}'s gate summary table", visible,
                     "its report-check block", rows, 6 if source == "replay" else 2)
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

    # README.md: its table against the report's numbers, its "Last run"
    # totals against COLD-RUN.
    readme = read(README) or ""
    found = readme_table(readme)
    if found is None:
        fails.append(f"{README} has no proof table ({README_HEAD})")
    elif rows:
        compare_rows(fails, f"{README}'s proof table", found[2], REPORT, rows,
                     6 if block is not None else 2)
    sec = proof_section(readme)
    if sec is not None and cold["total"] is not None:
        part = readme[sec[0]:sec[1]]
        tot, lem = cold["total"], rows.get("lemmas", (0, 0))
        m = README_WP.search(part)
        if m and (int(m.group(1)), int(m.group(2)), int(m.group(4)), int(m.group(5))) != \
                (tot[1], tot[0], lem[1], lem[0]):
            fails.append(f"{README}: \"WP {m.group(1)} / {m.group(2)} goals valid, {m.group(4)} / "
                         f"{m.group(5)} lemmas\"; {COLD}: {tot[1]} / {tot[0]} goals, "
                         f"{REPORT}: {lem[1]} / {lem[0]} lemmas")
        m = README_SMOKE.search(part)
        if m and cold["smoke"] and (int(m.group(1)), int(m.group(2))) != cold["smoke"]:
            fails.append(f"{README}: \"{m.group(1)} / {m.group(2)} smoke tests\"; {COLD}: "
                         f"{cold['smoke'][0]} / {cold['smoke'][1]}")
        m = README_PROVERS.search(part)
        if m and tuple(int(m.group(i)) for i in (1, 3, 5, 7)) != tot[2:]:
            fails.append(f"{README}: \"Qed {m.group(1)}, Z3 {m.group(3)}, CVC5 {m.group(5)}, "
                         f"Script {m.group(7)}\"; {COLD}: Qed {tot[2]}, Z3 {tot[3]}, "
                         f"CVC5 {tot[4]}, Script {tot[5]}")
    return fails
