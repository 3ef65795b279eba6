#!/usr/bin/env bash
# plateau's mcts in matches, for docs/mcts.md (the commands behind its "Strength" tables). Each game's summary is
# printed with the machine's load before and after it.
#
#   scripts/mcts_matches.sh openspiel [GAMES] [SIMULATIONS]
#       plain mcts(playouts=N) (each game's own settings, Knowledge::MCTS_DEFAULTS) against OpenSpiel's C++ MCTSBot
#       (pip open-spiel; scripts/openspiel_mcts.py for Breakthrough 8x8 and Connect Four, scripts/openspiel_ugi.py for
#       Othello and Oware, as UGI engines: UCT c=2, one random rollout per simulation, its solver on) at equal
#       playouts, colours alternating (each random 2-ply opening played once with each colour), seed 11, each game's
#       record data/matches/GAME-mcts-defaults-openspiel-N.pgn (resumed when it exists: --resume). Defaults: 200
#       games, 1000 simulations. PYTHON=path picks the Python that has pyspiel (default python3).
#   scripts/mcts_matches.sh engine [GAMES] [MOVETIME]
#       mcts (default settings) against the alpha-beta engine at equal time on every game both play. Defaults: 20
#       games, 100ms a move; MARGIN=2s tolerates late moves on a loaded machine (the default 100ms forfeits them).
#
# PLATEAU=path (default target/release/plateau) picks the binary; run it niced: nice -n 10 scripts/mcts_matches.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
plateau="${PLATEAU:-target/release/plateau}"
mode="${1:?usage: $0 openspiel|engine [GAMES] [SIMULATIONS|MOVETIME]}"
load() { cut -d' ' -f1-3 /proc/loadavg; }
run() {
    echo "== $* (load $(load))"
    "$plateau" match "$@"
    echo "   (load after: $(load))"
}
case "$mode" in
openspiel)
    games="${2:-200}"
    sims="${3:-1000}"
    py="${PYTHON:-python3}"
    for g in breakthrough connect_four othello oware; do
        case "$g" in
        breakthrough | connect_four) os="$py scripts/openspiel_mcts.py ugi" short="${g/breakthrough/bt}" ;;
        *) os="$py scripts/openspiel_ugi.py" short="$g" ;;
        esac
        short="${short/connect_four/c4}"
        run "$g" --player "mcts(playouts=$sims)" --player "ugi(cmd=$os --game $g --simulations $sims,nodes=$sims)" \
            --games "$games" --seed 11 --record "data/matches/$short-mcts-defaults-openspiel-$sims.pgn" --resume
    done
    ;;
engine)
    games="${2:-20}"
    movetime="${3:-100ms}"
    for g in breakthrough connect_four tic_tac_toe othello oware chess pig backgammon; do
        run "$g" --player mcts --player engine --games "$games" --movetime "$movetime" --margin "${MARGIN:-100ms}"
    done
    ;;
*)
    echo "$0: unknown mode '$mode' (openspiel or engine)" >&2
    exit 2
    ;;
esac
