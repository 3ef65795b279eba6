#!/usr/bin/env bash
# End-to-end test of `plateau serve` in a real headless browser: builds plateau, starts the server on a free port,
# plays a full Breakthrough 5x5 game by clicks against the engine (tests/e2e/play.mjs), checks the thinking panel and
# the tree view, (tests/e2e/solver.mjs) the Solver panel's cells, progress and Cancel on a desktop and a phone, (tests/e2e/backgammon.mjs) backgammon
# played by clicking checkers and stepping through a game in progress, (tests/e2e/clock.mjs) clocks and a flag fall,
# then
# (tests/e2e/tournament.mjs) follows a 40-player tournament in the page's Tournament view while it
# runs, is killed and resumed; saves screenshots under target/e2e/. Installs Debian's chromium and npm's playwright-core if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
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
cargo build --quiet
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
tour="$root/target/e2e/tournament"
rm -rf "$tour" && mkdir -p "$tour"
./target/debug/plateau serve --port "$port" --tournament "$tour/results.jsonl,$tour/record.pgn" 2> target/e2e-serve.log &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$port/api/games" >/dev/null 2>&1 && break
  sleep 0.2
done
node tests/e2e/play.mjs "http://127.0.0.1:$port/" "$root/target/e2e"
node tests/e2e/solver.mjs "http://127.0.0.1:$port/" "$root/target/e2e"
node tests/e2e/backgammon.mjs "http://127.0.0.1:$port/" "$root/target/e2e"
node tests/e2e/clock.mjs "http://127.0.0.1:$port/" "$root/target/e2e"
node tests/e2e/tournament.mjs "http://127.0.0.1:$port/" "$root/target/e2e" "$root/target/debug/plateau" \
  "$tour/results.jsonl" "$tour/record.pgn"
