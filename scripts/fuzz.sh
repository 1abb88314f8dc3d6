#!/usr/bin/env bash
# Coverage-guided fuzzing of tetrad with AFL++ through cargo-afl (stable Rust).
#
#   one-time set-up:  cargo install cargo-afl && cargo afl config --build
#   scripts/fuzz.sh build                 # instrumented targets in fuzz/target/release
#   scripts/fuzz.sh run TARGET MINUTES    # one target; findings in fuzz/out/TARGET/default/
#   scripts/fuzz.sh all MINUTES [JOBS]    # every target, JOBS at a time (default: 2)
#   scripts/fuzz.sh stats                 # executions, paths, crashes and hangs per target
#   scripts/fuzz.sh replay                # the suite's replay of seeds and saved findings
#   fuzz/target/release/TARGET FILE...    # those inputs through the target, outside AFL
#
# Targets (src/fuzz.rs): game_text (each game's position strings and moves, with round-trip
# checks), protocol (whole GTP/UGI sessions through the real protocol loop), pods_data (Pods
# data files). A crash or hang found goes into fuzz/regressions/TARGET/ with a name that says
# what it was, gets its fix, and is replayed by tests/engine/fuzz_corpus.rs from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(game_text protocol pods_data)
# AFL's own checks of the host (CPU scaling, core dumps piped to a handler) do not affect
# what it finds, and containers often cannot change them. No binding to a core of its own: on
# a shared machine a free one is seldom there, and AFL then refuses to start.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1

build() { (cd fuzz && cargo afl build --release); }

run() {
    local target=$1 minutes=$2
    local out=fuzz/out/$target
    local input=fuzz/seeds/$target
    # Resume when there is an earlier run (AFL's "-i -").
    if [[ -d $out/default/queue ]]; then input=-; fi
    mkdir -p "$out"
    cargo afl fuzz -i "$input" -o "$out" -x fuzz/protocol.dict -t 2000 \
        -V $((minutes * 60)) "fuzz/target/release/$target" >"$out/log.txt" 2>&1 || true
    stats "$target"
}

stats() {
    local t
    for t in "$@"; do
        local f=fuzz/out/$t/default/fuzzer_stats
        if [[ -f $f ]]; then
            awk -v t="$t" -F' *: ' '
                /^run_time|^execs_done|^execs_per_sec|^corpus_count|^saved_crashes|^saved_hangs|^stability|^bitmap_cvg|^edges_found/ { v[$1] = $2 }
                END { printf "%-10s run %6ss  execs %10s  (%s/s)  corpus %5s  edges %s  crashes %s  hangs %s  stability %s  coverage %s\n",
                      t, v["run_time"], v["execs_done"], v["execs_per_sec"], v["corpus_count"],
                      v["edges_found"], v["saved_crashes"], v["saved_hangs"], v["stability"], v["bitmap_cvg"] }' "$f"
        else
            echo "$t: no run yet"
        fi
    done
}

case "${1:-}" in
build) build ;;
run) build && run "$2" "$3" ;;
all)
    build
    jobs=${3:-2}
    for t in "${TARGETS[@]}"; do
        while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
        run "$t" "$2" &
    done
    wait
    stats "${TARGETS[@]}"
    ;;
stats) stats "${TARGETS[@]}" ;;
replay) cargo test --release --test engine fuzz_corpus ;;
*)
    sed -n '2,15p' "$0"
    exit 2
    ;;
esac
