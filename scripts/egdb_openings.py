#!/usr/bin/env python3
"""Poddavki openings of 8 to 10 pieces drawn from tetrad's own games, for the endgame database
matches (docs/egdb.md, "In play"): from the start position, 6 seeded random plies, then tetrad
against itself (GTP, a node count a move) until at most 10 pieces are left; the first position
with 8 to 10 pieces, the game still on, is kept (each position once). One position string a
line, for `scripts/arena.py --openings`.

usage: python3 scripts/egdb_openings.py [--bin target/release/tetrad] [--count 100]
           [--nodes 3000] [--seed 2026] > openings.txt
"""
import argparse
import os
import random
import sys

# The repository's protocol client (python/tetrad/engine.py, standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from tetrad.engine import Engine, EngineError  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/tetrad")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    try:
        engine = Engine.popen([args.bin], protocol="gtp", timeout=120.0)
    except EngineError as e:
        raise SystemExit(str(e))

    def gtp(cmd):
        try:
            return engine.command(cmd)
        except EngineError as e:
            raise SystemExit(f"{cmd}: {e}")

    def pieces(fen):
        return sum(len([s for s in part[1:].split(",") if s]) for part in fen.split(":")[1:])

    rng = random.Random(args.seed)
    gtp("set_game poddavki")
    gtp(f"set_option nodes {args.nodes}")
    seen = []
    while len(seen) < args.count:
        gtp("clear_board")
        gtp(f"set_option seed {rng.randrange(1, 1 << 30)}")
        going = True
        for _ in range(6):
            moves = gtp("legal_moves").split()
            if not moves:
                going = False
                break
            gtp("play " + rng.choice(moves))
        fen = gtp("get_position")
        while going and pieces(fen) > 10:
            if gtp("game_result") != "ongoing":
                going = False
                break
            gtp("genmove")
            fen = gtp("get_position")
        if going and 8 <= pieces(fen) <= 10 and gtp("game_result") == "ongoing" and fen not in seen:
            seen.append(fen)
    print("\n".join(seen))
    engine.quit()


if __name__ == "__main__":
    main()
