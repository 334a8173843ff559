#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Fail when a tracked file reads like a work log.

The repository states what holds and why: a sentence that dates a fact by
the work session it came from ("... until session N ...", with the word
the sessions were numbered by) belongs in a commit message, where the git
history keeps it, not in a file.

usage: .ci/diary-check.py        (or: make diary-check)

Prints one `path:line: text` per hit, then the number of hits per file,
and exits 1 if there is any hit, 0 if none, 2 outside a git work tree.
Needs git and python3 only; reads the whole tree in a fraction of a
second.

What it looks for, case-insensitively, in the working-tree copy of every
file `git ls-files` lists:
  - s-t-o-p or s-t-o-p-s (the word the work sessions were numbered by),
    then white space and a digit;
  - "this" and that word;
  - "last" and "run" as two words.
A phrase broken over two lines counts too (the leading comment marks of
the second line, # * // > ; + -, are skipped): it is reported at the line
where it starts.  The patterns are built from pieces below, so that this
file does not match them itself; no file is excluded by name.

Skipped: only the files git would call binary (a NUL byte in the first
8000 bytes).  In this tree those are the raw fuzz inputs of
tests/fuzz/corpus/, bytes a harness reads, which hold no prose.  All the
rest is read, proofs/cache/ included: its JSON verdict files are written
by tools and hold no sentences, and reading them costs next to nothing.
"""
import hashlib
import os
import re
import subprocess
import sys

WORD = "st" + "op"
PATTERN = re.compile(
    rf"{WORD}s?\s+[0-9]|this\s+{WORD}|la{''}st\s+run", re.IGNORECASE)
LEADERS = re.compile(r"^[\s#*/>;+-]*")
# Every hit, on one line or two, holds the session word or "last" then
# white space; a line can only start a two-line hit if it ends with one of
# the phrase's first words.
ANY_WORD = re.compile(rf"{WORD}|la{''}st\s", re.IGNORECASE)
LINE_END = re.compile(rf"(?:{WORD}s?|this|la{''}st)\s*$", re.IGNORECASE)


def tracked(top):
    out = subprocess.run(["git", "-C", top, "ls-files", "-z"], check=True,
                         stdout=subprocess.PIPE).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def hits_of(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:                   # deleted in the work tree, not yet
        return []                     # committed: nothing to read
    if b"\0" in data[:8000]:
        return []
    text = data.decode("utf-8", "replace")
    if not ANY_WORD.search(text):     # most files: no candidate at all
        return []
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        if PATTERN.search(line):
            found.append((i + 1, line))
            continue
        if i + 1 < len(lines) and LINE_END.search(line):
            head = line.rstrip()
            joined = head + " " + LEADERS.sub("", lines[i + 1])
            if any(m.start() < len(head) < m.end()
                   for m in PATTERN.finditer(joined)):
                found.append((i + 1, line + "  [continues on the next line]"))
    return found


EXCEPTIONS = ".ci/diary-exceptions.txt"


def exceptions(top):
    """{(path, sha256 of the line's text)}: lines of proof inputs the check
    lets pass until the next change of the proof sources (see the file)."""
    allowed = set()
    try:
        with open(os.path.join(top, EXCEPTIONS), encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    path, digest = line.split()[:2]
                    allowed.add((path, digest))
    except FileNotFoundError:
        pass
    return allowed


def digest(text):
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def main():
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"],
                             check=True, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL,
                             cwd=os.path.dirname(os.path.abspath(__file__))
                             ).stdout.decode().strip()
    except (OSError, subprocess.CalledProcessError):
        print("diary-check: not a git work tree (it checks the files git "
              "tracks)", file=sys.stderr)
        return 2
    os.chdir(top)
    files = tracked(top)
    allowed = exceptions(top)
    used = set()
    per_file = []
    for path in files:
        found = []
        for n, text in hits_of(path):
            key = (path, digest(text))
            if key in allowed:
                used.add(key)
                print(f"{path}:{n}: allowed by {EXCEPTIONS}")
            else:
                found.append((n, text))
        for n, text in found:
            print(f"{path}:{n}: {text.strip()}")
        if found:
            per_file.append((path, len(found)))
    stale = sorted(allowed - used)
    for path, d in stale:
        print(f"{EXCEPTIONS}: {path} {d[:12]}... matches no line any more: "
              "remove it")
    if not per_file and not stale:
        print(f"diary-check: no hit in {len(files)} tracked files"
              f"{f' but the {len(used)} allowed' if used else ''}")
        return 0
    if not per_file:
        return 1
    total = sum(n for _, n in per_file)
    print(f"\ndiary-check: {total} lines in {len(per_file)} files:")
    for path, n in per_file:
        print(f"{n:6d}  {path}")
    sys.stdout.flush()
    print("diary-check: state each fact as it is now, without the session "
          "it came from (the history is in git)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
