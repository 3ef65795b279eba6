#!/usr/bin/env bash
# The long campaign: every fuzz target (or the ones named), one at a time at low priority, each until RUNS executions
# (default 10 million) or SECONDS_PER_TARGET seconds (default 3600), whichever comes first. The corpora in
# fuzz/corpus/TARGET grow from run to run (the committed seeds of fuzz/seeds/TARGET are read too). Each target's
# final statistics go to LOG_DIR/TARGET.txt and one summary line per target to LOG_DIR/summary.txt.
# One input may take TIMEOUT seconds (default 20; the protocol target runs searches: give it 60).
# Builds the targets first (`cargo +nightly fuzz build -s none`, at the same low priority; NO_BUILD=1 skips it).
# `tournament` names the targets of the tournament surfaces (issue 43, point 8): tournament_files, tournament_view,
# tournament_api and cluster_jobs.
#
#   nohup scripts/fuzz-campaign.sh > campaign.log 2>&1 &
#   LOG_DIR=campaign-logs scripts/fuzz-campaign.sh tournament      # the four tournament targets, 10M runs or 1 h each
#   SECONDS_PER_TARGET=600 scripts/fuzz-campaign.sh records http_api
#   TIMEOUT=60 scripts/fuzz-campaign.sh protocol
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${SECONDS_PER_TARGET:-3600}"
runs="${RUNS:-10000000}"
timeout="${TIMEOUT:-20}"
log="${LOG_DIR:-campaign-logs}"
bin=target/x86_64-unknown-linux-gnu/release
targets=()
for t in "$@"; do
    if [ "$t" = tournament ]; then
        targets+=(tournament_files tournament_view tournament_api cluster_jobs)
    else
        targets+=("$t")
    fi
done
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"/\1/p' Cargo.toml | grep -v plateau-fuzz)
fi
if [ "${NO_BUILD:-0}" != 1 ] && ! nice -n 15 cargo +nightly fuzz build -s none; then
    echo "error: the fuzz targets do not build (fuzz/README.md: nightly and cargo-fuzz)"
    exit 1
fi
mkdir -p "$log"
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "seeds/$t" "artifacts/$t"
    start=$(date +%s)
    touch "$log/$t.start"
    # The files a target writes (the tournament targets': TMP/plateau-fuzz-NAME-PID/) go to a directory removed after.
    scratch=$(mktemp -d)
    TMPDIR="$scratch" nice -n 15 "$bin/$t" "corpus/$t" "seeds/$t" -max_total_time="$seconds" -runs="$runs" -timeout="$timeout" \
        -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 -artifact_prefix="artifacts/$t/" \
        >"$log/$t.txt" 2>&1
    rc=$?
    rm -rf "$scratch"
    took=$(($(date +%s) - start))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log/$t.txt")
    last=$(grep -E "^#[0-9]+" "$log/$t.txt" | tail -1)
    # Only the artifacts this run wrote (an earlier campaign's, already reported, are not counted again).
    crashes=$(find "artifacts/$t" -type f -newer "$log/$t.start" | wc -l)
    rm -f "$log/$t.start"
    echo "$t rc=$rc seconds=$took execs=$execs new_artifacts=$crashes last: $last" | tee -a "$log/summary.txt"
done
