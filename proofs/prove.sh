#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: run every proof (WP with Z3 and CVC5 and WP's smoke tests, then
# EVA) and gate on the results.  Fail-closed: exits non-zero unless every
# WP goal is valid, every function meets its committed goal floor, every
# smoke test passes and EVA raises no alarm.  frama-c's own exit status
# says nothing about proof results; the JSON reports do.
#
# The functions are proved by two frama-c processes at once (the groups of
# proofs/wp-groups.sh): WP's goal generation and Qed run on one core per
# process.  The smoke tests are goals of those same runs (they used to be
# a second run that generated every goal again).
#
# usage: proofs/prove.sh [BUILD_DIR]
# env:   HVIPI_WP_CACHE  WP cache mode (default: update, into a cache under
#                        BUILD_DIR that starts empty, so a cold run proves all)
#        HVIPI_WP_CACHEDIR  cache directory (default: BUILD_DIR/proof/cache)
#        HVIPI_WP_EXTRA  extra frama-c options (e.g. -wp-fct NAME)
#        HVIPI_SMOKE=0   skip the smoke tests
#        HVIPI_WP_JOBS   frama-c processes (default 2; 1: one run of all)
#        HVIPI_INCREMENTAL=0  prove every function (default: a function
#                        whose proof inputs are those of its last passing
#                        proof in BUILD_DIR/proof/incr/ is reused, see
#                        proofs/incremental.py; a clean clone has none, so
#                        CI's run is cold)
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
# read_once's read check: no read of a cpumask or the VP table outside the
# loads' models (proofs/read-check.sh); under a second, so before any proof.
sh proofs/read-check.sh || { echo "hvipi: the read check failed: a read of shared data outside the loads' models"; exit 1; }
# ... and it can fail: each planted plain access is refused.
sh proofs/read-check.sh --self-test > "$out/read-check-self-test.log" 2>&1 ||
	{ cat "$out/read-check-self-test.log"; echo "hvipi: the read check's self-test failed"; exit 1; }
tail -n 1 "$out/read-check-self-test.log"
sh proofs/why3/mkconf.sh "$out/why3.conf"
WHY3CONFIG="$out/why3.conf"
export WHY3CONFIG

srcs="src/hvipi.c"
# The options of proofs/wp-options.txt with its -wp-prover last, so that
# the main run can give its own (per-goal prover choice, below).
provers=$(sed -n 's/^-wp-prover //p' proofs/wp-options.txt)
opts_base=$(grep -v '^#' proofs/wp-options.txt | grep -v '^-wp-prover ' | tr '\n' ' ')
opts="$opts_base -wp-prover $provers"
common="-cpp-extra-args=-I$top/src -cpp-extra-args=-I$top/spec"

start=$(date +%s)
fcts=$(grep -v '^#' proofs/functions.txt | grep . | paste -sd, -)
jobs=${HVIPI_WP_JOBS:-2}
# The smoke tests (dead code, dead loops, inconsistent requires/assumes)
# are goals of the same runs: one generation of every goal, not two.
smoke=""
# Their timeout is 1 s, not Frama-C's default 2 s: a passed smoke test
# holds both provers until the timeout, and 24 planted vacuity faults
# (proofs/smoke-faults/README.md, make smoke-faults) show that whatever
# the provers find, they find in under 0.2 s: every fault caught at 2 s or 10 s is caught at 1 s, by the
# two provers together (each alone misses one).  CONTRIBUTING.md "Proof
# cost", lever 16.
smoke_timeout=${HVIPI_SMOKE_TIMEOUT:-1}
[ "${HVIPI_SMOKE:-1}" = 0 ] || smoke="-wp-smoke-tests -wp-smoke-timeout $smoke_timeout"
echo "hvipi: WP on $srcs, functions $fcts (provers z3, cvc5; cache mode $cache_mode${smoke:+; with the smoke tests})"
# Incremental: the functions whose proof inputs did not change since their
# last passing proof here are not proved again; the gate reads their kept
# goals (wp-reused.log, wp-report-reused.json).
# reuse also records the fingerprints the run starts from, which save
# keeps with the proofs.
mkdir -p "$out/incr"
[ "${HVIPI_INCREMENTAL:-1}" != 0 ] || rm -rf "$out/incr"/*
reused=$(python3 proofs/incremental.py reuse "$out") || exit 1
if [ -n "$reused" ]; then
	echo "hvipi: incremental: $(echo "$reused" | wc -l) function(s) reused, their proof inputs unchanged since the passing proof of (date):"
	echo "$reused" | sed 's/^/hvipi:   /'
	echo "hvipi: (HVIPI_INCREMENTAL=0, or a clean build directory, proves them all)"
fi
skip=$(echo "$reused" | cut -d' ' -f1 | paste -sd' ' -)
# Per-goal prover choice (proofs/provers.py, proofs/provers.txt): each goal
# goes first to the prover that proved it in the cold run the cache was
# refreshed from, alone; the other provers of proofs/wp-options.txt are
# tried after it, one at a time, only if it fails (a goal without a
# recorded prover gets them one at a time too).  WP 25 otherwise races
# both provers on every goal.  A choice, never a verdict: every goal is
# still proved from scratch.  HVIPI_PROVER_CHOICE=0 races them as before.
main_opts=$opts
session=$out/session
rm -rf "$session" "$out/provers.txt"
if [ "${HVIPI_PROVER_CHOICE:-1}" != 0 ] && [ -f proofs/provers.txt ]; then
	# tip: WP plays the scripts and rewrites each proved goal's script with
	# the prover that proved it (a time margin above any timeout keeps a
	# script for every proof), which provers.py record reads back.
	main_opts="$opts_base -wp-prover tip,$provers -wp-session $session -wp-time-margin 1000"
	echo "hvipi: per-goal prover choice: $(python3 proofs/provers.py seed proofs/provers.txt "$session" proofs/wp-options.txt) goals start with the prover of proofs/provers.txt (HVIPI_PROVER_CHOICE=0: race $provers)"
fi
# The lemmas and EVA need nothing of the functions' runs: they run beside
# them (they were 64 s and 18 s after them, while the last WP process
# left a core idle).  The lemmas: two of them, 1 << k fits 64 bits for
# 0 <= k < 64 and bits 0 .. 7 of 255 are set (bit64_255), are
# beyond SMT solvers (they cannot enumerate k): when the provers fail,
# WP's Range tactic splits a lemma into one case per value of k, each
# evaluated by Qed.  The tactic is applied only to lemmas.
# The provers get 10 s a lemma here, not 30: the provers' proofs of the
# lemmas take at most 2.3 s (measured), and a 30 s timeout is spent on
# the two lemmas only the tactic proves (a shorter timeout can only fail a proof,
# which the gate reports; WP's cache keys do not hold the timeout).
# After the lemmas, in the same process slot, the loads' models
# (proofs/load-models.txt) in their own configuration: plain loads
# (HVIPI_PLAIN_LOADS), so first_read is proven of their bodies.
rm -f "$out/lemmas.rc" "$out/eva.rc" "$out/wp-lemmas.log" "$out/eva.out" \
	"$out/wp-loads.log" "$out/wp-report-loads.json"
loads=$(grep -v '^#' proofs/load-models.txt | grep . | paste -sd, -)
# shellcheck disable=SC2086
( (frama-c $common $srcs $opts -wp-timeout 10 -wp-prop=@lemma -wp-auto wp:range \
	-wp-cache "$cache_mode" -wp-cache-dir "$cache_dir" \
	-wp-report-json "$out/wp-report-lemmas.json" \
	> "$out/wp-lemmas.log" 2>&1 &&
  frama-c $common -cpp-extra-args=-DHVIPI_PLAIN_LOADS $srcs $opts \
	-wp-fct "$loads" $smoke \
	-wp-cache "$cache_mode" -wp-cache-dir "$cache_dir" \
	-wp-report-json "$out/wp-report-loads.json" \
	> "$out/wp-loads.log" 2>&1); echo $? > "$out/lemmas.rc") &
side_lemmas=$!
(sh proofs/eva/run.sh "$out" > "$out/eva.out" 2>&1; echo $? > "$out/eva.rc") &
side_eva=$!
trap 'kill $side_lemmas $side_eva 2>/dev/null || true' EXIT
# wait_side NAME WHAT LOG: wait for a side run, print its outcome.
wait_side() {
	eval "wait \$side_$1" || true
	_rc=$(cat "$out/$1.rc" 2>/dev/null || echo 1)
	if [ "$1" = eva ]; then cat "$out/eva.out"; fi
	if [ "$_rc" != 0 ]; then
		tail -20 "$out/$3"; echo "hvipi: $2 failed (see $out/$3)"; return 1
	fi
	echo "hvipi: $2: done ($(($(date +%s) - start)) s after the start)"
}
# One frama-c process per group of proofs/wp-groups.sh (proofs/wp-par.sh),
# each with two prover tasks at a time; wp.log and the reports
# wp-report-N.json are the gate's input.  Their progress (goals decided,
# functions finished; the lemmas' run beside them included) is printed
# while they run: a cold run is otherwise silent for over 10 minutes.
. proofs/wp-par.sh
# shellcheck disable=SC2034  # read by wp_par (proofs/wp-par.sh)
wp_par_side="$out/wp-lemmas.log=lemmas"
# shellcheck disable=SC2086
if ! wp_par "$out" "$jobs" "$skip" "" $common $srcs $main_opts -wp-par 2 $smoke \
	-wp-cache "$cache_mode" -wp-cache-dir "$cache_dir" ${HVIPI_WP_EXTRA:-}; then
	tail -20 "$out/wp.log"; echo "hvipi: frama-c failed (see $out/wp-N.log)"; exit 1
fi
n=$wp_par_n
choice_arg=""
if [ -d "$session" ]; then
	choice_arg="--prover-choice"
	python3 proofs/provers.py record "$session" proofs/provers.txt "$out"/wp-[0-9]*.log > "$out/provers.txt"
	echo "hvipi: per-goal prover choice: $(python3 proofs/provers.py compare proofs/provers.txt "$out/provers.txt") ($out/provers.txt; make refresh-cache commits it)"
fi
[ ! -f "$out/wp-reused.log" ] || cat "$out/wp-reused.log" >> "$out/wp.log"
reports=$(for i in $(seq 1 $n); do printf ' %s' "--report $out/wp-report-$i.json"; done)
smoke_reports=$(for i in $(seq 1 $n); do printf ' %s' "--smoke $out/wp-report-$i.json"; done)
if [ -f "$out/wp-report-reused.json" ]; then
	reports="$reports --report $out/wp-report-reused.json"
	smoke_reports="$smoke_reports --smoke $out/wp-report-reused.json"
fi
# The retry (proofs/wp-retry.txt): every function with a goal not proved
# is proved again, whole, from an empty cache with the longer timeout; the
# valid verdicts join the cache, the gate takes for each property the run
# that proved more of its goals.  Whole: a retry with -wp-prop on the
# failed clause alone gives WP a different task for the same goal, whose verdict `make replay` cannot find.
retry_timeout=$(grep -v '^#' proofs/wp-retry.txt | grep .)
rm -rf "$out/cache-retry" "$out/wp-retry.json" "$out/wp-retry.log"
retry=$(for i in $(seq 1 $n); do python3 proofs/gate.py --unproved-functions "$out/wp-report-$i.json" || echo "hvipi: cannot read $out/wp-report-$i.json" >&2; done | tr '\n' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
retry_args=""
[ ! -f "$out/wp-retry-reused.json" ] ||
	retry_args="--retry-report $out/wp-retry-reused.json --retry-log $out/wp-retry-reused.log"
if [ -n "$retry" ] && [ "${HVIPI_WP_RETRY:-1}" != 0 ]; then
	echo "hvipi: goals not proved within the timeout in: $retry"
	echo "hvipi: retrying these functions with -wp-timeout $retry_timeout from an empty cache"
	mkdir -p "$out/cache-retry"
	wp_progress_start "$out/wp-retry.log=$retry"
	retry_rc=0
	# shellcheck disable=SC2086
	frama-c $common $srcs $opts -wp-fct "$retry" -wp-timeout "$retry_timeout" \
		-wp-cache update -wp-cache-dir "$out/cache-retry" \
		-wp-report-json "$out/wp-retry.json" ${HVIPI_WP_EXTRA:-} \
		> "$out/wp-retry.log" 2>&1 || retry_rc=$?
	wp_progress_stop
	[ "$retry_rc" = 0 ] || { tail -20 "$out/wp-retry.log"; echo "hvipi: frama-c failed (see $out/wp-retry.log)"; exit 1; }
	for f in "$out"/cache-retry/*.json; do
		if [ -f "$f" ] && grep -q '"verdict": "valid"' "$f"; then
			cp "$f" "$cache_dir/"
		fi
	done
	retry_args="$retry_args --retry-report $out/wp-retry.json --retry-log $out/wp-retry.log"
fi
wp_end=$(date +%s)
echo "hvipi: WP on the functions took $((wp_end - start)) s"
wait_side lemmas "WP on the lemmas of spec/, then on the loads' models" wp-lemmas.log || { tail -20 "$out/wp-loads.log" 2>/dev/null; exit 1; }
wait_side eva "EVA on proofs/eva/harness.c" eva.log || exit 1
end=$(date +%s)

smoke_args=""
[ -z "$smoke" ] || smoke_args="$smoke_reports --smoke-log $out/wp.log"
# shellcheck disable=SC2086
[ -z "$smoke" ] || smoke_args="$smoke_args --smoke $out/wp-report-loads.json --smoke-log $out/wp-loads.log"
if ! python3 proofs/gate.py --log "$out/wp.log" --log "$out/wp-lemmas.log" \
	--log "$out/wp-loads.log" \
	$reports --report "$out/wp-report-lemmas.json" \
	--report "$out/wp-report-loads.json" \
	$smoke_args $retry_args ${choice_arg:-} \
	--floors proofs/floors.txt --eva "$out/eva.summary" \
	--seconds $((end - start)) --summary "$out/summary.txt"; then
	exit 1
fi
if [ -n "$reused" ]; then
	echo "hvipi: incremental: $(echo "$reused" | wc -l) of $(grep -v '^#' proofs/functions.txt | grep -c .) functions reused (see above); \`HVIPI_INCREMENTAL=0 make prove\` proves them all"
fi
# Keep each function's passing proof for the next incremental run (only
# of a run with the smoke tests and no extra options: what is reused must
# be what a full run checks).
if [ -n "$smoke" ] && [ -z "${HVIPI_WP_EXTRA:-}" ]; then
	python3 proofs/incremental.py save "$out" || true
fi
