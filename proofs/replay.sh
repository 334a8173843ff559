#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: re-check every goal of the proof gate from the committed WP cache
# (proofs/cache/), without Z3 or CVC5.  The same WP passes as
# proofs/prove.sh (the functions of proofs/functions.txt with the options
# of proofs/wp-options.txt, then the lemmas with the Range tactic) run in
# cache mode `offline`: WP generates and simplifies every goal (Qed still
# closes its share), looks the others up in the cache and never starts a
# prover; a goal without a valid cache entry fails, by name.  Then EVA
# (which needs no solver) and proofs/gate.py (every goal valid, goal
# floors) as in `make prove`, and the tool-version check without the
# solvers.
#
# What a replay does not re-check: the verdicts themselves.  A cache entry
# records that Z3 or CVC5 proved the task whose digest names the file;
# proofs/refresh-cache.sh writes them from a passing `make prove`.  The
# WP smoke tests are not replayed either: a passed smoke test is a goal
# the provers failed to prove, which the cache (valid verdicts only)
# cannot hold.
#
# usage: proofs/replay.sh [BUILD_DIR]       writes BUILD_DIR/replay/
# env:   HVIPI_PROOF_LOCK=FILE  run each frama-c WP pass under flock FILE
#        HVIPI_WP_JOBS=1        one frama-c run (default 2 in parallel, as
#                               in prove.sh); only then report.csv is written
#        HVIPI_REPLAY_FORCE=1   replay even when the inputs changed since
#                               the cache was refreshed (to list misses)
#        HVIPI_REPLAY_PAR=N     WP's -wp-par for the lookups (default 32)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
mkdir -p "$build/replay"
out=$(cd "$build/replay" && pwd)
cache=$top/proofs/cache
lock=${HVIPI_PROOF_LOCK:-}
refresh="make refresh-cache"
cd "$top"
rm -f "$out"/*.log "$out"/*.json "$out"/*.csv "$out"/summary.txt \
	"$out"/eva.summary "$out"/MANIFEST "$out"/result "$out"/eva.ok
start=$(date +%s)

# result PASS|FAIL REASON: record the outcome for proofs/report.py.
result() {
	printf '%s %s\n' "$1" "$(($(date +%s) - start))" > "$out/result"
	[ $# -lt 2 ] || printf '%s\n' "$2" >> "$out/result"
}
fail() {
	result FAIL "$1"
	echo "hvipi: replay FAILED: $1" >&2
	exit 1
}

echo "hvipi: replay of the WP gate from proofs/cache (no solver is run)"
HVIPI_NO_SOLVERS=1 sh proofs/check-versions.sh || fail "tool versions differ from proofs/versions.txt"

# The cache must match the proof inputs it was refreshed from.
[ -f "$cache/MANIFEST" ] ||
	fail "proofs/cache/MANIFEST is missing: no committed cache; run \`$refresh\` (needs z3 and cvc5) and commit proofs/cache/"
sh proofs/manifest.sh > "$out/MANIFEST"
if ! diff -u "$cache/MANIFEST" "$out/MANIFEST" > "$out/manifest.diff"; then
	echo "hvipi: the proof inputs changed since proofs/cache was refreshed:" >&2
	sed -n 's/^[-+][0-9a-f]\{64\}  //p' "$out/manifest.diff" | sort -u | sed 's/^/hvipi:   /' >&2
	msg="proofs/cache is stale (src/, spec/ or the proof setup changed since the last refresh): run \`$refresh\` (needs z3 and cvc5) and commit proofs/cache/"
	if [ "${HVIPI_REPLAY_FORCE:-0}" = 1 ]; then
		echo "hvipi: $msg; replaying anyway (HVIPI_REPLAY_FORCE=1)" >&2
		stale=$msg
	else
		fail "$msg"
	fi
else
	stale=""
	rm -f "$out/manifest.diff"
fi
# Only valid verdicts are committed (a cached timeout or unknown would be
# replayed as such and is never a proof).
n=$(find "$cache" -name '*.json' | wc -l)
nonvalid=$(find "$cache" -name '*.json' -exec grep -L '"verdict": "valid"' {} + || true)
[ -z "$nonvalid" ] || fail "proofs/cache holds entries that are not valid verdicts: $nonvalid; run \`$refresh\`"
if [ -n "$stale" ]; then
	echo "hvipi: proofs/cache: $n valid verdicts, STALE"
else
	echo "hvipi: proofs/cache: $n valid verdicts, inputs unchanged since the refresh"
fi

# replay.sh mirrors prove.sh's two WP passes; make sure they still agree.
if ! grep -q -- '-wp-prop=@lemma -wp-auto wp:range' proofs/prove.sh ||
	! grep -q 'proofs/wp-options.txt' proofs/prove.sh ||
	! grep -q 'proofs/functions.txt' proofs/prove.sh; then
	fail "proofs/prove.sh's WP passes changed: update proofs/replay.sh to match"
fi

# The committed Why3 configuration, with the cvc5 driver written as
# mkconf.sh writes it.
sed "s|@DATADIR@|$(why3 --print-datadir)|" proofs/why3/cvc5.drv.in > "$out/cvc5.drv"
sed "s|@DRIVERDIR@|$out|" proofs/why3/replay.conf > "$out/replay.conf"
WHY3CONFIG=$out/replay.conf
export WHY3CONFIG

srcs="src/hvipi.c"
opts=$(grep -v '^#' proofs/wp-options.txt | tr '\n' ' ')
# A cached verdict counts if its prover time is within the timeout make
# prove finally used for it: the retry timeout (proofs/wp-retry.txt).
opts="$opts -wp-timeout $(grep -v '^#' proofs/wp-retry.txt | grep .)"
common="-cpp-extra-args=-I$top/src -cpp-extra-args=-I$top/spec"
fcts=$(grep -v '^#' proofs/functions.txt | grep . | paste -sd, -)
cachopts="-wp-cache offline -wp-cache-dir $cache"

# wp LOG ARGS...: one frama-c run (under the lock if one is set; the
# time spent waiting for it is not counted).
wp() {
	log=$1
	shift
	[ -z "$lock" ] || flock "$lock" true
	t0=$(date +%s)
	if [ -n "$lock" ]; then
		flock "$lock" frama-c "$@" > "$log" 2>&1
	else
		frama-c "$@" > "$log" 2>&1
	fi || {
		tail -20 "$log" >&2
		fail "frama-c failed (see $log)"
	}
	echo "hvipi: ... $(basename "$log" .log): $(($(date +%s) - t0)) s"
}

# read_once's read check, as in prove.sh (no prover: sparse alone).
sh proofs/read-check.sh || fail "the read check failed: a read of shared data outside the loads' models"
echo "hvipi: WP (offline) on $srcs, functions $fcts"
# As in prove.sh, one frama-c process per group of proofs/wp-groups.sh, in
# parallel (proofs/wp-par.sh).  The Report plugin's CSV (proofs/report.py)
# needs the statuses of one run: with HVIPI_WP_JOBS=1 (make report) it is
# written.
jobs=${HVIPI_WP_JOBS:-2}
csv=""
[ "$jobs" -gt 1 ] || csv="$out/report.csv"
# -wp-par: how many goals WP looks up at once.  No prover runs, but WP's
# task server still schedules each lookup as a job and sleeps between its
# polls: with 2 at a time each process spent about a third of its time
# idle (measured on 2 cores: processes of 218 s with -wp-par 2, 153 s with
# 8, 127 s with 32, the same CPU time; the verdicts and keys are the same).
replay_par=${HVIPI_REPLAY_PAR:-32}
# The lemmas and EVA: beside the functions' processes, as in prove.sh
# (after them under HVIPI_PROOF_LOCK, which serialises every frama-c run).
lemmas() {
	echo "hvipi: WP (offline) on the lemmas of spec/"
	# shellcheck disable=SC2086
	wp "$out/wp-lemmas.log" $common $srcs $opts -wp-prop=@lemma -wp-auto wp:range \
		$cachopts -wp-report-json "$out/wp-report-lemmas.json" \
		-then -report-csv "$out/report-lemmas.csv"
	# The loads' models, with plain loads, as in prove.sh.
	echo "hvipi: WP (offline) on the loads' models"
	# shellcheck disable=SC2086
	wp "$out/wp-loads.log" $common -cpp-extra-args=-DHVIPI_PLAIN_LOADS $srcs $opts \
		-wp-fct "$(grep -v '^#' proofs/load-models.txt | grep . | paste -sd, -)" \
		$cachopts -wp-report-json "$out/wp-report-loads.json" \
		-then -report-csv "$out/report-loads.csv"
}
# eva.ok: 1 when EVA passed (the outcome crosses the background subshell).
eva() {
	echo "hvipi: EVA on proofs/eva/harness.c"
	if sh proofs/eva/run.sh "$out" > "$out/eva.out" 2>&1; then echo 1; else echo 0; fi > "$out/eva.ok"
}
rm -f "$out/eva.ok" "$out/side.log"
side=""
if [ -z "$lock" ]; then
	(lemmas; eva) > "$out/side.log" 2>&1 &
	side=$!
fi
. proofs/wp-par.sh
# The progress monitor counts the lemmas' run too when it runs beside.
# shellcheck disable=SC2034  # read by wp_par (proofs/wp-par.sh)
[ -z "$side" ] || wp_par_side="$out/wp-lemmas.log=lemmas"
# shellcheck disable=SC2086
wp_par "$out" "$jobs" "" "$csv" $common $srcs $opts -wp-par "$replay_par" $cachopts ||
	fail "frama-c failed (see $out/wp-N.log)"
n=$wp_par_n
reports=$(for i in $(seq 1 $n); do printf ' %s' "--report $out/wp-report-$i.json"; done)
if [ -n "$side" ]; then
	wait "$side" || true
	cat "$out/side.log"
else
	lemmas
	eva
fi
[ -f "$out/wp-report-lemmas.json" ] || fail "the lemmas' WP run failed (see $out/wp-lemmas.log)"
[ -f "$out/wp-report-loads.json" ] || fail "the loads' models' WP run failed (see $out/wp-loads.log)"
eva_ok=$(cat "$out/eva.ok" 2>/dev/null || echo 0)
grep -h '^\[wp\] \[Cache\]' "$out/wp.log" "$out/wp-lemmas.log" "$out/wp-loads.log" | sed 's/^\[wp\]/hvipi: WP/' || true
sed 's/^eva:/hvipi: EVA:/' "$out/eva.out" | grep -v ' log \| red ' || true

end=$(date +%s)
gate_ok=1
# shellcheck disable=SC2086
python3 proofs/gate.py --log "$out/wp.log" --log "$out/wp-lemmas.log" \
	--log "$out/wp-loads.log" \
	$reports --report "$out/wp-report-lemmas.json" \
	--report "$out/wp-report-loads.json" \
	--floors proofs/floors.txt --eva "$out/eva.summary" \
	--seconds $((end - start)) --summary "$out/summary.txt" || gate_ok=0

# In a replay every goal that is not valid is a cache miss: name them.
misses=$(python3 - "$out/wp.log" "$out/wp-lemmas.log" "$out/wp-loads.log" <<'EOF'
import sys
sys.path.insert(0, "proofs")
import gate
for path in sys.argv[1:]:
    for goal, (status, _secs, _res) in sorted(gate.read_log(path, []).items()):
        if status != "Valid":
            print(goal)
EOF
)
if [ -n "$misses" ]; then
	echo "$misses" > "$out/misses.txt"
	for g in $misses; do
		echo "hvipi: cache miss: goal $g has no valid result in proofs/cache" >&2
	done
	nm=$(echo "$misses" | wc -l)
	if [ -n "$stale" ]; then
		fail "$nm goal(s) not in the cache, which is stale: run \`$refresh\` (needs z3 and cvc5) and commit proofs/cache/"
	fi
	fail "$nm goal(s) not in the cache (see $out/misses.txt): if src/ or spec/ changed, run \`$refresh\` (needs z3 and cvc5) and commit proofs/cache/"
fi
[ "$eva_ok" = 1 ] || fail "EVA raised an alarm or failed (see $out/eva.log)"
[ "$gate_ok" = 1 ] || fail "the gate failed (see $out/summary.txt)"
[ -z "$stale" ] || fail "$stale"
result PASS
echo "hvipi: replay PASSED in $(($(date +%s) - start)) s (no solver run; see $out/summary.txt)"
