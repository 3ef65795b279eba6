#!/usr/bin/env python3
"""A minimal engine for Breakthrough with imperfect information, `breakthrough(information=imperfect)`, over UGI.

A student's starting point (docs/write-an-engine.md): it never sees the opponent's moves, only the referee's lines:

    side p1|p2                 the side it plays (p1 = White, who moves first)
    observation L1|L2|...      its view each time it changes (the lines of the view joined by '|')
    legal M M ...              before each go: the moves legal on the board it sees
    go ...                     answer `bestmove M`, one of the last `legal` line

    plateau match "breakthrough(information=imperfect,rows=6,columns=5)" \
        --player "ugi(cmd=python3 examples/engines/dark_engine.py)" --player random --games 10 --movetime 100ms

What it keeps from the observations: its own pieces (read from the view's board), the enemy pieces it found this
turn (a straight move cancelled because an enemy piece stands there), and where it believes the enemy pieces are:
where it last saw them (the start; a square where one captured; a found square). Its choice (`choose`): a move onto
the far row; else a diagonal move onto a square where it believes an enemy piece stands (a likely capture); else a
move of its most advanced piece, at random among those. Replace `choose` with your own search.
"""

import os
import random
import re
import sys

# DARK_ENGINE_LOG=FILE: append every line received ("> ...") and sent ("< ...") to FILE, to see the dialogue.
LOG = open(os.environ["DARK_ENGINE_LOG"], "a") if os.environ.get("DARK_ENGINE_LOG") else None


def send(text):
    print(text)
    sys.stdout.flush()
    if LOG:
        LOG.write("< " + text + "\n")
        LOG.flush()


def square(name):
    """`b3` -> (row, column), row 0 being rank 1."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


class View:
    """What the engine knows: the board size, its side, its pieces, and where it believes the enemy pieces are."""

    def __init__(self, rows=8, columns=8, piece_rows=2):
        self.rows, self.columns, self.piece_rows = rows, columns, piece_rows
        self.white = True
        self.start()

    def start(self):
        self.mine, self.found = set(), set()
        self.enemy = set()  # where each enemy piece was last seen
        for r in range(self.piece_rows):
            for c in range(self.columns):
                white, black = (r, c), (self.rows - 1 - r, c)
                self.mine.add(white if self.white else black)
                self.enemy.add(black if self.white else white)

    def forward(self):
        return 1 if self.white else -1

    def read(self, text):
        """An observation: the board lines (`  3 . P .`), the `referee:` line, whose turn it is."""
        me, them = ("P", "p") if self.white else ("p", "P")
        mine, found = set(), set()
        for line in text.split("|"):
            words = line.split()
            if words and words[0].isdigit() and len(words) == self.columns + 1:
                r = int(words[0]) - 1
                for c, cell in enumerate(words[1:]):
                    if cell == me:
                        mine.add((r, c))
                    elif cell == them:
                        found.add((r, c))
            m = re.search(r"captured your piece on ([a-z]\d+)", line)
            if m:
                found.add(square(m.group(1)))
        if "the game is over" in text:
            return
        # An enemy piece is not where one of ours now stands; a revealed one is where it was revealed (the
        # believed piece behind it, if any, is the one that moved there).
        self.enemy -= mine
        for r, c in found - self.enemy:
            behind = [(r - self.forward(), c + dc) for dc in (0, -1, 1)]
            for b in behind:
                if b in self.enemy:
                    self.enemy.discard(b)
                    break
            self.enemy.add((r, c))
        self.mine, self.found = mine, found


def parse_game(text):
    """`breakthrough(information=imperfect,rows=6,columns=5)` -> a View (other games are refused)."""
    m = re.fullmatch(r"\s*(\w+)\s*(?:\((.*)\))?\s*", text)
    params = {}
    for kv in filter(None, ((m.group(2) if m else "") or "").split(",")):
        k, _, v = kv.partition("=")
        params[k.strip()] = v.strip()
    if not m or m.group(1) not in ("breakthrough", "bt") or params.get("information") != "imperfect":
        raise ValueError("this engine plays breakthrough(information=imperfect) only, not " + text)
    return View(int(params.get("rows", 8)), int(params.get("columns", 8)), int(params.get("piece_rows", 2)))


def choose(view, legal):
    """Your search goes here: return one of `legal` (move texts such as `a2b3`)."""
    goal = view.rows - 1 if view.white else 0
    moves = [(square(t[:2]), square(t[2:]), t) for t in legal if re.fullmatch(r"[a-z]\d+[a-z]\d+", t)]
    wins = [t for _, to, t in moves if to[0] == goal]
    if wins:
        return wins[0]
    captures = [t for frm, to, t in moves if frm[1] != to[1] and to in view.enemy]
    if captures:
        return random.choice(captures)
    most = max(frm[0] * view.forward() for frm, _, _ in moves)
    return random.choice([t for frm, _, t in moves if frm[0] * view.forward() == most])


def main():
    view, legal = View(), []
    for line in sys.stdin:
        if LOG:
            LOG.write("> " + line.rstrip("\n") + "\n")
            LOG.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "ugi":
            send("id name dark_engine.py")
            send("id author a student")
            send("option name Game type string default breakthrough(information=imperfect)")
            send("ugiok")
        elif cmd == "setoption" and len(words) >= 5 and words[2] == "Game" and words[3] == "value":
            view = parse_game(" ".join(words[4:]))
        elif cmd == "isready":
            send("readyok")
        elif cmd == "side":
            view.white = words[1:] == ["p1"]
            view.start()
        elif cmd == "observation":
            view.read(line[len("observation "):].rstrip("\n"))
        elif cmd == "legal":
            legal = words[1:]
        elif cmd == "go":
            send("bestmove " + choose(view, legal) if legal else "bestmove (none)")
        elif cmd == "query" and len(words) > 1:
            send("response none")
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
