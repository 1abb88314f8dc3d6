#!/usr/bin/env python3
"""Measures how fast tetrad answers, per game (UGI dialect): the round trip of `go depth 1` at
the start position after `isready` (what a search costs before its `bestmove`), `stop` during
`go infinite`, `isready` during a search, and how long `go wtime/btime` searches take against
the clock.

usage: python3 scripts/latency.py [--bin target/release/tetrad] [--runs 20] [--round-trip-only]
"""
import argparse
import statistics
import subprocess
import time



def list_games(binary):
    """The games the engine plays, as its GTP `list_games` names them."""
    out = subprocess.run([binary], input="list_games\nquit\n", capture_output=True, text=True, timeout=20).stdout
    first = out.split("\n\n")[0]
    if not first.startswith("="):
        raise RuntimeError(f"list_games failed: {first!r}")
    return first[1:].split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/tetrad")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--round-trip-only", action="store_true", help="only the `go depth 1` round trip")
    args = ap.parse_args()
    for game in args.game or list_games(args.bin):
        p = subprocess.Popen([args.bin], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

        def send(s):
            p.stdin.write(s + "\n")
            p.stdin.flush()

        def until(prefix):
            while True:
                line = p.stdout.readline()
                if not line:
                    raise RuntimeError("engine died")
                if line.startswith(prefix):
                    return line

        send("uci")
        until("uciok")
        send(f"setoption name UCI_Variant value {game}")
        trips, stops, readies, clocks = [], [], [], []
        for _ in range(args.runs):
            send("position startpos")
            send("isready")
            until("readyok")
            t = time.monotonic()
            send("go depth 1")
            until("bestmove")
            trips.append((time.monotonic() - t) * 1000)
        for _ in range(0 if args.round_trip_only else args.runs):
            send("position startpos")
            send("go infinite")
            time.sleep(0.2)
            t = time.monotonic()
            send("isready")
            until("readyok")
            readies.append((time.monotonic() - t) * 1000)
            t = time.monotonic()
            send("stop")
            until("bestmove")
            stops.append((time.monotonic() - t) * 1000)
            t = time.monotonic()
            send("go wtime 1000 btime 1000 winc 10 binc 10")
            until("bestmove")
            clocks.append((time.monotonic() - t) * 1000)
        send("quit")
        p.wait(timeout=5)
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
