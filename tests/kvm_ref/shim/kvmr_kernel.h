/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The kernel and KVM that Linux 6.1's arch/x86/kvm/hyperv.c (and the TLFS
 * headers it includes) use, for a userspace build.  Every header of shim/
 * includes this one.  Written for hvipi's tests; the names (and, where
 * hyperv.c reads them, the member names) are the kernel's so that
 * hyperv.c compiles unchanged.  The layouts are our own.
 *
 * Three kinds of definitions:
 *  - plain kernel helpers (types, bit and bitmap operations, atomics,
 *    arithmetic), which do what the kernel's do; the basics shared with
 *    tests/kernel_ref's shim are in tests/common/kshim_types.h;
 *  - the KVM services the hypercall path uses (registers, guest memory,
 *    vCPU iteration, kvm_apic_set_irq, the XMM reader), defined in
 *    kvmr_env.c against the harness's call and recorder;
 *  - everything else hyperv.c refers to (timers, SynIC messages, eventfd,
 *    IRQ routing, TSC page, MSR side effects): stubs.  The ones that would
 *    have an effect call kvmr_unexpected(), which marks the result: the IPI
 *    path must never reach them, and a case that does fails.
 */
#ifndef KVMR_KERNEL_H
#define KVMR_KERNEL_H

/* The stubs' parameters are unused (KVMR_STUB and co. below). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

#include <stdlib.h>
#include <string.h>

#include "../../common/kshim_types.h"
#include "kvmr.h"

/* ---- types and compiler helpers (beyond kshim_types.h) ---- */

typedef u64 gpa_t;
typedef u64 gfn_t;
typedef unsigned long hva_t;
typedef s64 ktime_t;
typedef unsigned int gfp_t;

#define KTIME_MAX		((s64)~((u64)1 << 63))

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON: " #cond)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))

#define __user
#define fallthrough		__attribute__((__fallthrough__))
#define EXPORT_SYMBOL_GPL(sym)	extern int kvmr_export_##sym
#define array_index_nospec(i, size)	(i)
#define smp_wmb()		__asm__ __volatile__("" ::: "memory")

#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)

#define EINVAL			22
#define ENOENT			2
#define ENOMEM			12
#define EFAULT			14
#define EAGAIN			11
#define EEXIST			17
#define ENOSPC			28
#define E2BIG			7

#define GFP_KERNEL_ACCOUNT	0u
#define kzalloc(size, gfp)	calloc(1, (size))
#define kfree(p)		free(p)

#define IS_ERR(p)		((unsigned long)(p) >= (unsigned long)-4095)
#define PTR_ERR(p)		((long)(p))

/* A shim that the hypercall path must not reach was called (kvmr_env.c). */
void kvmr_unexpected(const char *what);
#define KVMR_NOT_HERE(ret)	(kvmr_unexpected(__func__), (ret))

/*
 * The stubs, with the kernel's prototypes (params: the parameter list;
 * the parameters are not used):
 *  KVMR_STUB: must not be reached, marks the result (kvmr_unexpected(),
 *    with the function's name) and returns @ret;
 *  KVMR_STUB_VOID: the same without a value;
 *  KVMR_CONST: reachable, returns @value (what the harness's VM is);
 *  KVMR_NOP: reachable, does nothing.
 */
#define KVMR_STUB(type, name, ret, ...) \
	static inline type name(__VA_ARGS__) { return KVMR_NOT_HERE(ret); }
#define KVMR_STUB_VOID(name, ...) \
	static inline void name(__VA_ARGS__) { kvmr_unexpected(__func__); }
#define KVMR_CONST(type, name, value, ...) \
	static inline type name(__VA_ARGS__) { return (value); }
#define KVMR_NOP(name, ...) \
	static inline void name(__VA_ARGS__) { }

/* ---- printing, warnings, tracing ---- */

#define vcpu_debug(vcpu, ...)	((void)(vcpu))
#define WARN_ON_ONCE(cond)	({ bool __w = !!(cond); if (__w) kvmr_unexpected("WARN_ON_ONCE"); __w; })
#define KVM_BUG_ON(cond, kvm)	({ bool __b = !!(cond); (void)(kvm); if (__b) kvmr_unexpected("KVM_BUG_ON"); __b; })

/*
 * The four trace points that show what KVM read of an IPI or flush call's
 * VP set (vector, processor mask, format, valid-bank mask, flags) are
 * recorders (kvmr_env.c, struct kvmr_result's tr_* fields): KVM's own
 * reading of the call, which a harness may use without decoding the input
 * itself.  Every other trace point of hyperv.c: nothing (the arguments
 * are not evaluated).
 */
void kvmr_trace_send_ipi(u32 vector, u64 processor_mask);
void kvmr_trace_send_ipi_ex(u32 vector, u64 format, u64 valid_bank_mask);
void kvmr_trace_flush_tlb(u64 processor_mask, u64 address_space, u64 flags);
void kvmr_trace_flush_tlb_ex(u64 valid_bank_mask, u64 format,
			     u64 address_space, u64 flags);
#define trace_kvm_hv_flush_tlb(m, as, f)	kvmr_trace_flush_tlb((m), (as), (f))
#define trace_kvm_hv_flush_tlb_ex(vbm, fmt, as, f) \
	kvmr_trace_flush_tlb_ex((vbm), (fmt), (as), (f))
#define trace_kvm_hv_hypercall(...)		do { } while (0)
#define trace_kvm_hv_hypercall_done(...)	do { } while (0)
#define trace_kvm_hv_notify_acked_sint(...)	do { } while (0)
#define trace_kvm_hv_send_ipi(v, m)		kvmr_trace_send_ipi((v), (m))
#define trace_kvm_hv_send_ipi_ex(v, fmt, vbm)	kvmr_trace_send_ipi_ex((v), (fmt), (vbm))
#define trace_kvm_hv_stimer_callback(...)	do { } while (0)
#define trace_kvm_hv_stimer_cleanup(...)	do { } while (0)
#define trace_kvm_hv_stimer_expiration(...)	do { } while (0)
#define trace_kvm_hv_stimer_set_config(...)	do { } while (0)
#define trace_kvm_hv_stimer_set_count(...)	do { } while (0)
#define trace_kvm_hv_stimer_start_one_shot(...)	do { } while (0)
#define trace_kvm_hv_stimer_start_periodic(...)	do { } while (0)
#define trace_kvm_hv_syndbg_get_msr(...)	do { } while (0)
#define trace_kvm_hv_syndbg_set_msr(...)	do { } while (0)
#define trace_kvm_hv_synic_send_eoi(...)	do { } while (0)
#define trace_kvm_hv_synic_set_irq(...)		do { } while (0)
#define trace_kvm_hv_synic_set_msr(...)		do { } while (0)

/* ---- bits and bitmaps (unsigned long words, as the kernel's) ---- */

#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

static inline unsigned int hweight64(u64 w)
{
	return (unsigned int)__builtin_popcountll(w);
}

static inline bool test_bit(long nr, const unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1UL;
}

static inline void __set_bit(long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

#define set_bit(nr, addr)	__set_bit((nr), (addr))
#define clear_bit(nr, addr)	__clear_bit((nr), (addr))

static inline bool test_and_clear_bit(long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__clear_bit(nr, addr);
	return old;
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		if (src[i])
			return false;
	if (nbits % BITS_PER_LONG &&
	    (src[i] & (~0UL >> (BITS_PER_LONG - nbits % BITS_PER_LONG))))
		return false;
	return true;
}

/* The lowest set bit at or above @start, below @size; @size if none. */
static inline unsigned long kvmr_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long start)
{
	unsigned long w;

	if (start >= size)
		return size;
	w = addr[start / BITS_PER_LONG] & (~0UL << (start % BITS_PER_LONG));
	start -= start % BITS_PER_LONG;
	while (!w) {
		start += BITS_PER_LONG;
		if (start >= size)
			return size;
		w = addr[start / BITS_PER_LONG];
	}
	start += (unsigned long)__builtin_ctzl(w);
	return start < size ? start : size;
}

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = kvmr_next_bit((addr), (size), 0);			\
	     (bit) < (size);						\
	     (bit) = kvmr_next_bit((addr), (size), (bit) + 1))

/* ---- atomics (one thread) ---- */

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;

#define atomic_read(v)		((v)->counter)
#define atomic_set(v, i)	((void)((v)->counter = (i)))
#define atomic_inc(v)		((void)((v)->counter++))
#define atomic_dec(v)		((void)((v)->counter--))
#define atomic64_read(v)	((v)->counter)
#define atomic64_set(v, i)	((void)((v)->counter = (i)))

/* ---- arithmetic ---- */

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline u64 div64_u64_rem(u64 a, u64 b, u64 *rem)
{
	*rem = a % b;
	return a / b;
}

#define do_div(n, base) ({					\
	u32 __base = (base);					\
	u32 __rem = (u32)((n) % __base);			\
	(n) = (n) / __base;					\
	__rem;							\
})

static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * b) >> shift);
}

static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 div)
{
	return (u64)(((unsigned __int128)a * mul) / div);
}

/* ---- locks, RCU, lists: one thread, nothing to do ---- */

struct mutex { int unused; };
struct rw_semaphore { int unused; };
struct srcu_struct { int unused; };

#define mutex_init(m)		((void)(m))
#define mutex_lock(m)		((void)(m))
#define mutex_unlock(m)		((void)(m))
#define down_write(s)		((void)(s))
#define up_write(s)		((void)(s))
#define rcu_read_lock()		((void)0)
#define rcu_read_unlock()	((void)0)
#define srcu_read_lock(s)	((void)(s), 0)
#define srcu_read_unlock(s, i)	((void)(s), (void)(i))
#define srcu_dereference_check(p, s, c)	(p)
#define lockdep_is_held(l)	1
KVMR_NOP(synchronize_srcu, struct srcu_struct *s)

struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };

#define hlist_for_each_entry(pos, head, member)				\
	for ((pos) = (head)->first ?					\
		container_of((head)->first, __typeof__(*(pos)), member) : NULL; \
	     (pos);							\
	     (pos) = (pos)->member.next ?				\
		container_of((pos)->member.next, __typeof__(*(pos)), member) : NULL)

/* ---- idr and eventfd (the event-connection table): never used here ---- */

struct idr { int unused; };
struct eventfd_ctx;

KVMR_NOP(idr_init, struct idr *idr)
KVMR_NOP(idr_destroy, struct idr *idr)
KVMR_STUB(void *, idr_find, NULL, struct idr *idr, unsigned long id)
KVMR_STUB(int, idr_alloc, -ENOSPC, struct idr *idr, void *p, int start, int end,
	  gfp_t gfp)
KVMR_STUB(void *, idr_remove, NULL, struct idr *idr, unsigned long id)

/* An empty table: the loop body never runs. */
#define idr_for_each_entry(idr, entry, id) \
	for ((id) = 0, (entry) = NULL; (void)(idr), (entry) != NULL; (id)++)

KVMR_STUB_VOID(eventfd_signal, struct eventfd_ctx *ctx, u64 n)
KVMR_STUB_VOID(eventfd_ctx_put, struct eventfd_ctx *ctx)
KVMR_STUB(struct eventfd_ctx *, eventfd_ctx_fdget,
	  (struct eventfd_ctx *)(long)-EINVAL, int fd)

/* ---- time and timers: never started here ---- */

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_ABS = 0 };
#define CLOCK_MONOTONIC		1

struct hrtimer {
	enum hrtimer_restart (*function)(struct hrtimer *);
};

static inline void hrtimer_init(struct hrtimer *t, int clock,
				enum hrtimer_mode mode)
{
	t->function = NULL;
}

KVMR_STUB_VOID(hrtimer_start, struct hrtimer *t, ktime_t at,
	  enum hrtimer_mode mode)
KVMR_CONST(int, hrtimer_cancel, 0, struct hrtimer *t)
KVMR_STUB(ktime_t, ktime_get, 0, void)

static inline ktime_t ktime_add_safe(ktime_t a, ktime_t b)
{
	return a + b;
}

/*
 * 6.1.176's stimer_start() (bookworm main) adds its delay with this;
 * 6.1.192's with ktime_add_safe().  No timer starts here.  Added as u64,
 * so that a huge delay wraps instead of being undefined.
 */
static inline ktime_t ktime_add_ns(ktime_t t, u64 ns)
{
	return (ktime_t)((u64)t + ns);
}

KVMR_STUB(u64, rdtsc, 0, void)

struct task_struct;
#define current			((struct task_struct *)NULL)
static inline void task_cputime_adjusted(struct task_struct *p, u64 *ut,
					 u64 *st)
{
	*ut = 0;
	*st = 0;
	kvmr_unexpected(__func__);
}

struct pvclock_vcpu_time_info {
	u32 version;
	u32 pad0;
	u64 tsc_timestamp;
	u64 system_time;
	u32 tsc_to_system_mul;
	s8 tsc_shift;
	u8 flags;
	u8 pad[2];
};
#define PVCLOCK_TSC_STABLE_BIT	(1 << 0)

static inline bool cpu_smt_possible(void)
{
	return false;
}

KVMR_STUB(unsigned long, copy_to_user, n, void __user *to, const void *from,
	  unsigned long n)

#define __put_user(x, ptr)	((void)(x), (void)(ptr), KVMR_NOT_HERE(-EFAULT))

/* ---- the TLFS headers of 6.1, compiled unchanged ---- */

#include <asm/hyperv-tlfs.h>

/* ---- KVM: uapi ---- */

#define KVM_EXIT_HYPERV			27
#define KVM_EXIT_HYPERV_SYNIC		1
#define KVM_EXIT_HYPERV_HCALL		2
#define KVM_EXIT_HYPERV_SYNDBG		3
#define KVM_IRQ_ROUTING_HV_SINT		4
#define KVM_HYPERV_CONN_ID_MASK		0x00ffffff
#define KVM_HYPERV_EVENTFD_DEASSIGN	(1 << 0)
#define KVM_MSR_ENABLED			1

struct kvm_hyperv_exit {
	u32 type;
	u32 pad1;
	union {
		struct {
			u32 msr;
			u32 pad2;
			u64 control;
			u64 evt_page;
			u64 msg_page;
		} synic;
		struct {
			u64 input;
			u64 result;
			u64 params[2];
		} hcall;
		struct {
			u32 msr;
			u32 pad2;
			u64 control;
			u64 status;
			u64 send_page;
			u64 recv_page;
			u64 pending_page;
		} syndbg;
	} u;
};

struct kvm_run {
	u32 exit_reason;
	struct kvm_hyperv_exit hyperv;
};

struct kvm_cpuid_entry2 {
	u32 function;
	u32 index;
	u32 flags;
	u32 eax;
	u32 ebx;
	u32 ecx;
	u32 edx;
	u32 padding[3];
};

struct kvm_cpuid2 {
	u32 nent;
	u32 padding;
	struct kvm_cpuid_entry2 entries[];
};

struct kvm_hyperv_eventfd {
	u32 conn_id;
	s32 fd;
	u32 flags;
	u32 padding[3];
};

/* ---- KVM: the in-kernel state hyperv.c reads and writes ---- */

#define KVM_MAX_VCPUS			KVMR_MAX_VCPUS

enum {
	KVM_REQ_SCAN_IOAPIC = 1,
	KVM_REQ_HV_EXIT,
	KVM_REQ_HV_STIMER,
	KVM_REQ_MASTERCLOCK_UPDATE,
	KVM_REQ_HV_CRASH,
	KVM_REQ_HV_RESET,
	KVM_REQ_TLB_FLUSH_GUEST,
};

enum kvm_apicv_inhibit { APICV_INHIBIT_REASON_HYPERV = 1 };

enum hv_tsc_page_status {
	HV_TSC_PAGE_UNSET = 0,
	HV_TSC_PAGE_GUEST_CHANGED,
	HV_TSC_PAGE_HOST_CHANGED,
	HV_TSC_PAGE_SET,
	HV_TSC_PAGE_BROKEN,
};

struct kvm_vcpu_hv_synic {
	u64 version;
	u64 control;
	u64 msg_page;
	u64 evt_page;
	atomic64_t sint[HV_SYNIC_SINT_COUNT];
	atomic_t sint_to_gsi[HV_SYNIC_SINT_COUNT];
	DECLARE_BITMAP(auto_eoi_bitmap, 256);
	DECLARE_BITMAP(vec_bitmap, 256);
	bool active;
	bool dont_zero_synic_pages;
};

struct kvm_vcpu_hv_stimer {
	struct hrtimer timer;
	int index;
	union hv_stimer_config config;
	u64 count;
	u64 exp_time;
	struct hv_message msg;
	bool msg_pending;
};

struct kvm_vcpu_hv {
	struct kvm_vcpu *vcpu;
	u32 vp_index;
	u64 hv_vapic;
	s64 runtime_offset;
	struct kvm_vcpu_hv_synic synic;
	struct kvm_hyperv_exit exit;
	struct kvm_vcpu_hv_stimer stimer[HV_SYNIC_STIMER_COUNT];
	DECLARE_BITMAP(stimer_pending_bitmap, HV_SYNIC_STIMER_COUNT);
	bool enforce_cpuid;
	struct {
		u32 features_eax;
		u32 features_ebx;
		u32 features_edx;
		u32 enlightenments_eax;
		u32 enlightenments_ebx;
		u32 syndbg_cap_eax;
		u32 nested_eax;
		u32 nested_ebx;
	} cpuid_cache;
};

struct kvm_hv_syndbg {
	struct {
		u64 control;
		u64 status;
		u64 send_page;
		u64 recv_page;
		u64 pending_page;
	} control;
	u64 options;
};

struct kvm_hv {
	struct mutex hv_lock;
	u64 hv_guest_os_id;
	u64 hv_hypercall;
	u64 hv_tsc_page;
	enum hv_tsc_page_status hv_tsc_page_status;
	u64 hv_crash_param[HV_X64_MSR_CRASH_PARAMS];
	u64 hv_crash_ctl;
	struct ms_hyperv_tsc_page tsc_ref;
	struct idr conn_to_evt;
	u64 hv_reenlightenment_control;
	u64 hv_tsc_emulation_control;
	u64 hv_tsc_emulation_status;
	atomic_t num_mismatched_vp_indexes;
	unsigned int synic_auto_eoi_used;
	struct kvm_hv_syndbg hv_syndbg;
};

struct kvm_arch {
	struct kvm_hv hyperv;
	struct rw_semaphore apicv_update_lock;
};

struct kvm_irq_routing_table {
	u32 nr_rt_entries;
	struct hlist_head map[];
};

struct kvm_kernel_irq_routing_entry {
	u32 gsi;
	u32 type;
	struct {
		u32 vcpu;
		u32 sint;
	} hv_sint;
	struct hlist_node link;
};

struct kvm {
	struct kvm_arch arch;
	atomic_t online_vcpus;
	struct kvm_vcpu **vcpus;	/* KVM_MAX_VCPUS of them */
	struct srcu_struct srcu;
	struct srcu_struct irq_srcu;
	struct mutex irq_lock;
	struct kvm_irq_routing_table *irq_routing;
};

struct gfn_to_hva_cache { gpa_t gpa; };
struct kvm_lapic { int unused; };

struct kvm_vcpu_arch {
	struct kvm_vcpu_hv *hyperv;
	bool hyperv_enabled;
	struct kvm_lapic *apic;
	int (*complete_userspace_io)(struct kvm_vcpu *vcpu);
	struct {
		u64 msr_val;
		struct gfn_to_hva_cache data;
	} pv_eoi;
	u32 virtual_tsc_khz;
	/* the CPUID leaves kvm_find_cpuid_entry() finds */
	struct kvm_cpuid_entry2 cpuid[2];
};

struct kvm_vcpu {
	struct kvm *kvm;
	int vcpu_id;
	int vcpu_idx;
	struct kvm_run *run;
	struct kvm_vcpu_arch arch;
	struct {
		u64 hypercalls;
	} stat;
};

static inline struct kvm_vcpu *kvm_get_vcpu(struct kvm *kvm, int i)
{
	return i < atomic_read(&kvm->online_vcpus) ? kvm->vcpus[i] : NULL;
}

#define kvm_for_each_vcpu(idx, vcpup, kvm)				\
	for ((idx) = 0;							\
	     (idx) < (unsigned long)atomic_read(&(kvm)->online_vcpus) &&	\
	     ((vcpup) = (kvm)->vcpus[(idx)]) != NULL;			\
	     (idx)++)

/* The in-kernel local APIC (lapic.h): every vCPU of the harness has one. */
struct kvm_lapic_irq {
	u32 vector;
	u16 delivery_mode;
	u16 dest_mode;
	bool level;
	u16 trig_mode;
	u32 shorthand;
	u32 dest_id;
	bool msi_redir_hint;
};

#define APIC_DM_FIXED		0x00000
#define APIC_DEST_PHYSICAL	0x00000
#define APIC_DEST_SELF		0x40000
#define APIC_TASKPRI		0x80
#define APIC_EOI		0xB0
#define APIC_ICR		0x300
#define APIC_BUS_FREQUENCY	1000000000ULL
#define UD_VECTOR		6

static inline bool lapic_in_kernel(struct kvm_vcpu *vcpu)
{
	return vcpu->arch.apic != NULL;
}

/* Defined in kvmr_env.c: the hypercall path's services. */
int kvm_apic_set_irq(struct kvm_vcpu *vcpu, struct kvm_lapic_irq *irq,
		     void *dest_map);
int kvm_read_guest(struct kvm *kvm, gpa_t gpa, void *data, unsigned long len);
u64 kvmr_reg(struct kvm_vcpu *vcpu, int which);
void kvmr_set_result(struct kvm_vcpu *vcpu, u64 rax);
void kvm_queue_exception(struct kvm_vcpu *vcpu, unsigned int nr);
int kvm_skip_emulated_instruction(struct kvm_vcpu *vcpu);
struct kvm_cpuid_entry2 *kvm_find_cpuid_entry(struct kvm_vcpu *vcpu,
					      u32 function);

enum { KVMR_RAX, KVMR_RBX, KVMR_RCX, KVMR_RDX, KVMR_RSI, KVMR_RDI, KVMR_R8 };
#define kvm_rax_read(vcpu)	kvmr_reg((vcpu), KVMR_RAX)
#define kvm_rbx_read(vcpu)	kvmr_reg((vcpu), KVMR_RBX)
#define kvm_rcx_read(vcpu)	kvmr_reg((vcpu), KVMR_RCX)
#define kvm_rdx_read(vcpu)	kvmr_reg((vcpu), KVMR_RDX)
#define kvm_rsi_read(vcpu)	kvmr_reg((vcpu), KVMR_RSI)
#define kvm_rdi_read(vcpu)	kvmr_reg((vcpu), KVMR_RDI)
#define kvm_r8_read(vcpu)	kvmr_reg((vcpu), KVMR_R8)
#define kvm_rax_write(vcpu, v)	kvmr_set_result((vcpu), (v))
/* 32-bit callers only (never here: the harness's vCPUs are in long mode). */
#define kvm_rdx_write(vcpu, v)	((void)(vcpu), (void)(v), kvmr_unexpected("kvm_rdx_write"))

/* The calling vCPU runs at CPL 0 in 64-bit mode. */
KVMR_CONST(int, kvmr_get_cpl, 0, struct kvm_vcpu *vcpu)
KVMR_STUB_VOID(kvmr_patch_hypercall, struct kvm_vcpu *vcpu, u8 *insn)

#define static_call(fn)		kvmr_static_call_##fn
#define kvmr_static_call_kvm_x86_get_cpl	kvmr_get_cpl
#define kvmr_static_call_kvm_x86_patch_hypercall kvmr_patch_hypercall

KVMR_CONST(bool, is_protmode, true, struct kvm_vcpu *vcpu)
KVMR_CONST(bool, is_64_bit_hypercall, true, struct kvm_vcpu *vcpu)

struct kvm_x86_nested_ops {
	u16 (*get_evmcs_version)(struct kvm_vcpu *vcpu);
};
struct kvm_x86_ops {
	const struct kvm_x86_nested_ops *nested_ops;
};
extern struct kvm_x86_ops kvm_x86_ops;
extern bool enable_apicv;

/* XMM registers (fpu.h): read from the harness's call (kvmr_env.c). */
typedef struct { u64 lo, hi; } sse128_t;
#define sse128_lo(x)		((x).lo)
#define sse128_hi(x)		((x).hi)
void kvm_fpu_get(void);
void kvm_fpu_put(void);
void _kvm_read_sse_reg(int reg, sse128_t *data);

/* ---- KVM services that only paths other than the IPI path use ---- */

KVMR_STUB_VOID(kvm_make_request, int req, struct kvm_vcpu *vcpu)
KVMR_STUB_VOID(kvm_vcpu_kick, struct kvm_vcpu *vcpu)
KVMR_STUB_VOID(kvm_vcpu_on_spin, struct kvm_vcpu *vcpu, bool yield)
/* The flush path's requests: recorders (kvmr_env.c), any other request unexpected. */
bool kvm_make_all_cpus_request(struct kvm *kvm, unsigned int req);
bool kvm_make_vcpus_request_mask(struct kvm *kvm, unsigned int req,
				 unsigned long *vcpu_bitmap);
KVMR_STUB(int, kvm_irq_delivery_to_apic, 0, struct kvm *kvm,
	  struct kvm_lapic *src, struct kvm_lapic_irq *irq, void *dest_map)
KVMR_STUB_VOID(kvm_notify_acked_gsi, struct kvm *kvm, int gsi)
KVMR_STUB_VOID(__kvm_set_or_clear_apicv_inhibit, struct kvm *kvm,
	  enum kvm_apicv_inhibit r, bool set)
KVMR_STUB(int, kvm_write_guest, -EFAULT, struct kvm *kvm, gpa_t gpa,
	  const void *data, unsigned long len)
KVMR_STUB(int, kvm_clear_guest, -EFAULT, struct kvm *kvm, gpa_t gpa,
	  unsigned long len)
KVMR_STUB(int, kvm_vcpu_read_guest_page, -EFAULT, struct kvm_vcpu *vcpu,
	  gfn_t gfn, void *data, int offset, int len)
KVMR_STUB(int, kvm_vcpu_write_guest_page, -EFAULT, struct kvm_vcpu *vcpu,
	  gfn_t gfn, const void *data, int offset, int len)
KVMR_STUB(int, kvm_vcpu_write_guest, -EFAULT, struct kvm_vcpu *vcpu, gpa_t gpa,
	  const void *data, unsigned long len)
KVMR_STUB(int, kvm_read_guest_cached, -EFAULT, struct kvm *kvm,
	  struct gfn_to_hva_cache *ghc, void *data, unsigned long len)
KVMR_STUB_VOID(kvm_vcpu_mark_page_dirty, struct kvm_vcpu *vcpu, gfn_t gfn)
KVMR_STUB(int, kvm_vcpu_read_guest, -EFAULT, struct kvm_vcpu *vcpu, gpa_t gpa,
	  void *data, unsigned long len)
KVMR_STUB(unsigned long, kvm_vcpu_gfn_to_hva, ~0UL, struct kvm_vcpu *vcpu,
	  gfn_t gfn)

static inline bool kvm_is_error_hva(unsigned long addr)
{
	return addr == ~0UL;
}

static inline gpa_t gfn_to_gpa(gfn_t gfn)
{
	return gfn << PAGE_SHIFT;
}

KVMR_STUB(int, kvm_lapic_set_pv_eoi, 1, struct kvm_vcpu *vcpu, u64 data,
	  unsigned long len)
KVMR_STUB(int, kvm_hv_vapic_msr_write, 1, struct kvm_vcpu *vcpu, u32 reg,
	  u64 data)

static inline int kvm_hv_vapic_msr_read(struct kvm_vcpu *vcpu, u32 reg,
					u64 *data)
{
	*data = 0;
	return KVMR_NOT_HERE(1);
}

KVMR_CONST(bool, kvm_xen_hypercall_enabled, false, struct kvm *kvm)
KVMR_STUB(u64, get_kvmclock_ns, 0, struct kvm *kvm)
KVMR_STUB(u64, kvm_read_l1_tsc, 0, struct kvm_vcpu *vcpu, u64 host_tsc)
KVMR_STUB_VOID(kvm_pr_unimpl_wrmsr, struct kvm_vcpu *vcpu, u32 msr, u64 data)
KVMR_STUB_VOID(kvm_pr_unimpl_rdmsr, struct kvm_vcpu *vcpu, u32 msr)

#pragma GCC diagnostic pop

#endif /* KVMR_KERNEL_H */
