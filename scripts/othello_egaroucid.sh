#!/usr/bin/env bash
# Othello endgames: plateau's exact solver against Egaroucid's console, one thread each, run alternately on the same
# FFO positions (tests/data/othello/fforum-40-59.obf): per position the exact score (checked against the suite's), the
# best move (checked to be one of the suite's best), nodes, each program's own seconds (wall clock of its solve), the
# user CPU seconds of each process less its start-up cost (the median of three runs on a one-empty position, same run),
# and the ratio of those CPU seconds. User time only: the system time is mostly the zeroing of fresh table pages, which
# Egaroucid does for its whole table before each solve and plateau page by page during it, and it varies with load.
#
# Usage: scripts/othello_egaroucid.sh [FIRST [LAST]]      FFO numbers, 40 <= FIRST <= LAST <= 59 (default 40 49)
# Environment:
#   EGAROUCID_DIR   directory holding an already built Egaroucid console, Egaroucid_for_Console.out, and its
#                   resources/ (eval_move_ordering_end.egev); default target/anchors/egaroucid. This script neither
#                   fetches nor builds it (see docs/othello.md, "Against Egaroucid").
#   EGAROUCID_EVAL  its evaluation file; default a zero evaluation written to $EGAROUCID_DIR/zero.egev2 (the trained
#                   eval.egev2 is not available here: see docs/othello.md)
#   EGAROUCID_HASH  its hash level (default 23: 2^23 entries of 24 bytes, 192 MiB)
#   PLATEAU         plateau binary (default target/release/plateau); PLATEAU_TT its table (default 256mb)
#   ANCHOR_CAP      a factor F > 0: plateau runs first on every position and Egaroucid is stopped after F times
#                   plateau's wall-clock time; a stopped run shows '>' before its time and the ratio as an upper bound
#                   ('<'), its score and move as '-' (not checked). For the long positions (#53-#58), where the anchor
#                   takes several times plateau's time: with F = 1 the measurement costs at most twice plateau's time
#                   and still decides whether the ratio is below 1. Default: no cap, the order alternates.
# Exits 1 when a score or best move differs from the suite's.
set -euo pipefail
cd "$(dirname "$0")/.."
first=${1:-40}
last=${2:-$first}
[ $# -ge 1 ] || last=49
for n in "$first" "$last"; do
  if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 40 ] || [ "$n" -gt 59 ]; then
    echo "error: FFO numbers must be whole numbers from 40 to 59, got '$n'" >&2
    exit 2
  fi
done
if [ "$first" -gt "$last" ]; then
  echo "error: FIRST ($first) is after LAST ($last)" >&2
  exit 2
fi
egdir=${EGAROUCID_DIR:-target/anchors/egaroucid}
eg="$egdir/Egaroucid_for_Console.out"
plateau=${PLATEAU:-target/release/plateau}
[ -x "$eg" ] || { echo "error: no Egaroucid console at $eg (set EGAROUCID_DIR)" >&2; exit 2; }
[ -f "$egdir/resources/eval_move_ordering_end.egev" ] ||
  { echo "error: $egdir/resources/eval_move_ordering_end.egev is missing (copy it from Egaroucid's bin/resources)" >&2; exit 2; }
[ -x "$plateau" ] || { echo "error: no plateau binary at $plateau (cargo build --release, or set PLATEAU)" >&2; exit 2; }
exec python3 - "$first" "$last" "$eg" "$plateau" <<'EOF'
import atexit, os, re, resource, shutil, statistics, struct, subprocess, sys, tempfile

first, last, eg, plateau = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
egdir = os.path.dirname(eg)
hash_level = os.environ.get("EGAROUCID_HASH", "23")
tt = os.environ.get("PLATEAU_TT", "256mb")
evalf = os.environ.get("EGAROUCID_EVAL")
if not evalf:
    # The console refuses to start without a main evaluation; an all-zero one in its own compressed format
    # (int32 count, then int16 runs: n >= 4096 stands for n - 4096 zeros) for 60 phases x (612360 + 65) weights.
    evalf = os.path.join(egdir, "zero.egev2")
    total, runs = 60 * (612360 + 65), []
    while total > 0:
        r = min(total, 32767 - 4096)
        runs.append(4096 + r)
        total -= r
    with open(evalf, "wb") as f:
        f.write(struct.pack("<i", len(runs)) + struct.pack("<%dh" % len(runs), *runs))

suite = []
for line in open("tests/data/othello/fforum-40-59.obf"):
    if line.startswith("#") or not line.strip():
        continue
    board, rest = line.split(";", 1)
    moves = [m.strip().split(":") for m in rest.split(";") if m.strip()]
    best = int(moves[0][1])
    suite.append((board.strip(), best, {m.lower() for m, s in moves if int(s) == best}))

cap = os.environ.get("ANCHOR_CAP")
if cap is not None:
    try:
        cap = float(cap)
    except ValueError:
        cap = -1.0
    if not cap > 0:
        sys.exit(f"error: ANCHOR_CAP must be a number above 0, got {os.environ['ANCHOR_CAP']!r}")

class Stopped(Exception):
    def __init__(self, cpu, seconds):
        self.cpu, self.seconds = cpu, seconds

def cpu(cmd, timeout=None):
    import time
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:  # the child is killed and waited for: its CPU time is counted
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        raise Stopped(r1.ru_utime - r0.ru_utime, time.monotonic() - t0)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"error: {cmd[0]} failed ({p.returncode}): {p.stderr.strip().splitlines()[-1:]}")
    return p.stdout, r1.ru_utime - r0.ru_utime

tmp = tempfile.mkdtemp(prefix="othello_egaroucid.")
atexit.register(shutil.rmtree, tmp, True)  # also on an error exit or Ctrl-C
def run_egaroucid(board, timeout=None):
    path = os.path.join(tmp, "p.txt")
    with open(path, "w") as f:
        f.write(board + "\n")
    try:
        out, c = cpu([eg, "-t", "1", "-l", "60", "-hash", hash_level, "-nobook", "-eval", evalf, "-solve", path], timeout)
    except Stopped as s:
        return {"move": None, "score": None, "nodes": None, "seconds": s.seconds, "cpu": s.cpu, "stopped": True}
    row = [l for l in out.splitlines() if l.startswith("|") and "Level" not in l]
    if len(row) != 1:
        sys.exit(f"error: unexpected Egaroucid output: {out!r}")
    cells = [x.strip() for x in row[0].strip("|").split("|")]
    h, m, s = cells[4].split(":")
    return {"move": cells[2], "score": int(cells[3]), "nodes": int(cells[5]),
            "seconds": int(h) * 3600 + int(m) * 60 + float(s), "cpu": c}

def run_plateau(board):
    import json
    out, c = cpu([plateau, "solve", "othello", f"--position={board}", "--tt", tt, "--json"])
    j = json.loads(out)
    return {"move": j["best_move"], "score": j["score"], "nodes": j["nodes"], "seconds": j["seconds"], "cpu": c}

trivial = "-OXXXXXX" + "X" * 56 + " X"  # one empty square: start-up cost only
start_eg = statistics.median(run_egaroucid(trivial)["cpu"] for _ in range(3))
start_pl = statistics.median(run_plateau(trivial)["cpu"] for _ in range(3))
ver = subprocess.run([eg, "-v"], capture_output=True, text=True).stdout.strip().splitlines()
load = open("/proc/loadavg").read().split()[:3]
print(f"Egaroucid: {ver[0] if ver else '?'}; threads 1, hash level {hash_level}, evaluation {os.path.basename(evalf)}")
print(f"plateau: {plateau}, --tt {tt}; load average at start {' '.join(load)}")
print(f"start-up user CPU subtracted: Egaroucid {start_eg:.2f} s, plateau {start_pl:.2f} s")
if cap:
    print(f"Egaroucid stopped after {cap:g} times plateau's wall-clock time; plateau first on every position")
print()
print("| FFO | empties | suite | plateau score (move) | plateau nodes | plateau s | plateau user CPU s | Egaroucid score (move) "
      "| Egaroucid nodes | Egaroucid s | Egaroucid user CPU s | user CPU ratio plateau/Egaroucid |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
bad, tot = 0, {"pc": 0.0, "ec": 0.0, "pn": 0, "en": 0}
for i, n in enumerate(range(first, last + 1)):
    board, best, best_moves = suite[n - 40]
    if cap:
        r = {"p": run_plateau(board)}
        r["e"] = run_egaroucid(board, cap * r["p"]["seconds"] + start_eg + 1.0)
    else:
        order = [("p", run_plateau), ("e", run_egaroucid)]
        if i % 2:
            order.reverse()
        r = {k: f(board) for k, f in order}
    r["p"]["cpu"] = max(r["p"]["cpu"] - start_pl, 0.0)
    r["e"]["cpu"] = max(r["e"]["cpu"] - start_eg, 0.0)
    stopped = r["e"].get("stopped", False)
    marks = {}
    for k in "pe":
        if k == "e" and stopped:
            continue
        ok = r[k]["score"] == best and r[k]["move"].lower() in best_moves
        marks[k] = "" if ok else " WRONG"
        bad += not ok
    tot["pc"] += r["p"]["cpu"]; tot["ec"] += r["e"]["cpu"]; tot["pn"] += r["p"]["nodes"]; tot["en"] += r["e"]["nodes"] or 0
    tot["stopped"] = tot.get("stopped", False) or stopped
    ratio = r["p"]["cpu"] / r["e"]["cpu"] if r["e"]["cpu"] > 0 else float("inf")
    if stopped:
        e_cols = f"- (stopped) | - | >{r['e']['seconds']:.2f} | >{r['e']['cpu']:.2f} | <{ratio:.2f}"
    else:
        e_cols = (f"{r['e']['score']:+d} ({r['e']['move']}){marks['e']} | {r['e']['nodes']:,} | {r['e']['seconds']:.2f} "
                  f"| {r['e']['cpu']:.2f} | {ratio:.2f}")
    print(f"| #{n} | {board.count('-')} | {best:+d} | {r['p']['score']:+d} ({r['p']['move']}){marks['p']} | {r['p']['nodes']:,} "
          f"| {r['p']['seconds']:.2f} | {r['p']['cpu']:.2f} | {e_cols} |", flush=True)
ratio = tot["pc"] / tot["ec"] if tot["ec"] > 0 else float("inf")
gt, lt = (">", "<") if tot.get("stopped") else ("", "")
print(f"| total | | | | {tot['pn']:,} | | {tot['pc']:.2f} | | {gt}{tot['en']:,} | | {gt}{tot['ec']:.2f} | {lt}{ratio:.2f} |")
print(f"\nload average at end {' '.join(open('/proc/loadavg').read().split()[:3])}")
if bad:
    sys.exit(f"error: {bad} result(s) differ from the suite's")
EOF
