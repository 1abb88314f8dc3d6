#!/usr/bin/env python3
"""Measures an endgame database in play through the engine (GTP): the time from `set_option
egdb_path DIR` to the first `egdb_probe` answered, and the engine's resident memory then and
after probing random positions (docs/egdb.md, "Format 2").

usage: python3 scripts/egdb_startup.py --dir DIR [--bin target/release/tetrad] [--pieces 6]
                                       [--positions 1000] [--seed 1]
"""
import argparse
import os
import random
import sys
import time

# The repository's protocol client (python/tetrad/engine.py, standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from tetrad.engine import Engine  # noqa: E402

FILES = "abcdefgh"
# The dark squares (a1 is dark), as the position string names them.
DARK = [f"{FILES[f]}{r + 1}" for r in range(8) for f in range(8) if (f + r) % 2 == 0]


def random_position(rng, pieces):
    """A legal Poddavki position string with `pieces` pieces, each side at least one; about a
    third kings, no man on its own promotion rank."""
    squares = rng.sample(DARK, pieces)
    white_count = rng.randint(1, pieces - 1)
    lists = ([], [])
    for i, sq in enumerate(squares):
        side = 0 if i < white_count else 1
        promotion = "8" if side == 0 else "1"
        king = rng.random() < 0.3 or sq[1] == promotion
        lists[side].append(("K" if king else "") + sq)
    return "%s:W%s:B%s" % (rng.choice("WB"), ",".join(lists[0]), ",".join(lists[1]))


def rss_mb(pid):
    """Resident and peak resident memory (MB) from /proc."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/tetrad")
    ap.add_argument("--dir", required=True)
    ap.add_argument("--pieces", type=int, default=6, help="most pieces in the random positions")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with Engine.popen([args.bin], protocol="gtp") as e:
        e.command("set_game poddavki")
        e.command("set_position " + random_position(rng, args.pieces))
        print(f"engine started: {rss_mb(e.pid)[0]:.1f} MB resident")
        start = time.perf_counter()
        e.command("set_option egdb_path " + os.path.abspath(args.dir))
        first = e.ask("egdb_probe")
        elapsed = time.perf_counter() - start
        print(f"set_option egdb_path + first egdb_probe: {elapsed:.3f} s ({first.text})")
        print(f"resident after it: {rss_mb(e.pid)[0]:.1f} MB")
        answers = {}
        start = time.perf_counter()
        for _ in range(args.positions):
            e.command("set_position " + random_position(rng, rng.randint(2, args.pieces)))
            a = e.ask("egdb_probe")
            word = a.text.split()[0] if a.ok and a.text else "error: " + a.text
            answers[word] = answers.get(word, 0) + 1
        elapsed = time.perf_counter() - start
        rss, peak = rss_mb(e.pid)
        print(f"{args.positions} random positions of 2 to {args.pieces} pieces probed in "
              f"{elapsed:.2f} s: {answers}")
        print(f"resident after them: {rss:.1f} MB (peak {peak:.1f} MB)")


if __name__ == "__main__":
    main()
