#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi mutation testing of the contracts: plant each fault of
# proofs/mutants/mutants.txt in a copy of the sources under
# BUILD/mutants/<id>/ (src/ is never touched), re-prove the mutated
# function alone with WP (no cache, the gate's options, -wp-par 2) and
# record the goals that fail.  By default one run at make prove's retry
# timeout (proofs/wp-retry.txt) stops at the first goal that is not valid:
# that goal is the witness and the mutant is killed.  With --full, every
# goal is proved at the gate's first timeout and the failed goals are
# confirmed at the retry timeout.  A mutant is killed by typing when
# frama-c rejects it, and survives when every goal is still valid: then
# either the contract misses the fault (a spec gap) or the mutant is
# equivalent, which its spec says and proofs/MUTANTS.md explains.
"""Mutation testing of the hvipi contracts (see proofs/mutants/mutants.txt)."""

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keys  # noqa: E402  (the per-function keys of a record)

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "proofs"))
import gate  # noqa: E402  (reads the WP logs like the gate does)

KEYS = ("id", "function", "class", "from", "to", "props", "equivalent", "file")
TYPING_RE = re.compile(r"User Error|syntax error|Frama-C aborted|"
                       r"invalid user input|Plug-in \w+ aborted")


def unescape(text):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_specs(path):
    """Return the mutants of a spec file, raising ValueError on a bad one."""
    mutants, cur = [], {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines() + [""]
    for no, line in enumerate(lines, 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                mutants.append(cur)
                cur = {}
            continue
        key, sep, val = line.partition(":")
        if not sep or key not in KEYS:
            raise ValueError(f"{path}:{no}: expected 'key: value' with key in {KEYS}")
        if key in cur:
            raise ValueError(f"{path}:{no}: {key} given twice")
        val = val[1:] if val.startswith(" ") else val
        cur[key] = unescape(val.rstrip())
        cur.setdefault("line", no)
    seen = set()
    for m in mutants:
        for key in ("id", "function", "class", "from", "to"):
            if key not in m:
                raise ValueError(f"{path}:{m['line']}: mutant without {key}")
        if m["id"] in seen:
            raise ValueError(f"{path}:{m['line']}: duplicate id {m['id']}")
        seen.add(m["id"])
        if m["from"] == m["to"]:
            raise ValueError(f"{path}:{m['line']}: {m['id']}: from == to")
        # A "plain" access through the volatile HVIPI_READ_ONCE is not
        # plain under Frama-C: such a mutant would be killed for the
        # wrong reason.
        if "plain" in m["class"].lower() and "HVIPI_READ_ONCE" in m["to"]:
            raise ValueError(f"{path}:{m['line']}: {m['id']}: its class says "
                             "plain but its to: uses HVIPI_READ_ONCE")
    return mutants


def function_span(src, name):
    """(start, end) offsets of the definition of NAME in src: from the
    start of its definition line (at column 0, not a prototype; the name
    may start the line, its type on the line before) to the end of its
    closing brace (a '}' at column 0)."""
    m = re.search(r"^(?:[A-Za-z_][^\n;]*\b)?" + re.escape(name) + r"\(", src, re.M)
    if not m:
        raise ValueError(f"no definition of {name} in its source file")
    end = src.find("\n}", m.start())
    if end < 0:
        raise ValueError(f"no closing brace for {name}")
    return m.start(), end + 2


def mutate(src, m):
    """Return the mutated source; raise ValueError if `from` is not found
    exactly once in the function."""
    start, end = function_span(src, m["function"])
    body = src[start:end]
    n = body.count(m["from"])
    if n != 1:
        raise ValueError(f"{m['id']}: 'from' occurs {n} times in "
                         f"{m['function']} (must be exactly once)")
    return src[:start] + body.replace(m["from"], m["to"]) + src[end:]


def mutant_file(m):
    """The source file the mutant's function is defined in: src/hvipi.c,
    or the one its `file` key names (an inline function of src/hvipi.h)."""
    name = m.get("file", "src/hvipi.c")
    if name not in ("src/hvipi.c", "src/hvipi.h"):
        raise ValueError(f"{m['id']}: file {name} is not src/hvipi.c or src/hvipi.h")
    return name


def listed(name):
    with open(os.path.join(TOP, name), encoding="utf-8") as f:
        return {ln.strip() for ln in f if ln.strip() and not ln.startswith("#")}


def gated_functions():
    return listed("proofs/functions.txt") | listed("proofs/load-models.txt")


def read_check(d):
    """proofs/read-check.sh on the mutant's sources: (passed, first error)."""
    r = subprocess.run(["sh", os.path.join(TOP, "proofs/read-check.sh"),
                        os.path.join(d, "src")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, check=False)
    errs = [ln for ln in r.stdout.splitlines() if "PASS" not in ln]
    return r.returncode == 0, (errs[0] if errs else r.stdout.strip())


def wp_options():
    with open(os.path.join(TOP, "proofs/wp-options.txt"), encoding="utf-8") as f:
        return " ".join(ln.strip() for ln in f
                        if ln.strip() and not ln.startswith("#")).split()


def run_wp(cmd, cwd, env, log, stop_early):
    """Run frama-c, copying its output to LOG.  With STOP_EARLY, stop it
    (the whole process group: flock, frama-c, the provers) at the first
    goal WP reports as not valid and return that goal's name; else None.
    Return (exit code, goal or None)."""
    with open(log, "w", encoding="utf-8") as f:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, env=env, text=True,
                             errors="replace", start_new_session=True)
        stopped = None
        for line in p.stdout:
            f.write(line)
            m = gate.GOAL_RE.match(line.rstrip("\n"))
            if stop_early and m and (m.group(3) or m.group(1)) != "Valid":
                stopped = m.group(2)
                break
        if stopped:
            # The prover lines of that goal come in the same write.
            f.flush()
            time.sleep(0.5)
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
            f.write(p.stdout.read())
            f.write(f"[mutants] stopped: {stopped} is not proved\n")
        rc = p.wait()
        p.stdout.close()
    return rc, stopped


def run_mutant(m, base, outdir, why3conf, lock, first_kill=False):
    """Prove the mutant (without "from": the unmutated baseline);
    return its result record."""
    d = os.path.join(outdir, m["id"])
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(os.path.join(base, "src"), os.path.join(d, "src"))
    shutil.copytree(os.path.join(base, "spec"), os.path.join(d, "spec"))
    name = mutant_file(m)
    with open(os.path.join(base, name), encoding="utf-8") as f:
        src = f.read()
    if "from" in m:
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(mutate(src, m))
    with open(os.path.join(d, "mutant.diff"), "w", encoding="utf-8") as f:
        subprocess.run(["diff", "-u", os.path.join(base, name),
                        os.path.join(d, name)], stdout=f, check=False)
    log = os.path.join(d, "wp.log")
    report = os.path.join(d, "wp-report.json")
    if "from" in m:
        # The gate's read check first: it refuses a plain access before
        # any goal is proved (read_once, proofs/read-check.sh).
        t0 = time.time()
        ok, err = read_check(d)
        if not ok:
            return {"id": m["id"], "function": m["function"], "class": m["class"],
                    "seconds": round(time.time() - t0, 1), "lock_wait_seconds": 0,
                    "frama_c_rc": None, "dir": d, "status": "killed",
                    "witness": "read_once (proofs/read-check.sh)",
                    "failed_goals": ["read_once (proofs/read-check.sh)"],
                    "goals": 0, "detail": err,
                    "command": f"sh proofs/read-check.sh {d}/src"}
    # The loads' models are proven with plain loads (proofs/prove.sh).
    plain = (["-cpp-extra-args=-DHVIPI_PLAIN_LOADS"]
             if m["function"] in listed("proofs/load-models.txt") else [])
    cmd = ["frama-c", f"-cpp-extra-args=-I{d}/src",
           f"-cpp-extra-args=-I{d}/spec"] + plain + [os.path.join(d, "src/hvipi.c")] + wp_options() + [
           "-wp-fct", m["function"], "-wp-par", "2",
           "-wp-cache", "none", "-wp-cache-dir", os.path.join(d, "wp-cache"),
           "-wp-report-json", report]
    stamp = os.path.join(d, "started")
    if lock:
        # The proof time excludes the wait for the lock.
        cmd = ["flock", lock, "sh", "-c", 'date +%s.%N > "$0"; exec "$@"', stamp] + cmd
    # Frama-C resolves relative paths against $PWD, not the process's
    # working directory: give it both, and an absolute source path.
    env = dict(os.environ, WHY3CONFIG=why3conf, PWD=d)
    timeout = retry_timeout()
    if first_kill:
        # One run at the retry timeout (the last -wp-timeout wins): a goal
        # that fails there is a confirmed witness, so the proof stops.
        cmd = cmd + ["-wp-timeout", timeout]
    t0 = time.time()
    rc, stopped = 0, None
    if first_kill and m.get("props"):
        # The clauses the fault is aimed at first (-wp-prop): WP generates
        # only their goals, so a kill costs seconds, not the function's
        # whole proof.  A goal that fails there fails in the full proof
        # too; when none does, the full proof below decides.
        rc, stopped = run_wp(cmd + ["-wp-prop", m["props"]], d, env, log,
                             first_kill)
    if not stopped:
        rc, stopped = run_wp(cmd, d, env, log, first_kill)
    t1 = time.time()
    try:
        with open(stamp, encoding="utf-8") as f:
            started = float(f.read().strip())
    except (OSError, ValueError):
        started = t0
    secs = round(t1 - started, 1)
    rec = {"id": m["id"], "function": m["function"], "class": m["class"],
           "seconds": secs, "lock_wait_seconds": round(started - t0, 1),
           "frama_c_rc": rc, "dir": d,
           "command": " ".join(cmd)}
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    goals = gate.read_log(log, [])
    if stopped:
        rec.update(status="killed", witness=stopped, failed_goals=[stopped],
                   goals=len(goals), stopped_early=True,
                   confirm_timeout=int(timeout),
                   targeted=m.get("props", ""),
                   detail=f"stopped at the first goal not proved in "
                          f"{timeout} s, after {len(goals)} goals" +
                          (f" (-wp-prop {m['props']})" if m.get("props") else ""))
        return rec
    if TYPING_RE.search(text) or (rc != 0 and not goals):
        err = [ln for ln in text.splitlines() if TYPING_RE.search(ln) or
               "error" in ln.lower()][:3]
        rec.update(status="killed-typing", failed_goals=[], goals=0,
                   detail=" | ".join(err) or f"frama-c exit {rc}")
        return rec
    failed = sorted(g for g, (st, _s, _r) in goals.items() if st != "Valid")
    valid_json = total_json = None
    try:
        with open(report, encoding="utf-8") as f:
            main = (json.load(f) or {}).get("wp:global", {}).get("wp:main", {})
        valid_json, total_json = main.get("valid", 0), main.get("total", 0)
    except (OSError, ValueError):
        pass
    rec.update(goals=len(goals), failed_goals=failed,
               json_valid=valid_json, json_total=total_json)
    if rc != 0 or not goals:
        rec.update(status="error", detail=f"frama-c exit {rc}, {len(goals)} goals")
    elif failed or (total_json is not None and valid_json != total_json):
        rec["status"] = "killed"
        confirm(rec, m, d, cmd, failed, env)
    else:
        rec["status"] = "survived"
    return rec


def retry_timeout():
    with open(os.path.join(TOP, "proofs/wp-retry.txt"), encoding="utf-8") as f:
        return next(ln.strip() for ln in f if ln.strip() and not ln.startswith("#"))


def behaviors(d):
    names = set()
    for name in ("src/hvipi.h", "src/hvipi.c"):
        with open(os.path.join(d, name), encoding="utf-8") as f:
            names.update(re.findall(r"\bbehavior\s+(\w+)\s*:", f.read()))
    return names


SUFFIX_RE = re.compile(r"(_part\d+|_established|_preserved|_\d+)+$")


def goal_property(goal, fn, bhvs):
    """(behavior or None, ACSL name) of a failed goal named by WP
    typed_<fn>[_<behavior>]_(ensures|assert|loop_invariant)_<name>[_partN],
    or None when it has no user name (RTE, unnamed, assigns, variants)."""
    rest = goal[len("typed_" + fn + "_"):] if goal.startswith("typed_" + fn + "_") else ""
    bhv = max((b for b in bhvs if rest.startswith(b + "_")), key=len, default=None)
    if bhv and not any(rest.startswith(k) for k in ("ensures_", "assert_", "loop_invariant_")):
        rest = rest[len(bhv) + 1:]
    else:
        bhv = None
    for kind in ("ensures_", "assert_", "loop_invariant_"):
        if rest.startswith(kind):
            name = SUFFIX_RE.sub("", rest[len(kind):])
            if name and not re.fullmatch(r"\d+|part\d+", name) and \
                    not name.startswith("rte_"):
                return bhv, name
    return None


def confirm(rec, m, d, cmd, failed, env, tries=3):
    """make prove retries an unproved goal with the timeout of
    proofs/wp-retry.txt, so a kill counts only when a failed goal is still
    not proved with it: re-prove the property of up to TRIES failed goals
    (with user names) at that timeout; the first one still unproved is the
    witness.  If none is, the status becomes 'error' (to look at)."""
    timeout = retry_timeout()
    cands = [(g, goal_property(g, m["function"], behaviors(d))) for g in failed]
    cands = [(g, p) for g, p in cands if p][:tries]
    if not cands:
        # No failed goal has a user name (an unnamed ensures, an RTE
        # check): re-prove the whole function, as make prove's retry does.
        cands = [(None, (None, None))]
    rec["confirm_timeout"] = int(timeout)
    for goal, (bhv, name) in cands:
        log = os.path.join(d, f"confirm-{name or 'function'}.log")
        extra = ["-wp-timeout", timeout]
        if name:
            extra += ["-wp-prop", name]
        if bhv:
            extra += ["-wp-bhv", bhv]
        # The same command with the property selected and the longer
        # timeout last (frama-c takes the last value of an option).
        args = [a for a in cmd if not a.startswith("-wp-report-json") and
                not a.endswith("wp-report.json")] + extra
        t0 = time.time()
        with open(log, "w", encoding="utf-8") as f:
            subprocess.run(args, cwd=d, stdout=f, stderr=subprocess.STDOUT,
                           env=env, check=False)
        rec["seconds"] = round(rec["seconds"] + time.time() - t0, 1)
        goals = gate.read_log(log, [])
        still = [g for g in ([goal] if goal else failed)
                 if g in goals and goals[g][0] != "Valid"]
        if still:
            rec["witness"] = still[0]
            return
    rec["status"] = "error"
    rec["detail"] = (f"killed at the gate's first timeout, but none of "
                     f"{[g for g, _p in cands] or 'its named goals'} stayed "
                     f"unproved at {timeout} s")


def manifest(top=TOP):
    """The manifest of the sources (proofs/manifest.sh, as in
    proofs/cache/MANIFEST) and its sha256, which names them in a run.
    Raises when manifest.sh fails: no digest of an empty manifest."""
    man = subprocess.run(["sh", os.path.join(top, "proofs/manifest.sh"), top],
                         capture_output=True, text=True, check=True).stdout
    return man, hashlib.sha256(man.encode()).hexdigest()


def explained(mid):
    """True when proofs/MUTANTS.md names the mutant in backquotes outside
    the table proofs/mutants/status.py generates (which explains none)."""
    try:
        with open(os.path.join(TOP, "proofs/MUTANTS.md"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return False
    i = text.find("<!-- mutants-status: generated")
    j = text.find("<!-- mutants-status: end -->")
    if 0 <= i < j:
        text = text[:i] + text[j:]
    return f"`{mid}`" in text


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--spec", default=os.path.join(HERE, "mutants.txt"))
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--only", default="", help="comma-separated mutant ids")
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutant applies")
    ap.add_argument("--lock", default=os.environ.get("HVIPI_PROOF_LOCK", ""),
                    help="run each frama-c under flock FILE")
    ap.add_argument("--full", action="store_true",
                    help="prove every goal of each mutant at the gate's first "
                    "timeout, then confirm failed goals at the retry timeout "
                    "(default: one run at the retry timeout that stops at the "
                    "first goal not proved)")
    ap.add_argument("--baseline", choices=("auto", "always", "never"),
                    default="auto",
                    help="prove each mutated function unmutated first; auto: "
                    "unless proofs/cache/MANIFEST matches the sources (the "
                    "gate passed on them)")
    args = ap.parse_args()

    srcs = {}
    for name in ("src/hvipi.c", "src/hvipi.h"):
        with open(os.path.join(TOP, name), encoding="utf-8") as f:
            srcs[name] = f.read()
    src = srcs["src/hvipi.c"]
    try:
        mutants = parse_specs(args.spec)
    except ValueError as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    bad = 0
    for m in mutants:
        try:
            mutate(srcs[mutant_file(m)], m)
        except ValueError as e:
            print(f"mutants: {e}", file=sys.stderr)
            bad += 1
    if bad:
        print(f"mutants: {bad} mutant(s) do not apply to src/hvipi.c or src/hvipi.h: update "
              "proofs/mutants/mutants.txt", file=sys.stderr)
        return 2
    gated = gated_functions()
    only = [s for s in args.only.split(",") if s]
    unknown = set(only) - {m["id"] for m in mutants}
    if unknown:
        print(f"mutants: unknown id(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    todo = [m for m in mutants if not only or m["id"] in only]
    pending = [m for m in todo if m["function"] not in gated]
    todo = [m for m in todo if m["function"] in gated]
    print(f"mutants: {len(mutants)} specified, {len(todo)} to run, "
          f"{len(pending)} pending (function not in the gate)")
    if args.check:
        for m in todo + pending:
            print(f"  ok  {m['id']:<26} {m['function']:<20} {m['class']}")
        return 0

    outdir = os.path.join(os.path.abspath(args.build), "mutants")
    os.makedirs(outdir, exist_ok=True)
    why3conf = os.path.join(outdir, "why3.conf")
    subprocess.run(["sh", os.path.join(TOP, "proofs/check-versions.sh")], check=True)
    subprocess.run(["sh", os.path.join(TOP, "proofs/why3/mkconf.sh"), why3conf],
                   check=True)
    # One snapshot of the sources for every mutant, whatever happens to
    # src/ meanwhile.
    base = os.path.join(outdir, "base")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    shutil.copytree(os.path.join(TOP, "src"), os.path.join(base, "src"))
    shutil.copytree(os.path.join(TOP, "spec"), os.path.join(base, "spec"))
    # The proof set-up a key covers (keys.py), in the same snapshot.
    for name in keys.SETUP + [keys.OPTIONS]:
        os.makedirs(os.path.dirname(os.path.join(base, name)), exist_ok=True)
        shutil.copy(os.path.join(TOP, name), os.path.join(base, name))
    with open(os.path.join(base, "src/hvipi.c"), encoding="utf-8") as f:
        if f.read() != src:
            print("mutants: src/hvipi.c changed while starting; run again", file=sys.stderr)
            return 2
    t0 = time.time()
    # The run names the sources it mutated: the digest of their manifest
    # (proofs/manifest.sh, as in proofs/cache/MANIFEST), printed and kept
    # in results.json, so that MUTANTS.md can say which sources a kill is for.
    man, digest = manifest()
    print(f"mutants: sources' manifest sha256 {digest}", flush=True)
    # And each record the key (keys.py) of the function its proof ran on
    # (-wp-fct): a later tree with the same key has the same verdict.
    fkeys = keys.keys(base)
    # A kill means something only if the unmutated function proves.
    proven_src = False
    if args.baseline == "auto":
        try:
            with open(os.path.join(TOP, "proofs/cache/MANIFEST"), encoding="utf-8") as f:
                proven_src = f.read() == man
        except OSError:
            pass
    fns = sorted({m["function"] for m in todo}, key=lambda f: [x["function"] for x in todo].index(f))
    broken, bases = {}, []
    if args.baseline == "always" or (args.baseline == "auto" and not proven_src):
        for fn in fns:
            rec = run_mutant({"id": "baseline-" + fn, "function": fn, "class": "none"},
                             base, outdir, why3conf, args.lock)
            print(f"  baseline {fn:<22} {'proved' if rec['status'] == 'survived' else 'NOT PROVED'}"
                  f" {rec['seconds']:>7.1f} s  {rec.get('goals', 0)} goals", flush=True)
            bases.append({"function": fn, "proved": rec["status"] == "survived",
                          "seconds": rec["seconds"], "goals": rec.get("goals", 0)})
            if rec["status"] != "survived":
                broken[fn] = rec
    else:
        print("mutants: baseline: the committed cache (proofs/cache/MANIFEST) was "
              "refreshed from these sources by a passing gate" if proven_src else
              "mutants: baseline not checked (--baseline never)")
    results = []
    for i, m in enumerate(todo, 1):
        if m["function"] in broken:
            rec = {"id": m["id"], "function": m["function"], "class": m["class"],
                   "status": "error", "seconds": 0, "failed_goals": [],
                   "detail": "the unmutated function does not prove"}
        else:
            rec = run_mutant(m, base, outdir, why3conf, args.lock,
                             first_kill=not args.full)
        if "equivalent" in m:
            rec["equivalent"] = m["equivalent"]
            rec["explained"] = explained(m["id"])
        rec["keys"] = {m["function"]: fkeys.get(m["function"])}
        results.append(rec)
        first = rec["failed_goals"][0] if rec.get("failed_goals") else rec.get("detail", "")
        print(f"  [{i}/{len(todo)}] {m['id']:<26} {rec['status']:<14} "
              f"{rec['seconds']:>7.1f} s  {len(rec.get('failed_goals', []))} failed "
              f"of {rec.get('goals', 0)}  {first}", flush=True)
    total = round(time.time() - t0, 1)

    count = {s: sum(1 for r in results if r["status"] == s)
             for s in ("killed", "killed-typing", "survived", "error")}
    equiv = [r for r in results if r["status"] == "survived" and "equivalent" in r]
    gaps = [r for r in results if r["status"] == "survived" and "equivalent" not in r]
    bad_equiv = [r for r in equiv if not r["explained"]]
    wrong_equiv = [r for r in results if r["status"] != "survived" and "equivalent" in r]
    scored = len(results) - len(equiv)
    killed = count["killed"] + count["killed-typing"]
    score = 100.0 * killed / scored if scored else 100.0
    summary = {
        "manifest_sha256": digest,
        "mutants_run": len(results), "killed": count["killed"],
        "killed_by_typing": count["killed-typing"], "survived": count["survived"],
        "equivalent": len(equiv), "errors": count["error"],
        "pending": [m["id"] for m in pending],
        "kill_score_percent": round(score, 1), "seconds": total,
        "proof_seconds": round(sum(r["seconds"] for r in results), 1),
        "spec_gaps": [r["id"] for r in gaps],
    }
    with open(os.path.join(outdir, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"summary": summary, "baselines": bases or (
            "sources match proofs/cache/MANIFEST" if proven_src else "not checked"),
            "mutants": results}, f, indent=1)
        f.write("\n")
    print(f"mutants: killed {killed} of {scored} ({score:.1f} %): "
          f"{count['killed']} by a failed goal, {count['killed-typing']} by typing; "
          f"{len(equiv)} equivalent (not scored), {len(gaps)} surviving, "
          f"{count['error']} error(s); {len(pending)} pending; {total:.0f} s total, "
          f"{summary['proof_seconds']:.0f} s proving (lock waits excluded)")
    for r in gaps:
        print(f"mutants: SURVIVOR {r['id']} ({r['function']}: {r['class']}): "
              "a spec gap, or an equivalent mutant to mark and explain in proofs/MUTANTS.md")
    for r in bad_equiv:
        print(f"mutants: {r['id']} is marked equivalent but proofs/MUTANTS.md does not explain it")
    for r in wrong_equiv:
        print(f"mutants: note: {r['id']} is marked equivalent but was {r['status']}: re-check its mark")
    print(f"mutants: results in {os.path.join(outdir, 'results.json')}")
    return 1 if gaps or bad_equiv or count["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
