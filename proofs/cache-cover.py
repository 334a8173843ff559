#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Does the committed WP cache hold every proof make prove just made?

`make replay` re-checks the gate from proofs/cache/ with no solver: WP
generates each goal, Qed closes its share, and every other goal must find
a valid verdict in the cache under the digest of its task.  A passing
`make prove` wrote the verdict of each goal a solver proved into its own
cache (BUILD/proof/cache/, the retry's valid verdicts included), under
the same digests: WP's cache keys hold the prover and the task, not the
timeout.  So when

  - proofs/cache/MANIFEST equals the manifest of the sources now, and
  - every valid verdict of this run's cache is a valid verdict of
    proofs/cache/ (same file name),

the replay finds every proof this run found, and `make replay` would
pass.  This check is sufficient, not necessary: a goal proved here by
Z3 and in the committed cache by CVC5 has two different file names.  On
any miss it says so and exits 1; the caller then runs the replay itself
(Makefile, target prove).

usage: proofs/cache-cover.py RUN_CACHE_DIR
exit:  0 covered, 1 not covered (the misses are listed), 2 unreadable
"""
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMITTED = os.path.join(TOP, "proofs", "cache")


def valid(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f).get("verdict") == "valid"
    except (OSError, ValueError):
        return False


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    run = argv[1]
    if not os.path.isdir(run):
        print(f"cache-cover: no cache at {run}", file=sys.stderr)
        return 2
    now = subprocess.run(["sh", os.path.join(TOP, "proofs", "manifest.sh")],
                         check=True, cwd=TOP, stdout=subprocess.PIPE).stdout
    try:
        with open(os.path.join(COMMITTED, "MANIFEST"), "rb") as f:
            was = f.read()
    except OSError:
        was = b""
    if now != was:
        print("cache-cover: proofs/cache/MANIFEST differs from the sources' "
              "manifest: the committed cache is stale (make refresh-cache)")
        return 1
    mine = sorted(f for f in os.listdir(run)
                  if f.endswith(".json") and valid(os.path.join(run, f)))
    missing = [f for f in mine if not valid(os.path.join(COMMITTED, f))]
    if missing:
        print(f"cache-cover: {len(missing)} of the {len(mine)} valid verdicts "
              f"of this run are not in proofs/cache/, e.g. "
              f"{', '.join(missing[:3])}")
        return 1
    print(f"cache-cover: PASS: the {len(mine)} valid verdicts of this run "
          f"are all in proofs/cache/, whose manifest is the sources': make "
          f"replay finds every proof of this run without a solver")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
