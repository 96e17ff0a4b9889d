#!/bin/sh
# Runs every fuzz target for SECONDS (default 600), JOBS at a time (default 2),
# on the stable toolchain through RUSTC_BOOTSTRAP, with the limits the
# hardening issue sets: 1 s per input, 64 MiB per allocation.
# Logs go to fuzz/logs/<target>.log; new corpus entries to fuzz/corpus/<target>.
#
#   fuzz/campaign.sh [SECONDS] [JOBS] [TARGET...]
set -eu
cd "$(dirname "$0")"
secs=${1:-600}
jobs=${2:-2}
[ $# -ge 2 ] && shift 2 || shift $#
targets=${*:-"msgpack cbor binc simple json json_whitespace"}
export RUSTC_BOOTSTRAP=1
cargo fuzz build -O
mkdir -p logs
# Seed every target's corpus when one asked for has none yet (seed files are
# only added or rewritten, never removed).
for t in $targets; do
    if [ ! -d "corpus/$t" ]; then
        cargo run -q --manifest-path ../Cargo.toml -p codec-fuzz-targets --bin seed-corpus -- corpus
        break
    fi
done
run() {
    cargo fuzz run -O "$1" "corpus/$1" -- \
        -max_total_time="$secs" -timeout=1 -malloc_limit_mb=64 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 >"logs/$1.log" 2>&1 \
        && echo "$1: done" || echo "$1: FAILED (see fuzz/logs/$1.log)"
}
set -- $targets
while [ $# -gt 0 ]; do
    i=0
    while [ $# -gt 0 ] && [ $i -lt "$jobs" ]; do
        run "$1" &
        shift
        i=$((i + 1))
    done
    wait
done
for t in $targets; do
    printf '%s: ' "$t"
    grep -E 'stat::number_of_executed_units|Done [0-9]+ runs' "logs/$t.log" | tail -1
done
