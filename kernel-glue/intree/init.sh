#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the make intree-boot guests: the workload and CPU hotplug for
# hvipi.load_secs seconds while the kernel's IPIs and TLB flushes go
# through the drop-in, then the test platform's verdict (/proc/hv_testhv).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
secs=$(sed -n 's/.*hvipi\.load_secs=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-30}
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
echo "HVIPI-INIT cpus=$(nproc) hotplug:$online load=$secs s kernel=$(uname -r)"
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
echo "HVIPI-INIT done"
reboot -f
