# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: the parallel WP run shared by proofs/prove.sh and proofs/replay.sh
# (sourced, not run).  One frama-c process per group of proofs/wp-groups.sh,
# all at once: WP generates and simplifies goals on one core per process.
#
#   wp_par OUT JOBS SKIP CSV ARGS...
#     OUT   output directory: wp-N.log, wp-report-N.json, wp-N.times (the
#           seconds until the process reported its first goal, when all
#           its goals were generated, and in all) and wp.log (all logs)
#     JOBS  number of processes (proofs/wp-groups.sh)
#     SKIP  functions to leave out, space-separated (incremental reuse)
#     CSV   with one process, the Report plugin's CSV to write ("" none)
#     ARGS  the frama-c arguments of every process; each gets its group
#           as -wp-fct and its -wp-report-json
#   Sets wp_par_n to the number of processes run; returns non-zero if a
#   frama-c process failed.  With HVIPI_PROOF_LOCK=FILE each process
#   waits for that lock (not counted in its time).  While they run, the
#   progress monitor (wp_progress_start) reads their logs, and those of
#   wp_par_side (LOG=FUNCTION,... words: a run beside them, e.g. the
#   lemmas'), unless HVIPI_PROGRESS=0.
#
#   wp_progress_start LOG=FUNCTION,... ...  /  wp_progress_stop
#     start proofs/progress.py in the background / stop it.  It only reads
#     the logs and prints (a bar on a terminal, a line a minute and one
#     per function finished otherwise), so it cannot change a verdict;
#     a monitor that fails or is not there changes nothing either.

wp_progress_start() {
	wp_progress_pid=""
	[ "${HVIPI_PROGRESS:-1}" != 0 ] || return 0
	python3 proofs/progress.py --floors proofs/floors.txt "$@" &
	wp_progress_pid=$!
}

wp_progress_stop() {
	[ -n "${wp_progress_pid:-}" ] || return 0
	kill "$wp_progress_pid" 2>/dev/null || true
	wait "$wp_progress_pid" 2>/dev/null || true
	wp_progress_pid=""
}

wp_par() {
	_wo=$1 _wj=$2 _ws=$3 _wc=$4
	shift 4
	rm -f "$_wo"/wp-report-[0-9]*.json "$_wo"/wp-[0-9]*.log "$_wo"/wp-[0-9]*.times
	_wg=$(sh proofs/wp-groups.sh "$_wj") || return 1
	if [ -n "$_ws" ]; then
		_wg=$(for _g in $_wg; do
			echo "$_g" | tr ',' '\n' | while read -r _f; do
				case " $_ws " in *" $_f "*) ;; *) echo "$_f" ;; esac
			done | paste -sd, -
		done | grep . || true)
	fi
	wp_par_n=0
	_wp=""
	_wm=""
	for _g in $_wg; do
		wp_par_n=$((wp_par_n + 1))
		echo "hvipi: ... process $wp_par_n: $_g"
		(
			_n=$wp_par_n
			_log=$_wo/wp-$_n.log
			[ -z "${HVIPI_PROOF_LOCK:-}" ] || flock "$HVIPI_PROOF_LOCK" true
			_t0=$(date +%s)
			(while sleep 1; do
				grep -q '^\[wp\] \[[^]]*\] Goal ' "$_log" 2>/dev/null && break
			done; echo "generated $(($(date +%s) - _t0))" > "$_wo/wp-$_n.times") &
			_watch=$!
			set -- "$@" -wp-fct "$_g" -wp-report-json "$_wo/wp-report-$_n.json"
			[ -z "$_wc" ] || set -- "$@" -then -report-csv "$_wc"
			if [ -n "${HVIPI_PROOF_LOCK:-}" ]; then
				set -- flock "$HVIPI_PROOF_LOCK" frama-c "$@"
			else
				set -- frama-c "$@"
			fi
			# Not under set -e: the watcher must be stopped on failure too
			# (it waits for a goal line a failed run never prints).
			_rc=0
			"$@" > "$_log" 2>&1 || _rc=$?
			kill "$_watch" 2>/dev/null || true
			echo "total $(($(date +%s) - _t0))" >> "$_wo/wp-$_n.times"
			# On a terminal, first erase the monitor's bar from the line.
			[ ! -t 1 ] || printf '\r\033[K'
			echo "hvipi: ... process $_n done in $(($(date +%s) - _t0)) s"
			exit $_rc
		) &
		_wp="$_wp $!"
		_wm="$_wm $_wo/wp-$wp_par_n.log=$_g"
	done
	# shellcheck disable=SC2086
	wp_progress_start $_wm ${wp_par_side:-}
	_wr=0
	for _p in $_wp; do wait "$_p" || _wr=1; done
	wp_progress_stop
	cat "$_wo"/wp-[0-9]*.log > "$_wo/wp.log" 2>/dev/null || : > "$_wo/wp.log"
	return $_wr
}
