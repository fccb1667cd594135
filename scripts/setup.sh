#!/usr/bin/env bash
# Installs everything the build and the tests need, idempotently: the wasm target, the pinned
# wasm-bindgen CLI into .tools/, npm dependencies, and Debian's Chromium for browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.129   # must equal the `wasm-bindgen` pin in Cargo.toml

step() { printf '\n== setup: %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(.tools/bin/wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  step "wasm-bindgen-cli $WASM_BINDGEN_VERSION into .tools/ (about 1.5 minutes, once)"
  # Unoptimised and without TLS (the default `rustls-tls` feature only serves the test runner's
  # remote webdrivers; the wasm tests run in Node): 1 min 35 s to compile instead of 3 min 10 s on
  # 2 cores. The CLI's output is the same byte for byte (checked on pkg/wasm: shardwise_bg.wasm
  # and shardwise.js); it runs in 1.2 s instead of 0.4 s on the package's .wasm.
  CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_DEBUG=0 \
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --root .tools --no-default-features
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci"
  # Some platform-specific optional packages of jest's resolver are not served by every
  # registry mirror, which makes `npm ci` refuse the lock file; `npm install` honours it anyway.
  npm ci --no-audit --no-fund || npm install --no-audit --no-fund --no-save
fi

if [ ! -x /usr/bin/chromium ] && [ "${SHARDWISE_SKIP_BROWSER:-}" != 1 ]; then
  step "Debian chromium (browser tests)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
