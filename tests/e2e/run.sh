#!/usr/bin/env bash
# End-to-end test of `plateau serve` in a real headless browser: starts the server on a free port, plays a full
# Breakthrough 5x5 game by clicks against the engine (tests/e2e/play.mjs), checks the thinking panel and the tree view,
# (tests/e2e/solver.mjs) the Solver panel's cells, progress and Cancel on a desktop and a phone,
# (tests/e2e/backgammon.mjs) backgammon played by clicking checkers and stepping through a game in progress,
# (tests/e2e/clock.mjs) clocks and a flag fall, then (tests/e2e/tournament.mjs) follows a 40-player tournament in the
# page's Tournament view while it runs, is killed and resumed; saves screenshots under target/e2e/.
# Installs Debian's chromium and npm's playwright-core if missing (tests/e2e/install.sh). Builds plateau (`cargo
# build`) unless PLATEAU_BIN names a binary already built (CI passes the one `cargo test` built).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
tests/e2e/install.sh
if [ -n "${PLATEAU_BIN:-}" ]; then
  [ -x "$PLATEAU_BIN" ] || { echo "e2e: PLATEAU_BIN=$PLATEAU_BIN is not an executable"; exit 1; }
  bin=$(cd "$(dirname "$PLATEAU_BIN")" && pwd)/$(basename "$PLATEAU_BIN")
else
  cargo build --quiet
  bin="$root/target/debug/plateau"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
tour="$root/target/e2e/tournament"
rm -rf "$tour" && mkdir -p "$tour"
"$bin" serve --port "$port" --tournament "$tour/results.jsonl,$tour/record.pgn" 2> target/e2e-serve.log &
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
node tests/e2e/tournament.mjs "http://127.0.0.1:$port/" "$root/target/e2e" "$bin" \
  "$tour/results.jsonl" "$tour/record.pgn"
