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
import random
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/tetrad")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    engine = subprocess.Popen([args.bin], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def gtp(cmd):
        engine.stdin.write(cmd + "\n")
        engine.stdin.flush()
        lines = []
        while True:
            line = engine.stdout.readline()
            if line in ("\n", ""):
                break
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        if not answer.startswith("="):
            raise SystemExit(f"{cmd}: {answer}")
        return answer[2:]

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
    gtp("quit")


if __name__ == "__main__":
    main()
