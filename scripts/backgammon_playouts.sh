#!/bin/sh
# Random backgammon playouts from the start: plateau against OpenSpiel in the same run (docs/backgammon.md).
#   scripts/backgammon_playouts.sh [PLATEAU_GAMES] [OPENSPIEL_GAMES]
set -e
cd "$(dirname "$0")/.."
cargo build --release --example bg_playouts 2>/dev/null
target/release/examples/bg_playouts "${1:-2000}" 1
python3 scripts/backgammon_openspiel.py --playouts "${2:-100}" --seed 1
