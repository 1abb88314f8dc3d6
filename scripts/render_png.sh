#!/usr/bin/env bash
# Renders each game's start position and a mid-game position with `tetrad render`, then
# screenshots every SVG with headless Chromium (Debian: `apt-get install chromium`), so the
# pictures can be checked as a real browser draws them.
#
# usage: scripts/render_png.sh [OUT_DIR]      (default: target/png)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/png}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cargo build --release --quiet
bin=target/release/tetrad
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "render_png.sh: chromium not found (apt-get install chromium)" >&2
    exit 1
fi

# name | game | position (empty: start) | moves
cases=(
    "poddavki-start|poddavki||"
    "poddavki-mid|poddavki||a3-b4 b6-c5 c3-d4 c5:a3 b2-c3 a3-b2 c1:a3 d6-e5 a1-b2 f6-g5 d4:f6:h4 c7-b6 a3-b4 h6-g5"
    "poddavki-king|poddavki|W:WKa1,e1:Bc3,f6,Kh2|a1:d4:h8"
    "phutball-start|phutball||"
    "phutball-mid|phutball|15/15/15/15/15/15/15/15/8X6/15/7X7/15/7X7/5XXX7/7O7/15/15/15/15/XX13/15 b|h6-h9-h11-j13"
    "diamond-start|diamond||"
    "diamond-mid|diamond||a1 b2 b1 b3 a2 c1 b4 d1 b5 e1 d2 f1 d3 g1 f2 c2 e3 e2 c5 g2 d4 h2 a3 e4 c5-d5* c2-c3"
    "pods-start|pods-standard||"
    "pods-mid|pods-standard||A@a1 C@a2 N@d3 A@b2 B@c1 N@a5 C@d1 I@f6 E@e2"
    "pods-advanced-mid|pods-advanced||A@a1 A@a2 B@b1 B@d1 A@a1 N@a5 A@b2 A@e1 C@c2 C@f1"
)
for c in "${cases[@]}"; do
    IFS='|' read -r name game position moves <<<"$c"
    args=(--game "$game")
    [ -n "$position" ] && args+=(--position "$position")
    # shellcheck disable=SC2206  # the moves are meant to split
    [ -n "$moves" ] && args+=(--moves $moves)
    "$bin" render "${args[@]}" -o "$out/$name.svg"
    size=$(sed -n 's/^<svg [^>]* width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1,\2/p' "$out/$name.svg")
    profile=$(mktemp -d)
    "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --user-data-dir="$profile" --window-size="$size" \
        --screenshot="$out/$name.png" "file://$out/$name.svg" >/dev/null 2>&1
    rm -rf "$profile"
    echo "$out/$name.png ($size)"
done
