#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make intree-boot: the in-tree drop-in, built into a kernel and booted.
#
#  1. Debian's linux-source-6.1 (whichever 6.1.y is installed; printed),
#     extracted once into $OUT/src.
#  2. The series kernel-glue/intree/series/*.patch applied with patch -p1;
#     the files it needs from hvipi copied in (intree/files.txt) and
#     checked byte-identical to their sources; scripts/checkpatch.pl
#     --strict of the same tree on the series (only the findings listed
#     in intree/README.md may remain).
#  3. tinyconfig + intree/hvipi-test.config, every line checked in the
#     final .config; make bzImage (W=1: no warning in arch/x86/hyperv/).
#  4. Each entry of RUNS booted under QEMU TCG with the test-only Hyper-V
#     platform (hv_testhv=): KUnit at boot, LOAD_SECS seconds of the
#     workload and CPU hotplug, then the platform's verdict.  No real
#     Hyper-V is reached.
#
# Env: HERE (kernel-glue) ROOT (the repository) OUT RES RUNS LOAD_SECS
#      QEMU_TIMEOUT JOBS.  Writes $RES/intree-boot.counts ("PASSED FAILED").
set -u
# The kernel's make is ours to drive (-j$JOBS): nothing of an outer make
# (make test's -w, -j, jobserver) may reach it or its output.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEFILES MAKEOVERRIDES
LOAD_SECS=${LOAD_SECS:-30}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-600}
JOBS=${JOBS:-$(nproc)}
RUNS=${RUNS:-"4:identity 8:permuted:maxcpus=6 8:sparse-high 16:sparse-high,xmm"}
INTREE=$HERE/intree
# LINUX_SOURCE_TARBALL: another 6.1.y linux-source tarball (as for the
# reference suites, tests/kernel_ref/extract.sh); default: the package's.
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
mkdir -p "$OUT" "$RES"
rm -f "$RES/intree-boot.fails"
pass=0
fail=0
t_start=$(date +%s)

# A failed check is also kept in $RES/intree-boot.fails, which make test
# prints last: CI keeps only the tail of the output.
check() {
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); echo "intree-boot: ok - $1"
	else fail=$((fail + 1)); echo "intree-boot: FAIL - $1" | tee -a "$RES/intree-boot.fails"; fi
}
finish() {
	echo "$pass $fail" >"$RES/intree-boot.counts"
	echo "intree-boot: $pass passed, $fail failed ($(($(date +%s) - t_start)) s)"
	[ "$fail" -eq 0 ]
	exit
}
die() {
	echo "intree-boot: $*" | tee -a "$RES/intree-boot.fails" >&2
	fail=$((fail + 1))
	finish
}

# ---- 1. the source --------------------------------------------------------
if [ -z "${LINUX_SOURCE_TARBALL:-}" ]; then
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
		die "linux-source-6.1 is not installed (make deps-test)"
	ver="linux-source-6.1 $ver"
else
	ver="$TARBALL"
fi
[ -f "$TARBALL" ] || die "$TARBALL missing ($ver)"
key="$ver $(stat -c '%s %Y' "$TARBALL")"
tree=$OUT/src
if [ "$(cat "$OUT/src.version" 2>/dev/null)" != "$key" ]; then
	echo "intree-boot: extracting $ver into $tree"
	t0=$(date +%s)
	rm -rf "$tree" "$OUT/applied" "$OUT/out" "$OUT/src.version"
	mkdir -p "$tree"
	# Not needed for an x86-64 build: the other architectures' sources
	# (their Kconfig files are: crypto/Kconfig sources them), the
	# documentation (but its Kconfig), perf and the selftests.
	excl=""
	for a in alpha arc arm arm64 csky hexagon ia64 loongarch m68k \
		 microblaze mips nios2 openrisc parisc powerpc riscv s390 sh \
		 sparc um xtensa; do
		excl="$excl --exclude=linux-source-6.1/arch/$a/*.[chS]"
		excl="$excl --exclude=linux-source-6.1/arch/$a/*.dts*"
	done
	# shellcheck disable=SC2086
	tar -xJf "$TARBALL" -C "$tree" --strip-components=1 $excl \
		--exclude='linux-source-6.1/Documentation/*.*' \
		--exclude=linux-source-6.1/tools/perf \
		--exclude=linux-source-6.1/tools/testing ||
		die "cannot extract $TARBALL"
	echo "$key" >"$OUT/src.version"
	echo "intree-boot: extracted in $(($(date +%s) - t0)) s"
fi
kver=$(make -s -C "$tree" kernelversion 2>/dev/null)
case $kver in 6.1.*) ;; *) die "$ver holds Linux $kver, not 6.1.y" ;; esac
echo "intree-boot: the kernel source: $ver (Linux $kver)"

# ---- 2. the series --------------------------------------------------------
# Applied once; a changed series is first taken back out (patch -R).
applied=$OUT/applied
if ! diff -rq "$INTREE/series" "$applied" >/dev/null 2>&1; then
	if [ -d "$applied" ]; then
		for p in $(ls "$applied"/*.patch | sort -r); do
			patch -s -R -p1 -d "$tree" <"$p" ||
				die "cannot take back $(basename "$p"); make clean"
		done
		rm -rf "$applied"
	fi
	ok=0
	for p in "$INTREE"/series/*.patch; do
		if patch -s -p1 --forward --no-backup-if-mismatch -d "$tree" <"$p"; then
			echo "intree-boot: applied $(basename "$p")"
		else
			ok=1
			echo "intree-boot: $(basename "$p") does not apply to $ver"
		fi
	done
	check "the series applies with patch -p1 to $ver" $ok
	[ $ok -eq 0 ] || finish
	cp -r "$INTREE/series" "$applied"
else
	check "the series applies with patch -p1 to $ver (applied before)" 0
fi

# The files the series needs from hvipi: "destination source" per line.
ok=0
while read -r dst src; do
	case $dst in ''|\#*) continue ;; esac
	cmp -s "$ROOT/$src" "$tree/$dst" || cp "$ROOT/$src" "$tree/$dst" || ok=1
	cmp -s "$ROOT/$src" "$tree/$dst" || { ok=1; echo "intree-boot: $dst differs from $src"; }
done <"$INTREE/files.txt"
check "the core and shared files copied in, byte-identical to hvipi's ($(grep -c '^arch' "$INTREE/files.txt") files)" $ok

# checkpatch --strict of the same tree, on the series and (-f) on the files
# copied in; only the finding types of intree/checkpatch-allowed.txt,
# each with its reason, may remain.
allowed() { sed -n "s/^$1	\([A-Z_]*\)	.*/\1/p" "$INTREE/checkpatch-allowed.txt"; }
types() { sed -n 's/.*: \(WARNING\|ERROR\|CHECK\):\([A-Z_]*\):.*/\2/p' "$1" | sort | uniq -c; }
cp_log=$OUT/checkpatch-series.log
(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree --show-types \
	--terse "$INTREE"/series/*.patch) >"$cp_log" 2>&1
core_log=$OUT/checkpatch-core.log
(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree --show-types \
	--terse -f $(grep '^arch/' "$INTREE/files.txt" | grep -v 'rx\|testhv' |
	awk '{ print $1 }')) >"$core_log" 2>&1
for what in series core; do
	log=$cp_log
	[ $what = core ] && log=$core_log
	ok=0
	echo "intree-boot: checkpatch --strict, $what: $(types "$log" | awk '{ printf "%s %s, ", $2, $1 }')$(grep -c ': \(WARNING\|ERROR\|CHECK\):' "$log") findings"
	for t in $(types "$log" | awk '{ print $2 }'); do
		allowed $what | grep -qx "$t" || { ok=1; grep ":$t:" "$log" | head -n 3; }
	done
	check "checkpatch --strict on the $what: only the types of checkpatch-allowed.txt" $ok
done

# ---- 3. the kernel --------------------------------------------------------
kout=$OUT/out
frag=$INTREE/hvipi-test.config
mkdir -p "$kout"
if ! cmp -s "$frag" "$kout/hvipi-test.config"; then
	make -s -C "$tree" O="$kout" tinyconfig >/dev/null &&
	sh "$tree/scripts/kconfig/merge_config.sh" -m -O "$kout" \
		"$kout/.config" "$frag" >"$kout/merge.log" 2>&1 &&
	make -s -C "$tree" O="$kout" olddefconfig >/dev/null &&
	cp "$frag" "$kout/hvipi-test.config" || die "kernel configuration failed"
fi
ok=0
for line in $(grep '^CONFIG_' "$frag"); do
	opt=${line%%=*}
	val=${line#*=}
	if [ "$val" = n ]; then
		grep -q "^# $opt is not set" "$kout/.config" || { ok=1; echo "intree-boot: $opt is set"; }
	else
		grep -qx "$line" "$kout/.config" || { ok=1; echo "intree-boot: $line not in .config"; }
	fi
done
check "every line of hvipi-test.config in the kernel's .config" $ok

echo "intree-boot: building the kernel (make -j$JOBS bzImage, W=1)"
t0=$(date +%s)
make -C "$tree" O="$kout" -j"$JOBS" W=1 bzImage >"$kout/build.log" 2>&1
rc=$?
build_s=$(($(date +%s) - t0))
echo "intree-boot: kernel build took $build_s s (exit $rc)"
[ $rc -eq 0 ] || tail -30 "$kout/build.log"
check "the kernel builds" $rc
[ $rc -eq 0 ] || finish
nwarn=$(grep -E '(arch/x86/hyperv/|drivers/hv/)[^:]*:[0-9]+:[0-9]+: warning:' "$kout/build.log" | tee "$kout/warnings.log" | wc -l)
cat "$kout/warnings.log"
[ "$nwarn" -eq 0 ]
check "no compiler warning in arch/x86/hyperv/ or drivers/hv/ (W=1; $nwarn)" $?
img=$kout/arch/x86/boot/bzImage

# ---- 4. the boots ---------------------------------------------------------
root=$OUT/initramfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
gcc -O2 -Wall -Wextra -Werror -static -pthread -o "$root/hvipi_load" \
	"$HERE/workload/hvipi_load.c" || die "cannot build workload/hvipi_load.c"
cp "$INTREE/init.sh" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$OUT/initramfs.gz"

# the count NAME of the platform's counts line in $1
count() {
	sed -n 's/.*# hv_testhv: counts //p' "$1" | tr ' ' '\n' |
		sed -n "s/^$2=//p" | head -n 1
}

for run in $RUNS; do
	ncpu=${run%%:*}
	rest=${run#*:}
	spec=${rest%%:*}
	extra=""
	[ "$rest" != "$spec" ] && extra=${rest#*:}
	args="console=ttyS0 panic=-1 hv_testhv=$spec $extra hvipi.load_secs=$LOAD_SECS"
	case $spec in *xmm*) args="$args hv_hvipi_xmm=1" ;; esac
	accel=tcg
	[ "$ncpu" -gt 8 ] && accel=tcg,thread=single
	log=$OUT/boot-$ncpu-$(echo "$rest" | tr ':,=' '---').log
	fail0=$fail
	echo "intree-boot: booting $run: -smp $ncpu, $args"
	t0=$(date +%s)
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -accel "$accel" -m 512M \
		-smp "$ncpu" -nographic -no-reboot -kernel "$img" \
		-initrd "$OUT/initramfs.gz" -append "$args" >"$log" 2>&1
	rc=$?
	wall=$(($(date +%s) - t0))
	tr -d '\r' <"$log" >"$log.txt"
	mv "$log.txt" "$log"
	grep -a -e 'HVIPI-' -e '^ok ' -e '^not ok ' -e '# hv_testhv:' -e 'hv_hvipi' \
		-e 'Hyper-V: hvipi' -e 'hv_testhv:' "$log" | grep -v 'counts ' | sed "s/^/  [$run] /"
	check "$run: QEMU exits by itself (exit $rc, $wall s)" $rc
	grep -aq 'HVIPI-INIT done' "$log"
	check "$run: the guest's init ran to its end" $?
	grep -aq '# hv_hvipi: pass:[1-9][0-9]* fail:0 ' "$log"
	check "$run: KUnit suite hv_hvipi passes" $?
	grep -aq 'Hyper-V: Using IPI hypercalls' "$log" &&
		grep -aq 'Hyper-V: Using hypercall for remote TLB flush' "$log"
	check "$run: hv_apic_init() and hyperv_setup_mmu_ops() installed the drop-in" $?
	grep -aq 'HVIPI-LOAD .* ok$' "$log"
	check "$run: the workload made progress with no error" $?
	nk=$(grep -ac '^ok [0-9]* - ' "$log")
	grep -aq '^# hv_testhv: pass:11 fail:0$' "$log"
	check "$run: the test platform's verdict, 11 checks ($nk ok)" $?
	splat_re='BUG:|WARNING:|Oops|Call Trace|soft lockup|hard LOCKUP|rcu_sched detected stall|rcu: INFO|blocked for more than|Kernel panic|invoked oom-killer|unchecked MSR|Uhhuh|hv_testhv: refused'
	splat=$(grep -aE "$splat_re" "$log" | head -n 5)
	[ -z "$splat" ]
	check "$run: no BUG, WARNING, lockup, stall, panic or unknown NMI" $?
	[ -n "$splat" ] && echo "$splat"

	c() { v=$(count "$log" "$1"); echo "${v:-0}"; }
	fast=$(c fast); sp=$(c ex_sparse); xm=$(c ex_xmm); al=$(c ex_all)
	fl=$(c flush_list); fs=$(c flush_space); fle=$(c flush_list_ex)
	fse=$(c flush_space_ex); fap=$(c flush_all_processors)
	nmi=$(c ipi_nmi); fo=$(c ipi_fast_one); rej=$(c rejected); mi=$(c ipi_missed)
	sm=$(c ipi_spurious); mf=$(c flush_missed); part=$(c flush_partial)
	scf=$(c scf_checked); scfm=$(c scf_missed); iw=$(c irq_work_queued)
	hp=$(sed -n 's/.*CPU hotplug cycles during the run: \([0-9-]*\).*/\1/p' "$log" | head -n 1)
	fb=$(sed -n 's/.*# hv_testhv: counts //p' "$log" | tr ' ' '\n' |
		grep -E '^(ipi|flush)_fb_' | grep -v '=0$' | tr '\n' ' ')
	summary="IPI calls fast $fast (one-CPU sends without a plan $fo), ex-sparse $sp, ex-xmm $xm, ex-all $al; flush calls list $fl, space $fs, list Ex $fle, space Ex $fse (all processors $fap, continued $part); NMI-context sends $nmi; fallbacks ${fb:-none}; rejected $rej, missed IPIs $mi (spurious $sm), missed flushes $mf; smp_call_function targets $scf (missed $scfm), irq_work from NMI $iw, hotplug cycles ${hp:-0}; $wall s"
	echo "intree-boot: $run: $summary"
	all_on=0
	grep -aq 'VP is known: Ex "all" format on' "$log" && all_on=1
	case $spec in
	sparse-high*)
		# A non-Ex flush can name no VP >= 64: only HV_FLUSH_ALL_PROCESSORS
		# (the mm on every present CPU) may use one.
		[ "$fast" -eq 0 ] && [ "$fo" -eq 0 ] && [ "$fle" -gt 0 ] &&
			[ $((fl + fs)) -le "$fap" ]
		check "$run: sparse-high: no fast call; Ex flushes, non-Ex ones ($((fl + fs))) only for all processors ($fap)" $?
		case $spec in
		*xmm*) [ "$xm" -gt 0 ]; check "$run: XMM on: ex-xmm calls" $? ;;
		*) [ "$xm" -eq 0 ] && [ "$sp" -gt 0 ]; check "$run: XMM off: ex-sparse, no ex-xmm" $? ;;
		esac ;;
	*)
		[ "$fast" -gt 0 ] && [ "$fo" -gt 0 ] && [ $((sp + xm + al + fle + fse)) -eq 0 ]
		check "$run: VPs below 64: fast calls ($fo of them one-CPU sends without a plan) and non-Ex flushes only" $? ;;
	esac
	case $extra in
	*maxcpus=*)
		[ $all_on -eq 0 ] && [ "$al" -eq 0 ] && [ "$fap" -eq 0 ]
		check "$run: maxcpus: the \"all\" format stays off (ex-all $al, all processors $fap)" $? ;;
	*)
		[ $all_on -eq 1 ]
		check "$run: every present CPU's VP known: the \"all\" format on" $?
		case $spec in
		sparse-high*) [ "$al" -gt 0 ]; check "$run: ex-all calls" $? ;;
		esac ;;
	esac
	# What the boot said of itself, kept with its failed checks.
	[ "$fail" -eq "$fail0" ] || {
		echo "$summary"
		echo "the boot's verdict lines and first splat:"
		grep -a -e '^not ok' -e '# hv_testhv:' -e '# hv_hvipi: pass' -e 'HVIPI-LOAD' \
			-e 'not taken in' -e 'hv_testhv: refused' "$log" | grep -v 'counts ' | head -n 20
		grep -a -m 1 -A 12 -E "$splat_re" "$log"
		# init's watchdog: where each CPU stood; an OOM: the memory
		grep -a -E 'HVIPI-INIT watchdog|NMI backtrace for cpu|\] (CPU: [0-9]+ PID|RIP: )' "$log" | head -n 24
		grep -a -m 1 -A 4 'Mem-Info:' "$log"
		echo "the boot's last lines:"
		tail -n 6 "$log"
	} | sed "s/^/  [$run] /" | tee -a "$RES/intree-boot.fails"
done
finish
