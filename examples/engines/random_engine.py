#!/usr/bin/env python3
"""A minimal Breakthrough engine for plateau: it speaks UCI and UGI and plays a random legal move.

A student's starting point (docs/write-an-engine.md): replace `choose` with your own search.

    plateau match "breakthrough(rows=6,columns=5)" --player "uci(cmd=python3 examples/engines/random_engine.py)" \
        --player "alphabeta(depth=2)" --games 10 --movetime 100ms

The arena sends the game string with `setoption name UCI_Variant value ...` (UCI) or `setoption name Game value ...`
(UGI), e.g. `breakthrough(rows=6,columns=5)`; the rules are plateau's (docs/games.md, DESIGN.md):
White ('P') moves first from the bottom rows, one square straight or diagonally forward onto an empty square,
captures diagonally forward only; reaching the far row wins. Squares `a1` (bottom left) to `h8`; moves `a2a3`.
"""

import os
import random
import re
import sys

# RANDOM_ENGINE_LOG=FILE: append every line received ("> ...") and sent ("< ...") to FILE, to see the dialogue.
LOG = open(os.environ["RANDOM_ENGINE_LOG"], "a") if os.environ.get("RANDOM_ENGINE_LOG") else None


def send(text):
    for out in text.split("\n"):
        print(out)
        if LOG:
            LOG.write("< " + out + "\n")


class Board:
    def __init__(self, rows=8, columns=8, piece_rows=2, forced_captures=False):
        self.rows, self.columns, self.piece_rows = rows, columns, piece_rows
        self.forced_captures = forced_captures
        self.start()

    def start(self):
        # cells[r][c]: 'P' (White), 'p' (Black) or '.'; row 0 is rank 1 (White's home row).
        self.cells = [["." for _ in range(self.columns)] for _ in range(self.rows)]
        for r in range(self.piece_rows):
            self.cells[r] = ["P"] * self.columns
            self.cells[self.rows - 1 - r] = ["p"] * self.columns
        self.white_to_move = True

    def set_fen(self, fen):
        """`pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w` (ranks from the top, digits for empty runs)."""
        fields = fen.split()
        ranks = fields[0].split("/")
        if len(ranks) != self.rows:
            raise ValueError("fen has %d ranks, the board %d rows" % (len(ranks), self.rows))
        for i, rank in enumerate(ranks):
            row = []
            for token in re.findall(r"\d+|[Pp.]", rank):
                row.extend(["."] * int(token) if token.isdigit() else [token])
            self.cells[self.rows - 1 - i] = row
        self.white_to_move = len(fields) < 2 or fields[1] == "w"

    def moves(self):
        """The legal moves of the side to move as (from_row, from_col, to_row, to_col)."""
        me, them, step = ("P", "p", 1) if self.white_to_move else ("p", "P", -1)
        quiet, captures = [], []
        for r in range(self.rows):
            for c in range(self.columns):
                if self.cells[r][c] != me or not 0 <= r + step < self.rows:
                    continue
                for dc in (-1, 0, 1):
                    nc = c + dc
                    if not 0 <= nc < self.columns:
                        continue
                    target = self.cells[r + step][nc]
                    if target == ".":
                        quiet.append((r, c, r + step, nc))
                    elif target == them and dc != 0:
                        captures.append((r, c, r + step, nc))
        if self.forced_captures and captures:
            return captures
        return quiet + captures

    def game_over(self):
        """A piece on the far row, a side without pieces, or no legal move."""
        flat = "".join("".join(row) for row in self.cells)
        reached = "P" in self.cells[self.rows - 1] or "p" in self.cells[0]
        return reached or "P" not in flat or "p" not in flat or not self.moves()

    def square(self, r, c):
        return "%s%d" % (chr(ord("a") + c), r + 1)

    def move_text(self, m):
        return self.square(m[0], m[1]) + self.square(m[2], m[3])

    def play_text(self, text):
        for m in self.moves():
            if self.move_text(m) == text:
                r, c, nr, nc = m
                self.cells[nr][nc] = self.cells[r][c]
                self.cells[r][c] = "."
                self.white_to_move = not self.white_to_move
                return
        raise ValueError("illegal move " + text)


def parse_game(text):
    """`breakthrough(rows=6,columns=5)` -> a Board (other games are refused)."""
    m = re.fullmatch(r"\s*(\w+)\s*(?:\((.*)\))?\s*", text)
    if not m or m.group(1) not in ("breakthrough", "bt"):
        raise ValueError("this engine plays breakthrough only, not " + text)
    params = {}
    for kv in filter(None, (m.group(2) or "").split(",")):
        k, v = kv.split("=")
        params[k.strip()] = v.strip()
    return Board(
        rows=int(params.get("rows", 8)),
        columns=int(params.get("columns", 8)),
        piece_rows=int(params.get("piece_rows", 2)),
        forced_captures=params.get("forced_captures", "false") == "true",
    )


def choose(board):
    """Your search goes here: return one of board.moves()."""
    return random.choice(board.moves())


def main():
    board = Board()
    dialect = "uci"
    for line in sys.stdin:
        if LOG:
            LOG.write("> " + line.rstrip("\n") + "\n")
            LOG.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd in ("uci", "ugi"):
            dialect = cmd
            send("id name random_engine.py")
            send("id author a student")
            if cmd == "uci":
                send("option name UCI_Variant type combo default breakthrough var breakthrough")
            else:
                send("option name Game type string default breakthrough")
            send(cmd + "ok")
        elif cmd == "setoption" and len(words) >= 5 and words[1] == "name" and words[3] == "value":
            if words[2] in ("UCI_Variant", "Game"):
                board = parse_game(" ".join(words[4:]))
        elif cmd == "isready":
            send("readyok")
        elif cmd in ("ucinewgame", "uginewgame"):
            board.start()
        elif cmd == "position":
            rest = " ".join(words[1:])
            setup, _, moves = rest.partition(" moves ")
            if rest.startswith("moves "):
                setup, moves = "startpos", rest[len("moves "):]
            if setup.strip() == "startpos":
                board.start()
            else:
                board.set_fen(setup.strip()[len("fen "):])
            for mv in moves.split():
                board.play_text(mv)
        elif cmd == "go":
            # Any limit (movetime, wtime/btime or p1time/p2time, depth, nodes): a random move is instant.
            send("bestmove " + board.move_text(choose(board)))
        elif cmd == "query" and dialect == "ugi" and len(words) > 1:
            if words[1] == "p1turn":
                send("response " + ("true" if board.white_to_move else "false"))
            elif words[1] == "gameover":
                send("response " + ("true" if board.game_over() else "false"))
            else:
                send("response none")
        elif cmd == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
