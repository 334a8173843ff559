#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the make intree-boot guests: the workload and CPU hotplug for
# hvipi.load_secs seconds while the kernel's IPIs and TLB flushes go
# through the drop-in, then the test platform's verdict (/proc/hv_testhv)
# and the calls it kept, on the second serial port, for the replay through
# KVM's decoder.  hvipi.cleanup_at=N: N seconds in, hyperv_cleanup() (as
# kexec and the crash path do), after which every send must go native.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
param() {
	sed -n "s/.*hvipi\.$1=\([0-9]*\).*/\1/p" /proc/cmdline
}
secs=$(param load_secs)
secs=${secs:-30}
cleanup_at=$(param cleanup_at)
# a lost IPI shows as a hang: make it a panic, and QEMU exits at once
echo 20 >/proc/sys/kernel/hung_task_timeout_secs
for f in softlockup_panic hung_task_panic panic_on_rcu_stall; do
	[ -f /proc/sys/kernel/$f ] && echo 1 >/proc/sys/kernel/$f
done
online=""
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${d##*cpu}
	[ "$n" = 0 ] && continue
	[ "$(cat "$d/online" 2>/dev/null)" = 1 ] && online="$online $n"
done
echo "HVIPI-INIT cpus=$(nproc) hotplug:$online load=$secs s cleanup_at=${cleanup_at:--} kernel=$(uname -r)"
/hvipi_load "$secs" >/tmp/load.out 2>&1 &
load=$!
# A lost IPI can also leave a task spinning where no detector looks (a
# CPU waiting for a call-function reply): if init is not done a minute
# after the run, print every CPU's backtrace and the blocked tasks, then
# crash, so the boot fails at once and says where it stood.
(
	sleep $((secs + 60))
	echo "HVIPI-INIT watchdog: init not done $((secs + 60)) s after the start of the run"
	echo l >/proc/sysrq-trigger
	echo w >/proc/sysrq-trigger
	sleep 2
	echo c >/proc/sysrq-trigger
) &
if [ -n "$cleanup_at" ]; then
	(
		sleep "$cleanup_at"
		echo cleanup >/proc/hv_testhv &&
			echo "HVIPI-INIT hyperv_cleanup() done $cleanup_at s in"
	) &
fi
# CPU hotplug, one CPU at a time, while the workload runs
cycles=0
end=$(($(date +%s) + secs - 2))
while [ -n "$online" ] && [ "$(date +%s)" -lt "$end" ]; do
	for n in $online; do
		f=/sys/devices/system/cpu/cpu$n/online
		echo 0 >$f && echo 1 >$f && cycles=$((cycles + 1))
		sleep 1
	done
done
wait $load
echo "HVIPI-INIT workload exit $?"
cat /tmp/load.out
echo "hotplug $cycles" >/proc/hv_testhv
echo stop >/proc/hv_testhv
cat /proc/hv_testhv
cat /sys/kernel/debug/hv_hvipi_native 2>/dev/null
# the calls, for the host's replay through KVM's decoder (second port)
if [ -c /dev/ttyS1 ]; then
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	cat /proc/hv_testhv_calls >/dev/ttyS1
	echo "HVIPI-INIT calls written"
fi
echo "HVIPI-INIT done"
reboot -f
