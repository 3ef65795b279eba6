#!/usr/bin/env bash
# plateau's Connect Four solver against Christophe Steininger's (github.com/ChristopheSteininger/c4), side by side in
# one run, one core each, the same transposition-table size, on Pons's six benchmark files and on the empty board.
#
# Usage: scripts/c4_steininger.sh [N_BEGIN]
#   N_BEGIN  positions taken from the head of Begin-Medium (Test_L1_R2) and Begin-Hard (Test_L1_R3)  (default 20);
#            the four easier files always run whole (1000 positions each)
# Environment:
#   C4_ANCHOR   the anchor: a program built from Steininger's repository at commit 80baa53 with one thread and the
#               table of TT_MB (default target/anchors/c4/c4bench). This script neither fetches nor builds it
#               (docs/solving.md, "Speed against Steininger's solver", says how the measured one was configured). It
#               reads Pons's benchmark lines on stdin ("moves [score]"; an empty line is the empty board), clears its
#               table before each position and prints one line per position: "moves score nodes microseconds"
#               (the strong score on Pons's scale, the time of the solve alone; the moves field
#               is empty for the empty board).
#   ANCHOR_ARGS extra arguments for the anchor program (space separated)
#   PLATEAU     the plateau binary (default target/release/plateau, built with `cargo build --release` if absent)
#   PLATEAU_BASE  a second plateau binary (an earlier build): run before PLATEAU on every file, its own rows marked
#               "base" (PLATEAU's "new"), so that a change is measured before and after in the same run
#   OFFSET      positions skipped at the head of Begin-Medium and Begin-Hard before the N_BEGIN taken (default 0):
#               `OFFSET=500 ... 500` runs positions 501 to 1000, for example beside a run of the first 500
#   FILES       the benchmark files to run, space separated (default all six: L3_R1 L2_R1 L2_R2 L1_R1 L1_R2 L1_R3)
#   REPEATS     pairs per file, plateau then the anchor each time (default 1)
#   EMPTY       1 (default) also solves the empty 7x6 board with both programs; 0 skips it
#   TT_MB       table size in MiB for plateau (default 128, plateau's default `--tt 128mb`; the anchor's is built in)
#   NICE        niceness of both programs (default 10)
# Needs python3 (the tables) and /usr/bin/time (the empty board's CPU time).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

n_begin=${1:-20}
commit=80baa53
anchor=${C4_ANCHOR:-$root/target/anchors/c4/c4bench}
plateau=${PLATEAU:-$root/target/release/plateau}
base=${PLATEAU_BASE:-}
files=${FILES:-"L3_R1 L2_R1 L2_R2 L1_R1 L1_R2 L1_R3"}
repeats=${REPEATS:-1}
empty=${EMPTY:-1}
tt_mb=${TT_MB:-128}
offset=${OFFSET:-0}
niceness=${NICE:-10}
read -r -a anchor_flag <<<"${ANCHOR_ARGS:-}"
bench=$root/tests/data/benchmarks/connect4

die() { echo "c4_steininger.sh: $*" >&2; exit 1; }
[[ $n_begin =~ ^[1-9][0-9]*$ && $n_begin -le 1000 ]] || die "N_BEGIN must be 1 to 1000, got '$n_begin'"
[[ $offset =~ ^[0-9]+$ && $offset -lt 1000 ]] || die "OFFSET must be 0 to 999, got '$offset'"
[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "REPEATS must be a positive integer, got '$repeats'"
[[ $tt_mb =~ ^[1-9][0-9]*$ ]] || die "TT_MB must be a positive integer (MiB), got '$tt_mb'"
command -v python3 >/dev/null || die "python3 not found"
[[ -x $anchor ]] || die "no anchor program at $anchor (set C4_ANCHOR; docs/solving.md, \"Speed against Steininger's solver\")"

[[ -z $base || -x $base ]] || die "PLATEAU_BASE='$base' is not an executable"
if [[ ! -x $plateau ]]; then
  [[ -z ${PLATEAU:-} ]] || die "PLATEAU='$plateau' is not an executable"
  cargo build --release --quiet
fi

# ---- run ------------------------------------------------------------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }

echo "anchor: $anchor${anchor_flag[*]:+ ${anchor_flag[*]}} (ChristopheSteininger/c4 at $commit, 1 thread); plateau: $plateau${base:+ (base: $base)} --tt ${tt_mb}mb"
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
  case $f in L1_R2 | L1_R3) n=$n_begin skip=$offset ;; *) n=1000 skip=0 ;; esac
  tail -n +"$((skip + 1))" "$file" | head -n "$n" >"$work/positions"
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
# The last three fields: the moves field of the empty board is empty.
*_, score, nodes, micros = open(sys.argv[2]).read().split()
s = int(micros) * 1e-6
pc, ac = (sum(float(x) for x in open(f).read().split()[-2:]) for f in sys.argv[4:6])
print(f"| empty 7x6 board (score +1) | 1 | {p['seconds']:.2f} s ({pc:.1f} s CPU) | {s:.2f} s ({ac:.1f} s CPU) "
      f"| {p['nodes']} | {nodes} | {0 if p['score'] == 1 else 1} / {0 if int(score) == 1 else 1} | {s / p['seconds']:.2f} "
      f"(CPU {ac / pc:.2f}) | | {sys.argv[3]} |")
EOF
fi
echo "ended $(date -u '+%H:%M UTC'), load $(load)"
