#!/usr/bin/env bash
# Poddavki perft from the start: tetrad's GTP `perft` against a reference Russian-draughts perft,
# run alternately in one script so both see the same machine load.
# Usage: scripts/perft_vs.sh [--runs N] [--depths "11 12"] [--tetrad BIN] [--base BIN] REFERENCE
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/perft_vs.sh [--runs N] [--depths "11 12"] [--tetrad BIN] [--base BIN] REFERENCE

Runs tetrad's GTP `perft D` from the Poddavki start and `REFERENCE D` back to back, N times
each per depth (default 5), alternating which goes first, one thread each. Prints every run,
then per depth the median rates and the ratio tetrad / reference, and the load average before
and after.

REFERENCE is a program that takes the depth as its only argument and prints the leaf count (the
integer after "leaves" if it prints one, else the largest integer it prints), e.g. the dctl
driver in scripts/perft_dctl.cpp.

Rates are leaves per wall-clock second and leaves per CPU second (user + system). On a loaded
machine the CPU-second rate is the steadier one; both programs are timed the same way.

  --runs N        runs per program and depth (default 5)
  --depths LIST   depths, space separated (default "11 12")
  --tetrad BIN    the tetrad binary (default target/release/tetrad)
  --base BIN      another tetrad build (e.g. main's) run in the same rotation, so that a change is
                  measured against what it changes under the same load: adds its rates and the
                  ratios tetrad / base and base / reference
USAGE
}

runs=5
depths="11 12"
tetrad=target/release/tetrad
base=
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --depths) depths=$2; shift 2 ;;
        --tetrad) tetrad=$2; shift 2 ;;
        --base) base=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -eq 1 ] || { usage >&2; exit 2; }
reference=$1

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# One timed run: prints "wall cpu count". The count is the integer after "leaves", else the
# largest integer in the output (the driver's seconds, 0.000369599 at depth 6, would outdo a small
# count).
timed() {
    local out t
    out=$(mktemp)
    t=$( { TIMEFORMAT='%R %U %S'; time "$@" >"$out" 2>&1; } 2>&1 )
    local count
    count=$(grep -oE 'leaves [0-9]+' "$out" | grep -oE '[0-9]+' | tail -1)
    [ -n "$count" ] || count=$(grep -oE '[0-9]+' "$out" | sort -n | tail -1)
    rm -f "$out"
    awk -v t="$t" -v c="$count" 'BEGIN { split(t, a, " "); printf "%s %.3f %s\n", a[1], a[2] + a[3], c }'
}

# A tetrad build's GTP perft: BIN DEPTH.
ours() { printf 'set_game poddavki\nperft %s\nquit\n' "$2" | "$1"; }

programs="tetrad reference"
[ -z "$base" ] || programs="tetrad base reference"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$runs"); do
    for d in $depths; do
        if [ $((r % 2)) -eq 1 ]; then order=$programs; else order=$(echo $programs | tr ' ' '\n' | tac); fi
        for who in $order; do
            case $who in
                tetrad) res=$(timed ours "$tetrad" "$d") ;;
                base) res=$(timed ours "$base" "$d") ;;
                *) res=$(timed "$reference" "$d") ;;
            esac
            echo "$who $d $res" | tee -a "$log"
        done
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Medians per program and depth, then the ratios.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for d in $depths; do
    for who in $programs; do
        rows=$(awk -v w="$who" -v d="$d" '$1 == w && $2 == d { print $5 / $3, $5 / $4, $5 }' "$log")
        wall=$(echo "$rows" | cut -d' ' -f1 | median)
        cpu=$(echo "$rows" | cut -d' ' -f2 | median)
        count=$(echo "$rows" | cut -d' ' -f3 | sort -u | tr '\n' ' ')
        echo "$d $who ${count% } $wall $cpu"
    done
done | awk '
    { count[$1, $2] = $3; wall[$1, $2] = $4; cpu[$1, $2] = $5; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    END {
        for (i = 1; i <= k; i++) {
            d = order[i]
            printf "depth %s: tetrad %s leaves, %.1f M/s wall, %.1f M/s cpu; reference %s leaves, %.1f M/s wall, %.1f M/s cpu\n",
                d, count[d, "tetrad"], wall[d, "tetrad"] / 1e6, cpu[d, "tetrad"] / 1e6,
                count[d, "reference"], wall[d, "reference"] / 1e6, cpu[d, "reference"] / 1e6
            printf "depth %s: ratio tetrad/reference (medians) %.2f wall, %.2f cpu\n",
                d, wall[d, "tetrad"] / wall[d, "reference"], cpu[d, "tetrad"] / cpu[d, "reference"]
            if ((d, "base") in cpu) {
                printf "depth %s: base %s leaves, %.1f M/s wall, %.1f M/s cpu\n",
                    d, count[d, "base"], wall[d, "base"] / 1e6, cpu[d, "base"] / 1e6
                printf "depth %s: ratio tetrad/base (medians) %.2f wall, %.2f cpu; base/reference %.2f wall, %.2f cpu\n",
                    d, wall[d, "tetrad"] / wall[d, "base"], cpu[d, "tetrad"] / cpu[d, "base"],
                    wall[d, "base"] / wall[d, "reference"], cpu[d, "base"] / cpu[d, "reference"]
            }
        }
    }'
