#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: refresh the committed WP cache (proofs/cache/) that `make replay`
# re-checks the gate from.  Runs `make prove` (proofs/prove.sh: every WP
# pass with Z3 and CVC5, smoke tests, EVA, the gate) with cache mode
# `update` into a fresh, empty cache directory, on a snapshot of the
# proof inputs (so that an edit made while it runs cannot end up in a
# cache that does not match it).  Only if the gate passes, proofs/cache/
# is replaced by the snapshot's MANIFEST and the *valid* entries of the
# fresh cache: timeouts, unknowns and the smoke tests' entries are
# dropped, and so are the entries of goals that no longer exist.  Then
# `make replay` checks the new cache; proofs/provers.txt gets the prover
# that proved each goal (proofs/provers.py).  Commit proofs/cache/ and
# proofs/provers.txt afterwards.
#
# usage: proofs/refresh-cache.sh [BUILD_DIR]   (a make prove and a replay)
# env:   HVIPI_PROOF_LOCK=FILE  run the proof under flock FILE
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
work=$build/refresh
cache=$top/proofs/cache
lock=${HVIPI_PROOF_LOCK:-}
cd "$top"
start=$(date +%s)

sh proofs/check-versions.sh

# A snapshot of everything the proof reads (not the old cache).
rm -rf "$work"
mkdir -p "$work/tree/proofs"
cp -R src spec "$work/tree/"
for f in proofs/*; do
	case $f in
	proofs/cache | proofs/cache.*) ;;
	*) cp -R "$f" "$work/tree/proofs/" ;;
	esac
done
sh proofs/manifest.sh "$work/tree" > "$work/MANIFEST"

echo "hvipi: refresh-cache: make prove on a snapshot, cache mode update into an empty $work/cache"
set -- sh "$work/tree/proofs/prove.sh" "$work"
[ -z "$lock" ] || set -- flock "$lock" "$@"
cold_start=$(date +%s)
cold_date=$(date -u '+%Y-%m-%d %H:%M UTC')
if ! HVIPI_INCREMENTAL=0 HVIPI_WP_CACHE=update HVIPI_WP_CACHEDIR="$work/cache" "$@"; then
	echo "hvipi: refresh-cache: the gate failed; proofs/cache left as it was" >&2
	exit 1
fi
cold_secs=$(($(date +%s) - cold_start))

# The new cache: the valid verdicts only.
new=$top/proofs/cache.new
rm -rf "$new"
mkdir -p "$new"
kept=0
dropped=0
for f in "$work"/cache/*.json; do
	[ -f "$f" ] || continue
	if grep -q '"verdict": "valid"' "$f"; then
		cp "$f" "$new/"
		kept=$((kept + 1))
	else
		dropped=$((dropped + 1))
	fi
done
cp "$work/MANIFEST" "$new/MANIFEST"
# Where every verdict of the cache comes from: one cold run (an empty
# cache; each goal given first to its prover of proofs/provers.txt, the
# others after it) on the sources of MANIFEST, with the gate's numbers.
# make report prints it.
{
	echo "date: $cold_date"
	echo "seconds: $cold_secs"
	echo "cores: $(nproc 2>/dev/null || echo '?')"
	echo "manifest-sha256: $(sha256sum "$work/MANIFEST" | cut -d' ' -f1)"
	echo "valid-verdicts: $kept"
	grep -E '^(total|TOTAL|gate:|smoke tests|goals proved only|(Qed|Z3|CVC5|Script) proved)' \
		"$work/proof/summary.txt" 2>/dev/null | sed 's/^/summary: /'
	# The gate's row of each function: the numbers `make report` writes
	# into the report's function table and `make report-check` holds it
	# to (proofs/report_numbers.py).
	sed -n '/^---/,/^---/p' "$work/proof/summary.txt" 2>/dev/null | grep -v '^---' | sed 's/^/row: /'
} > "$new/COLD-RUN"
stale=0
added=0
if [ -d "$cache" ]; then
	stale=$(cd "$cache" && for f in *.json; do [ -f "$f" ] && [ ! -f "$new/$f" ] && echo "$f"; done | wc -l)
	added=$(cd "$new" && for f in *.json; do [ -f "$cache/$f" ] || echo "$f"; done | wc -l)
else
	added=$kept
fi
rm -rf "$cache.old"
[ ! -d "$cache" ] || mv "$cache" "$cache.old"
mv "$new" "$cache"
rm -rf "$cache.old"
# The prover that proved each goal in this cold run: the next make prove
# starts each goal with it (proofs/provers.py).
if [ -f "$work/proof/provers.txt" ]; then
	echo "hvipi: refresh-cache: proofs/provers.txt: $(python3 proofs/provers.py compare proofs/provers.txt "$work/proof/provers.txt")"
	cp "$work/proof/provers.txt" proofs/provers.txt
fi
echo "hvipi: refresh-cache: proofs/cache: $kept valid verdicts ($added new, $stale stale ones removed); $dropped non-valid entries not kept"

# The snapshot may differ from the working tree if it was edited meanwhile.
if ! sh proofs/manifest.sh | diff -q - "$cache/MANIFEST" > /dev/null; then
	echo "hvipi: refresh-cache: src/, spec/ or proofs/ changed while proving; the cache matches the snapshot, run \`make refresh-cache\` again" >&2
	exit 1
fi
sh proofs/replay.sh "$build"
echo "hvipi: refresh-cache: done in $(($(date +%s) - start)) s; commit proofs/cache/ and proofs/provers.txt"
