#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Refuse to prove or replay with tool versions other than the recorded ones.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
want() { grep "^$1 " "$here/versions.txt" | cut -d' ' -f2-; }
bad=0
check() { # name actual
	w=$(want "$1")
	if [ "$2" != "$w" ]; then
		echo "hvipi: $1 version mismatch: found '$2', proofs/versions.txt records '$w'" >&2
		bad=1
	fi
}
check frama-c "$(frama-c -version 2>/dev/null | head -n1)"
check why3 "$(why3 --version 2>/dev/null | sed 's/.*version //')"
if [ "${HVIPI_NO_SOLVERS:-0}" != 1 ]; then
	check z3 "$(z3 --version 2>/dev/null | sed -n 's/^Z3 version \([^ ]*\).*/\1/p')"
	check cvc5 "$(cvc5 --version 2>/dev/null | sed -n 's/^This is cvc5 version \([^ ]*\).*/\1/p')"
fi
if [ $bad != 0 ]; then
	echo "hvipi: refusing to run: install the recorded versions (Debian 12 packages), or re-prove and update proofs/versions.txt (CONTRIBUTING.md)" >&2
	exit 1
fi
echo "hvipi: tool versions match proofs/versions.txt"
