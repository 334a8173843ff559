#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi proof report: what the gate proves, claim by claim.  Reads the
# outputs of `make replay` (BUILD/replay: the WP logs, the Report plugin's
# per-property CSV, the gate summary, EVA), the contracts in src/,
# proofs/functions.txt, proofs/cache/COLD-RUN and the prover-diversity
# data; writes BUILD/proof/PROOF_REPORT.md, BUILD/proof/claims.json (every
# clause with its goals, provers and times), a copy of the .md in proofs/
# and README.md's proof-numbers block (proofs/report_numbers.py).  Reads
# only files: it runs no WP and no solver.  `--check` (make report-check)
# fails when the report or README's block no longer match the sources or
# proofs/cache/, or when a claim is not proven; `--readme` rewrites
# README's block from the committed report.
#
# Fail-closed: a claim is "proven" only if the replay passed and every
# clause that carries it has the status Valid in the Report plugin's CSV
# of that replay; a clause of a function that is not in the gate is
# never tried, so a claim it carries is not proven.
"""Write the hvipi proof report (see the header of this file)."""

import argparse
import csv
import datetime
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "proofs"))
import gate  # noqa: E402
import report_numbers  # noqa: E402

SOURCES = ("src/hvipi.h", "src/hvipi.c")
GOAL_RE = re.compile(r"^\[wp\] \[([^\]]+)\] Goal (\S+)(?: : (\w+))?(.*)$")
TIME_RE = re.compile(r"\((?:Qed:)?(\d+(?:\.\d+)?)(µs|us|ms|s)\)")
UNIT = {"µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
RTE_KINDS = {"mem_access", "index_bound", "pointer_value", "shift",
             "signed_overflow", "unsigned_overflow", "signed_downcast",
             "unsigned_downcast", "division_by_zero", "float_to_int",
             "initialization", "bool_value", "separation", "overlap",
             "dangling_pointer", "function_pointer", "is_nan_or_infinite",
             "is_nan", "ptr_comparison", "differing_blocks"}
# The name may start the line, its type on the line before (kernel style).
DEF_RE = re.compile(r"^(?:[A-Za-z_][^;]*\b)?(hvipi_\w+)\(")
# A ghost function's definition, inside a /*@ ghost ... */ block.
GHOST_DEF_RE = re.compile(r"^\s*@\s+static\s[^;]*\b(hvipi_\w+)\(")


def def_match(line):
    return DEF_RE.match(line) or GHOST_DEF_RE.match(line)

CLAIMS = [
    {
        "id": "no_vp_lost",
        "kind": "label",
        "statement": (
            "Every target CPU is interrupted by the hypercall the plan "
            "describes: the VP of each target CPU (self left out when "
            "asked) is set in r8 of a FAST plan, is read back by the "
            "receiver's decoding of an EX_SPARSE page or of the 14 "
            "register words of an EX_XMM plan (`sparse_reads`), and is "
            "a VP of the partition for an EX_ALL plan (`all_reads`; that "
            "format is chosen only when the target set is exactly the "
            "present set with self kept).  Remote TLB flush "
            "(hvipi_plan_flush, every CPU of the mask a target, self "
            "included), over the receiver's reading of the whole call "
            "(`flush_reads`, spec/hvipi_receiver.h: the flush code in the "
            "control word; ALL_PROCESSORS in input word 1, every VP of the "
            "partition; else the processor mask in word 2 of a non-Ex "
            "call, or the Ex VP set from word 2, `sparse_reads(page + 1, "
            "v)`): in each behavior that makes a call (the present set, "
            "every target VP below 64, the sparse set), when the page holds "
            "the call's header the plan is a call and reaches the VP of "
            "every target CPU (`HVIPI_FLUSH_REACHES`: a NONE or FALLBACK "
            "plan reaches nothing, so a plan that makes no call where it "
            "should fails the clause)."),
        "not": (
            "That the hypervisor decodes the call as spec/hvipi_receiver.h "
            "reads the TLFS, or delivers the interrupt; that `vp_index` "
            "holds the real CPU-to-VP mapping; that the present CPUs' "
            "VPs are the partition's (`present_partition`, a named "
            "precondition the glue discharges: proofs/ASSUMPTIONS.md); "
            "that the glue issues the call with the "
            "plan's registers and page; a FALLBACK plan (the native APIC "
            "path, or for a flush the native flush, in kernel-glue/: "
            "tested, not proven)."),
    },
    {
        "id": "no_spurious_vp",
        "kind": "label",
        "statement": (
            "No VP is interrupted that is not the VP of a target CPU: "
            "every VP that r8, the sparse page or the XMM register words "
            "designate, and every VP of the partition for an EX_ALL plan, "
            "is the VP of some target CPU.  The same for every flush plan, "
            "one clause for all of them: every VP its call reaches as the "
            "receiver reads it (`flush_reads`: the processor mask, the Ex "
            "VP set, or with ALL_PROCESSORS in the flags word the whole "
            "partition) is the VP of some target CPU; a NONE or FALLBACK "
            "plan reaches none.  With an injective VP table "
            "(`vp_injective`, a named predicate) the proven lemma "
            "`no_spurious_cpu` carries this to CPUs: no CPU outside the "
            "target set, an excluded self included, is interrupted."),
        "not": (
            "That the VP table is injective (checked by the glue for the "
            "entries known when it switches; later entries trusted); "
            "for EX_ALL and a flush with ALL_PROCESSORS, "
            "`present_partition` (the glue's check of the firmware's "
            "processor count); the hypervisor's decoding (`flush_reads` is "
            "our TLFS reading; KVM also takes a processor mask of 0 for "
            "every VP, which hvipi never sends)."),
    },
    {
        "id": "bit_coverage",
        "kind": "label",
        "statement": (
            "The encodings are bit-exact: bit v of a FAST r8 is set iff v "
            "is a target VP; in an EX_SPARSE page (and the register words of "
            "an EX_XMM plan) every valid bank has a "
            "non-zero word at its compacted index below the bank count, "
            "and bit v % 64 of bank v / 64's word is set iff v is a "
            "target VP."),
        "not": (
            "That the hypervisor uses the compacted bank order of the "
            "TLFS (spec/hvipi_receiver.h is our reading); VPs of 4096 and "
            "above (never encoded: they fall back)."),
    },
    {
        "id": "fallback_exact",
        "kind": "label",
        "statement": (
            "The plan falls back to the native APIC exactly when the "
            "selection rules (README, spec/hvipi_select.h) say so, with "
            "the reason of the first rule that applies."),
        "not": (
            "That the fallback path sends the IPI; that the rules are the "
            "right policy (they are our reading of the TLFS and of Linux's "
            "hv_apic.c, checked by the tests against a reference)."),
    },
    {
        "id": "well_formed",
        "kind": "label",
        "statement": (
            "Each hypercall is well formed: the control word sets exactly "
            "the call code, fast bit and variable-header size of the "
            "plan, every reserved and rep field zero; a FAST plan has the "
            "vector in rdx; an Ex input has the vector, format and "
            "valid_bank_mask in page words 0-2 and plan.bytes is its exact "
            "size; an EX_XMM plan (at most 11 banks) sets the fast bit, "
            "has rdx and r8 equal to its input words 0 and 1, and zero "
            "words after its last bank (`xmm_call`).  A flush call's "
            "control word is `ctl_rep_is(control, code, banks, gvas, 0)`: "
            "the code of its kind (0x0002, 0x0003, 0x0013, 0x0014), the "
            "variable header the bank count (0 non-Ex), the rep count the "
            "GVA entries (0 for a Space call), rep start, fast bit and "
            "reserved bits zero; plan.bytes is 8 x (header words + "
            "entries)."),
        "not": (
            "That the inline asm passes rcx, rdx, r8 and the page GPA as "
            "the plan says (kernel-glue/, tested); the byte layout of word "
            "0 on the wire (the model is little-endian u64 words, "
            "x86_64)."),
    },
    {
        "id": "page_bounds",
        "kind": "label",
        "statement": (
            "The input never exceeds the page: plan.bytes <= page_size, "
            "and no page word at or beyond plan.bytes / 8 is modified (an "
            "EX_XMM plan has plan.bytes 0: the page is not touched); "
            "hvipi_gva_list writes no word at or beyond its rep count."),
        "not": (
            "That the page is the CPU's mapped hypercall input page, not "
            "used concurrently (interrupts off is the glue's job), or that "
            "page_size is its real size."),
    },
    {
        "id": "rte",
        "kind": "rte",
        "statement": (
            "No runtime error: no invalid memory access, no invalid shift, "
            "no signed overflow, and (stricter than C) no unsigned "
            "overflow or narrowing conversion that changes a value "
            "(-wp-rte -warn-unsigned-overflow -warn-unsigned-downcast)."),
        "not": (
            "Callers that break a precondition (buffer sizes, separation); "
            "the compiler; the asm.  A cpumask changed concurrently is "
            "covered: see read_once."),
    },
    {
        "id": "read_once",
        "kind": "label",
        "statement": (
            "Concurrency: hvipi_plan_mask() and hvipi_plan_flush() load "
            "each word of `mask` and of `present`, and each VP table "
            "entry, at most once, and the other claims are over the values "
            "those loads returned.  Three parts.  (1) Every load is one of "
            "three models (hvipi_load_mask(), hvipi_load_present(), "
            "hvipi_load_vp()) whose precondition `read_once` requires an "
            "index at or above a ghost cursor that the load moves past; WP "
            "proves it at every call, the entry points require fresh "
            "cursors (`fresh_send`, so none can be called after a load of "
            "the same send) and ensure the mask cursor ends at "
            "mask_words(nr_cpu_ids).  (2) No other code reads them: the "
            "pointers are `__hvipi_shared`, a sparse address space that may "
            "not be dereferenced, and proofs/read-check.sh (run by the "
            "gate, with its self-test of 11 planted reads) refuses any "
            "access, copy or cast of them outside the models.  (3) The "
            "models' `first_read` and `cursor` are proven of their bodies "
            "in a second configuration with plain loads "
            "(HVIPI_PLAIN_LOADS, proofs/load-models.txt).  tests/race "
            "checks the plan against the values read under concurrent "
            "writers (1 M cases, and 1 M more under the sanitizers)."),
        "not": (
            "That the values read are the mask at any one instant (each "
            "word is read at its own time, as Linux's single pass does); "
            "that a load returns the cell's value once: assumed, the "
            "meaning of the volatile load (proofs/ASSUMPTIONS.md, the "
            "loads); that the kernel build's READ_ONCE compiles to one "
            "load (the compiler); that the glue never passes one mask as "
            "both `mask` and `present` (separated_present, checked by the "
            "glue); the glue."),
    },
    {
        "id": "no_input",
        "kind": "label",
        "statement": (
            "A NONE or FALLBACK plan has plan.bytes 0, so by page_bounds "
            "it leaves every page word as it was."),
        "not": (
            "What the native APIC path does with the IPI."),
    },
    {
        "id": "pinned",
        "kind": "label",
        "label": r"pinned_\w+",
        "statement": (
            "Every plan field its kind does not use holds the value struct "
            "hvipi_plan documents: rdx and r8 are 0 except for FAST and "
            "EX_XMM, control is 0 for NONE and FALLBACK, the bank fields "
            "are 0 outside the sparse rule, and input[] is written only "
            "by EX_XMM plans (spec/hvipi_xmm.h)."),
        "not": (
            "What the glue puts in the registers it sets itself (the page "
            "GPA of an Ex call)."),
    },
    {
        "id": "gva_coverage",
        "kind": "label",
        "statement": (
            "Remote TLB flush, the GVA list (hvipi_gva_list): for a range "
            "[start, end) that needs at most `capacity` entries, every page "
            "the range touches (page numbers start / 4096 .. (end - 1) / "
            "4096) is covered, as a receiver reads an HV_GVA_RANGE entry "
            "(page number in bits 63:12, additional pages in bits 11:0; "
            "`gva_covers`), by entry (p - first) / 4096 of the list, which "
            "lies below the returned rep count."),
        "not": (
            "That the hypervisor reads the entries as the TLFS says (KVM "
            "6.1 ignores the list and flushes everything).  The flush "
            "planner states the same over the list it places in the page "
            "after the header (`gva_list_covers(page + hdr, gvas, ...)`); "
            "that the glue issues the call it planned is tested (KTAP on "
            "the fake hypercall page), not proven."),
    },
    {
        "id": "no_spurious_page",
        "kind": "label",
        "statement": (
            "No entry of the GVA list covers a page outside the pages the "
            "range touches: a list never flushes more than it was asked "
            "to (a whole-space flush is the caller's choice when the list "
            "would not fit: the function returns 0 then)."),
        "not": (
            "Large pages: a GVA inside a large page flushes the whole "
            "large page (TLFS); that is the hypervisor's reading."),
    },
    {
        "id": "gva_exact",
        "kind": "label",
        "label": r"(?:list_exact|gva_count)",
        "statement": (
            "The GVA list is exact and minimal: its rep count is the "
            "fewest entries of at most 4096 pages that cover the range "
            "(`gva_entries`), or 0 (nothing written) when the range is "
            "empty or needs more entries than `capacity`; entry j is page "
            "first + 4096 j with min(4095, last - first - 4096 j) "
            "additional pages (`gva_entry`), so the entries are in "
            "address order and do not overlap."),
        "not": (
            "That `capacity` is the room left in the page (the planner's "
            "job)."),
    },
    {
        "id": "rep_continuation",
        "kind": "label",
        "label": r"rep_\w+",
        "statement": (
            "Rep hypercalls (the GVA list flushes; hvipi_rep_next): after "
            "a call that returned success with reps completed strictly "
            "between its rep start and its rep count, the next call is the "
            "same call (code, variable header, rep count, fast bit and "
            "reserved bits zero) with the rep start set to the reps "
            "completed, which is strictly more than before, so a caller's "
            "loop issues at most rep-count calls; a failed status stops it "
            "(FAILED); a success whose reps completed make no progress or "
            "exceed the rep count is BAD, never an endless loop; a rep "
            "count of 0 or all reps done is DONE."),
        "not": (
            "That the hypervisor reports reps completed as the TLFS says; "
            "the glue's loop around it (kernel-glue/hvipi_rep.h, tested "
            "on the fake hypercall page, not proven)."),
    },
    {
        "id": "flush_call",
        "kind": "label",
        "label": r"(?:flags_exact|flags_word|address_space|ex_header|"
                 r"list_or_space|call_exact)",
        "statement": (
            "Remote TLB flush (hvipi_plan_flush): the call is the one the "
            "flush rules pick (src/hvipi.h, spec/FLUSH_RULES.md section 9) "
            "and its input is well formed: word 0 the address space (0 "
            "with ALL_VIRTUAL_ADDRESS_SPACES; bits 11:0 and 63 clear, "
            "`cr3_space`, under the precondition `space_cr3`), word 1 the "
            "HV_FLUSH_* "
            "flags exactly `flush_flags` (ALL_PROCESSORS only on a non-Ex "
            "call to the present set, with processor mask 0; "
            "NON_GLOBAL_MAPPINGS_ONLY only on a whole-space flush asked "
            "for as one, never on a List call), an Ex call's format "
            "sparse and its valid-bank mask in word 3; a List call "
            "exactly when a range was asked and its entries fit after the "
            "header (exact count, at most 4095), else a whole-space "
            "call; SPACE/LIST when every target VP is below 64 or the "
            "set is the present set, else the Ex forms, or the native "
            "flush with the reason of the first rule that applies."),
        "not": (
            "That the rules are the right policy (our reading of the TLFS "
            "and of Linux 6.1's mmu.c, checked against the real mmu.c by "
            "flush-plan-ref); that the address space the glue passes is "
            "the mm's (kernel-glue computes it as Linux does)."),
    },
    {
        "id": "no_hcall_without_page",
        "kind": "label",
        "statement": (
            "The glue's decisions (hvipi_ipi_gate(), hvipi_flush_gate(), "
            "hvipi_ipi_path(), hvipi_flush_path(); spec/hvipi_path.h): "
            "without a hypercall page no send is planned (reason "
            "NO_HCALL) and no plan takes a hypercall entry, only DONE "
            "(nothing to send) or the native op, whatever the plan's "
            "kind."),
        "not": (
            "That the glue passes hv_hypercall_pg's value (read once) as "
            "the flag and calls through that same value, and follows the "
            "answer (the binding: proofs/ASSUMPTIONS.md, the glue; KUnit "
            "and the cleanup boot test it)."),
    },
    {
        "id": "page_context",
        "kind": "label",
        "statement": (
            "The input page is used only with interrupts off and outside "
            "NMI context: hvipi_page_ok() allows the planner the page "
            "exactly then, the gates send an NMI-context mask send "
            "natively before anything is read (reason NMI), and the path "
            "functions choose the call with the page only for a kind that "
            "takes it, with the page given, interrupts off and no NMI."),
        "not": (
            "That the glue binds irqs_disabled() and in_nmi() to the "
            "flags; that nothing else on this CPU writes the page while "
            "interrupts are off (the kernel's other users of "
            "hyperv_pcpu_input_arg keep interrupts off too)."),
    },
    {
        "id": "fpu_context",
        "kind": "label",
        "statement": (
            "An EX_XMM plan takes the XMM-fast entry only when the glue "
            "says the FPU may be used and not in NMI context; otherwise "
            "the native op."),
        "not": (
            "What the FPU flag means: the glue binds it to irq_fpu_usable() "
            "with bottom halves on and no PREEMPT_RT (KUnit checks the "
            "fpregs_lock() case)."),
    },
    {
        "id": "gate_first",
        "kind": "label",
        "statement": (
            "Before a send is planned the gates decide, from the VP table "
            "being valid, the hypercall page, the vector (IPIs) and NMI "
            "context, in that order of precedence (OFF, NO_HCALL, "
            "BAD_VECTOR, NMI): the native op, with its reason, or the "
            "plan; so a send to NMI_VECTOR or from NMI context is decided "
            "without a mask walk."),
        "not": (
            "That the glue calls the gate before the planner (the binding; "
            "the NMI-context stack measured by make intree-boot shows no "
            "planner frame)."),
    },
    {
        "id": "failed_falls_back",
        "kind": "label",
        "statement": (
            "hvipi_path_done(): a send that made a call is done exactly "
            "when the call's status is success (bits 15:0 zero); a failed "
            "call is never reported sent, so the caller falls back to the "
            "native op."),
        "not": (
            "That the hypervisor reports failure truthfully."),
    },
    {
        "id": "one_path",
        "kind": "label",
        "statement": (
            "Each plan kind reaches exactly one path, the one "
            "spec/hvipi_path.h's table gives it: NONE is DONE (and only "
            "NONE), a FAST plan the fast call or native, EX_XMM the "
            "XMM-fast call or native, a sparse or \"all\" plan and every "
            "flush call the call with the page or native, FALLBACK and "
            "any kind no planner writes native; DONE is always done, the "
            "native path never is."),
        "not": (
            "That the glue's switch issues the entry the path names "
            "(the asm and the binding)."),
    },
    {
        "id": "termination",
        "kind": "variant",
        "statement": (
            "Every loop terminates: each `loop variant` is non-negative "
            "and strictly decreases at each iteration (there is no "
            "recursion)."),
        "not": (
            "A time bound (the loops are O(nr_cpu_ids) and O(64), by "
            "inspection); termination of the hypercall itself."),
    },
]

TRUSTED = [
    ("the inline asm and the hypercall page",
     "kernel-glue/: the hypercall instructions, the per-CPU input page and "
     "its GPA, interrupts off around its use; tested (userspace, QEMU), "
     "not proven"),
    ("the hypervisor",
     "that it decodes the calls as spec/hvipi_receiver.h reads the TLFS"),
    ("the loads (hvipi_load_mask/_present/_vp)",
     "that the one volatile load of a cell returns the cell's value, which "
     "the proof names as its value at entry: assumed, sound because no "
     "cell is loaded twice (read_once, proven) and nothing else reads one "
     "(proofs/read-check.sh); the models' bodies are proven with plain "
     "loads (proofs/ASSUMPTIONS.md, the loads)"),
    ("sparse 0.6.4",
     "the read check: that it refuses every dereference, copy and cast of "
     "a __hvipi_shared pointer (its self-test plants 11)"),
    ("the kernel's data",
     "that the cpumask words, the VP index table and `present` hold what "
     "the kernel means; the masks may change during a call (read_once), "
     "the VP table only from unknown to its VP"),
    ("Frama-C 25.0 (WP, RTE, Qed, Report, EVA)",
     "generates and simplifies the goals; its Why3 theories of C integers "
     "and bits are axiomatic"),
    ("Why3 1.5.1, Z3 4.8.12, CVC5 1.0.3",
     "decide the goals"),
    ("proofs/why3/cvc5.drv.in",
     "our Why3 driver for cvc5 (Why3 1.5.1 ships none)"),
    ("the committed WP cache (proofs/cache/)",
     "for `make replay` and this report only: each entry records that Z3 "
     "or CVC5 proved the task whose digest names it; written by `make "
     "refresh-cache` from a passing `make prove`, re-decided by `make "
     "prove`"),
    ("the C compiler",
     "WP reasons about the C source, not the machine code; the machine "
     "model is x86_64 (LP64)"),
]


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def gated_functions():
    """(proven, [(name, note)]): the uncommented functions of
    proofs/functions.txt and the commented-out ones with their notes."""
    proven, pending, cur = [], [], None
    for line in read_text(os.path.join(TOP, "proofs/functions.txt")).splitlines():
        if line.strip() and not line.startswith("#"):
            proven.append(line.strip())
            cur = None
            continue
        m = re.match(r"#\s?(hvipi_\w+)\s*(.*)$", line)
        if m:
            cur = [m.group(1), m.group(2).strip()]
            pending.append(cur)
        elif cur and re.match(r"#\s{4,}\S", line):
            cur[1] = (cur[1] + " " + line[1:].strip()).strip()
        else:
            cur = None
    return proven, [tuple(p) for p in pending]


def all_functions():
    """Functions defined in src/hvipi.c, in order (a prototype, such as the
    racing test's hook hvipi_race_hook, defined in tests/race, is not)."""
    out = []
    lines = read_text(os.path.join(TOP, "src/hvipi.c")).splitlines()
    for i, line in enumerate(lines):
        m = DEF_RE.match(line)
        if not m or m.group(1) in out:
            continue
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith((")", ";", "{")):
            j += 1
        if j < len(lines) and lines[j].rstrip().endswith(";"):
            continue
        out.append(m.group(1))
    return out


def clauses(pattern, files, kind):
    """Grep the contracts: [(file, line, function, behavior, text)].  The
    function of a contract clause is the next definition or declaration;
    of a loop clause (kind 'loop') the enclosing definition."""
    out = []
    for path in files:
        lines = read_text(os.path.join(TOP, path)).splitlines()
        for i, line in enumerate(lines):
            if not re.search(pattern, line):
                continue
            fn = beh = None
            if kind == "loop":
                for j in range(i, -1, -1):
                    m = def_match(lines[j])
                    if m:
                        fn = m.group(1)
                        break
            else:
                for j in range(i + 1, len(lines)):
                    m = def_match(lines[j])
                    if m:
                        fn = m.group(1)
                        break
                for j in range(i, -1, -1):
                    if "/*@" in lines[j]:
                        break
                    m = re.search(r"\bbehavior (\w+):", lines[j])
                    if m:
                        beh = m.group(1)
                        break
            text = line.strip().lstrip("@").strip()
            end = i
            for k in range(i + 1, len(lines)):
                nxt = lines[k].strip().lstrip("@").strip()
                if text.endswith(";") or not nxt or re.match(
                        r"(ensures|requires|behavior|assumes|assigns|loop|complete|disjoint)\b", nxt) \
                        or nxt.startswith("*/"):
                    break
                text += " " + nxt
                end = k
            out.append({"file": path, "line": i + 1, "end": end + 1, "function": fn,
                        "behavior": beh, "text": text})
    return out


def read_csv(path):
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            rows.append(row)
    return rows


def read_goals(path):
    """{goal: (prover tag, status, seconds)} from a WP log."""
    goals = {}
    text = read_text(path)
    if text is None:
        return goals
    for line in text.splitlines():
        m = GOAL_RE.match(line)
        if m:
            tag, name, status, rest = m.groups()
            secs = sum(float(v) * UNIT[u] for v, u in TIME_RE.findall(rest))
            goals[name] = (tag, status or tag, secs)
    return goals


def clause_goals(cl, label, goals, seen):
    """The WP goals of a labelled ensures: typed_<fn>[_<beh>]_ensures_<label>
    [_<k>] (k-th clause with that label in the same behavior)
    [_part<n>]."""
    key = (cl["function"], cl["behavior"], label)
    seen[key] = seen.get(key, 0) + 1
    base = f"typed_{cl['function']}_" + (f"{cl['behavior']}_" if cl["behavior"] else "") \
        + f"ensures_{label}"
    if seen[key] > 1:
        base += f"_{seen[key]}"
    return sorted(g for g in goals if g == base or re.fullmatch(
        re.escape(base) + r"_part\d+", g))


def csv_status(rows, cl, kinds, label=None):
    """Status of a clause in the Report CSV: the rows of its function and
    kind located within the clause's lines (the CSV gives the line of the
    predicate, which may follow the label's), with its label if any."""
    base = os.path.basename(cl["file"])
    st = [r["status"] for r in rows if r["file"] == base and
          r["line"].isdigit() and cl["line"] <= int(r["line"]) <= cl.get("end", cl["line"])
          and r["property kind"] in kinds and r["function"] == cl["function"]
          and (label is None or r["property"].startswith(label + ":"))]
    if not st:
        return "not tried"
    return "Valid" if all(s == "Valid" for s in st) else ", ".join(sorted(set(st)))


def goal_summary(names, goals):
    out = []
    for g in names:
        tag, status, secs = goals[g]
        out.append({"goal": g, "status": status, "by": tag.split(" ")[0],
                    "seconds": round(secs, 3)})
    return out


def fmt_by(glist):
    """'Qed 2, Z3 1 (0.08 s), CVC5 3 (0.41 s)' for a list of goals."""
    by = {}
    for g in glist:
        n, t = by.get(g["by"], (0, 0.0))
        by[g["by"]] = (n + 1, t + g["seconds"])
    return ", ".join(f"{p} {n}" + (f" ({t:.2f} s)" if p not in ("Qed",) else "")
                     for p, (n, t) in sorted(by.items())) or "-"


ANNOT_RE = re.compile(r"^\[rte:annot\] annotating function (\w+)\s*$")


def read_annotated(paths):
    """The functions the RTE plugin annotated, from the WP logs: the
    evidence that -wp-rte looked at a function in which it found nothing
    to check."""
    out = set()
    for path in paths:
        for line in (read_text(path) or "").splitlines():
            m = ANNOT_RE.match(line)
            if m:
                out.add(m.group(1))
    return out


def def_file(fn):
    """The source file that defines FN (src/hvipi.c unless an inline
    function of src/hvipi.h)."""
    text = read_text(os.path.join(TOP, "src/hvipi.h")) or ""
    if re.search(r"^static inline[^;(]*\b" + re.escape(fn) + r"\(", text, re.M):
        return "src/hvipi.h"
    return "src/hvipi.c"


def rte_functions(defined, proven_fns):
    """The functions whose runtime errors the claim rte covers: every
    function defined in src/hvipi.c, then every other function of the
    gate (the ghost functions, the inline functions of src/hvipi.h)."""
    return list(defined) + [f for f in proven_fns if f not in defined]


def rte_status(fn, rows, goals, annotated, proven_fns):
    """(status, RTE goals, RTE rows of the CSV) of FN's RTE clause.  Valid
    only if the function is in the gate, the RTE plugin annotated it in
    the replay, and every RTE assertion it added is Valid in the CSV and
    has Valid WP goals (or it added none: nothing can fail there)."""
    gl = sorted(g for g in goals if g.startswith(f"typed_{fn}_")
                and "_assert_rte_" in g)
    rte = [r for r in rows if r["function"] == fn and
           r["property kind"] in RTE_KINDS]
    if fn not in proven_fns:
        return "not tried", gl, rte
    if fn not in annotated:
        return "not tried (the replay's log does not show -wp-rte annotating it)", gl, rte
    if bool(gl) != bool(rte):
        return (f"no result ({len(rte)} RTE assertions in the CSV, "
                f"{len(gl)} RTE goals in the log)"), gl, rte
    bad = [g for g in gl if goals[g][1] != "Valid"] + \
        [r for r in rte if r["status"] != "Valid"]
    return ("Valid" if not bad else f"{len(bad)} not valid"), gl, rte


def diversity_data(build, manifest_sha):
    for path, where in ((os.path.join(build, "proof/diversity.json"), "build"),
                        (os.path.join(TOP, "proofs/diversity.json"), "snapshot")):
        text = read_text(path)
        if text:
            try:
                d = json.loads(text)
            except ValueError:
                continue
            d["_source"] = os.path.relpath(path, TOP)
            d["_current"] = d.get("manifest_sha256") == manifest_sha
            d["_where"] = where
            return d
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--no-copy", action="store_true",
                    help="do not copy the report to proofs/PROOF_REPORT.md "
                    "(nor write README.md's proof-numbers block)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing: fail if proofs/PROOF_REPORT.md or "
                    "README.md's proof numbers are stale, or a claim is not "
                    "proven (make report-check)")
    ap.add_argument("--readme", action="store_true",
                    help="only rewrite README.md's proof-numbers block from "
                    "proofs/PROOF_REPORT.md and proofs/cache/COLD-RUN")
    args = ap.parse_args()
    if args.check:
        return check()
    if args.readme:
        return readme_only()
    build = os.path.abspath(args.build)
    rep = os.path.join(build, "replay")
    outdir = os.path.join(build, "proof")
    os.makedirs(outdir, exist_ok=True)

    result = (read_text(os.path.join(rep, "result")) or "FAIL ?\nno replay run").splitlines()
    replay_ok = result[0].startswith("PASS")
    replay_secs = result[0].split()[1] if len(result[0].split()) > 1 else "?"
    replay_why = result[1] if len(result) > 1 else ""
    summary = read_text(os.path.join(rep, "summary.txt")) or "(no gate summary)\n"
    manifest = read_text(os.path.join(rep, "MANIFEST")) or ""
    cur_manifest = subprocess.run(["sh", os.path.join(TOP, "proofs/manifest.sh")],
                                  capture_output=True, text=True, check=False).stdout
    same_tree = manifest == cur_manifest
    # Proven only on a replay of these sources from a cache that a cold
    # run wrote on these same sources.
    gate_ok = replay_ok and same_tree and \
        (read_text(os.path.join(TOP, "proofs/cache/MANIFEST")) or "") == cur_manifest
    rows = read_csv(os.path.join(rep, "report.csv")) + \
        read_csv(os.path.join(rep, "report-lemmas.csv")) + \
        read_csv(os.path.join(rep, "report-loads.csv"))
    goals = {**read_goals(os.path.join(rep, "wp.log")),
             **read_goals(os.path.join(rep, "wp-lemmas.log")),
             **read_goals(os.path.join(rep, "wp-loads.log"))}
    annotated = read_annotated([os.path.join(rep, "wp.log")])
    proven_fns, pending_fns = gated_functions()
    defined = all_functions()
    not_gated = [f for f in defined if f not in proven_fns]
    pending_note = dict(pending_fns)

    claims_out = []
    for c in CLAIMS:
        cls = []
        if c["kind"] == "label":
            seen = {}
            for cl in clauses(r"\bensures " + c.get("label", c["id"]) + r":",
                              SOURCES, "contract"):
                label = re.search(r"\bensures (\w+):", cl["text"]).group(1)
                gl = clause_goals(cl, label, goals, seen)
                cl["status"] = csv_status(rows, cl, ("postcondition",), label)
                cl["goals"] = goal_summary(gl, goals)
                cls.append(cl)
        elif c["kind"] == "variant":
            # The Report plugin's CSV lists no loop variant: the status is
            # that of the WP goals typed_<fn>_loop_variant[_<k>]_decrease
            # and _positive [_part<n>] of the k-th variant of the function.
            nth = {}
            for cl in clauses(r"loop variant", ("src/hvipi.c",), "loop"):
                k = nth[cl["function"]] = nth.get(cl["function"], 0) + 1
                base = f"typed_{cl['function']}_loop_variant" + (f"_{k}" if k > 1 else "")
                gl = sorted(g for g in goals if re.fullmatch(
                    re.escape(base) + r"_(decrease|positive)(_part\d+)?", g))
                st = csv_status(rows, cl, ("loop variant",))
                if st == "not tried" and cl["function"] in proven_fns:
                    kinds = {re.search(r"_(decrease|positive)", g).group(1) for g in gl}
                    ok = kinds == {"decrease", "positive"} and all(
                        goals[g][1] == "Valid" for g in gl)
                    st = "Valid" if ok else "not valid (WP goals)"
                cl["status"] = st
                cl["goals"] = goal_summary(gl, goals)
                cls.append(cl)
        else:
            # Per function of the gate or of src/hvipi.c: the RTE
            # assertions -wp-rte added (the CSV rows whose kind is an
            # alarm) and their WP goals must all be valid.
            for fn in rte_functions(defined, proven_fns):
                st, gl, rte = rte_status(fn, rows, goals, annotated, proven_fns)
                cls.append({"file": def_file(fn), "line": None, "function": fn,
                            "behavior": None,
                            "text": f"{len(rte)} RTE assertions, {len(gl)} goals",
                            "status": st, "assertions": len(rte),
                            "goals": goal_summary(gl, goals)})
        for cl in cls:
            if cl["function"] not in proven_fns:
                cl["note"] = "function not in the gate"
        n_ok = sum(1 for cl in cls if cl["status"] == "Valid")
        if not gate_ok:
            status = "not proven (the replay of the gate failed)"
        elif cls and n_ok == len(cls):
            status = "proven"
        elif n_ok:
            status = f"partial: {n_ok} of {len(cls)} clauses proven"
        else:
            status = "not proven"
        claims_out.append({"id": c["id"], "statement": c["statement"],
                           "status": status, "clauses_proven": n_ok,
                           "clauses": cls, "does_not_prove": c["not"]})

    div = diversity_data(build, sha(cur_manifest))
    versions = [ln for ln in (read_text(os.path.join(TOP, "proofs/versions.txt")) or "").splitlines()
                if ln and not ln.startswith("#")]
    eva = gate.read_lines(os.path.join(rep, "eva.summary"), [], "EVA summary") or {}
    eva_alarms = eva.get("alarms", "?")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cold = read_text(os.path.join(TOP, report_numbers.COLD)) or ""
    cold_info = report_numbers.read_cold(cold)
    cache_manifest = read_text(os.path.join(TOP, "proofs/cache/MANIFEST")) or ""
    nums, nums_from, nums_notes = report_numbers.numbers(summary, cold)
    for note in nums_notes:
        print(f"report: FAIL: the replay and {report_numbers.COLD} differ: {note}")

    # Per function: postconditions valid / total, and the RTE clause.
    post, rte_col = {}, {}
    rte_claim = next(c for c in claims_out if c["id"] == "rte")
    for fn in proven_fns:
        pr = [r for r in rows if r["function"] == fn and
              r["property kind"] == "postcondition"]
        post[fn] = (sum(1 for r in pr if r["status"] == "Valid"), len(pr))
    for cl in rte_claim["clauses"]:
        n = cl["assertions"]
        rte_col[cl["function"]] = (
            "none" if cl["status"] == "Valid" and n == 0 else
            f"{n} / {n}" if cl["status"] == "Valid" else cl["status"])
    no_rte = [cl["function"] for cl in rte_claim["clauses"]
              if cl["status"] == "Valid" and cl["assertions"] == 0]

    data = {
        "generated": now,
        "source": "make replay (proofs/replay.sh): WP offline from proofs/cache, no solver run",
        "replay": {"passed": replay_ok, "seconds": replay_secs, "reason": replay_why,
                   "inputs_unchanged_since_replay": same_tree},
        "tool_versions": versions,
        "functions_proven": proven_fns,
        "postconditions_of_proven_functions": {
            fn: {"postconditions": t, "valid": v} for fn, (v, t) in post.items()},
        "functions_not_proven": [{"function": f, "note": pending_note.get(f, "")}
                                 for f in not_gated],
        "functions_assumed": [{"function": f, "note": n}
                              for f, n in pending_fns if f not in defined],
        "claims": claims_out,
        "eva": eva,
        "trusted_base": [{"what": a, "why": b} for a, b in TRUSTED],
        "diversity": None if div is None else {
            "source": div["_source"], "current": div["_current"],
            "summary": div.get("summary"), "by_function": div.get("by_function"),
            "single_prover_goals": div.get("single_prover_goals")},
    }
    with open(os.path.join(outdir, "claims.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")

    md = []
    w = md.append
    n_proven = sum(1 for c in claims_out if c["status"] == "proven")
    w("<!-- SPDX-License-Identifier: GPL-2.0-only OR MIT -->")
    w("# hvipi proof report\n")
    w(f"Generated by `make report` (proofs/report.py, {now}) from `make replay`: "
      "the WP gate re-checked from the committed cache `proofs/cache/` (no "
      "solver run), EVA, and Frama-C's Report plugin for the status of each "
      "property.  Tools: " + "; ".join(versions) + ".  Do not edit: "
      "`make report-check` fails on any change.\n")
    if gate_ok:
        w(f"**Replay: PASS** ({replay_secs} s): every goal of the gate is valid "
          "and meets its floor.  A claim's status below is no more than what "
          "those goals establish.\n")
    else:
        why = replay_why or "the sources changed after the replay"
        if replay_ok and not same_tree:
            why = "src/, spec/ or the proof setup changed after the replay; run `make report` again"
        elif replay_ok:
            why = "proofs/cache/MANIFEST is not the manifest of these sources"
        w(f"**Replay: FAIL** ({why}).  Nothing below is claimed as proven.\n")
    if cold_info["total"] is not None:
        tot, smoke = cold_info["total"], cold_info["smoke"] or ("?", "?")
        lem = nums.get("lemmas", ("?", "?"))
        w(f"**Numbers.**  WP {tot[1]} / {tot[0]} goals valid (lemmas included: "
          f"{lem[1]} / {lem[0]}); by prover: Qed {tot[2]}, Z3 {tot[3]}, CVC5 "
          f"{tot[4]}, Script {tot[5]}.  Smoke tests {smoke[0]} / {smoke[1]} "
          f"passed.  EVA {eva_alarms} alarms, statement coverage "
          f"{eva.get('coverage_percent', '?')} %.  Claims {n_proven} of "
          f"{len(claims_out)} proven.\n")
    w("## Where the verdicts come from\n")
    if cold:
        fields = cold_info["fields"]
        w(f"Every solver verdict replayed here was written by one cold run "
          f"(`make refresh-cache`: `make prove` into an empty cache, Z3 and "
          f"CVC5, each goal within the gate's timeouts: 30 s, or the retry "
          f"timeout of `proofs/wp-retry.txt`) on {fields.get('date', '?')}, "
          f"{fields.get('seconds', '?')} s on {fields.get('cores', '?')} cores; its "
          f"numbers are `proofs/cache/COLD-RUN`'s.  The cache's manifest "
          f"(`proofs/cache/MANIFEST`) "
          + ("**equals** the manifest of the sources of this report" if cache_manifest == cur_manifest
             else "**differs** from the manifest of the current sources, so no claim below is proven")
          + f" (sha256 `{sha(cur_manifest)[:16]}...`, `proofs/manifest.sh`).  "
          "Goals Qed closes are decided again by the replay.\n")
    else:
        w("`proofs/cache/COLD-RUN` is missing: the cache does not say which "
          "cold run wrote it, and no claim below is proven.\n")

    w("## Claims\n")
    w("| claim | status | clauses valid / total | goals | carried by |")
    w("| --- | --- | ---: | ---: | --- |")
    for c in claims_out:
        fns = []
        for cl in c["clauses"]:
            if cl["function"] not in fns:
                fns.append(cl["function"])
        ngoals = sum(len(cl["goals"]) for cl in c["clauses"])
        carried = (f"every function's RTE assertions ({len(fns)} functions)"
                   if c["id"] == "rte" else ", ".join(f"`{f}`" for f in fns))
        w(f"| `{c['id']}` | {c['status']} | {c['clauses_proven']} / "
          f"{len(c['clauses'])} | {ngoals} | {carried} |")
    w("")
    w("A claim is *proven* only when the replay passed and every clause "
      "carrying it is Valid in the Report plugin's CSV of the replay (a loop "
      "variant: its WP goals).  A clause of a function that is not in the "
      "gate (`proofs/functions.txt`) is never tried, so its claim is not "
      "proven, whatever the tests say.  Below, each claim: what it states, "
      "its clauses (`file:line`, function, behavior) and what it does not "
      "prove.  Every clause's goals, provers and times: "
      "`build/proof/claims.json`, written by `make report`.\n")
    for c in claims_out:
        w(f"### `{c['id']}`: {c['status']}\n")
        w(c["statement"] + "\n")
        if c["id"] == "rte":
            w("- Clauses: one per function, its RTE assertions (column RTE of "
              "the function table below).")
        else:
            parts = []
            for cl in c["clauses"]:
                where = f"{os.path.basename(cl['file'])}:{cl['line']}"
                what = f"`{cl['function']}`" + (f" {cl['behavior']}" if cl["behavior"] else "")
                parts.append(f"{where} {what}")
            w("- Clauses: " + "; ".join(parts) + ".")
        bad = [cl for cl in c["clauses"] if cl["status"] != "Valid"]
        if bad:
            w("- **Not Valid:** " + "; ".join(
                (f"{os.path.basename(cl['file'])}:{cl['line']} " if cl["line"] else "")
                + f"`{cl['function']}`: {cl['status']}"
                + (f" ({cl['note']})" if cl.get("note") else "")
                for cl in bad) + ".")
        w("- Does not prove: " + c["does_not_prove"] + "\n")

    w("## Functions\n")
    w("The gate's goals per function, each goal counted for the prover "
      "that proved it in the cold run (`proofs/cache/COLD-RUN`); "
      "postconditions and RTE assertions Valid in the replay's CSV.\n")
    w("| function | goals | valid | Qed | Z3 | CVC5 | Script | postconditions | RTE |")
    w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for fn in report_numbers.order(nums):
        r = nums[fn]
        pv, pt = post.get(fn, (0, 0))
        pc = f"{pv} / {pt}" if fn != "lemmas" else "-"
        w(f"| `{fn}` | " + " | ".join(str(x) for x in r) +
          f" | {pc} | {rte_col.get(fn, '-')} |")
    w("")
    if no_rte:
        w("RTE *none*: the RTE plugin annotated the function (the replay's "
          "log says so) and found no operation in it that can fail (its body "
          "only calls, compares, assigns locals and returns): nothing to "
          "prove, so its RTE clause holds.  That is "
          + ", ".join(f"`{f}`" for f in no_rte) + ".\n")
    if not_gated:
        w("**Not in the gate** (every clause of theirs is *not tried*): "
          + "; ".join(f"`{f}`" + (f": {pending_note.get(f)}" if pending_note.get(f) else "")
                      for f in not_gated) + ".\n")
    assumed = [(f, n) for f, n in pending_fns if f not in defined]
    if assumed:
        w("**Bodies never proven**: " + "; ".join(f"`{f}`" + (f" ({n})" if n else "")
                                                 for f, n in assumed) +
          ".  They are in src/hvipi.h, outside the gate; WP proves their "
          "preconditions at every call and assumes their postconditions "
          "(`proofs/ASSUMPTIONS.md`, \"The loads\", says why that is sound).\n")

    w("## EVA\n")
    w(f"EVA (a separate analysis of the whole core from proofs/eva/harness.c): "
      f"{eva_alarms} alarms, statement coverage {eva.get('coverage_percent', '?')} %, "
      f"{eva.get('red_properties', '?')} ACSL properties reported invalid for "
      "some states (EVA's statuses of properties are not WP's; the gate "
      "counts its alarms only).  Not counted as a proof above.\n")
    w("## Prover diversity\n")
    if div is None:
        w("No diversity data: run `make diversity`.\n")
    else:
        s = div.get("summary", {})
        fresh = "of the current sources" if div["_current"] else \
            "**of other sources than the current ones** (run `make diversity`)"
        w(f"`{div['_source']}` ({div.get('generated', '?')}, {fresh}): the "
          "gate's goals re-run with every prover.  Of "
          f"{s.get('goals', '?')} goals, Qed closes {s.get('qed', '?')}; of the "
          f"others, both provers prove {s.get('both', '?')}, only Z3 "
          f"{s.get('z3_only', '?')}, only CVC5 {s.get('cvc5_only', '?')}, "
          f"neither {s.get('neither', '?')} (closed by a WP tactic).  The goals "
          "one prover alone closes are listed in that file.\n")
    w("## Trusted base and assumptions\n")
    w("The named assumptions of the claims, the assumed clauses (the loads' "
      "`first_read`) and why each is sound: `proofs/ASSUMPTIONS.md`.  What "
      "the claims rest on without proof:\n")
    w("| what | trusted for |")
    w("| --- | --- |")
    for a, b in TRUSTED:
        w(f"| {a} | {b} |")
    w("")
    w("## Regenerating this report\n")
    w("- `make report`: `make replay` in one process (no solver), then this "
      "report, `build/proof/claims.json` and README.md's proof-numbers "
      "block.  When src/, spec/ or the proof setup changed, `make "
      "refresh-cache` first (needs Z3 and CVC5).")
    w("- `make report-check` (no solver, no WP run, about a second) fails "
      "when this report or README.md's block no longer matches the sources "
      "and `proofs/cache/`, when either was edited by hand, or when a claim "
      "is not proven.")
    w("- `python3 proofs/report.py --readme` rewrites README.md's block "
      "from this report and `proofs/cache/COLD-RUN` alone.")
    body = "\n".join(md).rstrip() + "\n\n"
    text = report_numbers.stamp(body, cur_manifest, cold, nums_from, gate_ok, eva_alarms)
    path = os.path.join(outdir, "PROOF_REPORT.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    if not args.no_copy:
        shutil.copyfile(path, os.path.join(TOP, report_numbers.REPORT))
    print(f"report: {path}, {os.path.join(outdir, 'claims.json')}"
          + ("" if args.no_copy else f", {report_numbers.REPORT}"))
    # A report with a claim not proven is written (it says which), but
    # make report fails, as make report-check will.
    rc = 0 if gate_ok and not nums_notes and n_proven == len(claims_out) else 1
    if not args.no_copy:
        rc = max(rc, write_readme(text, cold))
    for c in claims_out:
        print(f"report: {c['id']:<22} {c['status']}")
    return rc


def write_readme(report, cold):
    """Set README.md's proof-numbers block from REPORT and COLD-RUN."""
    block, why = report_numbers.expected_readme(report, cold)
    path = os.path.join(TOP, report_numbers.README)
    if block is None:
        print(f"report: FAIL: README.md's proof-numbers block not written: {why}")
        return 1
    new, why = report_numbers.update_readme(read_text(path) or "", block)
    if why:
        print(f"report: FAIL: README.md's proof-numbers block not written: {why}")
        return 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    print("report: README.md: proof-numbers block written")
    return 0


def check():
    """make report-check: no solver, no WP run; see proofs/report_numbers.py."""
    t0 = time.monotonic()
    fails = report_numbers.check([c["id"] for c in CLAIMS])
    for f in fails:
        print(f"report-check: FAIL: {f}")
    secs = time.monotonic() - t0
    if fails:
        print(f"report-check: FAIL ({len(fails)} reason(s), {secs:.1f} s): "
              f"{report_numbers.REPORT} or README.md's proof numbers do not match "
              "the sources and proofs/cache/, or a claim is not proven; regenerate "
              "them with `make report` (after `make refresh-cache` if the cache is "
              "stale), see CONTRIBUTING.md")
        return 1
    cold = report_numbers.read_cold(read_text(os.path.join(TOP, report_numbers.COLD)))
    smoke = cold["smoke"] or ("?", "?")
    print(f"report-check: PASS ({secs:.1f} s): {report_numbers.REPORT} and README.md's "
          f"proof numbers describe the current sources and proofs/cache/ "
          f"({cold['total'][0]} goals, {smoke[0]}/{smoke[1]} smoke tests, "
          f"{len(CLAIMS)} of {len(CLAIMS)} claims proven)")
    return 0


def readme_only():
    """--readme: README.md's block from the committed report and COLD-RUN."""
    return write_readme(read_text(os.path.join(TOP, report_numbers.REPORT)),
                        read_text(os.path.join(TOP, report_numbers.COLD)))


if __name__ == "__main__":
    sys.exit(main())
