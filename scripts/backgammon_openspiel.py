#!/usr/bin/env python3
"""Reference data for plateau's backgammon: OpenSpiel's legal turns on the positions of random games.

    python3 scripts/backgammon_openspiel.py --games 40 --seed 1 > tests/data/backgammon_openspiel.json
    python3 scripts/backgammon_openspiel.py --playouts 200        # time OpenSpiel's random playouts instead

Plays random games with OpenSpiel's `backgammon` (pyspiel) and, at the start of every turn (after the roll), lists
the positions every legal way of playing the whole turn reaches: OpenSpiel plays a double as two actions of two
checker moves, so the script follows both. Positions are written in plateau's position text (`x=24:2,... o=...`,
each side in its own numbering, see docs/backgammon.md); the first 30 records are the 30 opening rolls, then a record holds the position before the turn (with the roll)
and the sorted set of the board parts (`x=... o=...`) of the positions after it, as a count and a 64-bit FNV-1a hash
of the set joined by newlines (the full list for the first records, to read a disagreement).

One rule OpenSpiel checks per action rather than per turn: after a double's first action it does not require that the
rest of the double can be played in full, so its first half may leave fewer dice playable than another first half
would. The script keeps, per turn, only the results that play the most dice (the rule: "in the case of doubles, when
all four numbers cannot be played, the player must play as many numbers as he can") and counts the turns where this
dropped something (`dropped` in the header line).
"""

import argparse
import json
import random
import re
import sys
import time

import pyspiel

BAR = 100  # OpenSpiel's kBarPos


def side_text(state, player):
    """One side in its own numbering: X's OpenSpiel position p is its point 24 - p, O's is p + 1."""
    parts = []
    bar = state.board(player, BAR)
    if bar:
        parts.append(f"bar:{bar}")
    for point in range(24, 0, -1):
        pos = 24 - point if player == 0 else point - 1
        n = state.board(player, pos)
        if n:
            parts.append(f"{point}:{n}")
    return ",".join(parts) if parts else "-"


def board_text(state):
    return f"x={side_text(state, 0)} o={side_text(state, 1)}"


def roll_of(state, action):
    """(starter or None, hi, lo) of a chance action, read from OpenSpiel's own description."""
    text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
    a, b = map(int, re.search(r"roll: (\d)(\d)", text).groups())
    starter = 0 if "X starts" in text else 1 if "O starts" in text else None
    return starter, max(a, b), min(a, b)


def dice_used(state, player, action):
    return sum(1 for c in state.spiel_move_to_checker_moves(player, action) if c.pos >= 0 and c.num > 0)


def turn_results(state, player):
    """{board text after the turn: dice used} over every way of playing the turn."""
    out = {}

    def walk(s, used):
        for a in s.legal_actions():
            u = used + dice_used(s, player, a)
            c = s.clone()
            c.apply_action(a)
            if not c.is_terminal() and c.current_player() == player:
                walk(c, u)
            else:
                key = board_text(c)
                out[key] = max(out.get(key, 0), u)

    walk(state, 0)
    return out


def fnv1a(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def turn_record(s, position, full, records):
    """The record of the turn about to be played in `s`; returns whether the rule filter dropped something."""
    results = turn_results(s, s.current_player())
    most = max(results.values())
    kept = sorted(k for k, u in results.items() if u == most)
    rec = {"position": position, "count": len(kept), "fnv": fnv1a("\n".join(kept))}
    if len(records) < full:
        rec["results"] = kept
    records.append(rec)
    return len(kept) != len(results)


def reference(games, seed, full):
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    records, dropped = [], 0
    # Every opening roll first (30 records: perft(2) is the sum of their counts).
    start = game.new_initial_state()
    for a, _ in start.chance_outcomes():
        _, hi, lo = roll_of(start, a)
        s = start.clone()
        s.apply_action(a)
        dropped += turn_record(s, f"{board_text(s)} {'xo'[s.current_player()]}{hi}{lo}", full, records)
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                a = rng.choices(outcomes, probs)[0]
                _, hi, lo = roll_of(s, a)
                s.apply_action(a)
                if s.is_terminal():
                    break
                dropped += turn_record(s, f"{board_text(s)} {'xo'[s.current_player()]}{hi}{lo}", full, records)
                continue
            player = s.current_player()
            while not s.is_terminal() and not s.is_chance_node() and s.current_player() == player:
                s.apply_action(rng.choice(s.legal_actions()))
    return records, dropped


def playouts(n, seed):
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    t = time.perf_counter()
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    dt = time.perf_counter() - t
    print(f"openspiel backgammon: {n} random playouts in {dt:.3f} s = {n / dt:.1f} playouts/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--full", type=int, default=60, help="records that keep their full result list")
    ap.add_argument("--playouts", type=int, default=0, help="time this many random playouts instead")
    args = ap.parse_args()
    if args.playouts:
        playouts(args.playouts, args.seed)
        return
    records, dropped = reference(args.games, args.seed, args.full)
    header = {
        "source": "OpenSpiel backgammon (pyspiel " + getattr(pyspiel, "__version__", "?") + ")",
        "command": f"python3 scripts/backgammon_openspiel.py --games {args.games} --seed {args.seed} --full {args.full}",
        "records": len(records),
        "dropped": dropped,
    }
    sys.stdout.write(json.dumps(header) + "\n")
    for r in records:
        sys.stdout.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
