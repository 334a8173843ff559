#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: summarise a proofs/diversity.sh run into diversity.json: for every
# goal not closed by Qed, whether Z3, CVC5, both or neither prove it.
"""Write diversity.json from the logs of proofs/diversity.sh."""

import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL_RE = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+)(?: : (\w+))?(.*)$")
TIME_RE = re.compile(r"\((\d+(?:\.\d+)?)(ms|s)\)")


def read(path):
    """{goal: (tag, status, seconds)} of a WP log; later lines win."""
    goals = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = GOAL_RE.match(line)
            if m:
                tag, name, status, rest = m.groups()
                times = [float(v) * (1e-3 if u == "ms" else 1.0)
                         for v, u in TIME_RE.findall(rest.replace("(Qed:", "(x:"))]
                goals[name] = (tag, status or tag, times[-1] if times else None)
    return goals


def prover_of(tag):
    return tag.split()[0].upper() if tag not in ("Qed", "Failed", "Script") else tag


def function_of(goal, functions):
    if goal.startswith("typed_lemma_"):
        return "lemmas"
    best = max((f for f in functions if goal.startswith("typed_" + f + "_")),
               key=len, default=None)
    return best or "?"


def manifest_sha():
    out = subprocess.run(["sh", os.path.join(TOP, "proofs/manifest.sh")],
                         capture_output=True, text=True, check=True).stdout
    return hashlib.sha256(out.encode()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--work", required=True)
    ap.add_argument("--functions", required=True)
    ap.add_argument("--seconds", type=int)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    functions = args.functions.split(",")
    w = args.work

    # WP does not print the goals a -wp-run-all-provers run proves: the
    # goals and their verdicts come from the single-prover offline passes.
    single = {p: {**read(os.path.join(w, f"only-{p}.log")),
                  **read(os.path.join(w, f"only-{p}-lemmas.log"))}
              for p in ("z3", "cvc5")}
    problems = []
    every = {}
    for p in ("z3", "cvc5"):
        for g, (tag, status, t) in single[p].items():
            if g not in every or tag == "Qed":
                every[g] = (tag, status, t)
    for g in sorted(set(single["z3"]) ^ set(single["cvc5"])):
        problems.append(f"{g}: in one single-prover pass only")
    goals, counts, by_fn = {}, dict.fromkeys(
        ("goals", "qed", "both", "z3_only", "cvc5_only", "neither"), 0), {}
    for goal, (tag, status, _t) in sorted(every.items()):
        fn = function_of(goal, functions)
        c = by_fn.setdefault(fn, dict.fromkeys(counts, 0))
        for d in (counts, c):
            d["goals"] += 1
        if tag == "Qed":
            for d in (counts, c):
                d["qed"] += 1
            continue
        rec = {"function": fn}
        ok = {}
        for p in ("z3", "cvc5"):
            if goal not in single[p]:
                problems.append(f"{goal}: not in the {p} pass")
                rec[p] = "missing"
                ok[p] = False
                continue
            ptag, pstatus, secs = single[p][goal]
            ok[p] = pstatus == "Valid" and prover_of(ptag) == p.upper()
            # "Failed" is the prover's own error verdict (cached as such);
            # a goal missing from the cache would have no verdict at all.
            rec[p] = pstatus if pstatus != ptag else "no result"
            if ok[p] and secs is not None:
                rec[p + "_seconds"] = round(secs, 3)
            if pstatus == "Valid" and prover_of(ptag) == "QED":
                rec[p] = "Qed"
        by = ("both" if ok["z3"] and ok["cvc5"] else "z3_only" if ok["z3"]
              else "cvc5_only" if ok["cvc5"] else "neither")
        rec["proved_by"] = {"both": "both", "z3_only": "Z3", "cvc5_only": "CVC5",
                            "neither": "neither"}[by]
        if by == "neither":
            rec["note"] = ("neither prover alone; the gate closes it with a WP "
                           "tactic (lemmas: the Range tactic)" if goal.startswith("typed_lemma_")
                           else "neither prover alone")
        for d in (counts, c):
            d[by] += 1
        goals[goal] = rec
    data = {
        "generated": datetime.datetime.now(datetime.timezone.utc)
        .strftime("%Y-%m-%dT%H:%M:%SZ"),
        "manifest_sha256": manifest_sha(),
        "command": "make diversity (proofs/diversity.sh: -wp-run-all-provers, "
                   "same options and timeout as make prove)",
        "seconds": args.seconds,
        "summary": counts,
        "by_function": by_fn,
        "single_prover_goals": sorted(g for g, r in goals.items()
                                      if r["proved_by"] in ("Z3", "CVC5")),
        "problems": problems,
        "goals": goals,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"diversity: {counts['goals']} goals: {counts['qed']} Qed, "
          f"{counts['both']} both provers, {counts['z3_only']} only Z3, "
          f"{counts['cvc5_only']} only CVC5, {counts['neither']} neither")
    for p in problems[:10]:
        print("diversity: warning: " + p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
