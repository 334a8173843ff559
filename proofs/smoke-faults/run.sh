#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: re-run the planted vacuity faults of faults.txt (README.md).  Each
# ID.diff is applied to a copy of src/ and spec/ under
# BUILD/smoke-faults/ID (src/ is never touched); WP then runs the smoke
# tests of the mutated function alone (every other goal kind deselected
# but assigns, which keeps the smoke tests of a function without
# requires), both provers of proofs/wp-options.txt, no cache, at the smoke
# timeout of make prove (HVIPI_SMOKE_TIMEOUT, default 1 s).  A fault is
# caught when a smoke test fails (proves false).  Exit 1 when an outcome
# differs from faults.txt's.  About 5 minutes on 2 cores.
#
# Usage: sh proofs/smoke-faults/run.sh [BUILD [ID...]]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/proofs/smoke-faults
build=${1:-$top/build}
[ $# -gt 0 ] && shift
out=$build/smoke-faults
t=${HVIPI_SMOKE_TIMEOUT:-1}
mkdir -p "$out"
cd "$top" || exit 2
rm -f "$out/differs"
sh proofs/why3/mkconf.sh "$out/why3.conf" || exit 2
export WHY3CONFIG="$out/why3.conf"
provers=$(sed -n 's/^-wp-prover //p' proofs/wp-options.txt)
opts=$(grep -v '^#' proofs/wp-options.txt | grep -v '^-wp-prover ' | tr '\n' ' ')
deselect="-wp-prop=-@lemma,-@requires,-@ensures,-@exits,-@assert,-@invariant,-@variant,-@breaks,-@continues,-@returns,-@complete_behaviors,-@disjoint_behaviors,-@terminates,-@decreases,-@check"
grep -v '^#' "$here/faults.txt" | grep . | while read -r id fct want kind; do
	if [ $# -gt 0 ]; then
		case " $* " in *" $id "*) ;; *) continue ;; esac
	fi
	d=$out/$id
	rm -rf "$d" && mkdir -p "$d" && cp -r src spec "$d"/ || exit 2
	patch -s -p1 -d "$d" < "$here/$id.diff" || { echo "$id: the patch does not apply"; exit 2; }
	s=$(date +%s)
	# The loads' models are proven with plain loads (proofs/prove.sh).
	plain=""
	! grep -qx "$fct" proofs/load-models.txt || plain=-cpp-extra-args=-DHVIPI_PLAIN_LOADS
	# shellcheck disable=SC2086
	frama-c -cpp-extra-args=-I"$d/src" -cpp-extra-args=-I"$d/spec" $plain $opts \
		-wp-prover "$provers" -wp-fct "$fct" -wp-smoke-tests \
		-wp-smoke-timeout "$t" -wp-par 2 -wp-cache none $deselect \
		"$d/src/hvipi.c" > "$d/wp.log" 2>&1
	if grep -q 'Failed\] Smoke-test' "$d/wp.log"; then got=caught; else got=missed; fi
	grep -q 'Smoke-test' "$d/wp.log" || got="no-smoke-test-run"
	[ "$got" = "$want" ] && v=ok || v=DIFFERS
	printf '%-5s %-18s %-7s (expected %-6s) %3s s  %s  %s\n' "$id" "$fct" "$got" "$want" \
		"$(($(date +%s) - s))" "$v" "$kind"
	[ "$v" = ok ] || echo "$id" >> "$out/differs"
done
if [ -s "$out/differs" ]; then
	echo "smoke-faults: outcomes differ from faults.txt: $(paste -sd' ' "$out/differs")"
	rm -f "$out/differs"; exit 1
fi
echo "smoke-faults: every outcome as recorded (smoke timeout $t s, provers $provers)"
