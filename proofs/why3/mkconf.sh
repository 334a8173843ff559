#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Write the project's own Why3 configuration (never ~/.why3.conf).
# usage: mkconf.sh OUT.conf
# Z3 and cvc5 are registered by hand with the versions recorded in
# proofs/versions.txt, so that the configuration is the same on every machine.
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
datadir=$(why3 --print-datadir)
libdir=$(why3 --print-libdir)
outdir=$(cd "$(dirname "$out")" && pwd)
sed "s|@DATADIR@|$datadir|" "$here/cvc5.drv.in" > "$outdir/cvc5.drv"
cat > "$out" <<CONF
[main]
datadir = "$datadir"
libdir = "$libdir"
magic = 14
memlimit = 2000
running_provers_max = 2
timelimit = 10

[prover]
command = "z3 -smt2 -T:%t sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 -st %f"
command_steps = "z3 -smt2 sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 memory_max_size=%m rlimit=%S -st %f"
driver = "z3_471"
in_place = false
interactive = false
name = "Z3"
shortcut = "z3"
version = "4.8.12"

[prover]
command = "cvc5 --stats --tlimit-per=%t000 --lang=smt2 %f"
command_steps = "cvc5 --stats --rlimit=%S --lang=smt2 %f"
driver = "$outdir/cvc5.drv"
in_place = false
interactive = false
name = "CVC5"
shortcut = "cvc5"
version = "1.0.3"
CONF
