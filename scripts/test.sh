#!/usr/bin/env bash
# npm test: set-up, build, then every suite: native Rust, wasm in Node, the built package
# through its exports (node --test), and headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
node scripts/build.mjs

echo; echo "== cargo test (native)"
cargo test --quiet

# 30 s of the targets together: CI's cold run is to stay under 20 minutes (1,152-1,434 s with 60 s
# here); SHARDWISE_FUZZ_SECONDS=600 npm test searches longer.
echo; echo "== fuzz (native, about 30 s)"
SHARDWISE_FUZZ_SECONDS=${SHARDWISE_FUZZ_SECONDS:-30} cargo test --quiet --test fuzz -- --nocapture

# --release: the dependencies are the ones `npm run build` compiled for wasm (release profile),
# not a third full compilation; the tests run against the code as it ships.
echo; echo "== cargo test --release --target wasm32-unknown-unknown (wasm-bindgen tests in Node)"
# The build's rustflags too (scripts/lib/machine-paths.mjs), or every dependency compiles again.
mapfile -t WASM_CONFIG < <(node scripts/lib/machine-paths.mjs)
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$PWD/.tools/bin/wasm-bindgen-test-runner" \
  cargo test --release --target wasm32-unknown-unknown --test wasm "${WASM_CONFIG[@]}"

echo; echo "== node --test js-tests (package through its exports, Node and headless Chromium)"
# Three files at a time, the longest first (scripts/node-tests.mjs says why).
node scripts/node-tests.mjs
