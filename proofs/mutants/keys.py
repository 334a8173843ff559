#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""The key of a mutant's result: what its proof depends on, and no more.

make mutants proves a mutant with WP on the mutated function alone
(-wp-fct), so its verdict depends on that function's body and contract,
on the contracts, types, macros and logic around it, and on the proof
setup, never on another function's body.  The key of function F is the
sha256 of:

  - proofs/wp-retry.txt, versions.txt and the Why3 files of
    proofs/manifest.sh, as they are, and proofs/wp-options.txt with its
    -wp-fct-timeout reduced to F's own entry (another function's timeout
    changes nothing of F's proof);
  - src/*.h and spec/*.h, and src/hvipi.c with every body but F's
    emptied, each normalised: C comments that are not ACSL (`/*@`, `//@`)
    removed, each line stripped, blank lines dropped.

A comment, a blank line, or an edit of another function's body leaves
the key alone; an edit of anything WP reads for F changes it.  A
recorded verdict whose keys equal the tree's still holds (status.py):
the mutant's text edit applies to the same function text, and WP gets
the same task.

usage: keys.py [FUNCTION ...]     print "<function> <key>"
"""
import glob
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import incremental  # noqa: E402  (bodies(), only_body(): a function's text)

OPTIONS = "proofs/wp-options.txt"
SETUP = ["proofs/wp-retry.txt", "proofs/versions.txt",
         "proofs/why3/cvc5.drv.in", "proofs/why3/mkconf.sh",
         "proofs/why3/replay.conf"]
SRC = "src/hvipi.c"


def strip_comments(text):
    """TEXT without its non-ACSL comments: a block comment becomes one
    space, a line comment goes up to its newline.  ACSL annotations are
    kept whole, but for the line comments inside them.  String and
    character literals are copied as they are."""
    out, i, n = [], 0, len(text)
    acsl = False                      # inside /*@ ... */
    while i < n:
        c = text[i]
        two = text[i:i + 2]
        if acsl:
            if two == "*/":
                out.append(two)
                i += 2
                acsl = False
            elif two == "//":
                j = text.find("\n", i)
                i = n if j < 0 else j
            else:
                out.append(c)
                i += 1
        elif two == "/*":
            if text[i + 2:i + 3] == "@":
                acsl = True
                out.append("/*@")
                i += 3
            else:
                j = text.find("*/", i + 2)
                i = n if j < 0 else j + 2
                out.append(" ")
        elif two == "//":
            if text[i + 2:i + 3] == "@":
                j = text.find("\n", i)
                j = n if j < 0 else j
                out.append(text[i:j])
                i = j
            else:
                j = text.find("\n", i)
                i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def normalise(text):
    lines = (ln.strip() for ln in strip_comments(text).splitlines())
    return "\n".join(ln for ln in lines if ln) + "\n"


def options(top, fn):
    """wp-options.txt as F's proof reads it: its comments left out and
    its -wp-fct-timeout line reduced to F's entry (or left out when F
    has none)."""
    out = []
    with open(os.path.join(top, OPTIONS), encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("-wp-fct-timeout "):
                mine = [e for e in line.split(None, 1)[1].strip().split(",")
                        if e.split(":")[0] == fn]
                if mine:
                    out.append("-wp-fct-timeout " + ",".join(mine) + "\n")
            else:
                out.append(line)
    return "".join(out)


def keys(top=TOP, functions=None):
    """{function: key} for FUNCTIONS (default: every function of
    src/hvipi.c with a body)."""
    h0 = hashlib.sha256()
    for path in SETUP:
        with open(os.path.join(top, path), "rb") as f:
            h0.update(path.encode() + b"\0" + f.read() + b"\0")
    for path in sorted(glob.glob(os.path.join(top, "src", "*.h")) +
                       glob.glob(os.path.join(top, "spec", "*.h"))):
        with open(path, encoding="utf-8") as f:
            h0.update(os.path.relpath(path, top).encode() + b"\0" +
                      normalise(f.read()).encode() + b"\0")
    with open(os.path.join(top, SRC), encoding="utf-8") as f:
        text = f.read()
    spans = incremental.bodies(text)
    out = {}
    for fn in functions or sorted(spans):
        if fn not in spans:
            out[fn] = None
            continue
        h = h0.copy()
        h.update(("\0" + fn + "\0").encode())
        h.update(options(top, fn).encode() + b"\0")
        h.update(normalise(incremental.only_body(text, spans, fn)).encode())
        out[fn] = h.hexdigest()
    return out


if __name__ == "__main__":
    for fn, k in keys(functions=sys.argv[1:] or None).items():
        print(fn, k)
