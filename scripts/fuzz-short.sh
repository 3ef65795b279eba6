#!/usr/bin/env bash
# A short campaign: every fuzz target of fuzz/ (or the ones named) for SECONDS seconds each (default 60), on the
# nightly toolchain with cargo-fuzz (`cargo install cargo-fuzz`). New inputs go to fuzz/corpus/TARGET (not committed);
# the committed seeds of fuzz/seeds/TARGET are read too. A crash stops with the target's report and its input under
# fuzz/artifacts/TARGET; the summary line of each target (executions, coverage) is printed at the end.
#
# `python` names the Python harness (python/fuzz/fuzz_api.py, atheris) run with $PYTHON (default python3), which must
# import `plateau` and `atheris` (fuzz/README.md); with no target named it runs last when they import, and the script
# says so when they do not.
#
#   scripts/fuzz-short.sh              # every target, 60 s each
#   SECONDS_PER_TARGET=10 scripts/fuzz-short.sh protocol positions
#   SECONDS_PER_TARGET=120 scripts/fuzz-short.sh tournament   # the four tournament targets (fuzz/README.md)
#   PYTHON=python/target/ci-venv/bin/python scripts/fuzz-short.sh python
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${SECONDS_PER_TARGET:-60}"
targets=("$@")
python="${PYTHON:-python3}"
with_python=0
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
    if "$python" -c "import plateau, atheris" 2>/dev/null; then
        with_python=1
    else
        echo "note: the Python harness is not run: $python cannot import plateau and atheris (fuzz/README.md)"
    fi
else
    rest=()
    for t in "${targets[@]+"${targets[@]}"}"; do
        if [ "$t" = python ]; then
            with_python=1
        elif [ "$t" = tournament ]; then
            rest+=(tournament_files tournament_view tournament_api cluster_jobs)
        else
            rest+=("$t")
        fi
    done
    targets=("${rest[@]+"${rest[@]}"}")
fi
# No sanitizer: the targets look for panics, overflows (debug assertions are on) and hangs in safe Rust, and the
# lazily allocated tables would trip AddressSanitizer's allocation limit. `-s address` still works for unsafe code.
if [ "$with_python" = 1 ] && ! "$python" -c "import plateau, atheris" 2>/dev/null; then
    echo "error: $python cannot import plateau and atheris (fuzz/README.md)"
    exit 1
fi
[ ${#targets[@]} -eq 0 ] || cargo +nightly fuzz build -s none
log="$(mktemp -d)"
status=0
for t in "${targets[@]+"${targets[@]}"}"; do
    mkdir -p "corpus/$t" "seeds/$t"
    echo "== $t (${seconds}s)"
    # The files a target writes (the tournament targets': TMP/plateau-fuzz-NAME-PID/) go under $log, removed below.
    mkdir -p "$log/tmp-$t"
    if ! TMPDIR="$log/tmp-$t" cargo +nightly fuzz run -s none "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
        >"$log/$t.txt" 2>&1; then
        status=1
        echo "   CRASH: see $log/$t.txt and fuzz/artifacts/$t"
        tail -n 40 "$log/$t.txt"
    fi
    rm -rf "$log/tmp-$t"
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE" "$log/$t.txt" | tr '\n' ' '
    echo
done
if [ "$with_python" = 1 ]; then
    mkdir -p ../python/fuzz/corpus
    echo "== python (${seconds}s)"
    if ! "$python" ../python/fuzz/fuzz_api.py ../python/fuzz/corpus -max_total_time="$seconds" -timeout=60 \
        -rss_limit_mb=4096 -max_len=512 -print_final_stats=1 -artifact_prefix="$log/" >"$log/python.txt" 2>&1; then
        status=1
        echo "   CRASH: see $log/python.txt (the input: $log/crash-*)"
        tail -n 40 "$log/python.txt"
    fi
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE" "$log/python.txt" | tr '\n' ' '
    echo
fi
exit "$status"
