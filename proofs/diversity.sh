#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: prover diversity.  For every goal of the gate that Qed does not
# close, does Z3 prove it, CVC5, or both?  `make prove` stops at the first
# prover that succeeds; this runs the gate's WP passes again with
# -wp-run-all-provers (each prover runs to its verdict, same timeout), one
# function per frama-c run, with cache mode update into
# BUILD/diversity/cache (kept between runs; seeded on first use with the
# verdicts of proofs/cache and of the last `make refresh-cache`, which are
# verdicts of the same provers on the same tasks).  Then one offline pass
# per prover (cache only) says, goal by goal, what that prover proved, and
# proofs/diversity.py writes BUILD/proof/diversity.json, copied to
# proofs/diversity.json (the snapshot the report uses when there is no
# build).  The lemma pass runs without the Range tactic here, so that a
# lemma shows what the provers alone do.
#
# usage: proofs/diversity.sh [BUILD_DIR]   (a full extra proof run)
# env:   HVIPI_PROOF_LOCK=FILE  run each frama-c WP run under flock FILE
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
mkdir -p "$build/diversity" "$build/proof"
work=$(cd "$build/diversity" && pwd)
lock=${HVIPI_PROOF_LOCK:-}
cd "$top"
start=$(date +%s)

sh proofs/check-versions.sh
sh proofs/why3/mkconf.sh "$work/why3.conf"
WHY3CONFIG=$work/why3.conf
export WHY3CONFIG
cache=$work/cache
if [ ! -d "$cache" ]; then
	mkdir -p "$cache"
	for d in proofs/cache "$build/refresh/cache"; do
		[ ! -d "$d" ] || find "$d" -name '*.json' -exec cp {} "$cache/" \;
	done
fi

srcs="src/hvipi.c"
opts=$(grep -v '^#' proofs/wp-options.txt | tr '\n' ' ')
common="-cpp-extra-args=-I$top/src -cpp-extra-args=-I$top/spec"
fcts=$(grep -v '^#' proofs/functions.txt | grep .)
all=$(echo "$fcts" | paste -sd, -)

wp() { # LOG ARGS...
	log=$1
	shift
	if [ -n "$lock" ]; then
		flock "$lock" frama-c "$@" > "$log" 2>&1
	else
		frama-c "$@" > "$log" 2>&1
	fi || { tail -20 "$log" >&2; echo "hvipi: diversity: frama-c failed (see $log)" >&2; exit 1; }
}

rm -f "$work"/*.log "$work"/*.json
for f in $fcts; do
	echo "hvipi: diversity: all provers on $f"
	# shellcheck disable=SC2086
	wp "$work/all-$f.log" $common $srcs $opts -wp-fct "$f" -wp-run-all-provers \
		-wp-cache update -wp-cache-dir "$cache" -wp-report-json "$work/all-$f.json"
done
echo "hvipi: diversity: all provers on the lemmas"
# shellcheck disable=SC2086
wp "$work/all-lemmas.log" $common $srcs $opts -wp-prop=@lemma -wp-run-all-provers \
	-wp-cache update -wp-cache-dir "$cache" -wp-report-json "$work/all-lemmas.json"

noprover=$(echo "$opts" | sed 's/-wp-prover [^ ]*//')
for p in z3 cvc5; do
	echo "hvipi: diversity: what $p proved (offline, from the cache)"
	# shellcheck disable=SC2086
	wp "$work/only-$p.log" $common $srcs $noprover \
		-wp-prover "$p" -wp-fct "$all" -wp-cache offline -wp-cache-dir "$cache" \
		-wp-report-json "$work/only-$p.json"
	# shellcheck disable=SC2086
	wp "$work/only-$p-lemmas.log" $common $srcs $noprover \
		-wp-prover "$p" -wp-prop=@lemma -wp-cache offline -wp-cache-dir "$cache" \
		-wp-report-json "$work/only-$p-lemmas.json"
done

python3 proofs/diversity.py --work "$work" --functions "$all" \
	--seconds $(($(date +%s) - start)) --out "$build/proof/diversity.json"
cp "$build/proof/diversity.json" proofs/diversity.json
echo "hvipi: diversity: wrote $build/proof/diversity.json and proofs/diversity.json in $(($(date +%s) - start)) s"
