#!/usr/bin/env python3
"""Reference data for plateau's chess tests, from implementations outside this project.

Writes into tests/data/chess/:
- perft.json: the standard perft test positions (chessprogramming wiki, "Perft Results": the start position,
  Kiwipete, positions 3 to 6) with their published counts, each count re-checked here with Stockfish's `go perft`
  (/usr/games/stockfish, Debian package) and the first plies with OpenSpiel's `chess` (pyspiel).
- openspiel_positions.json: positions from seeded random OpenSpiel games, each with OpenSpiel's legal moves (UCI),
  perft(2) (and perft(3) for some), whether the game is over in that position (from its FEN alone) and the returns.

Usage: python3 scripts/chess_reference.py   (about a minute; needs pyspiel and stockfish)
"""

import json
import os
import random
import subprocess

import pyspiel
from pyspiel import chess as pychess

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "chess")

# Published counts (https://www.chessprogramming.org/Perft_Results), to the depths kept here.
STANDARD = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     [20, 400, 8902, 197281, 4865609, 119060324]),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     [48, 2039, 97862, 4085603, 193690690]),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     [14, 191, 2812, 43238, 674624, 11030083, 178633661]),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     [6, 264, 9467, 422333, 15833292]),
    ("position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     [6, 264, 9467, 422333, 15833292]),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     [44, 1486, 62379, 2103487, 89941194]),
    ("position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     [46, 2079, 89890, 3894594, 164075551]),
]

GAME = pyspiel.load_game("chess")


def stockfish_perft(fen, depth):
    # `go perft` runs on a search thread: keep the input open until the count is printed.
    sf = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    sf.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    sf.stdin.flush()
    for line in sf.stdout:
        if line.startswith("Nodes searched:"):
            sf.stdin.write("quit\n")
            sf.stdin.close()
            sf.wait()
            return int(line.split(":")[1])
    raise RuntimeError("stockfish ended without a perft count")


def openspiel_perft(state, depth):
    if state.is_terminal():
        return 0
    if depth == 1:
        return len(state.legal_actions())
    return sum(openspiel_perft(state.child(a), depth - 1) for a in state.legal_actions())


def uci_moves(state):
    board = state.board()
    return sorted(pychess.action_to_move(a, board).to_lan() for a in state.legal_actions())


def perft_table():
    entries = []
    for name, fen, counts in STANDARD:
        for d, n in enumerate(counts, 1):
            sf = stockfish_perft(fen, d)
            assert sf == n, (name, d, sf, n)
        osd = 3
        state = GAME.new_initial_state(fen)
        for d in range(1, osd + 1):
            assert openspiel_perft(state, d) == counts[d - 1], (name, d)
        entries.append({
            "name": name, "fen": fen, "perft": {str(d): n for d, n in enumerate(counts, 1)},
            "sources": ["chessprogramming wiki, Perft Results (published counts)",
                        f"Stockfish 15.1 go perft (d1-{len(counts)})",
                        f"OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else '2.0.2'} chess (d1-{osd})"],
        })
    return {"convention": "perft(d): positions after exactly d plies; the counts ignore draws by rule, which cannot "
                          "happen within these depths from these positions", "entries": entries}


def random_positions(seed=17, games=40, every=19):
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = GAME.new_initial_state()
        ply = 0
        while not state.is_terminal():
            if ply % every == g % every:
                out.append(describe(state, deep=len(out) % 4 == 0))
            state.apply_action(rng.choice(state.legal_actions()))
            ply += 1
        fen_state = GAME.new_initial_state(state.to_string())
        if fen_state.is_terminal():  # over from its FEN alone (not by repetition)
            out.append(describe(fen_state, deep=False))
    return out


def describe(state, deep):
    fen = state.to_string()
    fresh = GAME.new_initial_state(fen)  # the tests start from the FEN, without history
    d = {"fen": fen, "terminal": fresh.is_terminal(), "returns": fresh.returns()}
    if not fresh.is_terminal():
        d["moves"] = " ".join(uci_moves(fresh))
        d["perft2"] = openspiel_perft(fresh, 2)
        if deep:
            d["perft3"] = openspiel_perft(fresh, 3)
    return d


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "perft.json"), "w") as f:
        json.dump(perft_table(), f, indent=1)
        f.write("\n")
    positions = random_positions()
    doc = {"source": "OpenSpiel 2.0.2 chess (pyspiel), seeded random games (scripts/chess_reference.py)",
           "positions": positions}
    with open(os.path.join(OUT, "openspiel_positions.json"), "w") as f:
        # One position a line.
        f.write('{"source": %s,\n "positions": [\n' % json.dumps(doc["source"]))
        f.write(",\n".join(json.dumps(p) for p in positions))
        f.write("\n]}\n")
    print(len(positions), "positions,", sum(p["terminal"] for p in positions), "terminal")


if __name__ == "__main__":
    main()
