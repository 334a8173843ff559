#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The read check of the claim read_once: no code of the core reads a
# cpumask word or a VP table entry but the three loads' models
# (hvipi_load_mask(), hvipi_load_present(), hvipi_load_vp() in src/hvipi.h).
#
#   sh proofs/read-check.sh [SRC]     SRC: the sources (default src/)
#   sh proofs/read-check.sh --self-test
#                                     the check passes on src/ and fails,
#                                     naming read_once, on each "plain"
#                                     mutant of proofs/mutants/mutants.txt
#                                     (a plain second access planted in
#                                     src/; a few seconds)
#
# WP cannot refuse a second plain access: it gives the cell its value at
# entry, as the first load.  So the proof's pointers to what another CPU
# may change are marked __hvipi_shared, which with HVIPI_READ_CHECK is a
# sparse address space that may not be dereferenced (noderef), as the
# kernel marks __user and __rcu pointers.  sparse then refuses, wherever
# it is and whether or not a test reaches it, any read of such a pointer,
# any copy of it to an unmarked pointer and any cast that drops the mark;
# only __hvipi_force may, and the models are its only users.
#  1. sparse -DHVIPI_READ_CHECK on SRC/hvipi.c: no error.
#  2. the same on proofs/read-check.c: every entry point takes its masks
#     and VP table as __hvipi_shared (a lost mark would let the caller's
#     pointer in unchecked).
#  3. __hvipi_force occurs in SRC only in the models' bodies, once each
#     (the models of proofs/load-models.txt).
# Prints "read-check: read_once: PASS" or each error as
# "read-check: read_once: FILE:LINE: ..." and exits 1.  Under a second.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --self-test ]; then
	exec python3 - "$top" <<'PY'
import os, shutil, subprocess, sys, tempfile
top = sys.argv[1]
sys.path.insert(0, os.path.join(top, "proofs", "mutants"))
import run  # noqa: E402  (parse_specs, mutate, mutant_file)
check = os.path.join(top, "proofs", "read-check.sh")
ok = subprocess.run(["sh", check], capture_output=True, text=True)
fails = 0
if ok.returncode != 0:
    print("read-check: self-test: FAIL: the check fails on src/:\n" + ok.stdout)
    fails += 1
plain = [m for m in run.parse_specs(os.path.join(top, "proofs", "mutants", "mutants.txt"))
         if "plain" in m["class"].lower()]
# And the two ways around the marks: an entry point that lost its mark
# (its caller's pointer would come in unchecked), and a forced cast outside
# the models.
plain += [
    {"id": "entry-unmarked", "function": "hvipi_vp_ident", "file": "src/hvipi.h",
     "class": "", "from": "uint32_t hvipi_vp_ident(const uint32_t __hvipi_shared *vp_index,",
     "to": "uint32_t hvipi_vp_ident(const uint32_t *vp_index,"},
    {"id": "forced-elsewhere", "function": "hvipi_collect_word", "class": "",
     "from": "hvipi_add_vp(s, vp);",
     "to": "hvipi_add_vp(s, ((const uint32_t __hvipi_force *)vp_index)[cpu]);"},
]
with tempfile.TemporaryDirectory(prefix="read-check.") as tmp:
    for m in plain:
        d = os.path.join(tmp, m["id"])
        shutil.copytree(os.path.join(top, "src"), os.path.join(d, "src"))
        name = run.mutant_file(m)
        with open(os.path.join(top, name), encoding="utf-8") as f:
            text = f.read()
        if m["id"] == "entry-unmarked":     # a declaration, not a body
            assert text.count(m["from"]) == 1, m["id"]
            text = text.replace(m["from"], m["to"])
        else:
            text = run.mutate(text, m)
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(text)
        r = subprocess.run(["sh", check, os.path.join(d, "src")],
                           capture_output=True, text=True)
        first = (r.stdout.splitlines() or [""])[0]
        if r.returncode == 1 and first.startswith("read-check: read_once: "):
            print(f"read-check: self-test: PASS {m['id']}: refused, {first.split(': ', 2)[2].split('/src/', 1)[-1]}")
        else:
            print(f"read-check: self-test: FAIL {m['id']}: not refused (exit {r.returncode})")
            fails += 1
print(f"read-check: self-test: {len(plain) + 1 - fails} passed, {fails} failed "
      f"(src/ passes; {len(plain)} planted reads around the models refused)")
sys.exit(1 if fails or not plain else 0)
PY
fi
src=$(cd "${1:-$top/src}" && pwd) || exit 2
command -v sparse >/dev/null 2>&1 || { echo "read-check: sparse is not installed" >&2; exit 2; }

fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for f in "$src/hvipi.c" "$top/proofs/read-check.c"; do
	if ! sparse -Wsparse-error -Wno-decl -DHVIPI_READ_CHECK \
		-I "$src" -I "$top/spec" "$f" >"$out" 2>&1; then
		sed -n 's/^\(.*: error: .*\)$/read-check: read_once: \1/p' "$out"
		grep -q ': error: ' "$out" || { cat "$out"; echo "read-check: read_once: sparse failed on $f"; }
		fail=1
	fi
done

# The models are the only users of __hvipi_force: one each, in their body.
python3 - "$src" "$top/proofs/load-models.txt" <<'PY' || fail=1
import re, sys
src = sys.argv[1]
uses = []
for name in ("hvipi.c", "hvipi.h", "hvipi_types.h"):
    text = open(f"{src}/{name}", encoding="utf-8").read()
    for m in re.finditer(r"__hvipi_force", text):
        line = text[:m.start()].count("\n") + 1
        ln = text[text.rfind("\n", 0, m.start()) + 1:].split("\n", 1)[0].strip()
        if ln.startswith(("#define __hvipi_force", "*", "/*")):
            continue        # its definition, or a comment
        # the function the use is in: the last definition line before it
        head = re.findall(r"^(?:static inline )?\w[\w ]*\n?(hvipi_\w+)\(", text[:m.start()], re.M)
        uses.append((name, line, head[-1] if head else "?"))
# the models: those proofs/load-models.txt has proven of their bodies
with open(sys.argv[2], encoding="utf-8") as f:
    want = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
got = sorted(u[2] for u in uses)
if got != sorted(want):
    for name, line, fn in uses:
        print(f"read-check: read_once: {name}:{line}: __hvipi_force in {fn}")
    print(f"read-check: read_once: __hvipi_force must be used once in each of {', '.join(want)} and nowhere else")
    sys.exit(1)
PY
if [ $fail = 0 ]; then
	echo "read-check: read_once: PASS (sparse: every read of a __hvipi_shared pointer is one of the three loads' models)"
fi
exit $fail
