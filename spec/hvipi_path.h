/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * hvipi spec: the glue's decisions around a plan (src/hvipi.h, "The glue's
 * decisions").  The kernel glue binds the kernel's facts to a few flags
 * (a hypercall page mapped, interrupts off, NMI context, the FPU usable,
 * the VP table valid) and follows the answer.
 *
 *   gate (before any mask is read):
 *     the VP table not valid       -> native, OFF
 *     no hypercall page            -> native, NO_HCALL
 *     vector outside 0x10..0xff    -> native, BAD_VECTOR (IPIs only)
 *     NMI context                  -> native, NMI (a planned send; the
 *                                     one-CPU fast send needs no plan)
 *   path (after the plan):
 *     NONE                         -> done, no call
 *     FAST                         -> the fast call, given a hypercall page
 *     EX_XMM                       -> the XMM-fast call, given a hypercall
 *                                     page, the FPU, and no NMI
 *     EX_SPARSE, EX_ALL, and the
 *     four flush calls             -> the call with the input page, given a
 *                                     hypercall page, the page, interrupts
 *                                     off and no NMI
 *     anything else                -> native
 *   done: a call is done exactly when its status is success; NONE is done,
 *   the native path is not (the caller sends natively).
 *
 * No lemma here: the contracts state each property of the table directly,
 * and a global lemma would be a hypothesis of every goal of the gate.
 */
#ifndef HVIPI_SPEC_PATH_H
#define HVIPI_SPEC_PATH_H

/*@
  // The input page may be written: interrupts off, and no NMI, which could
  // hit between an interrupted send's page writes and its call.
  predicate page_context(integer irqs_off, integer nmi) =
    irqs_off != 0 && nmi == 0;

  // Path values (enum hvipi_path).
  predicate path_call(integer path) = 2 <= path <= 4;

  // IPI plan kinds (enum hvipi_kind) that are a call through the page.
  predicate ipi_mem_kind(integer kind) = kind == 2 || kind == 3;

  // Flush plan kinds (enum hvipi_flush_kind) that are a call.
  predicate flush_call_kind(integer kind) = 1 <= kind <= 4;

  logic integer ipi_path(integer kind, integer hcall, integer page,
                         integer irqs_off, integer nmi, integer fpu) =
    kind == 0 ? 0 :
    kind == 1 ? (hcall != 0 ? 2 : 1) :
    kind == 5 ? (hcall != 0 && fpu != 0 && nmi == 0 ? 3 : 1) :
    kind == 2 || kind == 3 ?
      (hcall != 0 && page != 0 && irqs_off != 0 && nmi == 0 ? 4 : 1) :
    1;

  logic integer flush_path(integer kind, integer hcall, integer page,
                           integer irqs_off, integer nmi) =
    kind == 0 ? 0 :
    1 <= kind <= 4 ?
      (hcall != 0 && page != 0 && irqs_off != 0 && nmi == 0 ? 4 : 1) :
    1;
*/

#endif /* HVIPI_SPEC_PATH_H */
