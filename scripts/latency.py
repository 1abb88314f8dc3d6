#!/usr/bin/env python3
"""Measures how fast tetrad answers, per game (UGI dialect): the round trip of `go depth 1` at
the start position after `isready` (what a search costs before its `bestmove`), `stop` during
`go infinite`, `isready` during a search, and how long `go` searches take against a 1 s + 10 ms
clock.

usage: python3 scripts/latency.py [--bin target/release/tetrad] [--runs 20] [--round-trip-only]
"""
import argparse
import os
import statistics
import sys
import time

# The repository's protocol client (python/tetrad/engine.py, standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from tetrad.engine import Engine, Limit  # noqa: E402


def list_games(binary):
    """The games the engine plays, as its GTP `list_games` names them."""
    with Engine.popen([binary], protocol="gtp") as e:
        return e.command("list_games").split()


def until(engine, word):
    """Read raw lines up to the first one starting with ``word``; the time it arrived."""
    while engine.read_line().split()[:1] != [word]:
        pass
    return time.monotonic()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/tetrad")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--round-trip-only", action="store_true", help="only the `go depth 1` round trip")
    args = ap.parse_args()
    for game in args.game or list_games(args.bin):
        e = Engine.popen([args.bin], protocol="uci")
        e.configure({"UCI_Variant": game})
        trips, stops, readies, clocks = [], [], [], []
        for _ in range(args.runs):
            e.send("position startpos")
            e.send("isready")
            until(e, "readyok")
            t = time.monotonic()
            e.send("go depth 1")
            trips.append((until(e, "bestmove") - t) * 1000)
        for _ in range(0 if args.round_trip_only else args.runs):
            e.send("position startpos")
            e.send("go infinite")
            time.sleep(0.2)
            t = time.monotonic()
            e.send("isready")
            readies.append((until(e, "readyok") - t) * 1000)
            t = time.monotonic()
            e.send("stop")
            stops.append((until(e, "bestmove") - t) * 1000)
            clocks.append(e.play(None, Limit(clock=(1, 1, 0.01, 0.01))).elapsed * 1000)
        e.quit()
        trip = f"{game:<14} go depth 1 round trip ms: median {statistics.median(trips):5.2f} max {max(trips):6.2f}"
        print(trip, flush=True)
        if args.round_trip_only:
            continue
        print(
            f"{game:<14} stop->bestmove ms: median {statistics.median(stops):6.2f} max {max(stops):6.2f} | "
            f"isready ms: max {max(readies):6.2f} | go 1s+10ms clock: max {max(clocks):7.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
