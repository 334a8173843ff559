#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Print a PATH under which no SMT solver can be found.  Every directory of
# the current PATH that holds z3, cvc5 or cvc4 (any versioned name) is
# replaced by a directory under DIR with a symlink to each of its other
# entries; the other directories are kept.  `make test` runs
# `make replay` under it to show that the replay needs no solver.
#
# usage: PATH=$(sh proofs/nosolver-path.sh DIR) make replay
set -eu
dir=$1
solvers='z3 z3-* z3.* cvc5 cvc5-* cvc5.* cvc4 cvc4-*'
rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
has_solver() {
	for pat in $solvers; do
		for f in "$1"/$pat; do
			[ -e "$f" ] && return 0
		done
	done
	return 1
}
new=""
n=0
old_ifs=$IFS
IFS=:
for d in $PATH; do
	IFS=$old_ifs
	if [ -d "$d" ] && has_solver "$d"; then
		n=$((n + 1))
		farm=$dir/$n
		mkdir "$farm"
		find "$d/" -mindepth 1 -maxdepth 1 ! -type d -exec ln -s -t "$farm" {} +
		for pat in $solvers; do
			# shellcheck disable=SC2086  # $pat is a glob
			(cd "$farm" && rm -f -- $pat)
		done
		d=$farm
	fi
	new=${new:+$new:}$d
	IFS=:
done
IFS=$old_ifs
for s in z3 cvc5 cvc4; do
	if PATH=$new command -v "$s" >/dev/null 2>&1; then
		echo "nosolver-path: $s is still on the PATH" >&2
		exit 1
	fi
done
echo "$new"
