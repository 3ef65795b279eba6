#!/usr/bin/env python3
"""Make the fuzz targets' seed corpora (fuzz/seeds/TARGET/) from short random-vs-random games played by plateau.

Usage: python3 scripts/fuzz_seeds.py [PLATEAU_BINARY] [--files-only]   (default target/debug/plateau; run from the
repository root; --files-only: only the file, HTTP and tournament seeds, no games played but the one tournament)
Every seed is small (< 1 kB); the games are played with `plateau match ... --player random --player random` and read
back from the record file, positions are written by `plateau search ... --json` (its `position` field).
"""
import json, os, re, shutil, struct, subprocess, sys, tempfile

BIN = next((a for a in sys.argv[1:] if not a.startswith("--")), "target/debug/plateau")
OUT = "fuzz/seeds"
GAMES = ["breakthrough", "breakthrough(rows=5,columns=4)", "breakthrough(rows=6,columns=5,misere=true)",
         "tic_tac_toe", "marbles(n=10,k=3)", "connect_four", "connect_four(rows=4,columns=5)", "othello(size=6)",
         "othello", "oware", "oware(houses=3,seeds=2)", "chess", "random_tree(width=3,depth=5)",
         "random_tree(width=2,depth=2,values=3;-1;4;7)", "random_tree(model=incremental,ordering=best)", "coin_game",
         "chance_tree", "chance_tree(model=walk,probabilities=random)", "pig(target=20)", "matching_pennies(rounds=3)",
         "phantom_tic_tac_toe", "backgammon", "backgammon(gammons=true)"]


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120)


def seed(target, name, data):
    os.makedirs(f"{OUT}/{target}", exist_ok=True)
    with open(f"{OUT}/{target}/{name}", "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def safe(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def main():
    tmp = tempfile.mkdtemp()
    for i, game in enumerate(GAMES):
        seed("game_strings", safe(game), game)
        rec = f"{tmp}/{i}.pgn"
        run("match", game, "--player", "random", "--player", "random", "--games", "1", "--record", rec,
            "--max-plies", "30", "--no-adjudicate")
        text = open(rec).read() if os.path.exists(rec) else ""
        seed("records", safe(game), text)
        moves = [w for line in text.split("\n\n", 1)[-1].splitlines() for w in line.split()
                 if not re.fullmatch(r"\d+\.|1-0|0-1|1/2-1/2|\*", w)]
        seed("positions", safe(game), f"{game}\n\n{' '.join(moves)}")
        half = len(moves) // 2
        if "[chance]" not in game:
            r = run("search", game, "--moves", " ".join(moves[:half]), "--algo", "random", "--json")
            if r.returncode == 0:
                pos = json.loads(r.stdout).get("position", "")
                seed("positions", safe(game) + "_mid", f"{game}\n{pos}\n{' '.join(moves[half:])}")
        seed("players", safe(game), f"{game}\nengine(depth=3,tt=1mb)")
    for p in ["alphabeta(depth=3)", "pvs(time=10ms,tt=1mb)", "mcts(iterations=100)", "random(seed=3)",
              "pns(budget=100,fallback=alphabeta(depth=2))", "mtdf(depth=2)", "star2(depth=2)", "expectimax(depth=2)",
              "engine(threads=2,eval=simple)"]:
        seed("players", safe(p), f"breakthrough(rows=5,columns=4)\n{p}")
    # Trees: parameters, path, moves (first byte even: random_tree, odd: chance_tree).
    seed("trees", "values", "\x00width=2,depth=2,values=3;-1;4;7\n1\n2")
    seed("trees", "incremental", "\x00width=3,depth=4,model=incremental,ordering=-0.5\n2.1\n3 1")
    seed("trees", "chance", "\x01width=2,outcomes=3,depth=4,probabilities=random\n1.2\n2 1")
    # Protocol scripts: first byte = dialect (bit 0) and game.
    seed("protocol", "uci", "\x00uci\nisready\nucinewgame\nposition startpos moves b2\ngo depth 2\nstop\nquit\n")
    seed("protocol", "ugi", "\x01ugi\nisready\nuginewgame\nposition startpos\ngo nodes 100\nquery gameover\n"
                            "query result\nquit\n")
    seed("protocol", "options", "\x02uci\nsetoption name Hash value 1\nsetoption name Threads value 2\n"
                                "setoption name UCI_Variant value breakthrough(rows=5,columns=4)\n"
                                "position startpos moves a2a3\ngo movetime 10\nisready\nstop\n")
    seed("protocol", "infinite", "\x04uci\nposition fen 8/8 w - - 0 1\ngo infinite\nisready\nstop\ngo wtime 100 btime 100\n")
    # Batch files: line 1 a connect_four game string, then `moves [score]` lines.
    seed("c4_batch", "pons", "connect_four\n2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 0\n"
                             "# a comment\n\n44 1\n")
    seed("c4_batch", "small", "connect_four(rows=4,columns=5)\n1 2 3,4 0\n12345\n")


def table_file(game, buckets):
    """A df-pn table file (src/solve/table_file.rs) holding `buckets` (lists of (key, pn, dn, work))."""
    mask = 2**64 - 1

    def mix(h, words):
        for w in words:
            h = ((h ^ w) * 0x100000001B3) & mask
            h = ((h << 17) | (h >> 47)) & mask
        return h

    out = b"PLDFPNT1" + struct.pack("<I", len(game)) + game.encode() + bytes([1])
    out += struct.pack("<QQQ", 0x1234, len(buckets), 77)
    total, count = 0, 0
    for b in buckets:
        out += bytes([len(b)])
        for key, pn, dn, work in b:
            out += struct.pack("<QIII", key, pn, dn, work)
            total, count = mix(total, [key, (pn << 32) | dn, work]), count + 1
    return out + b"PLDFPEND" + struct.pack("<QQ", count, total)


def files():
    tmp = tempfile.mkdtemp()
    seed("table_file", "small", table_file("breakthrough(rows=4,columns=3,piece_rows=1)",
                                           [[(5, 1, 2, 3)], [], [(9, 0, 2**32 - 1, 1), (11, 3, 3, 7)]]))
    seed("table_file", "empty", table_file("breakthrough", []))
    for game in ["marbles(n=6,k=2)", "marbles(n=9,k=3,misere=true)"]:
        db = f"{tmp}/{safe(game)}.db"
        run("solve", game, "--method", "retro", "--db", db)
        data = open(db, "rb").read()
        seed("db_file", safe(game), b"\x00" + data)
        seed("db_file", safe(game) + "_sealed", b"\x01" + data)
    for game, depth in [("tic_tac_toe", "1"), ("marbles(n=7,k=2)", "2")]:
        book = f"{tmp}/{safe(game)}.book"
        run("book", "build", game, "--out", book, "--depth", depth, "--player", "alphabeta(depth=2)")
        data = open(book, "rb").read()
        seed("book_file", safe(game), b"\x00" + data)
        seed("book_file", safe(game) + "_sealed", b"\x01" + data)
    # Oware levels: byte 0 the houses - 1, byte 1 the level (bits 0-2) and what is made valid first (bit 6 the header
    # and length, bit 7 the checksum); the rest is the file (here: a level plateau wrote, or values only).
    odir = f"{tmp}/oware"
    run("solve", "oware(houses=2,seeds=2)", "--method", "retro", "--db", odir, "--db-seeds", "3")
    for n in range(4):
        data = open(f"{odir}/oware-h2-n{n}.db", "rb").read()
        seed("oware_db", f"h2_n{n}", bytes([1, n]) + data)
    seed("oware_db", "h3_n2_values", bytes([2, 0xC2]) + bytes(range(-3 % 256, 256)) + bytes(range(0, 4)))
    seed("oware_db", "h1_n4_header", bytes([0, 0x44, 1, 255, 0, 2]))


def http_api():
    """Scripts of requests for the http_api target: `METHOD PATH` then the body, line by line."""
    bt = "breakthrough(rows=5,columns=5)"
    scripts = {
        "list": "GET /api/games\n\nGET /api/nothing\n",
        "play": f'POST /api/games\n{{"game":"{bt}","players":["human","random"]}}\nPOST /api/games/1/move\n'
                f'{{"move":"a2a3"}}\nPOST /api/games/1/undo\n\nGET /api/games/1/record\n\nDELETE /api/games/1\n\n',
        "c4": 'POST /api/games\n{"game":"connect_four","players":["human","human"],"position":""}\n'
              'POST /api/games/1/move\n{"move":"4"}\nGET /api/games/1\n\nPOST /api/games/1/stop\n\n',
        "tree": f'POST /api/tree\n{{"game":"tic_tac_toe","moves":["a1"],"algo":"alphabeta","depth":2}}\n',
        "replay": 'POST /api/replay\n{"record":"[Game \\"tic_tac_toe\\"]\\n\\na1 b2 c3 *\\n"}\n',
        "oware": 'POST /api/games\n{"game":"oware","players":["human","human"]}\nPOST /api/games/1/move\n{"move":"c"}\n',
    }
    for name, text in scripts.items():
        seed("http_api", name, text)


# The tournament the tournament_files target resumes (its SETTINGS), and the time tournament_view reads at (NOW).
TOURNAMENT = ["tic_tac_toe", "--player", "a=random", "--player", "b=random", "--player", "c=random(seed=2)",
              "--rounds", "2", "--movetime", "10ms", "--seed", "1"]
NOW = 1_800_000_000_000


def tournaments():
    """Seeds of the tournament targets, from a real run of TOURNAMENT: players files, results, record, live files."""
    tmp = tempfile.mkdtemp()
    res, rec = f"{tmp}/r.jsonl", f"{tmp}/g.pgn"
    run("tournament", *TOURNAMENT, "--results", res, "--record", rec)
    results, record = open(res).read(), open(rec).read()
    shutil.rmtree(tmp)
    lines = results.splitlines(keepends=True)
    header, games = lines[0], lines[1:]
    tid = json.loads(header)["id"]
    blocks = ["[Event" + b for b in record.split("[Event") if b]
    toml = '[[players]]\nname = "a"\nplayer = "random"\n\n[[players]]\nname = "e"\ncmd = "./engine"\n' \
           'protocol = "ugi"\noptions = { Hash = 16, Ponder = false, Style = "solid" }\ntc = "10s+0.1s"\n'
    seed("tournament_files", "players_toml", "\x00" + toml)
    seed("tournament_files", "players_json", '\x01{"players": [{"name": "a", "player": "alphabeta(depth=2)"}, '
         '{"name": "b", "cmd": "./engine", "options": {"Threads": 1}}]}')
    seed("tournament_files", "players_list", '\x01[{"name": "x", "player": "random", "tc": "1s"}]')
    seed("tournament_files", "resume_all", "\x02" + results + "====\n" + record)
    seed("tournament_files", "resume_cut", "\x02" + header + "".join(games[:3]) + games[3][:20] + "====\n"
         + "".join(blocks[:4]) + blocks[4][:40])
    seed("tournament_files", "resume_header_cut", "\x02" + header[:50] + "====\n")
    live = {"plateau_live": 1, "tournament": tid, "updated_ms": NOW - 1000,
            "playing": [{"id": 12, "round": 2, "white": "c", "black": "b", "fen": None, "moves": ["a1", "b2"]},
                        {"id": 1, "round": 1, "white": "a", "black": "b", "fen": None, "moves": []}]}
    half = header + "".join(games[:6])
    seed("tournament_view", "running", half + "====\n" + json.dumps(live) + "\n====\n" + "".join(blocks[:6]))
    seed("tournament_view", "done", results + "====\n====\n" + record)
    seed("tournament_view", "stale", half + "====\n" + json.dumps({**live, "updated_ms": 5}) + "\n====\n")
    # The server numbers its tournaments from 1: /api/tournaments/0 and /2 are refused.
    script = "GET /api/tournaments\nGET /api/tournaments/1\nGET /api/tournaments/1/games/1\n" \
             "GET /api/tournaments/1/games/12\nGET /api/tournaments/0\nGET /api/tournaments/2\n" \
             "POST /api/tournaments/1\nGET /api/tournaments/x/games/-1\n"
    seed("tournament_api", "running", script + "====\n" + half + "====\n" + json.dumps(live) + "\n====\n" + record)
    seed("tournament_api", "waiting", "GET /api/tournaments/1\nGET /api/tournaments/1/games/1\n====\n" + header[:30])
    words = " ".join(TOURNAMENT)
    seed("cluster_jobs", "fixed", words + "\n" + "".join(games[:5]))
    seed("cluster_jobs", "gauntlet", "breakthrough(rows=5,columns=4) --player x=random --player y=alphabeta(depth=1) "
         "--player z=random(seed=4) --gauntlet x --rounds 3 --movetime 5ms\n"
         '{"id":1,"round":1,"white":"x","black":"y","result":"1-0","termination":"normal","plies":20}\n')
    seed("cluster_jobs", "tc", "connect_four --player a=engine(nodes=100) --player b=mcts --tc 1s+0.1s --rounds 1\n")


if __name__ == "__main__":
    files()
    http_api()
    tournaments()
    if "--files-only" not in sys.argv:
        main()
