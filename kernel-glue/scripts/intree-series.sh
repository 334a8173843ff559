#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Edit the in-tree series (kernel-glue/intree/series/) as git commits.
#
#   intree-series.sh git DIR      DIR: the kernel files the series touches,
#                                 from linux-source-6.1, as commit "base",
#                                 with the series applied on it (git am)
#   intree-series.sh refresh DIR  the copies of intree/copies.txt in DIR's
#                                 commits brought up to date with their
#                                 sources (each in the commit adding it)
#   intree-series.sh export DIR   the commits after "base" back into
#                                 intree/series/ (git format-patch, every
#                                 Date the same, so an export is stable)
#   intree-series.sh expect F OUT write to OUT what copies.txt says the
#                                 tree's file F must hold
#
# Edit in DIR, fold changes into their patch (git commit --fixup=SHA;
# GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash base), refresh,
# export, then make intree-boot.  DIR may also be a whole kernel tree
# whose first commit is "base" (tag base).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
series=$here/intree/series
copies=$here/intree/copies.txt
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
date='Mon, 7 Dec 2026 12:00:00 +0000'
usage() {
	echo "usage: intree-series.sh git|refresh|export DIR | expect FILE OUT" >&2
	exit 2
}
[ $# -ge 2 ] || usage

# The source line of tree file $1 in copies.txt, or nothing.
source_of() {
	awk -v f="$1" '$1 == f { print $2 }' "$copies"
}

# expect FILE OUT: what tree file FILE must hold, into OUT.
expect() {
	src=$(source_of "$1")
	case $src in
	'')
		echo "intree-series: $1 is not in copies.txt" >&2
		return 1 ;;
	kcore:* | krx:*)
		tmp=$(mktemp -d)
		python3 "$here/scripts/${src%%:*}.py" --out "$tmp" >/dev/null &&
			cp "$tmp/${src#*:}" "$2"
		rc=$?
		rm -rf "$tmp"
		return $rc ;;
	*)
		cp "$root/$src" "$2" ;;
	esac
}

case $1 in
git)
	[ $# -eq 2 ] || usage
	dir=$2
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
	# The same abbreviated blob ids in every export, whatever the tree's size.
	git config core.abbrev 8
	# Debian's .gitignore ignores every top-level entry
	git add -f -A .
	git -c user.name=base -c user.email=base@localhost commit -qm base
	git tag base
	git am -q "$series"/*.patch
	git log --oneline base..
	;;
refresh)
	[ $# -eq 2 ] || usage
	cd "$2"
	git rev-parse -q --verify base >/dev/null ||
		{ echo "intree-series: $2 has no tag base" >&2; exit 1; }
	# After each commit, the copies it adds get their expected content.
	GIT_SEQUENCE_EDITOR="sed -i '/^pick/a exec sh $here/scripts/intree-series.sh fix-head .'" \
		git rebase -q -i base
	git log --oneline base..
	;;
fix-head)
	# (refresh's step) the copies HEAD adds, as copies.txt says
	cd "$2"
	changed=0
	for f in $(git show --diff-filter=A --name-only --format= HEAD); do
		[ -n "$(source_of "$f")" ] || continue
		expect "$f" "$f"
		if ! git diff --quiet -- "$f"; then
			git add -f "$f"
			changed=1
			echo "intree-series: $f brought up to date in $(git log -1 --format=%s HEAD)"
		fi
	done
	[ $changed = 0 ] || git commit -q --amend --no-edit
	;;
export)
	[ $# -eq 2 ] || usage
	cd "$2"
	rm -f "$series"/*.patch
	git format-patch -q --no-signature --zero-commit -o "$series" base..
	for p in "$series"/*.patch; do
		sed -i "1,/^$/s/^Date: .*/Date: $date/" "$p"
	done
	ls "$series"
	;;
expect)
	[ $# -eq 3 ] || usage
	expect "$2" "$3"
	;;
*)
	usage
	;;
esac
