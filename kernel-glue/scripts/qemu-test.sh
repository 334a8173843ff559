#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot Debian's own kernel ($KVER, the version of the headers hvipi.ko was
# built against) in QEMU with TCG, insmod hvipi.ko from a busybox initramfs,
# and check the KTAP self-test it prints.  QEMU emulates no Hyper-V here:
# the module refuses to switch the APIC ops and the hypercall page in the
# self-test is a fake recorder.
#
# SMP_SIZES entries: N (N vCPUs, self-test), N:switch (also rodata=off and
# test_switch=1: live switch and CPU hotplug tests with a fake hypercall
# page), N:hv=TABLE[+xmm] (rodata=off, test_hv=TABLE: all the kernel's IPIs
# through hvipi, delivered by a TEST hypervisor inside the guest, never a
# real Hyper-V, for LOAD_SECS seconds of workload and CPU hotplug; the
# module's KTAP report and counts are checked).
#
# Env: KVER MOD QEMU CACHE RES SMP_SIZES QEMU_TIMEOUT LOAD_SECS (default 15)
# HERE (kernel-glue, for workload/hvipi_load.c)
set -u
QEMU_ACCEL=${QEMU_ACCEL:-tcg}
LOAD_SECS=${LOAD_SECS:-15}
mkdir -p "$QEMU" "$CACHE"
rm -f "$RES/qemu-test.fails"

pkg=linux-image-$KVER
deb=$(ls "$CACHE"/${pkg}_*.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ]; then
	(cd "$CACHE" && apt-get download "$pkg") || {
		echo "qemu-test: cannot fetch $pkg"; echo "0 1" >"$RES/qemu-test.counts"; exit 1; }
	deb=$(ls "$CACHE"/${pkg}_*.deb | head -n 1)
fi
img=$QEMU/image
vmlinuz=$img/boot/vmlinuz-$KVER
if [ ! -f "$vmlinuz" ] || [ "$deb" -nt "$vmlinuz" ]; then
	rm -rf "$img"
	dpkg -x "$deb" "$img" || exit 1
fi

# initramfs: static busybox, the module, an init that loads it and dumps
# the KTAP lines from the kernel log to the console.
root=$QEMU/initramfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
cp "$MOD/hvipi.ko" "$root/hvipi.ko"
# the test-hypervisor runs' workload, a static binary built here
gcc -O2 -Wall -Wextra -Werror -static -pthread -o "$root/hvipi_load" \
	"$HERE/workload/hvipi_load.c" || {
	echo "qemu-test: cannot build workload/hvipi_load.c"; echo "0 1" >"$RES/qemu-test.counts"; exit 1; }
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
echo "HVIPI-GUEST cpus=$(nproc) kernel=$(uname -r)"
# CPU hotplug driver for the self-test's live_switch_ipis_during_cpu_hotplug
# case (test_switch=1): waits until the module sends IPIs through the
# switched ops (hotplug_phase 1), cycles CPUs 1..N-1 offline/online through
# sysfs, and reports to the module (hotplug_fails, then hotplug_done: the
# cycles done, or < 0 when CPUs cannot be taken offline here).
hotplug_driver() {
	p=/sys/module/hvipi/parameters
	i=0
	until [ "$(cat $p/hotplug_phase 2>/dev/null)" = 1 ]; do
		i=$((i + 1))
		[ $i -gt 3000 ] && { echo "HVIPI-HOTPLUG gave up waiting for the module"; return; }
		usleep 100000
	done
	n=0
	while [ -d /sys/devices/system/cpu/cpu$n ]; do n=$((n + 1)); done
	if [ $n -lt 2 ]; then
		echo "HVIPI-HOTPLUG cpus=$n: nothing to take offline"
		echo -3 >$p/hotplug_done; return
	fi
	if [ ! -f /sys/devices/system/cpu/cpu1/online ]; then
		echo "HVIPI-HOTPLUG no /sys/devices/system/cpu/cpu1/online"
		echo -1 >$p/hotplug_done; return
	fi
	cycles=0; fails=0; t0=$(date +%s)
	for r in $(seq 1 $HOTPLUG_ROUNDS); do
		if [ $((r % 2)) = 1 ]; then
			# one CPU at a time
			c=1
			while [ $c -lt $n ]; do
				f=/sys/devices/system/cpu/cpu$c/online
				if echo 0 >$f && [ "$(cat $f)" = 0 ] && echo 1 >$f && [ "$(cat $f)" = 1 ]; then
					cycles=$((cycles + 1))
				else
					fails=$((fails + 1)); echo 1 >$f 2>/dev/null
				fi
				c=$((c + 1))
			done
		else
			# all of them down (CPU 0 alone), then all up
			c=1
			while [ $c -lt $n ]; do
				echo 0 >/sys/devices/system/cpu/cpu$c/online || fails=$((fails + 1))
				c=$((c + 1))
			done
			c=1
			while [ $c -lt $n ]; do
				f=/sys/devices/system/cpu/cpu$c/online
				if echo 1 >$f && [ "$(cat $f)" = 1 ]; then
					cycles=$((cycles + 1))
				else
					fails=$((fails + 1))
				fi
				c=$((c + 1))
			done
		fi
	done
	echo "HVIPI-HOTPLUG cpus=$n rounds=$HOTPLUG_ROUNDS cycles=$cycles failed-writes=$fails online=$(cat /sys/devices/system/cpu/online) secs=$(($(date +%s) - t0))"
	echo $fails >$p/hotplug_fails
	if [ $cycles -eq 0 ]; then echo -2 >$p/hotplug_done; else echo $cycles >$p/hotplug_done; fi
}
# Test-hypervisor runs (hvipi_hv=TABLE on the command line): CPUs 1..N-1
# go offline and online one at a time, over and over, until /tmp/hv-stop
# exists; then the cycles done go to the module (< 0: not possible here).
hv_hotplug() {
	p=/sys/module/hvipi/parameters/testhv_hotplug_cycles
	n=0
	while [ -d /sys/devices/system/cpu/cpu$n ]; do n=$((n + 1)); done
	if [ $n -lt 2 ] || [ ! -f /sys/devices/system/cpu/cpu1/online ]; then
		echo "HVIPI-HOTPLUG cpus=$n: no CPU can go offline"; echo -1 >$p; return
	fi
	cycles=0; fails=0; t0=$(date +%s); c=1
	until [ -e /tmp/hv-stop ]; do
		f=/sys/devices/system/cpu/cpu$c/online
		if echo 0 >$f && [ "$(cat $f)" = 0 ] && echo 1 >$f && [ "$(cat $f)" = 1 ]; then
			cycles=$((cycles + 1))
		else
			fails=$((fails + 1)); echo 1 >$f 2>/dev/null
		fi
		c=$((c + 1)); [ $c -ge $n ] && c=1
	done
	echo "HVIPI-HOTPLUG cpus=$n cycles=$cycles failed-writes=$fails online=$(cat /sys/devices/system/cpu/online) secs=$(($(date +%s) - t0))"
	if [ $fails -gt 0 ]; then echo -2 >$p; else echo $cycles >$p; fi
}
hv=$(sed -n 's/.*hvipi_hv=\([a-z-]*\).*/\1/p' /proc/cmdline)
if [ -n "$hv" ]; then
	secs=$(sed -n 's/.*hvipi_load_secs=\([0-9]*\).*/\1/p' /proc/cmdline)
	args="selftest=0 test_hv=$hv"
	grep -q hvipi_hv_xmm /proc/cmdline && args="$args xmm=1"
	# A lost IPI is a hang: report blocked tasks after 20 s, not 120 s,
	# and end the boot at once on a soft lockup, hung task or RCU stall
	# (panic=-1 and -no-reboot: QEMU exits) instead of at the timeout.
	echo 20 >/proc/sys/kernel/hung_task_timeout_secs
	echo 1 >/proc/sys/kernel/softlockup_panic
	echo 1 >/proc/sys/kernel/hung_task_panic
	echo 1 >/proc/sys/kernel/panic_on_rcu_stall
	echo "HVIPI-DETECTORS watchdog=$(cat /proc/sys/kernel/watchdog) soft_watchdog=$(cat /proc/sys/kernel/soft_watchdog 2>/dev/null) watchdog_thresh=$(cat /proc/sys/kernel/watchdog_thresh) hung_task_timeout_secs=$(cat /proc/sys/kernel/hung_task_timeout_secs) panic-on: soft=$(cat /proc/sys/kernel/softlockup_panic) hung=$(cat /proc/sys/kernel/hung_task_panic) rcu=$(cat /proc/sys/kernel/panic_on_rcu_stall)"
	insmod /hvipi.ko $args
	echo "HVIPI-INSMOD rc=$? args=$args"
	hv_hotplug &
	hp=$!
	/hvipi_load "$secs"
	echo "HVIPI-LOAD-EXIT rc=$?"
	touch /tmp/hv-stop
	wait $hp
	rmmod hvipi
	echo "HVIPI-RMMOD rc=$?"
	dmesg | sed -e 's/^\[[ 0-9.]*\] //' | sed -n -e '/^KTAP version 1/,/^# hvipi: pass:/{p;d;}' -e '/^hvipi: /p'
	dmesg | sed -e 's/^\[[ 0-9.]*\] //' | grep -E 'BUG|WARNING|Oops|Call Trace|LOCKUP|lockup|detected stall|blocked for more than|non-responsive CSD|hung_task' | head -n 20
	echo "HVIPI-DONE"
	poweroff -f
fi
HOTPLUG_ROUNDS=10
args=""
hp=""
if grep -q hvipi_test_switch /proc/cmdline; then
	args="test_switch=1"
	hotplug_driver &
	hp=$!
fi
insmod /hvipi.ko $args
echo "HVIPI-INSMOD rc=$? args=$args"
[ -n "$hp" ] && wait $hp
dmesg | sed -e 's/^\[[ 0-9.]*\] //' | sed -n -e '/^KTAP version 1/,/^# hvipi: pass:/{p;d;}' -e '/^hvipi: /p'
rmmod hvipi
echo "HVIPI-RMMOD rc=$?"
dmesg | sed -e 's/^\[[ 0-9.]*\] //' | grep -E 'BUG|WARNING|Oops|Call Trace|LOCKUP|lockup|detected stall|blocked for more than|non-responsive CSD' | head -n 20
echo "HVIPI-DONE"
poweroff -f
INIT
chmod +x "$root/init"
initrd=$QEMU/initramfs.cpio.gz
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd" || exit 1

tpass=0
tfail=0
summary=""

# kv FILE LINE-PREFIX KEY: the value of KEY=<n> on the first log line
# starting with LINE-PREFIX ("" when absent).
kv() {
	grep -m 1 "^$2" "$1" | tr ' ;' '\n\n' | sed -n "s/^$3=\([0-9-]*\)$/\1/p" | head -n 1
}
# need VALUE OP NUMBER WHAT: append WHAT to $bad unless VALUE OP NUMBER.
need() {
	if [ -z "$1" ] || ! [ "$1" "$2" "$3" ]; then bad="$bad $4(${1:-missing})"; fi
}

# Each boot: a vCPU count, optionally ":switch" = boot with rodata=off and
# load with test_switch=1 (the live APIC switch test, fake hypercall page),
# or ":hv=TABLE[+xmm]" (the test hypervisor, see above).
for boot in $SMP_SIZES; do
	n=${boot%%:*}
	# cryptomgr.notests: Debian's crypto self-tests are not ours, and one
	# once hung a vCPU for the whole timeout under TCG before init ran.
	append="console=ttyS0 quiet panic=-1 cryptomgr.notests"
	live=no
	hv=""
	hvxmm=0
	case $boot in
	*:switch) append="$append rodata=off hvipi_test_switch"; live=yes ;;
	*:hv=*)
		hv=${boot#*:hv=}
		case $hv in *+xmm) hv=${hv%+xmm}; hvxmm=1 ;; esac
		append="$append rodata=off hvipi_hv=$hv hvipi_load_secs=$LOAD_SECS"
		[ $hvxmm = 1 ] && append="$append hvipi_hv_xmm"
		live=hv-$hv$([ $hvxmm = 1 ] && echo +xmm) ;;
	esac
	log=$QEMU/boot-smp$n-$live.log
	case $live in
	no) label="self-test" ;; yes) label="live switch test" ;; *) label="test hypervisor $live" ;;
	esac
	machine=""
	accel=$QEMU_ACCEL
	# Many vCPUs on few host cores: one TCG thread round-robin is several
	# times faster than one host thread per vCPU (measured: 80 vCPUs, 2
	# host cores: 53 s against 188 s).
	if [ "$n" -gt 8 ]; then
		machine="-machine q35"
		[ "$accel" = tcg ] && accel=tcg,thread=single
	fi
	# A boot that fails before the guest's init printed HVIPI-GUEST never
	# ran hvipi (the stock kernel hung or TCG stalled): boot it once more,
	# and say so.  A failure after that line is the test's and counts.
	for attempt in 1 2; do
		t0=$(date +%s.%N)
		timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -accel "$accel" $machine -smp "$n" \
			-m 512M -nographic -no-reboot -kernel "$vmlinuz" -initrd "$initrd" \
			-append "$append" </dev/null >"$log" 2>&1
		rc=$?
		if [ $rc = 0 ] || grep -aq 'HVIPI-GUEST' "$log" || [ $attempt = 2 ]; then
			break
		fi
		mv "$log" "$log.attempt1"
		echo "qemu-test: -smp $n ($label): qemu exit $rc before the guest's init ran (no HVIPI-GUEST line; log $log.attempt1): booting once more"
	done
	t1=$(date +%s.%N)
	secs=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
	tr -d '\r' <"$log" >"$log.txt"
	echo "qemu-test: -smp $n ($label): qemu exit $rc after ${secs}s (log $log)"

	bad=""
	[ "$rc" -eq 124 ] && bad="$bad timeout(${QEMU_TIMEOUT}s)"
	grep -q '^HVIPI-DONE' "$log.txt" || bad="$bad no-HVIPI-DONE"
	grep -q '^HVIPI-INSMOD rc=0' "$log.txt" || bad="$bad insmod-failed"
	grep -q '^HVIPI-RMMOD rc=0' "$log.txt" || bad="$bad rmmod-failed"
	grep -Eq 'BUG|WARNING:|Oops|Call Trace|LOCKUP|lockup|detected stall|blocked for more than|non-responsive CSD|Kernel panic' "$log.txt" && bad="$bad kernel-splat"
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log.txt" | head -n 1)
	grep -q '^KTAP version 1' "$log.txt" || bad="$bad no-KTAP-header"
	[ -n "$plan" ] || { bad="$bad no-KTAP-plan"; plan=0; }
	ok=$(grep -E '^ok [0-9]+ - ' "$log.txt" | grep -vc '# SKIP')
	skip=$(grep -E '^ok [0-9]+ - ' "$log.txt" | grep -c '# SKIP')
	nok=$(grep -Ec '^not ok [0-9]+ - ' "$log.txt")
	[ "$nok" -eq 0 ] || bad="$bad not-ok:$nok"
	[ $((ok + nok + skip)) -eq "$plan" ] || bad="$bad ran-$((ok + nok + skip))-of-$plan"
	if [ $live = yes ]; then
		grep -Eq '^ok [0-9]+ - live_apic_switch[a-z_]*$' "$log.txt" || bad="$bad live-switch-test-not-passed"
		# passed, or skipped only because CPUs cannot go offline here
		grep -Eq '^ok [0-9]+ - live_switch_ipis_during_cpu_hotplug($| # SKIP CPU offline)' "$log.txt" || bad="$bad hotplug-test-not-passed"
	fi
	grep -q '^# hvipi: pass:' "$log.txt" || bad="$bad no-summary"
	if [ -n "$hv" ]; then
		# the module's KTAP checks these too; checked here again
		L=$log.txt
		C='hvipi: testhv: counts:'
		grep -q '^HVIPI-LOAD .* ok$' "$L" || bad="$bad workload-failed"
		grep -q '^HVIPI-LOAD-EXIT rc=0' "$L" || bad="$bad workload-exit"
		grep -q '^hvipi: testhv: TEST hypervisor inside this guest' "$L" || bad="$bad testhv-not-started"
		need "$(kv "$L" "$C hypervisor" hv_calls)" -gt 0 hypercalls
		need "$(kv "$L" "$C hypervisor" rejected)" -eq 0 rejected
		need "$(kv "$L" "$C hypervisor" vp_without_cpu)" -eq 0 vp-without-cpu
		need "$(kv "$L" "$C fallbacks" failed_status)" -eq 0 failed-status
		need "$(kv "$L" "$C sender" scf_checked)" -gt 0 scf-checked
		need "$(kv "$L" "$C sender" scf_missed)" -eq 0 scf-missed
		need "$(kv "$L" "$C sender" iwi_checked)" -gt 0 iwi-checked
		need "$(kv "$L" "$C sender" iwi_missed)" -eq 0 iwi-missed
		need "$(kv "$L" "$C hotplug" cycles_reported)" -gt 0 hotplug-cycles
		fast=$(kv "$L" "$C plans" fast); sparse=$(kv "$L" "$C plans" ex_sparse)
		xmmk=$(kv "$L" "$C plans" ex_xmm); all=$(kv "$L" "$C plans" ex_all)
		case $hv in
		sparse-high)
			need "$fast" -eq 0 fast-plans
			need "$all" -gt 0 ex-all-plans
			if [ $hvxmm = 1 ]; then need "$xmmk" -gt 0 ex-xmm-plans
			else need "$xmmk" -eq 0 ex-xmm-plans; need "$sparse" -gt 0 ex-sparse-plans; fi ;;
		*)	need "$fast" -gt 0 fast-plans ;;
		esac
		summary="$summary
qemu-test: -smp $n test hypervisor $live: plans FAST=$fast EX_SPARSE=$sparse EX_XMM=$xmmk EX_ALL=$all; rejected $(kv "$L" "$C hypervisor" rejected); missed scf $(kv "$L" "$C sender" scf_missed)/$(kv "$L" "$C sender" scf_checked) irq_work $(kv "$L" "$C sender" iwi_missed)/$(kv "$L" "$C sender" iwi_checked); hotplug cycles $(kv "$L" "$C hotplug" cycles_reported); wall ${secs}s"
	fi

	grep -o 'HVIPI-GUEST.*' "$log.txt"; grep -o 'HVIPI-HOTPLUG.*' "$log.txt"
	grep -o 'HVIPI-LOAD.*' "$log.txt"; grep -o 'HVIPI-DETECTORS.*' "$log.txt"; grep '^hvipi: ' "$log.txt"
	grep -E '^not ok|^    #|# SKIP' "$log.txt" | grep -v ' cases$' | head -n 40
	grep -E '^# hvipi: ' "$log.txt"
	missing=0
	[ "$plan" -gt $((ok + nok + skip)) ] && missing=$((plan - ok - nok - skip))
	tpass=$((tpass + ok))
	tfail=$((tfail + nok + missing))
	if [ -n "$bad" ]; then
		echo "qemu-test: -smp $n ($label): FAILED:$bad" | tee -a "$RES/qemu-test.fails"
		grep -E '^not ok' "$log.txt" | head -n 10 >>"$RES/qemu-test.fails"
		[ "$nok" -eq 0 ] && [ "$missing" -eq 0 ] && tfail=$((tfail + 1))
	else
		echo "qemu-test: -smp $n ($label): KTAP $ok ok, $skip skipped, of $plan; boot+test ${secs}s"
	fi
done
[ -n "$summary" ] && echo "$summary"
echo "$tpass $tfail" >"$RES/qemu-test.counts"
[ "$tfail" -eq 0 ]
