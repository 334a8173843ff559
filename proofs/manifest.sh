#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Print the manifest of the proof inputs of a source tree: one
# `sha256  path` line (sha256sum format) per file the WP goals, their
# selection or their cache keys depend on.  proofs/refresh-cache.sh stores
# it as proofs/cache/MANIFEST; proofs/replay.sh compares it with the
# working tree to tell a stale cache from a broken proof.
#
# usage: proofs/manifest.sh [TREE]     (default: the repository)
set -eu
tree=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$tree"
# The sources and the logic, the gate's selection and options, the tool
# versions, and what names the provers and prints their input (the cache
# key is a digest of the prover name and version and of the task as the
# Why3 driver prints it).
printf '%s\n' src/*.c src/*.h spec/*.h proofs/functions.txt proofs/load-models.txt \
	proofs/wp-options.txt proofs/wp-retry.txt proofs/versions.txt proofs/why3/cvc5.drv.in \
	proofs/why3/mkconf.sh proofs/why3/replay.conf | LC_ALL=C sort | while read -r f; do
	sha256sum "$f"
done
