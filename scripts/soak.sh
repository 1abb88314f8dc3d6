#!/usr/bin/env bash
# Long random-play soak (examples/long_runs): SOAK_GAMES seeded random games per game name
# (Phutball a quarter of them), every invariant of the conformance kit (src/testkit/, run by
# tests/engine/soak.rs) checked after every move; prints the positions checked, the wall time
# and the peak RSS; then SEARCHES searches per game with 2 to 4 threads (Lazy SMP) on random
# positions, each answering a legal move.
#   scripts/soak.sh [GAMES] [SEED] [SEARCHES]      (defaults: 4000 0 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --features long-runs --example long_runs
export SOAK_GAMES=${1:-4000} SOAK_SEED=${2:-0} SOAK_SEARCHES=${3:-2000}
/usr/bin/time -f "soak: %e s wall, peak RSS %M KiB" \
    target/release/examples/long_runs soak::soak_long
/usr/bin/time -f "threaded search soak: %e s wall, peak RSS %M KiB" \
    target/release/examples/long_runs soak::threaded_search_soak_long
