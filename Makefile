# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# hvipi: the two commands.
#
#   make prove   every proof (WP with Z3 and CVC5, smoke tests, EVA), then a
#                summary; fails unless every goal is valid, every function
#                meets its goal floor and EVA raises no alarm
#   make test    every test: receiver model, unit (cmocka), exhaustive,
#                randomized, fuzz smoke, sanitizers, kernel module build,
#                userspace asm test, QEMU self-test, and the in-tree
#                drop-in: a kernel built with the patch series and booted
#                under QEMU with a test-only Hyper-V platform
#
# Each installs what it lacks with apt-get (as root, Debian 12) and says so.
# Other targets: kernel, qemu-test, intree-boot, fuzz (FUZZ_SECONDS=N), clean,
# diary-check (no tracked file reads like a work log),
# bench (instruction counts vs the real Linux code and the Linux reference;
# BENCH_STRICT=1).
# Proof upkeep (CONTRIBUTING.md): replay (the gate from the committed WP
# cache, no solver), refresh-cache, report, diversity, mutants
# (MUTANTS=id,...), smoke-faults (the planted vacuity faults of
# proofs/smoke-faults/ against the smoke tests, about 4 minutes).

BUILD := $(CURDIR)/build
RESULTS := $(BUILD)/results
# The suites of tests/ run TEST_JOBS at a time (CI has 2 cores; each suite
# is one process and writes only its own counts and logs).
TEST_JOBS ?= 2

PROVE_PKGS := gcc frama-c-base why3 z3 cvc5 python3 sparse
TEST_PKGS := $(sort $(shell cat tests/packages.txt kernel-glue/packages.txt | grep -v '^\#'))

# $(call ensure,PACKAGES): install the Debian packages that are missing.
define ensure
	@missing=""; \
	for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then \
		echo "hvipi: needed packages present: $(strip $(1))"; \
	else \
		echo "hvipi: installing missing packages with apt-get:$$missing"; \
		if [ "$$(id -u)" != 0 ]; then echo "hvipi: run as root to install$$missing" >&2; exit 1; fi; \
		apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing || exit 1; \
	fi
endef

.PHONY: prove test deps-prove deps-test kernel qemu-test intree-boot fuzz clean bench
.PHONY: replay replay-test refresh-cache report diversity mutants mutants-status smoke-faults

# After the gate: does the committed cache proofs/cache/ hold every proof
# of this run, so that make replay (no solver) would pass?  Checked from
# the two caches' file names in a second (proofs/cache-cover.py); when that
# cannot tell, make replay-test itself decides.  HVIPI_CACHE_CHECK=0 skips
# it while src/ or spec/ differ from the committed cache's.
prove: deps-prove
	sh proofs/prove.sh $(BUILD)
	@if [ "$${HVIPI_CACHE_CHECK:-1}" = 0 ]; then \
		echo "hvipi: make prove: replay check skipped (HVIPI_CACHE_CHECK=0)"; \
	elif ! python3 proofs/cache-cover.py "$${HVIPI_WP_CACHEDIR:-$(BUILD)/proof/cache}"; then \
		echo "hvipi: make prove: make replay-test decides (make replay with z3 and cvc5 off the PATH)"; \
		$(MAKE) replay-test BUILD=$(BUILD); \
	fi

deps-prove:
	$(call ensure,$(PROVE_PKGS))

deps-test:
	$(call ensure,$(TEST_PKGS))

# Runs every suite even when one fails, then prints one summary line.
test: deps-test
	@rm -rf $(RESULTS); mkdir -p $(RESULTS); rc=0; t00=$$(date +%s); \
	step() { what=$$1; shift; t0=$$(date +%s); "$$@" || rc=1; \
		echo "hvipi: make test: $$what took $$(($$(date +%s) - t0)) s"; }; \
	echo "hvipi: make test: building the test programs (make -j2)"; \
	step build $(MAKE) -j2 -C tests bins BUILD=$(BUILD); \
	step bench-build $(MAKE) -j2 -C bench bins BUILD=$(BUILD); \
	echo "hvipi: make test: the suites $(TEST_JOBS) at a time (make -j$(TEST_JOBS), each suite's output kept together)"; \
	step tests $(MAKE) -j$(TEST_JOBS) --output-sync=target -C tests test BUILD=$(BUILD); \
	step kernel $(MAKE) -C kernel-glue kernel BUILD=$(BUILD); \
	step asm-test $(MAKE) -C kernel-glue asm-test BUILD=$(BUILD); \
	step qemu-test $(MAKE) -C kernel-glue qemu-test BUILD=$(BUILD); \
	step intree-boot $(MAKE) -C kernel-glue intree-boot BUILD=$(BUILD); \
	pass=0; fail=0; \
	for f in $(RESULTS)/*.counts; do \
		[ -f "$$f" ] || continue; \
		read p q < "$$f"; \
		printf 'hvipi: %-22s %8s passed %4s failed\n' "$$(basename $$f .counts)" "$$p" "$$q"; \
		pass=$$((pass + p)); fail=$$((fail + q)); \
	done; \
	if [ $$rc != 0 ] && [ $$fail = 0 ]; then fail=1; echo "hvipi: a suite failed before writing its counts"; fi; \
	for f in $(RESULTS)/*.fails; do \
		[ -s "$$f" ] || continue; \
		echo "hvipi: $$(basename $$f .fails): what failed"; sed 's/^/  /' "$$f"; \
	done; \
	echo "$$pass passed, $$fail failed (make test: $$(($$(date +%s) - t00)) s)"; \
	[ $$rc = 0 ] && [ $$fail = 0 ]

kernel: deps-test
	$(MAKE) -C kernel-glue kernel BUILD=$(BUILD)

qemu-test: deps-test
	$(MAKE) -C kernel-glue qemu-test BUILD=$(BUILD)

# The patch series kernel-glue/intree/series/ applied to linux-source-6.1,
# a small kernel built and booted under QEMU TCG with the test-only
# Hyper-V platform: the kernel's own IPIs and TLB flushes through the
# drop-in from boot (kernel-glue/intree/README.md).
intree-boot: deps-test
	$(MAKE) -C kernel-glue intree-boot BUILD=$(BUILD)

fuzz: deps-test
	$(MAKE) -C tests fuzz BUILD=$(BUILD) FUZZ_SECONDS=$(or $(FUZZ_SECONDS),600)

# Instruction counts (callgrind), hvipi (core, and glue + core) vs the real
# Linux 6.1 IPI ops (Debian's linux-source-6.1, extracted into build/ by
# tests/kernel_ref/extract.sh, re-run first: a no-op when up to date) and
# vs the Linux reference model: a table, PASS/FAIL per target,
# build/bench.json; exits 0 unless BENCH_STRICT=1 and a target fails (see
# bench/README.md).
BENCH_PKGS := gcc libc6-dev valgrind linux-source-6.1

bench:
	$(call ensure,$(BENCH_PKGS))
	sh tests/kernel_ref/extract.sh $(BUILD)/kernel_ref/src
	$(MAKE) -C bench bench BUILD=$(BUILD)

# The WP gate re-checked from the committed cache proofs/cache/, with no
# solver (proofs/replay.sh); the cache is rewritten by refresh-cache (runs
# make prove: needs z3 and cvc5).  report writes the per-claim proof
# report from a replay; diversity re-proves with every prover; mutants
# plants faults in copies of src/hvipi.c and re-proves them.
REPLAY_PKGS := gcc frama-c-base why3 python3 sparse

replay:
	$(call ensure,$(REPLAY_PKGS))
	sh proofs/replay.sh $(BUILD)

# make replay with z3 and cvc5 off the PATH (make prove runs it when
# proofs/cache-cover.py cannot show that the replay would pass).
replay-test:
	@mkdir -p $(RESULTS); \
	path=$$(sh proofs/nosolver-path.sh $(BUILD)/nosolver-path) || exit 1; \
	if PATH=$$path sh -c 'command -v z3 || command -v cvc5'; then \
		echo "hvipi: replay-test: a solver is still on the PATH" >&2; \
		echo "0 1" > $(RESULTS)/replay.counts; exit 1; \
	fi; \
	echo "hvipi: replay-test: make replay with z3 and cvc5 off the PATH"; \
	if PATH=$$path $(MAKE) replay BUILD=$(BUILD); then c="1 0"; else c="0 1"; fi; \
	echo "$$c" > $(RESULTS)/replay.counts; [ "$$c" = "1 0" ]

refresh-cache: deps-prove
	sh proofs/refresh-cache.sh $(BUILD)

report:
	$(call ensure,$(REPLAY_PKGS))
	@rc=0; HVIPI_WP_JOBS=1 sh proofs/replay.sh $(BUILD) || rc=1; \
	python3 proofs/report.py --build $(BUILD) || rc=1; exit $$rc

# Fails when proofs/PROOF_REPORT.md or README.md's proof-numbers block no
# longer match the sources and proofs/cache/, when a claim of the report is
# not proven, or when proofs/MUTANTS.md's table of the mutants on the
# current sources no longer matches the committed runs (no solver, no WP
# run; about a second); CI runs it first.  make report and
# proofs/mutants/status.py --write regenerate them.
.PHONY: report-check
report-check:
	$(call ensure,python3)
	@rc=0; python3 proofs/report.py --check || rc=1; \
	python3 proofs/mutants/status.py --check || rc=1; exit $$rc

# Fails, listing path:line, when a tracked file dates a fact by the work
# session it came from instead of stating it as it is (.ci/diary-check.py
# says which wording; git and python3, under a second); CI runs it second.
.PHONY: diary-check
diary-check:
	$(call ensure,python3)
	@python3 .ci/diary-check.py

diversity: deps-prove
	sh proofs/diversity.sh $(BUILD)

mutants: deps-prove
	python3 proofs/mutants/run.py --build $(BUILD) $(if $(MUTANTS),--only $(MUTANTS)) $(if $(MUTANTS_FULL),--full)

# Which mutants the committed runs (proofs/mutants/*-run.json) kill on
# these sources (their manifest digest); fails unless all are.  No WP run.
mutants-status:
	$(call ensure,python3)
	python3 proofs/mutants/status.py

smoke-faults: deps-prove
	$(call ensure,patch)
	sh proofs/smoke-faults/run.sh $(BUILD)

clean:
	rm -rf $(BUILD)
