# spraynic — top-level make targets. `make` alone prints this help.
# Every target that needs an external tool depends on `deps`, which installs missing Debian packages when run as
# root and otherwise names them.

SHELL := /bin/bash
GO ?= go
BIN := build/bin/spraynic
SPRAYNIC := $(BIN)
SUITE ?= smoke
JOBS ?= 0
SEED ?= 1
CONFIG ?= default
RTL := $(wildcard rtl/*.v)
# Tool -> Debian package, for `make deps`.
DEPS := verilator:verilator iverilog:iverilog g++:g++ make:make genhtml:lcov tshark:tshark \
  yosys:yosys yosys-smtbmc:yosys cvc4:cvc4
DEPS_HEADERS := /usr/include/zlib.h:zlib1g-dev

.PHONY: help deps lint build models test regress bench clean cov cov-check cov-nightly cov-baseline slurm-up slurm-test sim sweep \
  formal formal-nightly regmap

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 12

# install_missing: $(1) names the target in messages, $(2) lists tool:package pairs, $(3) file:package pairs.
# As root with apt-get it installs the missing packages; otherwise it stops and names the apt-get line to run.
define install_missing
@missing=""; \
for d in $(2); do command -v $${d%%:*} >/dev/null 2>&1 || missing="$$missing $${d#*:}"; done; \
for d in $(3); do [ -e $${d%%:*} ] || missing="$$missing $${d#*:}"; done; \
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo "$(1): installing$$missing"; \
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
  else \
    echo "$(1): missing packages:$$missing — install them with: sudo apt-get install -y$$missing" >&2; exit 1; \
  fi; \
fi
endef

deps: ## install missing tools (apt-get as root), else name the packages to install
	@command -v $(GO) >/dev/null 2>&1 || { echo "deps: Go is missing: install the Go version of go.mod's go line (https://go.dev/dl) and retry" >&2; exit 1; }
	$(call install_missing,deps,$(DEPS),$(DEPS_HEADERS))

$(BIN): $(shell find cmd bench config cosim coverage formal fpga golden regmap regress scoreboard stimulus system tops -name '*.go' -o -name '*.json' -o -name '*.tmpl' 2>/dev/null) go.mod
	@mkdir -p $(dir $@)
	$(GO) build -buildvcs=auto -o $@ ./cmd/spraynic

build: $(BIN) ## build the CLI, build/bin/spraynic (Go only: sim, gen and config need nothing else)

regmap: $(BIN) ## generate rtl/nic_roce_regs.vh and the register table of docs/nic_roce.md from package regmap
	$(SPRAYNIC) regmap

models: deps $(BIN) ## build (or find in the cache) the Verilator model of every top and preset
	@for c in $$($(SPRAYNIC) config list); do $(SPRAYNIC) build-models --config $$c || exit 1; done

lint: deps $(BIN) ## verilator -Wall per top and preset, iverilog -g2005, go vet, gofmt
	@set -e; for top in $$($(SPRAYNIC) tops); do for c in $$($(SPRAYNIC) config list); do \
	  echo "verilator --lint-only -Wall $$top ($$c)"; \
	  verilator --lint-only -Wall -Irtl rtl/lint.vlt $$($(SPRAYNIC) tops --files $$top) --top-module $$top $$($(SPRAYNIC) config params --top $$top $$c); \
	done; done
	iverilog -g2005 -Wall -Irtl -o /dev/null $(RTL)
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change: $$out" >&2; exit 1; fi; echo "gofmt: clean"

test: lint ## lint + Go unit tests + co-simulation smoke tests (SEED=N to reproduce)
	@echo "co-simulation seed: SEED=$(SEED) (make test SEED=N runs another)"
	SEED=$(SEED) $(GO) test -count=1 -timeout 75m ./...

regress: deps $(BIN) ## the smoke regression over seeds and presets, table + JSON + JUnit (SUITE=nightly for more)
	@mkdir -p build
	$(SPRAYNIC) regress --suite $(SUITE) --jobs $(JOBS) --seed $(SEED) --json build/regress.json --junit build/regress.xml

bench: deps $(BIN) ## per block and nic_transport: raw Verilator, lockstep, Icarus, golden; 2-endpoint and frame-level systems; seeds/min; figures
	@mkdir -p build
	$(SPRAYNIC) bench --config $(CONFIG) --seed $(SEED) --json build/bench.json

# Formal property sets (formal/presets.json, docs/formal.md): SMT2 models by yosys, BMC + k-induction + cover by
# yosys-smtbmc, two solver processes at a time. The ci suite fits CI; formal-nightly adds the deeper checks.
formal: deps $(BIN) ## prove the RTL property sets of the ci suite: table, build/formal/, JUnit build/formal.xml
	@mkdir -p build
	$(SPRAYNIC) formal --suite ci --jobs 2 --junit build/formal.xml

# The nightly checks get a 4-hour solver limit: rx_reorder_bmc's BMC 6 runs past the default 20 minutes.
# Then the mutation test with its nightly mutants too (SPRAYNIC_MUTANTS=all; docs/formal.md).
formal-nightly: deps $(BIN) ## every formal check (ci + nightly: deeper BMC), JUnit build/formal-nightly.xml
	@mkdir -p build
	$(SPRAYNIC) formal --suite nightly --jobs 2 --timeout 4h --junit build/formal-nightly.xml
	SPRAYNIC_MUTANTS=all $(GO) test -count=1 -timeout 3h -run TestMutantsFail ./formal/

sim: $(BIN) ## one end-to-end run of the golden transport over the network model (ARGS="--loss 0.01 ...")
	$(SPRAYNIC) sim --seed $(SEED) $(ARGS)

sweep: $(BIN) ## end-to-end goodput and p99 vs loss, spray and go-back-N, 2/4/8 paths: table + build/sweep/
	$(SPRAYNIC) sim sweep --seed $(SEED) --duration-us 2000 --path-counts 2,4,8 $(ARGS)

# Coverage of one preset (CONFIG, default `default`: the one CI compares) has its own committed baseline and
# output directory: coverage/baseline.json and build/coverage for `default`, coverage/baseline-<preset>.json and
# build/coverage-<preset> for the others.
COV_SUFFIX := $(if $(filter default,$(CONFIG)),,-$(CONFIG))
COV_BASELINE := coverage/baseline$(COV_SUFFIX).json
COV_OUT := build/coverage$(COV_SUFFIX)

cov: deps $(BIN) ## line+toggle coverage of the smoke suite on CONFIG (default), compared with its committed baseline
	$(SPRAYNIC) cov run --suite smoke --config $(CONFIG) --jobs $(JOBS) --out $(COV_OUT)
	$(SPRAYNIC) cov diff $(COV_BASELINE) $(COV_OUT)/coverage.json

cov-check: $(BIN) ## check the last `make cov` of CONFIG against the targets (line 95%, toggle net 90%, 100% reachable bins)
	$(SPRAYNIC) cov check $(COV_OUT)/coverage.json

# The nightly coverage job: the nightly suite (every test, every preset, 20 seeds, 5x longer) on the coverage
# models, then the targets. SHARD=i/n runs one shard into build/coverage-nightly-<i>; `spraynic cov merge` joins
# the shard directories (docs/coverage.md, "Targets and the nightly job").
cov-nightly: deps $(BIN) ## nightly coverage job: nightly suite with coverage, then the targets (SHARD=i/n for one shard)
ifeq ($(SHARD),)
	$(SPRAYNIC) cov run --suite nightly --jobs $(JOBS) --out build/coverage-nightly
	$(SPRAYNIC) cov check build/coverage-nightly/coverage.json
else
	$(SPRAYNIC) cov run --suite nightly --jobs $(JOBS) --shard $(SHARD) --out build/coverage-nightly-$(firstword $(subst /, ,$(SHARD)))
endif

cov-baseline: deps $(BIN) ## the one command that rewrites the coverage baseline of CONFIG (coverage/baseline.json for default)
	$(SPRAYNIC) cov baseline --run --config $(CONFIG) --jobs $(JOBS) --out $(COV_OUT) --file $(COV_BASELINE)

slurm-up: ## start a local single-node Slurm (root; installs slurm-wlm and munge)
	slurm/start-local.sh

slurm-test: deps $(BIN) slurm-up ## submit a sharded regression to the local Slurm, merge, compare with a local run
	set -o pipefail; SPRAYNIC_REQUIRE_SLURM=1 $(GO) test -count=1 -run TestSlurmArray -v ./regress/ | grep -E '^(=== RUN|--- |ok|FAIL|PASS)'

clean: ## remove build outputs and cached models
	rm -rf build

# ---- FPGA synthesis flows (fpga/, docs/fpga.md) ---------------------------------------------------------------
# Every flow iterates over rtl/manifest.json and takes its parameters from config/presets.json through the CLI.
# BOARD=<name> for synth (spraynic synth --help lists the boards); TOP=<top> limits synth to one top; FORCE=1
# reruns the tools even when a report with the same inputs (sources, parameters, tools) exists.
BOARD ?=
TOP ?=
FORCE ?=
# Tool -> Debian package, for `make deps-fpga`.
DEPS_FPGA := yosys:yosys nextpnr-ice40:nextpnr-ice40 icepack:fpga-icestorm tclsh:tcl verilator:verilator
FPGA_FLAGS = --jobs $(JOBS) $(if $(FORCE),--force)

.PHONY: deps-fpga synth synth-all fpga-baseline fpga-check fpga-bounds

# the CLI also embeds fpga/ (an extra prerequisite; the rule above stays as it is)
$(BIN): $(wildcard fpga/*.go fpga/*.tcl)

deps-fpga: ## install missing FPGA tools (yosys, nextpnr-ice40, fpga-icestorm, tcl) as root, else name them
	$(call install_missing,deps-fpga,$(DEPS_FPGA),)

synth: deps deps-fpga $(BIN) ## lint + yosys (+ nextpnr/icepack on iCE40) per top, BOARD=name [TOP=top]
	$(SPRAYNIC) synth $(if $(BOARD),--board $(BOARD)) $(if $(TOP),--top $(TOP)) $(FPGA_FLAGS)

synth-all: deps deps-fpga $(BIN) ## synth on every board, every top not marked synth_when_named
	$(SPRAYNIC) synth --all $(FPGA_FLAGS)

fpga-baseline: deps deps-fpga $(BIN) ## the one command that rewrites fpga/baseline.json (and spraynic.core)
	$(SPRAYNIC) fpga-baseline $(FPGA_FLAGS)

fpga-check: deps deps-fpga $(BIN) ## compare the baseline boards with fpga/baseline.json (>5% worse fails)
	$(SPRAYNIC) synth --check $(FPGA_FLAGS)

# The one-connection recurrences of the three blocks alone (fpga/bounds/, docs/fpga.md "Targets"): Fmax on the
# HX8K with the flow's nextpnr options, seeds 1-4. Measurement fixtures, not design: not in the manifest.
BOUNDS_DIR := build/fpga-bounds
# modules the fixtures share (fpga/bounds/lib/), read with each fixture, not measured alone
BOUNDS_LIB := $(wildcard fpga/bounds/lib/*.v)
fpga-bounds: deps deps-fpga ## Fmax of each block's bare recurrence on the iCE40 HX8K (fpga/bounds/*.v, seeds 1-4)
	@set -e; mkdir -p $(BOUNDS_DIR); for f in fpga/bounds/*.v; do m=$$(basename $$f .v); \
	  verilator --lint-only -Wall $$f $(BOUNDS_LIB) --top-module $$m; \
	  yosys -q -l $(BOUNDS_DIR)/$$m.yosys.log -p "read_verilog $$f $(BOUNDS_LIB); synth_ice40 -top $$m; write_json $(BOUNDS_DIR)/$$m.json" >/dev/null 2>&1; \
	  line="$$m:"; for s in 1 2 3 4; do \
	    nextpnr-ice40 --hx8k --package ct256 --json $(BOUNDS_DIR)/$$m.json --seed $$s --freq 100 --timing-allow-fail \
	      --report $(BOUNDS_DIR)/$$m.$$s.json -l $(BOUNDS_DIR)/$$m.$$s.log -q >/dev/null 2>&1; \
	    line="$$line $$(sed -n 's/.*"achieved": *\([0-9.]*\).*/\1/p' $(BOUNDS_DIR)/$$m.$$s.json | xargs printf '%.2f')"; done; \
	  echo "$$line MHz (nextpnr-ice40 --hx8k --package ct256 --seeds 1-4)"; done

# ---- Interop peer: Linux Soft-RoCE in a VM (interop/, docs/interop.md) -----------------------------------------
# The image is built from Debian packages only (interop/packages.txt) and booted under qemu's software emulation;
# neither needs root with user-mode networking. INTEROP_NET=tap (root, /dev/net/tun) puts the NIC on a host tap.
# Tool -> Debian package, for `make deps-interop`.
DEPS_INTEROP := qemu-system-x86_64:qemu-system-x86 cpio:cpio readelf:binutils dpkg-deb:dpkg tshark:tshark
INTEROP_DIR := build/interop

.PHONY: deps-interop interop-image interop-peer-check interop-shell interop

deps-interop: ## install the interop host tools (qemu-system-x86, cpio, binutils, tshark) as root, else name them
	$(call install_missing,deps-interop,$(DEPS_INTEROP),)

$(INTEROP_DIR)/initrd.gz: interop/build-image.sh interop/init interop/packages.txt | deps-interop
	interop/build-image.sh $(INTEROP_DIR)

interop-image: $(INTEROP_DIR)/initrd.gz ## Soft-RoCE peer VM from Debian packages: kernel + rdma_rxe + verbs tools, build/interop/
	@grep -E '^(vmlinuz|initrd)_bytes' $(INTEROP_DIR)/image.txt | sed 's/^/interop-image: /'

interop-peer-check: deps-interop $(INTEROP_DIR)/initrd.gz ## boot the peer (qemu TCG), rxe0 on its NIC, ibv_rc_pingpong inside it
	interop/peer-check.sh $(INTEROP_DIR)

interop: deps-interop $(INTEROP_DIR)/initrd.gz ## spraynic's RC endpoint vs the VM's ibv_rc_pingpong over a tap (root), both roles, loss
	$(GO) build -o $(INTEROP_DIR)/spraynic ./cmd/spraynic
	interop/interop.sh $(INTEROP_DIR) $(INTEROP_DIR)/spraynic

interop-shell: deps-interop $(INTEROP_DIR)/initrd.gz ## boot the peer to a busybox shell with rxe0 up (Ctrl-A X quits qemu)
	INTEROP_MODE=shell interop/peer-check.sh $(INTEROP_DIR)
