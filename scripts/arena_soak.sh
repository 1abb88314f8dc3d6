#!/usr/bin/env bash
# Fast-clock soak: tetrad (UGI) against tetrad (GTP) at 1+0.01 on every game, a tetrad referee
# checking every move. Any forfeit, crash, hang or illegal move shows in the result reasons.
#   scripts/arena_soak.sh [GAMES_PER_GAME] [CONCURRENCY] [SEED]   (defaults: 100 1 1)
# Results: results/soak-GAME/ (games.jsonl, summary.txt); totals on the last lines.
set -euo pipefail
cd "$(dirname "$0")/.."
per=${1:-100}
conc=${2:-1}
seed=${3:-1}
cargo build --release
mkdir -p results
# A copy, so that a rebuild while the soak runs cannot swap the binary under it.
bin=results/tetrad-soak
cp target/release/tetrad "$bin"
# Peak resident memory of any tetrad process (engines and referees), sampled every 0.2 s.
peak_rss() {
    local peak=0 r
    while sleep 0.2; do
        for r in $(ps -C tetrad,tetrad-soak -o rss= 2>/dev/null); do
            if ((r > peak)); then
                peak=$r
                echo "$peak" >results/soak-peak-rss-kib
            fi
        done
    done
}
peak_rss &
sampler=$!
# The games the engine lists (GTP list_games), one a line after the "= ".
games=$(printf 'list_games\nquit\n' | "$bin" | sed -n '1,/^$/p' | sed 's/^= //')
for game in $games; do
    python3 scripts/arena.py --game "$game" \
        --engine cmd=$bin,name=ugi,proto=ugi \
        --engine cmd=$bin,name=gtp,proto=gtp --referee "$bin" \
        --games "$per" --tc 1+0.01 --concurrency "$conc" --random-plies 4 \
        --seed "$seed" --quiet --out "results/soak-$game"
done
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
GAMES="$games" python3 - <<'PY'
import json, collections, os
games = plies = 0
faults = collections.Counter()
reasons = collections.Counter()
for g in os.environ["GAMES"].split():
    for line in open(f"results/soak-{g}/games.jsonl"):
        rec = json.loads(line)
        games += 1
        plies += rec.get("plies", 0)
        reasons[rec["reason"]] += 1
        if "fault" in rec or rec["result"] == "*":
            faults[rec.get("fault", "aborted")] += 1
rss = open("results/soak-peak-rss-kib").read().strip() or "?"
print(f"arena soak: {games} games, {plies} plies, faults {sum(faults.values())} {dict(faults)}, "
      f"peak RSS of any tetrad process {rss} KiB")
for r, n in sorted(reasons.items(), key=lambda x: -x[1]):
    print(f"  {r}: {n}")
PY
