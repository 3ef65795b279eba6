#!/usr/bin/env python3
"""A mutation fuzzer of plateau's command-line parsers: random argument lists built from the real subcommands, flags
(read from each subcommand's --help) and values (real ones, mutated ones, hostile ones), looking for panics (exit
101), aborts (134) and other signals. Each run is capped by a timeout (a long run is not a failure: real work).

Usage: python3 scripts/cli_mutate.py [BINARY] [RUNS] [SEED]     (default target/release/plateau 500 1)
Prints each failing argument list and a summary line: runs, exit codes seen, failures.
"""
import random, re, subprocess, sys, collections

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/plateau"
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 500
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)

GAMES = ["tic_tac_toe", "connect_four", "breakthrough", "breakthrough(rows=5,columns=4)", "othello(size=6)", "oware",
         "marbles(n=10,k=3)", "chess", "backgammon", "pig(target=20)", "matching_pennies(rounds=2)", "coin_game",
         "random_tree(width=2,depth=3)", "chance_tree", "phantom_tic_tac_toe", "oware(houses=3,seeds=2)"]
PLAYERS = ["random", "alphabeta(depth=2)", "engine(nodes=500)", "mcts(playouts=50)", "pvs(depth=2,tt=1mb)",
           "minimax(depth=1)", "expectimax(depth=1)", "ismcts(playouts=20)", "smmcts(playouts=20)", "human"]
VALUES = ["0", "1", "-1", "3", "1000000000000", "nan", "inf", "-0", "1e309", "", " ", "é", "\uff11", "a,,b", "1mb",
          "32gb", "0gb", "1.5", "100ms", "-5s", "x" * 300, "(", ")", "=", ",", ";", "\\", "'", "\"", "--", "-",
          "a1a2", "4", "startpos", "/dev/null", "/tmp", "/nonexistent/file", "2" * 40]


def subcommands():
    out = subprocess.run([BIN, "--help"], capture_output=True, text=True).stdout
    cmds = re.findall(r"^  ([a-z][a-z-]+)\s", out.split("Commands:")[1].split("Options:")[0], re.M)
    return [c for c in cmds if c not in ("help", "serve", "uci", "ugi", "play")]


def flags(cmd):
    out = subprocess.run([BIN, *cmd.split(), "--help"], capture_output=True, text=True).stdout
    return sorted(set(re.findall(r"(--[a-z][a-z0-9-]*)", out)) - {"--help", "--version"})


def mutate(v):
    ops = [lambda s: s, lambda s: s[: rng.randrange(len(s) + 1)], lambda s: s + rng.choice(VALUES),
           lambda s: s.replace("=", rng.choice(["==", "", "=-"]), 1), lambda s: s.replace(")", "", 1),
           lambda s: s.replace("2", rng.choice(["0", "-2", "99999999999", "nan"]))]
    return rng.choice(ops)(v)


def value():
    return mutate(rng.choice(VALUES + GAMES + PLAYERS))


def main():
    cmds = subcommands()
    # `book build`, `db` and other nested subcommands: their own flags.
    table = {}
    for c in cmds:
        sub = subprocess.run([BIN, c, "--help"], capture_output=True, text=True).stdout
        nested = re.findall(r"^  ([a-z][a-z-]+)\s", sub.split("Commands:")[1].split("Options:")[0], re.M) \
            if "Commands:" in sub else []
        for n in [x for x in nested if x != "help"] or [None]:
            name = f"{c} {n}" if n else c
            table[name] = flags(name)
    codes = collections.Counter()
    failures = 0
    for _ in range(RUNS):
        name = rng.choice(sorted(table))
        argv = name.split() + [mutate(rng.choice(GAMES))]
        for _ in range(rng.randrange(5)):
            if table[name]:
                argv.append(rng.choice(table[name]))
            if rng.random() < 0.8:
                argv.append(value())
        try:
            p = subprocess.run([BIN, *argv], capture_output=True, timeout=5, stdin=subprocess.DEVNULL)
            code = p.returncode
        except subprocess.TimeoutExpired:
            codes["timeout"] += 1
            continue
        codes[code] += 1
        if code in (101, 134) or code < 0:
            failures += 1
            print(f"FAIL exit {code}: {argv!r}\n  {p.stderr.decode(errors='replace')[-400:]}")
    print(f"runs {RUNS}, subcommands {len(table)}, exit codes {dict(codes)}, failures {failures}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
