#!/usr/bin/env bash
# What the end-to-end test needs besides plateau: Debian's chromium and npm's playwright-core (tests/e2e/package.json).
# Installs whichever is missing; does nothing when both are there. tests/e2e/run.sh calls it; .ci/run also starts it
# early, in the background, so the downloads overlap the Rust build.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium (Debian package)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 \
    || sudo -n apt-get install -y -qq chromium >/dev/null 2>&1 || true
  [ -x /usr/bin/chromium ] || { echo "e2e: chromium is needed (apt-get install chromium) and could not be installed"; exit 1; }
fi
command -v npm >/dev/null || { echo "e2e: npm is needed (Node.js) to install playwright-core"; exit 1; }
if [ ! -d tests/e2e/node_modules/playwright-core ]; then
  echo "== installing playwright-core (npm)"
  (cd tests/e2e && npm install --no-audit --no-fund --silent) \
    || { echo "e2e: could not install playwright-core from npm"; exit 1; }
fi
