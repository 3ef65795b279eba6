#!/usr/bin/env bash
# plateau's Connect Four solver against Christophe Steininger's (github.com/ChristopheSteininger/c4), side by side in
# one run, one core each, the same transposition-table size, on Pons's six benchmark files and on the empty board.
#
# Usage: scripts/c4_steininger.sh [N_BEGIN] [SOURCE]
#   N_BEGIN  positions taken from the head of Begin-Medium (Test_L1_R2) and Begin-Hard (Test_L1_R3)  (default 20);
#            the four easier files always run whole (1000 positions each)
#   SOURCE   where to clone Steininger's repository from: a URL or a local clone (default $C4_SOURCE, else
#            https://github.com/ChristopheSteininger/c4)
# Environment:
#   C4_COMMIT   the commit built (default the pinned one below)
#   PLATEAU     the plateau binary (default target/release/plateau, built with `cargo build --release` if absent)
#   PLATEAU_BASE  a second plateau binary (an earlier build): run before PLATEAU on every file, its own rows marked
#               "base" (PLATEAU's "new"), so that a change is measured before and after in the same run
#   FILES       the benchmark files to run, space separated (default all six: L3_R1 L2_R1 L2_R2 L1_R1 L1_R2 L1_R3)
#   REPEATS     pairs per file, plateau then the anchor each time (default 1)
#   EMPTY       1 (default) also solves the empty 7x6 board with both programs; 0 skips it
#   TT_MB       table size in MiB for both programs (default 128, plateau's default `--tt 128mb`)
#   NICE        niceness of both programs (default 10)
#   POOL        1: the anchor runs through its own Solver class (a worker thread per search) instead of calling its
#               single-threaded Search on the main thread (default 0; see the driver below)
# The anchor is built under target/anchors/c4-<commit>-<TT_MB>mb/ (gitignored); the script needs git, g++ (C++20)
# and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

n_begin=${1:-20}
source=${2:-${C4_SOURCE:-https://github.com/ChristopheSteininger/c4}}
commit=${C4_COMMIT:-80baa5315c90fcc4f1491e7fa66cf6db29462581}
plateau=${PLATEAU:-$root/target/release/plateau}
base=${PLATEAU_BASE:-}
files=${FILES:-"L3_R1 L2_R1 L2_R2 L1_R1 L1_R2 L1_R3"}
repeats=${REPEATS:-1}
empty=${EMPTY:-1}
tt_mb=${TT_MB:-128}
niceness=${NICE:-10}
anchor_flag=()
[[ ${POOL:-0} == 1 ]] && anchor_flag=(--pool)
bench=$root/tests/data/benchmarks/connect4

die() { echo "c4_steininger.sh: $*" >&2; exit 1; }
[[ $n_begin =~ ^[1-9][0-9]*$ && $n_begin -le 1000 ]] || die "N_BEGIN must be 1 to 1000, got '$n_begin'"
[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "REPEATS must be a positive integer, got '$repeats'"
[[ $tt_mb =~ ^[1-9][0-9]*$ ]] || die "TT_MB must be a positive integer (MiB), got '$tt_mb'"
command -v g++ >/dev/null || die "g++ not found (apt-get install -y g++)"
command -v python3 >/dev/null || die "python3 not found"

# ---- fetch and build the anchor -------------------------------------------------------------------------------------
out=$root/target/anchors/c4-${commit:0:7}-${tt_mb}mb
anchor=$out/c4bench
if [[ ! -x $anchor ]]; then
  mkdir -p "$out"
  rm -rf "$out/src"
  echo "fetching $source at $commit"
  git clone --quiet "$source" "$out/src" || die "cannot clone '$source'"
  git -C "$out/src" -c advice.detachedHead=false checkout --quiet "$commit" || die "commit $commit not in '$source'"

  # Table: Steininger's entries are 8 bytes and the entry count must be odd (his Chinese-remainder key packing),
  # preferably prime; take the largest prime whose table fits in TT_MB MiB.
  entries=$(python3 -c "
n = $tt_mb * 2**20 // 8 - 1
def prime(k):
    i = 3
    while i * i <= k:
        if k % i == 0: return False
        i += 2
    return True
while not prime(n): n -= 2
print(n)")
  settings=$out/src/src/solver/settings.h
  sed -i -E \
    -e "s/^(inline constexpr int NUM_THREADS = )[0-9]+;/\\11;/" \
    -e "s/^(inline constexpr uint64_t NUM_TABLE_ENTRIES = )[0-9]+;/\\1${entries};/" \
    -e "s/^(inline constexpr bool ENABLE_HUGE_PAGES = )false;/\\1true;/" \
    "$settings"
  grep -q "NUM_THREADS = 1;" "$settings" && grep -q "NUM_TABLE_ENTRIES = ${entries};" "$settings" \
    && grep -q "ENABLE_HUGE_PAGES = true;" "$settings" || die "could not set threads/table/huge pages in $settings"

  # A driver like Pons's benchmark mode: one position per line (Pons's "moves [score]", columns 1-7; an empty line is
  # the empty board), the table cleared before each (outside the timed region), a strong solve, then
  # "moves score nodes microseconds". By default it calls Steininger's single-threaded `Search` on its own thread,
  # narrowing the score with null windows as his `Solver::solve` does (same pre-checks, same windows): his `Solver`
  # hands every window to a worker thread and waits for it, and on a loaded machine each hand-off waits for the
  # scheduler (End-Easy, about 10 nodes a position, took 19.5 ms a position that way at load 5). `c4bench --pool`
  # runs his `Solver` as shipped.
  cat >"$out/bench.cpp" <<'EOF'
#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "solver/position.h"
#include "solver/search.h"
#include "solver/solver.h"
#include "solver/table.h"
#include "solver/util/progress.h"
#include "solver/util/stats.h"

// The strong score of `start` by `search` on this thread: Solver::solve's early answers, then null windows.
static int solve_here(Search &search, const Position &start) {
    Position pos{start};
    if (pos.has_opponent_won()) return pos.score_loss(0);
    if (pos.has_player_won()) return pos.score_win(-1);
    if (pos.is_draw()) return 0;
    if (pos.wins_this_move(pos.find_player_threats())) return pos.score_win();
    int low = std::max(pos.score_loss(), Position::MIN_SCORE);
    int high = std::min(pos.score_win(), Position::MAX_SCORE);
    int score = (low + high) / 2;
    while (low < high) {
        int probe = std::max(score, low + 1);
        search.start();
        score = search.search(pos, probe - 1, probe, 0);
        if (score < probe) {
            high = score;
        } else {
            low = score;
        }
    }
    return score;
}

int main(int argc, char **argv) {
    bool pool = argc > 1 && std::strcmp(argv[1], "--pool") == 0;
    std::unique_ptr<Solver> solver;
    std::unique_ptr<Table> table;
    std::unique_ptr<Search> search;
    auto stats = std::make_shared<Stats>();
    if (pool) {
        solver = std::make_unique<Solver>();
    } else {
        table = std::make_unique<Table>();
        search = std::make_unique<Search>(0, *table, stats, std::make_shared<Progress>());
    }
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string moves = line.substr(0, line.find(' '));
        Position pos{};
        for (char c : moves) {
            if (c < '1' || c > '0' + BOARD_WIDTH) {
                std::cerr << "bad move '" << c << "' in: " << line << std::endl;
                return 1;
            }
            pos.move(c - '1');
        }
        if (pool) {
            solver->clear_state();
        } else {
            table->clear();
            stats->reset();
        }
        auto begin = std::chrono::steady_clock::now();
        int score = pool ? solver->solve_strong(pos) : solve_here(*search, pos);
        auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - begin).count();
        unsigned long long nodes = pool ? solver->get_merged_stats().get_num_nodes() : stats->get_num_nodes();
        std::cout << (moves.empty() ? "-" : moves) << ' ' << score << ' ' << nodes << ' ' << micros << '\n'
                  << std::flush;
    }
    return 0;
}
EOF
  echo "building the anchor (g++ -O3 -flto -DNDEBUG, as its CMake 'optimise' preset; 1 thread, $entries entries)"
  (cd "$out/src/src" && g++ -std=c++20 -O3 -flto -DNDEBUG -Wall -pthread -I. \
      solver/*.cpp solver/parallel/*.cpp solver/util/*.cpp "$out/bench.cpp" -o "$anchor") \
    || die "the anchor did not build"
fi

[[ -z $base || -x $base ]] || die "PLATEAU_BASE='$base' is not an executable"
if [[ ! -x $plateau ]]; then
  [[ -z ${PLATEAU:-} ]] || die "PLATEAU='$plateau' is not an executable"
  cargo build --release --quiet
fi

# ---- run ------------------------------------------------------------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }

echo "anchor: ChristopheSteininger/c4 at ${commit:0:7}${anchor_flag[*]:+ (through its Solver pool)}, 1 thread, table $tt_mb MiB; plateau: $plateau${base:+ (base: $base)} --tt ${tt_mb}mb"
# Each plateau binary, the base first, then the anchor, file by file.
runs=()
[[ -n $base ]] && runs+=("base:$base")
runs+=("new:$plateau")
echo "nice -n $niceness, $(nproc) processors, started $(date -u '+%Y-%m-%d %H:%M UTC'), load $(load)"
printf '| file | positions | plateau mean time | anchor mean time | plateau mean nodes | anchor mean nodes | wrong scores (plateau / anchor) | anchor time / plateau time (means) | median times (plateau / anchor) | load (plateau; anchor) |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'

for f in $files; do
  file=$bench/Test_$f
  [[ -f $file ]] || die "no benchmark file $file"
  case $f in L1_R2 | L1_R3) n=$n_begin ;; *) n=1000 ;; esac
  head -n "$n" "$file" >"$work/positions"
  count=$(wc -l <"$work/positions")
  for ((r = 1; r <= repeats; r++)); do
    loads=()
    for run in "${runs[@]}"; do
      l0=$(load)
      nice -n "$niceness" "${run#*:}" solve c4 --batch "$work/positions" --tt "${tt_mb}mb" --json \
        >"$work/${run%%:*}.json" || die "plateau (${run%%:*}) failed on $f"
      loads+=("$l0..$(load)")
    done
    l1=$(load)
    nice -n "$niceness" "$anchor" "${anchor_flag[@]}" <"$work/positions" >"$work/a.txt" || die "the anchor failed on $f"
    l2=$(load)
    for i in "${!runs[@]}"; do
      label=${runs[$i]%%:*}
      [[ -n $base ]] || label=
      python3 - "$f" "$count" "$work/positions" "$work/${runs[$i]%%:*}.json" "$work/a.txt" "${loads[$i]}; $l1..$l2" \
        "$label" <<'EOF'
import json, sys
name, count, positions, pjson, atxt, loads, label = sys.argv[1:]
names = {"L3_R1": "End-Easy", "L2_R1": "Middle-Easy", "L2_R2": "Middle-Medium", "L1_R1": "Begin-Easy",
         "L1_R2": "Begin-Medium", "L1_R3": "Begin-Hard"}
expected = [int(l.split()[1]) for l in open(positions) if l.strip()]
p = json.load(open(pjson))
a = [l.split() for l in open(atxt) if l.strip()]
if len(a) != len(expected) or p["positions"] != len(expected):
    sys.exit(f"{name}: {len(expected)} positions, plateau answered {p['positions']}, the anchor {len(a)}")
# Steininger's strong score is Pons's scale (1 + (42 - stones at the win) / 2 for the side to move); checked here
# score by score against the file.
a_wrong = sum(int(row[1]) != e for row, e in zip(a, expected))
a_time = sum(int(row[3]) for row in a) / len(a) * 1e-6
a_nodes = sum(int(row[2]) for row in a) / len(a)
p_time = p["mean_seconds"]
def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2
p_median = median([r["seconds"] for r in p["results"]])
a_median = median([int(row[3]) * 1e-6 for row in a])
def t(s):
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else (f"{s * 1e3:.3f} ms" if s < 1 else f"{s:.2f} s")
label = f", {label}" if label else ""
print(f"| `Test_{name}` ({names[name]}{label}) | {count} | {t(p_time)} | {t(a_time)} | {p['mean_nodes']:.1f} | {a_nodes:.1f} "
      f"| {p['mismatches']} / {a_wrong} | {a_time / p_time:.2f} | {t(p_median)} / {t(a_median)} | {loads} |")
EOF
    done
  done
done

if [[ $empty == 1 ]]; then
  # CPU seconds (user + system, GNU time) beside the wall clock: on a loaded machine the wall clock of a long solve
  # mostly measures the other jobs.
  command -v /usr/bin/time >/dev/null || die "/usr/bin/time not found (apt-get install -y time)"
  l0=$(load)
  nice -n "$niceness" /usr/bin/time -f '%U %S' -o "$work/p.cpu" "$plateau" solve c4 --moves "" --tt "${tt_mb}mb" \
    --json >"$work/p.json" || die "plateau failed on the empty board"
  l1=$(load)
  echo "" | nice -n "$niceness" /usr/bin/time -f '%U %S' -o "$work/a.cpu" "$anchor" "${anchor_flag[@]}" \
    >"$work/a.txt" || die "the anchor failed on the empty board"
  l2=$(load)
  python3 - "$work/p.json" "$work/a.txt" "$l0..$l1; $l1..$l2" "$work/p.cpu" "$work/a.cpu" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
_, score, nodes, micros = open(sys.argv[2]).read().split()
s = int(micros) * 1e-6
pc, ac = (sum(float(x) for x in open(f).read().split()[-2:]) for f in sys.argv[4:6])
print(f"| empty 7x6 board (score +1) | 1 | {p['seconds']:.2f} s ({pc:.1f} s CPU) | {s:.2f} s ({ac:.1f} s CPU) "
      f"| {p['nodes']} | {nodes} | {0 if p['score'] == 1 else 1} / {0 if int(score) == 1 else 1} | {s / p['seconds']:.2f} "
      f"(CPU {ac / pc:.2f}) | | {sys.argv[3]} |")
EOF
fi
echo "ended $(date -u '+%H:%M UTC'), load $(load)"
