#!/usr/bin/env bash
# A short, bounded fuzz run of the core for CI (issue 7: "never poisoned").
#
#   bash scripts/fuzz-ci.sh            # ~45 s of fuzzing after the build
#   FUZZ_SECONDS=600 bash scripts/fuzz-ci.sh
#
# The target (fuzz/fuzz_targets/core.rs) drives routing, both policy seams, the gate
# and NameList::from_parts with arbitrary input and checks every answer against
# the naive model in tests/model/. Any panic or mismatch fails the run; libFuzzer leaves
# the input in fuzz/artifacts/core/ (reproduce with `cargo fuzz run core <file>`).
#
# cargo-fuzz needs nightly flags (-Zsanitizer): only stable Rust is installed, so
# RUSTC_BOOTSTRAP=1 lets the stable compiler accept them.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
  cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked
fi

export RUSTC_BOOTSTRAP=1
seconds="${FUZZ_SECONDS:-45}"
mkdir -p fuzz/corpus/core
cd fuzz
# -timeout: one input taking >10 s is a hang; -rss_limit_mb: runaway allocation is a finding.
cargo fuzz run core corpus/core -- \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
echo "fuzz: core survived ${seconds} s"
