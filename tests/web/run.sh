#!/usr/bin/env bash
# The page of `qchess serve` in a real browser (docs/web.md, "How it is tested"): Debian's
# Chromium driven by playwright-core (pinned in tests/web/package-lock.json), with node's own
# test runner. Installs Chromium with apt-get when /usr/bin/chromium is missing (CI runs as
# root) and the npm package with `npm ci`. Each test file starts its own server on a free port
# of 127.0.0.1 and stops it with SIGINT. Screenshots: target/web-screenshots/*.png.
# Usage: bash tests/web/run.sh [path/to/qchess]   (default: target/release/qchess, built first)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
if [ $# -eq 0 ]; then
    cargo build --release -q -p qc-cli
    QCHESS_BIN="$ROOT/target/release/qchess"
else
    QCHESS_BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
fi
export QCHESS_BIN
if [ ! -x /usr/bin/chromium ]; then
    echo "== installing Debian's chromium"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium > /dev/null
fi
/usr/bin/chromium --version 2>/dev/null
node --version
cd "$ROOT/tests/web"
npm ci --no-audit --no-fund --loglevel=error
rm -rf "$ROOT/target/web-screenshots"
node --test --test-concurrency=1 --test-reporter=spec play.test.js races.test.js features.test.js panels.test.js fuzz.test.js
echo "screenshots: $(ls "$ROOT/target/web-screenshots" | wc -l) in target/web-screenshots/"
