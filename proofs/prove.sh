#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: run every proof (WP with Z3 and CVC5, then EVA) and gate on the
# results.  Fail-closed: exits non-zero unless every WP goal is valid,
# every function meets its committed goal floor, and EVA raises no alarm.
# frama-c's own exit status says nothing about proof results; the JSON
# report does.
#
# usage: proofs/prove.sh [BUILD_DIR]
# env:   HVIPI_WP_CACHE  WP cache mode (default: update, into a cache under
#                        BUILD_DIR that starts empty, so a cold run proves all)
#        HVIPI_WP_CACHEDIR  cache directory (default: BUILD_DIR/proof/cache)
#        HVIPI_WP_EXTRA  extra frama-c options (e.g. -wp-fct NAME)
#        HVIPI_SMOKE=0   skip the smoke tests
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
out=$build/proof
mkdir -p "$out"
cd "$top"

cache_mode=${HVIPI_WP_CACHE:-update}
cache_dir=${HVIPI_WP_CACHEDIR:-$out/cache}
mkdir -p "$cache_dir"

sh proofs/check-versions.sh
sh proofs/why3/mkconf.sh "$out/why3.conf"
WHY3CONFIG="$out/why3.conf"
export WHY3CONFIG

srcs="src/hvipi.c"
opts=$(grep -v '^#' proofs/wp-options.txt | tr '\n' ' ')
common="-cpp-extra-args=-I$top/src -cpp-extra-args=-I$top/spec"

start=$(date +%s)
fcts=$(grep -v '^#' proofs/functions.txt | grep . | paste -sd, -)
echo "hvipi: WP on $srcs, functions $fcts (provers z3, cvc5; cache mode $cache_mode)"
# shellcheck disable=SC2086
frama-c $common $srcs $opts -wp-fct "$fcts" \
	-wp-cache "$cache_mode" -wp-cache-dir "$cache_dir" \
	-wp-report-json "$out/wp-report.json" ${HVIPI_WP_EXTRA:-} \
	> "$out/wp.log" 2>&1 || { tail -20 "$out/wp.log"; echo "hvipi: frama-c failed (see $out/wp.log)"; exit 1; }
# The retry (proofs/wp-retry.txt): every function with a goal not proved
# is proved again from an empty cache with the longer timeout; the valid
# verdicts join the cache, the gate reads both reports.
retry_timeout=$(grep -v '^#' proofs/wp-retry.txt | grep .)
rm -rf "$out/cache-retry" "$out/wp-retry.json" "$out/wp-retry.log"
retry=$(python3 proofs/gate.py --unproved-functions "$out/wp-report.json")
if [ -n "$retry" ] && [ "${HVIPI_WP_RETRY:-1}" != 0 ]; then
	echo "hvipi: goals not proved within the timeout in: $retry"
	echo "hvipi: retrying these functions with -wp-timeout $retry_timeout from an empty cache"
	mkdir -p "$out/cache-retry"
	# shellcheck disable=SC2086
	frama-c $common $srcs $opts -wp-fct "$retry" -wp-timeout "$retry_timeout" \
		-wp-cache update -wp-cache-dir "$out/cache-retry" \
		-wp-report-json "$out/wp-retry.json" ${HVIPI_WP_EXTRA:-} \
		> "$out/wp-retry.log" 2>&1 || { tail -20 "$out/wp-retry.log"; echo "hvipi: frama-c failed (see $out/wp-retry.log)"; exit 1; }
	for f in "$out"/cache-retry/*.json; do
		if [ -f "$f" ] && grep -q '"verdict": "valid"' "$f"; then
			cp "$f" "$cache_dir/"
		fi
	done
	retry_args="--retry-report $out/wp-retry.json --retry-log $out/wp-retry.log"
else
	retry_args=""
fi
# The lemmas of spec/.  One of them, 1 << k fits 64 bits for 0 <= k < 64,
# is beyond SMT solvers (they cannot enumerate k): when the provers fail,
# WP's Range tactic splits a lemma into one case per value of k, each
# evaluated by Qed.  The tactic is applied only to lemmas.
echo "hvipi: WP on the lemmas of spec/"
# shellcheck disable=SC2086
frama-c $common $srcs $opts -wp-prop=@lemma -wp-auto wp:range \
	-wp-cache "$cache_mode" -wp-cache-dir "$cache_dir" \
	-wp-report-json "$out/wp-report-lemmas.json" \
	> "$out/wp-lemmas.log" 2>&1 || { tail -20 "$out/wp-lemmas.log"; echo "hvipi: frama-c failed (see $out/wp-lemmas.log)"; exit 1; }
wp_end=$(date +%s)
echo "hvipi: WP took $((wp_end - start)) s"

if [ "${HVIPI_SMOKE:-1}" != 0 ]; then
	echo "hvipi: WP smoke tests (dead code, dead loops, inconsistent requires/assumes)"
	# shellcheck disable=SC2086
	frama-c $common $srcs -machdep x86_64 -wp -wp-rte -warn-unsigned-overflow \
		-warn-unsigned-downcast -wp-prover z3,cvc5 -wp-smoke-tests \
		-wp-fct "$fcts" -wp-split -wp-timeout 10 -wp-smoke-timeout 10 \
		-wp-cache "$cache_mode" -wp-cache-dir "$cache_dir" \
		-wp-report-json "$out/wp-smoke.json" > "$out/wp-smoke.log" 2>&1 \
		|| { tail -20 "$out/wp-smoke.log"; echo "hvipi: frama-c smoke failed"; exit 1; }
fi

echo "hvipi: EVA on proofs/eva/harness.c"
sh proofs/eva/run.sh "$out" || exit 1
end=$(date +%s)

smoke_args=""
[ "${HVIPI_SMOKE:-1}" = 0 ] || smoke_args="--smoke $out/wp-smoke.json --smoke-log $out/wp-smoke.log"
# shellcheck disable=SC2086
python3 proofs/gate.py --log "$out/wp.log" --log "$out/wp-lemmas.log" \
	--report "$out/wp-report.json" --report "$out/wp-report-lemmas.json" \
	$smoke_args $retry_args \
	--floors proofs/floors.txt --eva "$out/eva.summary" \
	--seconds $((end - start)) --summary "$out/summary.txt"
