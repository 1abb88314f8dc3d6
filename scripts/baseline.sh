#!/usr/bin/env bash
# Builds a commit of tetrad into its own cached directory and prints the binary's path.
# Usage: scripts/baseline.sh [--resolve] REV
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/baseline.sh [--resolve] REV

Builds commit REV of tetrad (release profile) in its own git worktree and prints the path of
its binary. A second call for the same commit prints the path at once (the build is cached).

REV is a release name from scripts/releases.txt (e.g. v0.3.0), or anything git resolves to a
commit (tag, branch, hash, HEAD~3).

  --resolve   print the full commit hash REV stands for and exit; nothing is built
  -h, --help  this text

Environment:
  TETRAD_BASELINES  cache directory (default: .baselines in the repository, ignored by git).
                    Each commit gets DIR/HASH/src (worktree) and DIR/HASH/tetrad (binary);
                    DIR/target is the cargo target directory all baselines share, so the
                    dependencies are compiled once.

Example, the working tree against the release in Diamond:
  base=$(scripts/baseline.sh v0.3.0)
  python3 scripts/arena.py --game diamond --engine cmd=target/release/tetrad,name=new \
      --engine "cmd=$base,name=v0.3.0" --games 200 --tc 2+0.02 --random-plies 4 \
      --sprt 0,10,0.05,0.05
USAGE
}

resolve_only=0
rev=""
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) usage; exit 0 ;;
    --resolve) resolve_only=1 ;;
    -*) echo "baseline.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
        if [ -n "$rev" ]; then
            echo "baseline.sh: one REV only" >&2; exit 2
        fi
        rev="$1" ;;
    esac
    shift
done
if [ -z "$rev" ]; then
    usage >&2
    exit 2
fi

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

# A release name from the committed list wins over git (the tag may be missing).
hash="$(awk -v r="$rev" '$1 == r && $0 !~ /^#/ { print $2; exit }' "$here/releases.txt" 2>/dev/null || true)"
if [ -z "$hash" ]; then
    if ! hash="$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}")"; then
        echo "baseline.sh: unknown revision '$rev' (not in scripts/releases.txt, not a git commit)" >&2
        exit 1
    fi
fi
if ! [[ "$hash" =~ ^[0-9a-f]{40}$ ]]; then
    echo "baseline.sh: bad hash '$hash' for '$rev'" >&2
    exit 1
fi
if [ "$resolve_only" = 1 ]; then
    echo "$hash"
    exit 0
fi

cache="${TETRAD_BASELINES:-$root/.baselines}"
dir="$cache/$hash"
bin="$dir/tetrad"
if [ -x "$bin" ]; then
    echo "$bin"
    exit 0
fi

if ! git -C "$root" cat-file -e "$hash^{commit}" 2>/dev/null; then
    echo "baseline.sh: commit $hash is not in this repository (fetch it first)" >&2
    exit 1
fi
mkdir -p "$dir"
if [ ! -e "$dir/src/Cargo.toml" ]; then
    rm -rf "$dir/src"
    git -C "$root" worktree prune
    git -C "$root" worktree add --detach --force "$dir/src" "$hash" >&2
fi
echo "baseline.sh: building $rev ($hash)" >&2
(cd "$dir/src" && CARGO_TARGET_DIR="$cache/target" cargo build --release --bin tetrad >&2)
cp "$cache/target/release/tetrad" "$bin.tmp"
mv "$bin.tmp" "$bin"
echo "$bin"
