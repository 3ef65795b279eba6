#!/usr/bin/env python3
"""A one-ply greedy Breakthrough engine over UGI (and UCI), written from docs/write-an-engine.md alone.

It looks one ply ahead: a move onto the far row wins at once; otherwise it prefers a capture, then a move whose target
square no enemy piece attacks, then the most advanced piece; ties are broken at random (seeded by GREEDY_SEED, default
1). It reads the board size from the game string (`breakthrough(rows=6,columns=5)`), keeps the position from
`position startpos moves ...` or `position fen ... moves ...`, and honours `misere` (reaching the far row loses) and
`forced_captures` (a capture must be played when one exists).

Standard library only. GREEDY_ENGINE_LOG=FILE logs the dialogue (`>` received, `<` sent).
"""

import os
import random
import re
import sys

LOG = os.environ.get("GREEDY_ENGINE_LOG")
RNG = random.Random(int(os.environ.get("GREEDY_SEED", "1")))


def log(prefix, line):
    if LOG:
        with open(LOG, "a") as f:
            f.write(f"{prefix} {line}\n")


def send(line):
    log("<", line)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Game:
    """Breakthrough's rules on a rows x columns board: White ('P') starts on the bottom rows and moves up."""

    def __init__(self, text):
        params = dict(re.findall(r"(\w+)=([^,)]*)", text))
        self.rows = int(params.get("rows", 8))
        self.columns = int(params.get("columns", 8))
        self.piece_rows = int(params.get("piece_rows", 2))
        self.misere = params.get("misere", "false") in ("true", "1", "yes", "on")
        self.forced = params.get("forced_captures", "false") in ("true", "1", "yes", "on")
        self.start()

    def start(self):
        # board[row][column], row 0 = rank 1 (White's home).
        self.board = [["." for _ in range(self.columns)] for _ in range(self.rows)]
        for r in range(self.piece_rows):
            for c in range(self.columns):
                self.board[r][c] = "P"
                self.board[self.rows - 1 - r][c] = "p"
        self.white_to_move = True

    def set_fen(self, ranks, side):
        self.board = []
        for rank in reversed(ranks.split("/")):
            row = []
            for ch in re.findall(r"\d+|[Pp]", rank):
                row.extend(["."] * int(ch) if ch.isdigit() else [ch])
            self.board.append(row)
        self.white_to_move = side == "w"

    @staticmethod
    def square(text):
        return int(text[1:]) - 1, ord(text[0]) - ord("a")

    def play(self, move):
        (r0, c0), (r1, c1) = self.square(move[:2]), self.square(move[2:])
        self.board[r1][c1] = self.board[r0][c0]
        self.board[r0][c0] = "."
        self.white_to_move = not self.white_to_move

    def moves(self):
        """Every legal move of the side to move: (move text, target row, is a capture)."""
        me, enemy, up = ("P", "p", 1) if self.white_to_move else ("p", "P", -1)
        out = []
        for r in range(self.rows):
            for c in range(self.columns):
                if self.board[r][c] != me or not 0 <= r + up < self.rows:
                    continue
                for dc in (-1, 0, 1):
                    t = c + dc
                    if not 0 <= t < self.columns:
                        continue
                    target = self.board[r + up][t]
                    # Straight: onto an empty square only. Diagonal: empty, or an enemy piece (a capture).
                    if target == "." or (dc != 0 and target == enemy):
                        text = f"{chr(97 + c)}{r + 1}{chr(97 + t)}{r + up + 1}"
                        out.append((text, r + up, target == enemy))
        if self.forced and any(m[2] for m in out):
            out = [m for m in out if m[2]]
        return out

    def attacked(self, row, column):
        """Whether an enemy piece could capture on (row, column) next ply."""
        enemy, up = ("p", 1) if self.white_to_move else ("P", -1)
        r = row + up  # enemy pieces that attack this square stand one row further ahead
        return 0 <= r < self.rows and any(
            0 <= column + dc < self.columns and self.board[r][column + dc] == enemy for dc in (-1, 1)
        )

    def choose(self):
        goal = self.rows - 1 if self.white_to_move else 0
        scored = []
        for text, row, capture in self.moves():
            column = ord(text[2]) - 97
            if row == goal:
                score = -1000 if self.misere else 1000
            else:
                advance = row if self.white_to_move else self.rows - 1 - row
                score = (50 if capture else 0) + (0 if self.attacked(row, column) else 20) + advance
            scored.append((score, RNG.random(), text))
        return max(scored)[2] if scored else None


def main():
    game = Game("breakthrough")
    for raw in sys.stdin:
        line = raw.strip()
        log(">", line)
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd in ("uci", "ugi"):
            send("id name greedy_engine.py")
            send("id author a student")
            if cmd == "uci":
                send("option name UCI_Variant type combo default breakthrough var breakthrough")
            else:
                send("option name Game type string default breakthrough")
            send(cmd + "ok")
        elif cmd == "setoption" and len(words) >= 5 and words[2] in ("UCI_Variant", "Game"):
            game = Game(" ".join(words[4:]))
        elif cmd == "isready":
            send("readyok")
        elif cmd in ("ucinewgame", "uginewgame"):
            game.start()
        elif cmd == "position":
            rest = words[1:]
            if rest[:1] == ["fen"]:
                game.set_fen(rest[1], rest[2] if len(rest) > 2 else "w")
            else:
                game.start()
            if "moves" in rest:
                for move in rest[rest.index("moves") + 1 :]:
                    game.play(move)
        elif cmd == "go":
            move = game.choose()
            send(f"bestmove {move}" if move else "bestmove 0000")
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
