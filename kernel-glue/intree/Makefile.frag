# SPDX-License-Identifier: GPL-2.0-only
#
# Lines to add to arch/x86/hyperv/Makefile (6.1) for the drop-in: the
# verified core and the IPI functions, next to hv_apic.o.
obj-$(CONFIG_X86_64)	+= hvipi.o hv_ipi_hvipi.o
