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
  step "wasm-bindgen-cli $WASM_BINDGEN_VERSION into .tools/ (about 2 minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --root .tools
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
