#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""hvipi: the progress of running WP processes, read from their logs.

A cold `make prove` used to print nothing for 13 minutes between starting
its frama-c processes and the first one ending (issue 30).  WP writes one
line to its log as each goal or smoke test is decided
("[wp] [Z3 4.8.12] Goal typed_f_... : Valid", "[wp] [Passed] Smoke-test
typed_f_...") and, once every goal is generated, "[wp] N goals scheduled"
(smoke tests included); "[wp] Proved goals:" ends a run.  This monitor
reads the logs every few seconds and prints the goals decided out of the
total and the functions finished:

  - on a terminal, one line rewritten in place (a bar; \\r);
  - otherwise (CI), a line every --interval seconds (default 60) and one
    per function finished.

Until a process has printed "goals scheduled", its total is the sum of
its functions' goal floors (proofs/floors.txt: the goal counts of the
last passing run), shown with a "~".  A function is finished when it has
as many goals decided as its floor, or when its process has ended.

It only reads the logs and prints; proofs/wp-par.sh starts it in the
background and stops it when the processes end, so it can never change
a verdict or an exit status.  It ends by itself when every log has ended
or its parent is gone.

usage: progress.py [--floors FILE] [--interval S] [--tick S]
                   LOG=FUNCTION,... ...
       LOG=lemmas: every goal of LOG counts for the lemmas
env:   HVIPI_PROGRESS_TTY=0|1  force the plain or the terminal form
"""

import argparse
import os
import re
import shutil
import signal
import sys
import time

LINE_RE = re.compile(r"^\[wp\] \[[^\]]*\] (Goal|Smoke-test) (\S+)")
SCHED_RE = re.compile(r"^\[wp\] (\d+) goals? scheduled")
END_RE = re.compile(r"^\[wp\] Proved goals:")
SMOKE = "_wp_smoke_"


class Log:
    """What one WP log has said so far (read incrementally)."""

    def __init__(self, path, functions):
        self.path, self.functions = path, functions
        self.offset, self.rest = 0, b""
        self.names = set()
        self.scheduled = None
        self.ended = False
        # Longest first, so that a function whose name extends another's
        # (hvipi_word_end, hvipi_word) gets its own goals.
        self.prefixes = sorted(functions, key=len, reverse=True)

    def function_of(self, goal):
        if self.functions == ["lemmas"]:
            return "lemmas"
        for fn in self.prefixes:
            if goal.startswith("typed_" + fn + "_"):
                return fn
        return None

    def read(self, seen):
        """Read what was appended; count new goals into seen[function]."""
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return
        self.offset += len(data)
        lines = (self.rest + data).split(b"\n")
        self.rest = lines.pop()
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            m = LINE_RE.match(line)
            if m:
                kind, name = m.groups()
                if name in self.names:
                    continue         # a failed smoke test is printed twice
                self.names.add(name)
                fn = self.function_of(name)
                if fn is not None:
                    goals, smoke = seen.get(fn, (0, 0))
                    if kind == "Smoke-test" or SMOKE in name:
                        smoke += 1
                    else:
                        goals += 1
                    seen[fn] = (goals, smoke)
                continue
            m = SCHED_RE.match(line)
            if m:
                self.scheduled = int(m.group(1))
            elif END_RE.match(line):
                self.ended = True


def read_floors(path):
    floors = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                fields = line.split("#")[0].split()
                if len(fields) == 2 and fields[1].isdigit():
                    floors[fields[0]] = int(fields[1])
    except OSError:
        pass
    return floors


def plural(n, what):
    return f"{n} {what}" + ("" if n == 1 else "s")


def clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


class Monitor:
    def __init__(self, logs, floors, tty, interval):
        self.logs, self.floors, self.tty = logs, floors, tty
        self.interval = interval
        self.start = time.monotonic()
        self.last_line = self.start
        self.seen = {}
        self.finished = []
        self.functions = [fn for lg in logs for fn in lg.functions]
        self.drawn = False

    def write(self, text):
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except (OSError, ValueError):
            sys.exit(0)          # nobody reads us any more: just stop

    def totals(self):
        done = sum(len(lg.names) for lg in self.logs)
        total, exact = 0, True
        for lg in self.logs:
            if lg.scheduled is not None:
                total += lg.scheduled
            else:
                exact = False
                total += sum(self.floors.get(fn, 0) for fn in lg.functions)
        return done, max(total, done), exact

    def tick(self, periodic=True):
        for lg in self.logs:
            lg.read(self.seen)
        now = time.monotonic()
        new = []
        for lg in self.logs:
            for fn in lg.functions:
                if fn in self.finished:
                    continue
                goals = self.seen.get(fn, (0, 0))[0]
                floor = self.floors.get(fn, 0)
                if lg.ended or (floor and goals >= floor):
                    self.finished.append(fn)
                    new.append(fn)
        done, total, exact = self.totals()
        if self.tty:
            if periodic:
                self.draw(now, done, total, exact)
            return
        for fn in new:
            goals, smoke = self.seen.get(fn, (0, 0))
            what = plural(goals, "goal") + (", " + plural(smoke, "smoke test") if smoke else "")
            self.write(f"hvipi: progress {clock(now - self.start)}: {fn} finished ({what})\n")
        if periodic and now - self.last_line >= self.interval:
            self.last_line = now
            self.write(f"hvipi: progress {clock(now - self.start)}: {self.summary(done, total, exact)}\n")

    def summary(self, done, total, exact):
        if done == 0 and not any(lg.scheduled for lg in self.logs):
            return (f"WP is generating the goals of {len(self.functions)} "
                    f"function(s) (about {total} goals, none decided yet)")
        pct = 100 * done // total if total else 0
        return (f"{done} of {'' if exact else '~'}{total} goals decided ({pct} %), "
                f"{len(self.finished)} of {len(self.functions)} functions finished")

    def draw(self, now, done, total, exact):
        width = shutil.get_terminal_size((80, 24)).columns
        frac = done / total if total else 0.0
        bar_w = 20
        fill = int(frac * bar_w)
        if done == 0 and not any(lg.scheduled for lg in self.logs):
            tail = f"generating goals, ~{total} expected"
        else:
            tail = (f"{done}/{'' if exact else '~'}{total} goals, "
                    f"{len(self.finished)}/{len(self.functions)} functions")
        text = (f"hvipi: WP [{'#' * fill}{'.' * (bar_w - fill)}] {tail}, "
                f"{clock(now - self.start)}")
        # Never wider than the terminal: a wrapped line cannot be rewritten.
        self.write("\r\033[K" + text[:max(10, width - 1)])
        self.drawn = True

    def clear(self):
        if self.tty and self.drawn:
            self.write("\r\033[K")
            self.drawn = False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--floors", default="proofs/floors.txt")
    ap.add_argument("--interval", type=float,
                    default=float(os.environ.get("HVIPI_PROGRESS_INTERVAL", 60)))
    ap.add_argument("--tick", type=float, default=2.0)
    ap.add_argument("logs", nargs="+", metavar="LOG=FUNCTION,...")
    args = ap.parse_args()
    logs = []
    for spec in args.logs:
        path, _, fns = spec.rpartition("=")
        logs.append(Log(path, [f for f in fns.split(",") if f]))
    force = os.environ.get("HVIPI_PROGRESS_TTY")
    tty = sys.stdout.isatty() if force not in ("0", "1") else force == "1"
    mon = Monitor(logs, read_floors(args.floors), tty, args.interval)
    parent = os.getppid()
    stopping = []

    # The handler only sets a flag: the loop below stops between two
    # reads of the logs, never in the middle of one.
    def stop(*_):
        stopping.append(True)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stop)
    while not stopping:
        mon.tick()
        if all(lg.ended for lg in logs) or os.getppid() != parent:
            break
        end = time.monotonic() + args.tick
        while not stopping and time.monotonic() < end:
            time.sleep(0.1)
    # Stopped when the processes have ended: a last read names the
    # functions they finished since the last tick (plain form only).
    mon.tick(periodic=False)
    mon.clear()


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001  (a monitor must never fail a run)
        sys.stderr.write(f"hvipi: progress monitor stopped: {e}\n")
    sys.exit(0)
