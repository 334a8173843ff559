#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Compile the in-tree drop-in objects in $DIR against $KDIR with W=1, as
# single-object targets of an external build (no link, no modpost).
# Fail on any warning.  Writes $RES/intree-check.counts.
set -u
pass=0
fail=0
check() {
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); echo "intree-check: ok - $1"
	else fail=$((fail + 1)); echo "intree-check: FAIL - $1"; fi
}
log=$DIR/build.log
make -C "$KDIR" M="$DIR" W=1 hv_ipi_hvipi.o hvipi.o >"$log" 2>&1
rc=$?
cat "$log"
check "drop-in objects compile (exit $rc)" $rc
for o in hv_ipi_hvipi.o hvipi.o; do
	[ -f "$DIR/$o" ]
	check "$o built" $?
done
grep -q 'objtool' "$DIR/.hv_ipi_hvipi.o.cmd" 2>/dev/null
check "objtool ran on hv_ipi_hvipi.o" $?
nwarn=$(grep -c 'warning:' "$log")
echo "intree-check: build warnings: $nwarn"
[ "$nwarn" -eq 0 ]
check "zero warnings (W=1, objtool)" $?
echo "$pass $fail" >"$RES/intree-check.counts"
[ "$fail" -eq 0 ]
