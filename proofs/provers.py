#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""hvipi: per-goal prover choice, recorded from a cold run (issue 17).

WP 25 races every prover of -wp-prover on a goal and cancels the losers when
one succeeds: on the goals CVC5 needs 10-25 s for, Z3 burns the same time
for nothing (27 % of a cold run's CPU, proofs/profile.py --acct).  WP's
proof scripts choose the prover per goal instead: under `-wp-prover
tip,z3,cvc5` a goal with a script is given to the prover its script names
first, alone, and only if that prover fails are the others of -wp-prover
tried, one after the other; a goal without a script gets them one after the
other too.  Every prover still proves the goal from scratch: a script only
says which prover to start with, never a verdict.

proofs/provers.txt (committed) holds one line per goal that Qed does not
close: GOAL PROVER, the prover that proved the goal in the cold run the
cache was last refreshed from.

  seed FILE SESSION OPTIONS
                       write SESSION/script/GOAL.json for every line of
                       FILE: one prover step.  WP gives a script's prover
                       max(-wp-timeout, -wp-time-extra + the step's time)
                       seconds and ignores -wp-fct-timeout, and a step
                       without a time gets the prover's default (10 s,
                       measured: the 14-21 s goals failed), so each step
                       carries its function's timeout (OPTIONS:
                       -wp-timeout, -wp-fct-timeout; the function of a
                       goal as the gate finds it, among the gated ones)
                       less the extra time: the prover gets exactly that
                       timeout
  record SESSION SEED LOG...
                       print the provers.txt of a run: after a tip run WP
                       has rewritten each proved goal's script with the
                       prover that proved it; a goal the LOGs show valid
                       whose script WP dropped (a proof it took from the
                       cache, with no time) keeps its line of SEED
  compare OLD NEW      print how many goals kept, changed, gained or lost
                       their prover
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402  (a goal's function: gate.property_of)
import incremental  # noqa: E402  (the gated functions)

HEADER = """\
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# hvipi: the prover that proved each goal Qed does not close, in the cold
# run proofs/cache was refreshed from (proofs/provers.py; written by
# `make refresh-cache`).  `make prove` starts each goal with this prover
# alone and tries the others only if it fails.  A choice, never a verdict:
# an out-of-date or missing line costs time, not soundness.
"""


def read_choice(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            if len(parts) != 2:
                sys.exit(f"provers.py: {path}:{n}: want GOAL PROVER, got {line!r}")
            out[parts[0]] = parts[1]
    return out


TIME_EXTRA = 5  # WP's -wp-time-extra default; wp-options.txt does not set it


def read_timeouts(options):
    """(-wp-timeout, {function: -wp-fct-timeout}) of a wp-options.txt."""
    words = []
    with open(options, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                words += line.split()
    timeout, per_fct = 10, {}
    for i, w in enumerate(words[:-1]):
        if w == "-wp-timeout":
            timeout = int(words[i + 1])
        elif w == "-wp-fct-timeout":
            for item in words[i + 1].split(","):
                fn, _, secs = item.partition(":")
                per_fct[fn] = int(secs)
        elif w == "-wp-time-extra":
            sys.exit("provers.py: -wp-time-extra is set in the options: "
                     "update TIME_EXTRA to match")
    return timeout, per_fct


def seed(path, session, options):
    choice = read_choice(path)
    timeout, per_fct = read_timeouts(options)
    fns = incremental.gated()
    sdir = os.path.join(session, "script")
    os.makedirs(sdir, exist_ok=True)
    for goal, prover in choice.items():
        secs = per_fct.get(gate.property_of("typed_" + goal, fns), timeout)
        with open(os.path.join(sdir, goal + ".json"), "w", encoding="utf-8") as f:
            json.dump([{"prover": prover, "verdict": "valid",
                        "time": float(max(1, secs - TIME_EXTRA))}], f)
            f.write("\n")
    print(len(choice))


VALID_RE = re.compile(r"^\[wp\] \[[^\]]+\] Goal typed_(\S+) : Valid")


def load_script(path):
    """A WP script; WP writes whole floats as '13.', which JSON is not."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return json.loads(re.sub(r"(\d)\.(?!\d)", r"\1.0", text))


def record(session, seed_path, logs):
    sdir = os.path.join(session, "script")
    out = {}
    for name in sorted(os.listdir(sdir)) if os.path.isdir(sdir) else []:
        if not name.endswith(".json"):
            continue
        try:
            steps = load_script(os.path.join(sdir, name))
        except (OSError, ValueError) as e:
            sys.stderr.write(f"provers.py: cannot read {name}: {e}\n")
            continue
        # The first prover step with a valid verdict; tactics (none are
        # written by this project) and failed steps are skipped.
        for step in steps if isinstance(steps, list) else []:
            if isinstance(step, dict) and step.get("verdict") == "valid" \
                    and isinstance(step.get("prover"), str):
                out[name[:-5]] = step["prover"]
                break
    seeded = read_choice(seed_path)
    for log in (lg for lg in logs if os.path.exists(lg)):
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = VALID_RE.match(line)
                if m and m.group(1) not in out and m.group(1) in seeded:
                    out[m.group(1)] = seeded[m.group(1)]
    sys.stdout.write(HEADER)
    for goal in sorted(out):
        sys.stdout.write(f"{goal} {out[goal]}\n")


def compare(old, new):
    a, b = read_choice(old), read_choice(new)
    kept = sum(1 for g in b if a.get(g) == b[g])
    changed = sum(1 for g in b if g in a and a[g] != b[g])
    print(f"{len(b)} goals: {kept} kept their prover, {changed} changed, "
          f"{len(set(b) - set(a))} new, {len(set(a) - set(b))} gone")


def main(argv):
    if len(argv) == 4 and argv[0] == "seed":
        seed(argv[1], argv[2], argv[3])
    elif len(argv) >= 3 and argv[0] == "record":
        record(argv[1], argv[2], argv[3:])
    elif len(argv) == 3 and argv[0] == "compare":
        compare(argv[1], argv[2])
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
