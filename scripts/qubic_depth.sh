#!/usr/bin/env bash
# How much a job of the 4x4x4 Qubic split takes (issue 44; docs/solving.md, "The split, 4 x 4 x 4: how the work
# grows"): the split solve of positions deeper and deeper down one line, every job of each solved to the end, the
# expansions and CPU seconds of each job read from its job line.
#
#   scripts/qubic_depth.sh DIR K...
#       for each K (even: X to move): `plateau solve qubic --moves "the line's first K moves" --split --split-first
#       "move K+1" --results DIR/kK.jobs --tt 256mb --json` (TT= another size): X's move of the line, then one job
#       per answer of O up to symmetry, each a position K+2 plies deep, proven (or disproven) to the end (the split
#       stops at the first job disproven: X's move of the line does not win); then one line of figures per K:
#       jobs run, proven, failed, expansions (median, mean, max) and CPU seconds of the jobs (sum, from cpu_seconds).
#       Resumable: the same command again goes on from DIR's files (a job done is not run again).
#   MAX_SECONDS=S, MAX_NODES=N bound each job (an `unknown` line then; the next run goes on from its table: a larger
#   MAX_NODES later is a ladder of budgets).
#
# The line: 1a1 1b1 (the corner, then the first job of the root's split, docs/solving.md) followed by the moves of
# `plateau search qubic --depth 3` for both sides, ply by ply (LINE= replaces it). PLATEAU=path picks the binary
# (default target/debug/plateau, the test-profile build of `cargo test`); every run is at nice 19.
set -euo pipefail
cd "$(dirname "$0")/.."
plateau="${PLATEAU:-target/debug/plateau}"
dir="${1:?usage: scripts/qubic_depth.sh DIR K...}"
shift
mkdir -p "$dir"
line="${LINE:-}"
if [ -z "$line" ]; then
    line="1a1 1b1"
    for _ in $(seq 1 20); do
        best=$(nice -n 19 "$plateau" search qubic --moves "$line" --depth 3 --json |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["best_move"] or "")')
        [ -n "$best" ] || break
        line="$line $best"
    done
fi
echo "line: $line"
read -r -a moves <<< "$line"
for k in "$@"; do
    prefix="${moves[*]:0:$k}"
    first="${moves[$k]}"
    limit=()
    [ -n "${MAX_SECONDS:-}" ] && limit+=(--max-seconds "$MAX_SECONDS")
    [ -n "${MAX_NODES:-}" ] && limit+=(--max-nodes "$MAX_NODES")
    nice -n 19 "$plateau" solve qubic --moves "$prefix" --split --split-first "$first" --results "$dir/k$k.jobs" \
        --tt "${TT:-256mb}" "${limit[@]}" --json > "$dir/k$k.json" || true
    python3 - "$dir/k$k.jobs" "$k" "$first" <<'EOF'
import json, statistics, sys
path, k, first = sys.argv[1], int(sys.argv[2]), sys.argv[3]
latest, cpu = {}, 0.0
for l in open(path):
    j = json.loads(l)
    latest[j["answer"]] = j
    cpu += j["cpu_seconds"] or 0  # every run of a job: a resumed one ran before
jobs = list(latest.values())
done = [j for j in jobs if j["result"] in ("win", "no-win")]
nodes = sorted(j["nodes"] + j["earlier_nodes"] for j in done)
print(f"k={k} first={first} jobs={len(jobs)} proven={sum(j['result'] == 'win' for j in jobs)} "
      f"failed={sum(j['result'] == 'no-win' for j in jobs)} open={len(jobs) - len(done)} "
      f"nodes median={statistics.median(nodes) if nodes else 0:.0f} mean={statistics.mean(nodes) if nodes else 0:.0f} "
      f"max={max(nodes) if nodes else 0} sum={sum(nodes)} cpu_s={cpu:.1f}")
EOF
done
