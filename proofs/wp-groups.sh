#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Print the functions of proofs/functions.txt as the groups that
# proofs/prove.sh and proofs/replay.sh give to parallel frama-c runs, one
# comma-separated group per line.  WP's own work (generating and
# simplifying the goals, Qed, the cache look-ups) runs on one core per
# frama-c process, so on the 2-core CI machine two processes take about
# half the time of one.  JOBS=1: one group of every function; otherwise
# the groups of proofs/wp-groups.txt, where a function no line names
# joins the last group.  The groups change no goal (nor a cache key, a
# digest of the task), only which process proves it.
#
# usage: proofs/wp-groups.sh JOBS
set -eu
cd "$(dirname "$0")/.."
jobs=${1:-2}
fcts=$(grep -v '^#' proofs/functions.txt | grep .)
if [ "$jobs" -lt 2 ]; then
	echo "$fcts" | paste -sd, -
	exit 0
fi
groups=$(grep -v '^#' proofs/wp-groups.txt | grep .)
for f in $groups; do
	echo "$fcts" | grep -qx "$f" || {
		echo "hvipi: proofs/wp-groups.txt names $f, which is not in proofs/functions.txt" >&2
		exit 1
	}
done
listed=$(echo "$groups" | tr ' ' '\n' | grep .)
dup=$(echo "$listed" | sort | uniq -d | paste -sd' ' -)
if [ -n "$dup" ]; then
	echo "hvipi: proofs/wp-groups.txt names $dup more than once" >&2
	exit 1
fi
rest=$(echo "$fcts" | grep -vxF "$listed" || true)
n=$(echo "$groups" | wc -l)
i=0
echo "$groups" | while read -r line; do
	i=$((i + 1))
	if [ "$i" = "$n" ] && [ -n "$rest" ]; then
		line="$line $rest"
	fi
	echo "$line" | tr ' \n' ',,' | sed 's/,,*/,/g; s/^,//; s/,$//'
	echo
done
