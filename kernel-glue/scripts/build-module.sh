#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build hvipi.ko in $MOD (a build copy) against $KDIR with W=1; fail on any
# warning (compiler, objtool, modpost).  Writes $RES/kernel.counts.
set -u
pass=0
fail=0
check() {	# check NAME CONDITION-STATUS
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); echo "kernel: ok - $1"
	else fail=$((fail + 1)); echo "kernel: FAIL - $1"; fi
}

cmp -s "$SRC/hvipi.c" "$MOD/hvipi_core.c"
check "core built from an unchanged copy of src/hvipi.c" $?

log=$MOD/build.log
make -C "$KDIR" M="$MOD" W=1 -j2 modules >"$log" 2>&1
rc=$?
cat "$log"
check "module build (exit $rc)" $rc

nwarn=$(grep -c 'warning:' "$log")
echo "kernel: build warnings: $nwarn"
[ "$nwarn" -eq 0 ]
check "zero warnings (W=1, objtool, modpost)" $?

[ -f "$MOD/hvipi.ko" ]
check "hvipi.ko exists" $?

echo "$pass $fail" >"$RES/kernel.counts"
[ "$fail" -eq 0 ]
