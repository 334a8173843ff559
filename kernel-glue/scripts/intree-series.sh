#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Edit the in-tree series (kernel-glue/intree/series/) as git commits.
#
#   intree-series.sh git DIR     DIR: a git tree of the kernel files the
#                                series touches, from linux-source-6.1,
#                                with the series applied as commits (git am)
#                                and hvipi's files copied in (untracked)
#   intree-series.sh export DIR  the commits after "base" back into
#                                intree/series/ (git format-patch)
#
# Edit in DIR, fold changes into their patch (git commit --fixup=SHA;
# GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash base), export, then
# make intree-boot.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
series=$here/intree/series
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ $# -eq 2 ] || { echo "usage: intree-series.sh git|export DIR" >&2; exit 2; }
dir=$2

case $1 in
git)
	[ ! -e "$dir" ] || { echo "intree-series: $dir exists" >&2; exit 1; }
	mkdir -p "$dir"
	# The files the series changes that the tarball has (not those it adds).
	added=$(grep -A1 '^--- /dev/null' "$series"/*.patch |
		sed -n 's|.*+++ b/\([^	]*\).*|\1|p' | sort -u)
	files=$(sed -n 's|^--- a/\([^	]*\).*|\1|p' "$series"/*.patch | sort -u |
		grep -vxF "$added")
	members=""
	for f in $files; do
		members="$members linux-source-6.1/$f"
	done
	# shellcheck disable=SC2086
	tar -xJf "$tarball" -C "$dir" --strip-components=1 $members
	cd "$dir"
	git init -q
	git add -A
	git -c user.name=base -c user.email=base@localhost commit -qm base
	git tag base
	git am -q "$series"/*.patch
	grep '^arch/' "$here/intree/files.txt" | while read -r dst src; do
		cp "$root/$src" "$dst"
	done
	git log --oneline base..
	;;
export)
	cd "$dir"
	rm -f "$series"/*.patch
	git format-patch -q --no-signature --zero-commit -o "$series" base..
	ls "$series"
	;;
*)
	echo "usage: intree-series.sh git|export DIR" >&2
	exit 2
	;;
esac
