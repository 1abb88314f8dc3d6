#!/usr/bin/env bash
# Long random-play soak: SOAK_GAMES seeded random games per game name (Phutball a quarter of
# them), every invariant of the conformance kit (src/testkit/, run by tests/soak.rs) checked after every move; prints the positions
# checked, the wall time and the peak RSS.
#   scripts/soak.sh [GAMES] [SEED]      (defaults: 4000 0)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test soak --no-run
export SOAK_GAMES=${1:-4000} SOAK_SEED=${2:-0}
/usr/bin/time -f "soak: %e s wall, peak RSS %M KiB" \
    cargo test --release --test soak -- --ignored --nocapture soak_long
