#!/usr/bin/env bash
# Single-thread perft of plateau and of OpenSpiel (pip install open-spiel) on the same game and depth, in one run.
# Usage: scripts/perft_vs_openspiel.sh [GAME] [DEPTH]      (defaults: breakthrough 6)
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-breakthrough}
depth=${2:-6}
cargo build --release --quiet
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
best=0
for i in 1 2 3 4 5; do
  nps=$(./target/release/plateau perft "$game" --depth "$depth" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["nps"])')
  echo "plateau run $i: $nps positions/s"
  best=$(python3 -c "print(max($best, $nps))")
done
os=$(python3 scripts/openspiel_perft.py "$game" "$depth")
echo "openspiel: $os"
osnps=$(echo "$os" | python3 -c 'import json,sys; print(json.load(sys.stdin)["nps"])')
python3 -c "print(f'plateau best {float($best):.3e} positions/s, OpenSpiel {float($osnps):.3e} positions/s, ratio {float($best)/float($osnps):.0f}x')"
