#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make intree-boot: the in-tree series, applied patch by patch, built after
# each, and the result booted.
#
#  1. Debian's linux-source-6.1 (whichever 6.1.y is installed; printed),
#     extracted once into $OUT/src and made a git tree (commit "base").
#  2. The series kernel-glue/intree/series/*.patch applied with git am, one
#     patch at a time; after each, the project's config (tinyconfig +
#     intree/hvipi-test.config) and make bzImage W=1: it must build, with
#     no warning in arch/x86/hyperv/ or drivers/hv/; and the tree's
#     scripts/checkpatch.pl --strict on every patch, each finding allowed
#     only line by line (intree/checkpatch-exceptions.txt).
#  3. The files the series carries from hvipi exactly their sources or the
#     generator's output (intree/copies.txt, scripts/intree-series.sh),
#     added by one patch and never changed after.
#  4. The stack of every IPI op in NMI context, against upstream's
#     hv_apic.c built in the same tree (scripts/stack-paths.py): at most
#     STACK_SLACK (512) bytes more.
#  5. Each boot of intree/runs.txt under QEMU TCG with the test-only
#     Hyper-V platform: KUnit at boot, the workload, the platform's
#     verdict (every send judged where it arrives), the fallbacks within
#     the run's budget, and every hypercall replayed through KVM 6.1's
#     decoder (build/tests/kvm_replay).  No real Hyper-V is reached.
#  6. Each negative control of intree/controls/ (a planted glue bug):
#     applied, built, booted in its run; the boot must fail as it says.
#
# Env: HERE (kernel-glue) ROOT (the repository) OUT RES LOAD_PCT (scales
#      every run's seconds: 100 = as runs.txt says) RUNS (names, default
#      all) CONTROLS (names, default all; "none") QEMU_TIMEOUT JOBS
#      BUILD (for build/tests/kvm_replay).
#      Writes $RES/intree-boot.counts ("PASSED FAILED").
set -u
# The kernel's make is ours to drive (-j$JOBS): nothing of an outer make
# (make test's -w, -j, jobserver) may reach it or its output.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEFILES MAKEOVERRIDES
LOAD_PCT=${LOAD_PCT:-100}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-600}
JOBS=${JOBS:-$(nproc)}
RUNS=${RUNS:-}
CONTROLS=${CONTROLS:-}
STACK_SLACK=${STACK_SLACK:-512}
INTREE=$HERE/intree
REPLAY=${BUILD:-$ROOT/build}/tests/kvm_replay
# LINUX_SOURCE_TARBALL: another 6.1.y linux-source tarball (as for the
# reference suites, tests/kernel_ref/extract.sh); default: the package's.
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KCFLAGS_STACK="-fstack-usage -fcallgraph-info=su"
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
took() {
	echo "intree-boot: $1 took $(($(date +%s) - $2)) s"
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
kout=$OUT/out
if [ "$(cat "$OUT/src.version" 2>/dev/null)" != "$key" ] ||
   ! git -C "$tree" rev-parse -q --verify base >/dev/null 2>&1; then
	echo "intree-boot: extracting $ver into $tree"
	t0=$(date +%s)
	rm -rf "$tree" "$OUT/applied" "$kout" "$OUT/src.version"
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
	# A git tree, so that the series goes in as a maintainer takes it.
	# Its base commit starts empty: the files the series changes join it
	# before the series is applied (section 2).
	(cd "$tree" && git init -q &&
	 git -c user.name=base -c user.email=base@localhost \
		commit -q --allow-empty -m base &&
	 git tag base) || die "cannot make $tree a git tree"
	echo "$key" >"$OUT/src.version"
	took "extracting the source" "$t0"
fi
kver=$(make -s -C "$tree" kernelversion 2>/dev/null)
case $kver in 6.1.*) ;; *) die "$ver holds Linux $kver, not 6.1.y" ;; esac
echo "intree-boot: the kernel source: $ver (Linux $kver)"

# ---- 2. the series, a patch at a time -------------------------------------
frag=$INTREE/hvipi-test.config
# The project's config: tinyconfig + the fragment, merged again after each
# patch (a patch may add a symbol the fragment sets).
configure() {
	{ [ -f "$kout/.config" ] || make -s -C "$tree" O="$kout" tinyconfig; } &&
	sh "$tree/scripts/kconfig/merge_config.sh" -m -O "$kout" \
		"$kout/.config" "$frag" >"$kout/merge.log" 2>&1 &&
	make -s -C "$tree" O="$kout" olddefconfig >/dev/null
}
build() {
	make -C "$tree" O="$kout" -j"$JOBS" W=1 KCFLAGS="$KCFLAGS_STACK" \
		bzImage >"$kout/build.log" 2>&1
}
warnings() {
	grep -E '(arch/x86/hyperv/|drivers/hv/)[^:]*:[0-9]+:[0-9]+: warning:' \
		"$kout/build.log"
}
applied=$OUT/applied
if ! diff -rq "$INTREE/series" "$applied" >/dev/null 2>&1; then
	t0=$(date +%s)
	rm -rf "$applied" "$kout"
	mkdir -p "$kout"
	git -C "$tree" am --abort >/dev/null 2>&1
	# reset --hard removes what the series added (tracked since base);
	# no clean: the rest of the tree is untracked.  A file the series
	# changes that base does not track yet joins base (git am needs it
	# in the index; Debian's .gitignore ignores every top-level entry:
	# add -f).
	git -C "$tree" reset -q --hard base ||
		die "cannot take $tree back to base"
	for f in $(sed -n 's|^--- a/\([^	]*\).*|\1|p' "$INTREE"/series/*.patch | sort -u); do
		# A file an earlier patch creates is not in the tree yet.
		[ -f "$tree/$f" ] || continue
		git -C "$tree" ls-files --error-unmatch -- "$f" >/dev/null 2>&1 ||
			git -C "$tree" add -f -- "$f" || die "cannot track $f"
	done
	if ! git -C "$tree" diff --cached --quiet; then
		git -C "$tree" -c user.name=base -c user.email=base@localhost \
			commit -q --amend -m base && git -C "$tree" tag -f base >/dev/null ||
			die "cannot amend base"
	fi
	n=0
	for p in "$INTREE"/series/*.patch; do
		n=$((n + 1))
		name=$(basename "$p")
		git -C "$tree" -c user.name=intree -c user.email=intree@localhost \
			am -q --committer-date-is-author-date "$p" >"$OUT/am.log" 2>&1
		rc=$?
		[ $rc -eq 0 ] || { cat "$OUT/am.log"; git -C "$tree" am --abort; }
		check "patch $n applies with git am to $ver: $name" $rc
		[ $rc -eq 0 ] || finish
		t1=$(date +%s)
		configure && build
		rc=$?
		[ $rc -eq 0 ] || tail -30 "$kout/build.log"
		check "the tree builds after patch $n (make bzImage W=1, $(($(date +%s) - t1)) s)" $rc
		[ $rc -eq 0 ] || finish
		nwarn=$(warnings | wc -l)
		warnings
		[ "$nwarn" -eq 0 ]
		check "no compiler warning in arch/x86/hyperv/ or drivers/hv/ after patch $n ($nwarn)" $?
	done
	cp -r "$INTREE/series" "$applied"
	took "applying and building the series patch by patch" "$t0"
else
	check "the series applies with git am to $ver (applied before)" 0
	# the tree is the series' (a control run may have left a file back)
	configure && build
	check "the tree builds (make bzImage W=1; built before)" $?
fi
cp "$kout/arch/x86/boot/bzImage" "$OUT/bzImage"

python3 "$HERE/scripts/series-checkpatch.py" "$tree/scripts/checkpatch.pl" \
	"$INTREE"/series/*.patch
check "checkpatch --strict on every patch: each finding allowed line by line" $?

ok=0
for line in $(sed -n 's/^\(arch[^ 	]*\).*/\1/p' "$INTREE/copies.txt"); do
	sh "$HERE/scripts/intree-series.sh" expect "$line" "$OUT/expect.tmp" || ok=1
	cmp -s "$OUT/expect.tmp" "$tree/$line" ||
		{ ok=1; echo "intree-boot: $line is not what copies.txt says"; }
	adds=$(git -C "$tree" log --format=%h --diff-filter=A base.. -- "$line" | wc -l)
	changes=$(git -C "$tree" log --format=%h base.. -- "$line" | wc -l)
	[ "$adds" -eq 1 ] && [ "$changes" -eq 1 ] ||
		{ ok=1; echo "intree-boot: $line added by $adds patches, changed by $changes"; }
done
check "the files the series carries from hvipi are their sources, or kcore.py's output from src/ ($(grep -c '^arch' "$INTREE/copies.txt") files, each added once)" $ok

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

# ---- 4. the stack in NMI context ----------------------------------------
# Upstream's hv_apic.c, built as an object of its own in the same tree.
hy=$kout/arch/x86/hyperv
tar -xJOf "$TARBALL" linux-source-6.1/arch/x86/hyperv/hv_apic.c \
	>"$tree/arch/x86/hyperv/upstream_hv_apic.c" &&
	make -C "$tree" O="$kout" W=1 KCFLAGS="$KCFLAGS_STACK" \
		arch/x86/hyperv/upstream_hv_apic.o >"$kout/upstream.log" 2>&1
rc=$?
rm -f "$tree/arch/x86/hyperv/upstream_hv_apic.c"
check "upstream's hv_apic.c builds in the same tree, for its stack" $rc
python3 "$HERE/scripts/stack-paths.py" --json "$OUT/stack.json" \
	--cut "hv_hvipi_plan_send=reached only when hvipi_ipi_gate() returned HVIPI_FB_NONE, which its contract rules out in NMI context" \
	"series=$hy/hv_apic.ci,$hy/hv_ipi_hvipi.ci,$hy/hvipi.ci" \
	"upstream=$hy/upstream_hv_apic.ci" | tee "$OUT/stack.log"
python3 - "$OUT/stack.json" "$STACK_SLACK" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); slack = int(sys.argv[2])
s = max(v['nmi'] for v in d['series'].values())
u = max(v['nmi'] for v in d['upstream'].values())
print(f'intree-boot: stack of the IPI ops in NMI context: {s} B, upstream {u} B '
      f'(outside NMI context: {max(v["any"] for v in d["series"].values())} B, '
      f'upstream {max(v["any"] for v in d["upstream"].values())} B)')
sys.exit(0 if s <= u + slack else 1)
EOF
check "the IPI ops' stack in NMI context at most $STACK_SLACK B above upstream's" $?

# ---- 5. the boots ---------------------------------------------------------
root=$OUT/initramfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
gcc -O2 -Wall -Wextra -Werror -static -pthread -o "$root/hvipi_load" \
	"$HERE/workload/hvipi_load.c" || die "cannot build workload/hvipi_load.c"
cp "$INTREE/init.sh" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$OUT/initramfs.gz"
[ -x "$REPLAY" ] || make -s -C "$ROOT/tests" "$REPLAY" BUILD="$(dirname "$(dirname "$REPLAY")")" \
	>/dev/null 2>&1
[ -x "$REPLAY" ]
check "the KVM 6.1 replay tool is built ($REPLAY)" $?

# the count NAME of the platform's counts line in $1 (0 if absent)
count() {
	v=$(sed -n 's/.*# hv_testhv: counts //p' "$1" | tr ' ' '\n' |
		sed -n "s/^$2=//p" | head -n 1)
	echo "${v:-0}"
}

# boot NAME CPUS PLATFORM SECS ARGS IMAGE LOG: one boot; exit status QEMU's
boot() {
	secs=$(($4 * LOAD_PCT / 100))
	[ "$secs" -ge 5 ] || secs=5
	args="console=ttyS0 panic=-1 hv_testhv=$3 hvipi.load_secs=$secs"
	[ "$5" = - ] || args="$args $(echo "$5" | tr ',' ' ')"
	accel=tcg
	[ "$2" -gt 8 ] && accel=tcg,thread=single
	echo "intree-boot: booting $1: -smp $2, $args"
	rm -f "$7.calls"
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -accel "$accel" -m 512M \
		-smp "$2" -nographic -no-reboot -kernel "$6" \
		-initrd "$OUT/initramfs.gz" -append "$args" \
		-serial mon:stdio -serial "file:$7.calls" >"$7.raw" 2>&1
	rc=$?
	tr -d '\r' <"$7.raw" >"$7"
	rm -f "$7.raw"
	return $rc
}

# budget LOG SPEC: every fallback count within SPEC (NAME<=BOUND,...;
# BOUND a sum of terms N, COUNT or K*COUNT); prints what is over
budget() {
	python3 - "$1" "$2" <<'PYEOF'
import re, sys
line = [l for l in open(sys.argv[1], errors='replace') if '# hv_testhv: counts ' in l]
counts = dict(kv.split('=', 1) for kv in line[-1].split('counts ', 1)[1].split()) if line else {}
spec = {} if sys.argv[2] == '-' else dict(t.split('<=', 1) for t in sys.argv[2].split(','))
def term(t):
    k, _, c = t.rpartition('*')
    v = int(c) if c.isdigit() else int(counts.get(c, 0))
    return v * (int(k) if k else 1)
over = []
for name, v in counts.items():
    if re.match(r'(ipi|flush)_fb_', name):
        lim = sum(term(t) for t in spec[name].split('+')) if name in spec else 0
        if int(v) > lim:
            over.append(f'{name}={v}>{lim}')
print(' '.join(over) if counts else 'no counts line')
PYEOF
}

splat_re='BUG:|WARNING:|Oops|Call Trace|soft lockup|hard LOCKUP|rcu_sched detected stall|rcu: INFO|blocked for more than|Kernel panic|invoked oom-killer|unchecked MSR|Uhhuh|hv_testhv: refused'

# judge NAME CPUS FALLBACKS EXPECT LOG: the checks of one boot
judge() {
	log=$5
	fail0=$fail
	grep -a -e 'HVIPI-' -e '^ok ' -e '^not ok ' -e '# hv_testhv:' \
		-e 'Hyper-V: hvipi' -e 'hv_testhv:' "$log" | grep -v 'counts ' |
		sed "s/^/  [$1] /" | head -n 60
	grep -aq 'HVIPI-INIT done' "$log"
	check "$1: the guest's init ran to its end" $?
	grep -aq '# hv_hvipi: pass:[1-9][0-9]* fail:0 ' "$log"
	check "$1: KUnit suite hv_hvipi passes" $?
	case $4 in
	*noipicall*) ! grep -aq 'Hyper-V: Using IPI hypercalls' "$log" ;;
	*) grep -aq 'Hyper-V: Using IPI hypercalls' "$log" ;;
	esac &&
		grep -aq 'Hyper-V: Using hypercall for remote TLB flush' "$log"
	check "$1: hv_apic_init() and hyperv_setup_mmu_ops() installed the ops their hints ask for" $?
	grep -aq 'HVIPI-LOAD .* ok$' "$log"
	check "$1: the workload made progress with no error" $?
	nk=$(grep -ac '^ok [0-9]* - ' "$log")
	nt=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | tail -n 1)
	grep -aq "^# hv_testhv: pass:${nt:-x} fail:0$" "$log"
	check "$1: the test platform's verdict, every send judged where it arrives (${nk} of ${nt:-?} ok)" $?
	splat=$(grep -aE "$splat_re" "$log" | head -n 5)
	[ -z "$splat" ]
	check "$1: no BUG, WARNING, lockup, stall, panic or unknown NMI" $?
	[ -n "$splat" ] && echo "$splat"
	over=$(budget "$log" "$3")
	[ -z "$over" ]
	check "$1: the native sends within the run's budget ($3)${over:+: over:$over}" $?

	c() { count "$log" "$1"; }
	fast=$(c fast); sp=$(c ex_sparse); xm=$(c ex_xmm); al=$(c ex_all)
	fl=$(c flush_list); fs=$(c flush_space); fle=$(c flush_list_ex)
	fse=$(c flush_space_ex); fap=$(c flush_all_processors)
	ireq=$(c ipi_requests); icall=$(c ipi_by_call); inat=$(c ipi_by_native)
	freq=$(c flush_requests); fcall=$(c flush_by_call); fnat=$(c flush_by_native)
	lazy=$(c flush_lazy_skipped); nmi=$(c ipi_nmi); rej=$(c rejected)
	mi=$(c ipi_missed); sm=$(c ipi_spurious); mf=$(c flush_missed)
	part=$(c flush_partial); rec=$(c calls_recorded); calls=$(c calls)
	fb=$(sed -n 's/.*# hv_testhv: counts //p' "$log" | tr ' ' '\n' |
		grep -E '^(ipi|flush)_fb_' | grep -v '=0$' | tr '\n' ' ')
	hp=$(sed -n 's/.*CPU hotplug cycles during the run: \([0-9-]*\).*/\1/p' "$log" | head -n 1)
	summary="IPI sends $ireq (by hypercall $icall, native $inat; from NMI $nmi): calls fast $fast, ex-sparse $sp, ex-xmm $xm, ex-all $al; flushes $freq (by hypercall $fcall, native $fnat, lazy CPUs skipped $lazy): calls list $fl, space $fs, list Ex $fle, space Ex $fse (all processors $fap, continued $part); fallbacks ${fb:-none}; rejected $rej, missed IPIs $mi (spurious $sm), missed flushes $mf; hotplug cycles ${hp:-0}"
	echo "intree-boot: $1: $summary"

	for e in $(echo "$4" | tr ',' ' '); do
		case $e in
		fast) [ "$fast" -gt 0 ] && [ $((sp + xm + al + fle + fse)) -eq 0 ] &&
			[ "$(c ipi_requests)" -gt 0 ] ;;
		sparse) [ "$fast" -eq 0 ] && [ "$sp" -gt 0 ] && [ "$fle" -gt 0 ] &&
			[ $((fl + fs)) -le "$fap" ] ;;
		xmm) [ "$xm" -gt 0 ] ;;
		noxmm) [ "$xm" -eq 0 ] ;;
		all) grep -aq 'VP is known: Ex "all" format on' "$log" &&
			[ "$fap" -gt 0 ] && { [ "$fast" -gt 0 ] || [ "$al" -gt 0 ]; } ;;
		noall) ! grep -aq 'VP is known: Ex "all" format on' "$log" &&
			[ "$al" -eq 0 ] && [ "$fap" -eq 0 ] ;;
		noipicall) [ $((fast + sp + xm + al)) -eq 0 ] && [ "$inat" -gt 0 ] &&
			[ "$fcall" -gt 0 ] ;;
		cleanup) grep -aq 'hyperv_cleanup() done: hv_hypercall_pg NULL' "$log" &&
			[ "$(c call_disabled)" -eq 0 ] && [ "$(c ipi_after_cleanup)" -eq 0 ] &&
			[ "$(c flush_after_cleanup)" -eq 0 ] && [ "$fnat" -gt 0 ] ;;
		*) false ;;
		esac
		check "$1: $e (runs.txt)" $?
	done

	# every call, through KVM 6.1's own decoder
	vp1024=0
	[ "$2" -gt 15 ] && vp1024=$calls	# VP 1069 (CPU 15): beyond KVM 6.1
	"$REPLAY" --max-continued "$part" --max-vp1024 "$vp1024" "$log.calls" \
		>"$log.replay" 2>&1
	rc=$?
	head -n 3 "$log.replay" | sed "s/^/  [$1] /"
	[ $rc -eq 0 ] && [ "$rec" -gt 0 ] &&
		[ "$(sed -n 's/^E [0-9]* \([0-9]*\) .*/\1/p' "$log.calls")" -ge "$calls" ]
	check "$1: every hypercall of the boot ($rec, $(sed -n 's/^E \([0-9]*\) .*/\1/p' "$log.calls") distinct) accepted by KVM 6.1's decoder with the same target CPUs and vector" $?

	[ "$fail" -eq "$fail0" ] || {
		echo "$summary"
		echo "the boot's verdict lines and first splat:"
		grep -a -e '^not ok' -e '# hv_testhv:' -e '# hv_hvipi: pass' -e 'HVIPI-LOAD' \
			-e 'hv_testhv: refused' -e 'missed' "$log" | grep -v 'counts ' | head -n 20
		grep -a -m 1 -A 12 -E "$splat_re" "$log"
		# init's watchdog: where each CPU stood; an OOM: the memory
		grep -a -E 'HVIPI-INIT watchdog|NMI backtrace for cpu|\] (CPU: [0-9]+ PID|RIP: )' "$log" | head -n 24
		grep -a -m 1 -A 4 'Mem-Info:' "$log"
		echo "the boot's last lines:"
		tail -n 6 "$log"
		head -n 8 "$log.replay"
	} | sed "s/^/  [$1] /" | tee -a "$RES/intree-boot.fails"
}

# the runs.txt line of run $1
run_line() {
	grep -v '^#' "$INTREE/runs.txt" | awk -v n="$1" '$1 == n'
}

[ -n "$RUNS" ] || RUNS=$(grep -v '^#' "$INTREE/runs.txt" | awk 'NF { print $1 }')
for r in $RUNS; do
	# shellcheck disable=SC2046
	set -- $(run_line "$r")
	[ $# -eq 7 ] || { check "$r: a line of runs.txt" 1; continue; }
	t0=$(date +%s)
	log=$OUT/boot-$1.log
	boot "$1" "$2" "$3" "$4" "$5" "$OUT/bzImage" "$log"
	rc=$?
	check "$1: QEMU exits by itself (exit $rc, $(($(date +%s) - t0)) s)" $rc
	judge "$1" "$2" "$6" "$7" "$log"
done

# ---- 6. the negative controls -------------------------------------------
# Each a planted bug in the glue (intree/controls/NAME.patch, its header:
# "run: RUN" and "expect: REGEX", what the boot's log must show), applied
# to the tree, built and booted: the boot must fail as expected.  The
# tree is put back after each (the next make intree-boot rebuilds it).
[ "$CONTROLS" = none ] && finish
[ -n "$CONTROLS" ] || CONTROLS=$(ls "$INTREE"/controls/*.patch 2>/dev/null |
	sed 's|.*/\(.*\)\.patch|\1|')
for ctl in $CONTROLS; do
	p=$INTREE/controls/$ctl.patch
	run=$(sed -n 's/^run: //p' "$p" | head -n 1)
	expect=$(sed -n 's/^expect: //p' "$p" | head -n 1)
	t0=$(date +%s)
	patch -s -p1 -d "$tree" <"$p"
	check "control $ctl: applies to the series" $?
	build
	rc=$?
	patch -s -R -p1 -d "$tree" <"$p"
	[ $rc -eq 0 ] || tail -20 "$kout/build.log"
	check "control $ctl: builds" $rc
	[ $rc -eq 0 ] || continue
	cp "$kout/arch/x86/boot/bzImage" "$OUT/bzImage-$ctl"
	# shellcheck disable=SC2046
	set -- $(run_line "$run")
	log=$OUT/control-$ctl.log
	# failfast: the platform panics at the first send it finds missed
	boot "control $ctl" "$2" "$3,failfast" "$4" "$5" "$OUT/bzImage-$ctl" "$log"
	rc=$?
	hit=$(grep -aE -m 1 "$expect" "$log")
	[ -n "$hit" ] && ! grep -aq '^# hv_testhv: pass:[0-9]* fail:0$' "$log"
	ok=$?
	check "control $ctl: its boot ($run) fails as planted, /$expect/: ${hit:-not seen} (QEMU exit $rc, $(($(date +%s) - t0)) s)" $ok
done
finish
