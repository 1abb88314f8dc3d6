#!/usr/bin/env python3
"""Time to depth over the positions of arena games, for engine builds and thread counts side by
side.

    python3 scripts/ttd.py --games results/run/games.jsonl --depth 7 --positions 200 \
        target/tetrad-old:1 target/tetrad-old:2 target/tetrad-new:2

Every SPEC is `PATH:THREADS` (a UGI engine). The positions are taken from the games every
`--every` plies after the opening; each engine in turn searches each of them to `--depth` after
`uginewgame`, so that the engines meet the machine's ups and downs alike. Printed per engine:
the total time, the first engine's total over its total (the speed-up over the first) and the
geometric mean of the per-position speed-ups. Standard library only.
"""

import argparse
import json
import math
import os
import sys

# The repository's protocol client (python/tetrad/engine.py, standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from tetrad.engine import Engine, EngineError, Limit, kill_all  # noqa: E402


def positions(path, every, limit):
    """(game name, start position, moves) every `every` plies of every game in `path`."""
    found = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            moves = g["opening"] + [m["move"] for m in g["moves"]]
            for k in range(len(g["opening"]) + 2, len(moves) - 4, every):
                found.append((g["game_name"], g["start"], moves[:k]))
    return found[:limit]


# A bound on one search to the asked depth, so that a stuck engine ends the run.
SEARCH_TIMEOUT = 3600.0


def start(path, threads, game):
    """A UGI engine playing ``game`` with ``threads`` search threads."""
    e = Engine.popen([path], protocol="ugi", search_timeout=SEARCH_TIMEOUT)
    e.configure({"UCI_Variant": game, "Threads": threads})
    return e


def seconds_to_depth(engine, start_pos, moves, depth):
    """From ``go`` sent to ``bestmove`` received, after ``uginewgame``."""
    engine.command("uginewgame")
    return engine.play(start_pos, Limit(depth=depth), moves=moves).elapsed


def spec(text):
    path, sep, threads = text.rpartition(":")
    if not sep or not threads.isdigit() or int(threads) < 1:
        raise argparse.ArgumentTypeError("'%s': expected PATH:THREADS" % text)
    return path, int(threads)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", required=True, help="an arena run's games.jsonl")
    ap.add_argument("--depth", type=int, required=True)
    ap.add_argument("--positions", type=int, default=200, help="at most this many")
    ap.add_argument("--every", type=int, default=7, help="plies between positions of a game")
    ap.add_argument("specs", nargs="+", type=spec, metavar="PATH:THREADS")
    args = ap.parse_args(argv)
    todo = positions(args.games, max(1, args.every), args.positions)
    if not todo:
        raise SystemExit("ttd: no positions in %s" % args.games)
    game = todo[0][0]
    try:
        engines = [start(path, threads, game) for path, threads in args.specs]
        totals = [0.0] * len(engines)
        log_ratios = [0.0] * len(engines)
        for _, start_pos, moves in todo:
            times = [seconds_to_depth(e, start_pos, moves, args.depth) for e in engines]
            for i, t in enumerate(times):
                totals[i] += t
                log_ratios[i] += math.log(times[0] / max(t, 1e-6))
        for e in engines:
            e.quit()
    except EngineError as e:
        kill_all()
        raise SystemExit("ttd: %s" % e)
    print("%d positions of %s, depth %d" % (len(todo), game, args.depth))
    for (path, threads), total, logs in zip(args.specs, totals, log_ratios):
        print("%s:%d  total %.2f s  speed-up %.3f  geometric mean %.3f"
              % (path, threads, total, totals[0] / max(total, 1e-6), math.exp(logs / len(todo))))


if __name__ == "__main__":
    main(sys.argv[1:])
