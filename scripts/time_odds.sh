#!/usr/bin/env bash
# Breakthrough at time odds (issue 42, point 3; docs/strength.md "Time odds"): plateau's `engine` with a fraction of
# Fairy-Stockfish's time per move, one game at a time, records under data/matches/.
#
#   scripts/time_odds.sh BASE RATIO GAMES [SEED]
#       engine(time=BASE/RATIO) against Fairy-Stockfish at BASE a move (`go movetime`), GAMES games (random 2-ply
#       openings, each played with both colours), --seed SEED (default 21, the openings of the 100 ms matches).
#       The record is data/matches/fsf-odds-BASE-1toRATIO-seedSEED[-TAG].pgn; the same command again resumes it
#       (--resume).
#   scripts/time_odds.sh curve [GAMES] [BASE]
#       the curve: ratios 1, 3, 10 and 30 at BASE (default 100ms), GAMES games each (default 200).
#
# The goals: 1/30 (33 ms against 1 s) at least 50% over 200 games, 1/10 (10 ms against 100 ms) at least 60% over 400.
# A timed match wants a quiet machine: nothing else heavy running, `echo 0 > /proc/sys/kernel/sched_autogroup_enabled`
# first. PLATEAU=path (default target/release/plateau) picks the binary; FSF=path the opponent
# (default /usr/games/fairy-stockfish, Debian's fairy-stockfish); TAG=name adds `-name` to the record's name (a new
# measurement of another build, instead of resuming the earlier record).
set -euo pipefail
cd "$(dirname "$0")/.."
plateau="${PLATEAU:-target/release/plateau}"
fsf="${FSF:-/usr/games/fairy-stockfish}"
load() { cut -d' ' -f1-3 /proc/loadavg; }
ms() { # 100ms / 1s / 1.5s -> milliseconds
    case "$1" in
    *ms) echo "${1%ms}" ;;
    *s) awk -v s="${1%s}" 'BEGIN { printf "%d", s * 1000 }' ;;
    *) echo "time '$1': give it as 100ms or 1s" >&2; exit 2 ;;
    esac
}
one() {
    local base="$1" ratio="$2" games="$3" seed="${4:-21}"
    local base_ms ours
    base_ms=$(ms "$base")
    # Our time: BASE/RATIO in microseconds would be finer, but `time=` takes milliseconds: rounded to the nearest.
    ours=$(( (base_ms + ratio / 2) / ratio ))
    [ "$ours" -ge 1 ] || { echo "BASE/RATIO is under 1 ms" >&2; exit 2; }
    local record="data/matches/fsf-odds-${base}-1to${ratio}-seed${seed}${TAG:+-$TAG}.pgn"
    local resume=()
    [ -s "$record" ] && resume=(--resume)
    echo "== engine(time=${ours}ms) against Fairy-Stockfish at ${base_ms} ms, $games games, seed $seed (load $(load))"
    "$plateau" match breakthrough --player "engine(time=${ours}ms)" \
        --player "uci(cmd=$fsf,variant=breakthrough,threads=1,hash=16,movetime=$base_ms)" \
        --games "$games" --random-plies 2 --seed "$seed" --concurrency 1 --record "$record" "${resume[@]}" --json
    echo "   (load after: $(load))"
}
case "${1:-}" in
curve)
    games="${2:-200}"
    base="${3:-100ms}"
    for r in 1 3 10 30; do one "$base" "$r" "$games"; done
    ;;
"")
    sed -n '2,16p' "$0"
    exit 2
    ;;
*)
    one "$1" "${2:?RATIO}" "${3:?GAMES}" "${4:-21}"
    ;;
esac
