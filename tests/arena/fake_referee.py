#!/usr/bin/env python3
"""A GTP referee for the toy game (see toy.py), speaking the referee subset of tetrad's
protocol. ``--crash-after N`` makes it exit after N commands (to test referee failures);
``showboard svg`` draws the pile (``--no-svg``: it answers ``?`` as a referee without SVG does);
``--list-until N`` refuses ``legal_moves`` after N moves."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import toy  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crash-after", type=int, default=0)
    ap.add_argument("--games", default="toy")
    ap.add_argument("--pidfile")
    ap.add_argument("--no-svg", action="store_true")
    ap.add_argument("--list-until", type=int, default=0,
                    help="refuse legal_moves once this many moves are played (as tetrad does past a million moves)")
    args = ap.parse_args()
    if args.pidfile:
        with open(args.pidfile, "a") as f:
            f.write("%d\n" % os.getpid())
    games = args.games.split(",")
    state = {"game": None, "history": [], "count": 0}

    def pos():
        return state["history"][-1]

    def handle(cmd, a):
        state["count"] += 1
        if args.crash_after and state["count"] > args.crash_after:
            sys.stderr.write("fake referee: crashing on purpose\n")
            sys.stderr.flush()
            os._exit(5)
        if cmd == "quit":
            return None
        if cmd == "protocol_version":
            return True, "2"
        if cmd == "name":
            return True, "fake-referee"
        if cmd == "list_games":
            return True, "\n".join(games)
        if cmd == "set_game":
            if not a or a[0] not in games:
                return False, "unknown game"
            state["game"] = a[0]
            state["history"] = [toy.parse(toy.START)]
            return True, ""
        if state["game"] is None:
            return False, "no game selected"
        if cmd == "clear_board":
            state["history"] = [toy.parse(toy.START)]
            return True, ""
        if cmd == "set_position":
            try:
                state["history"] = [toy.parse(" ".join(a))]
            except ValueError as e:
                return False, "invalid position: %s" % e
            return True, ""
        if cmd == "get_position":
            return True, toy.fmt(pos())
        if cmd == "side_to_move":
            return True, toy.SIDES[pos().side]
        if cmd == "legal_moves":
            if args.list_until and len(state["history"]) > args.list_until:
                return False, "too many legal moves to list (more than 3)"
            return True, " ".join(toy.legal(pos()))
        if cmd == "game_result":
            r = toy.result(pos())
            if r[0] == "ongoing":
                return True, "ongoing"
            if r[0] == "draw":
                return True, "draw " + r[1]
            return True, "%s %s" % (toy.SIDES[r[1]], r[2])
        if cmd == "play":
            if not a or len(a) > 2:
                return False, "expected play [SIDE] MOVE"
            if len(a) == 2 and toy.side_index(a[0]) != pos().side:
                return False, "illegal move: not that side's turn"
            try:
                m = toy.canonical(pos(), a[-1])
            except ValueError as e:
                return False, str(e)
            state["history"].append(toy.play(pos(), m))
            return True, ""
        if cmd == "showboard":
            if a == ["svg"]:
                if args.no_svg:
                    return False, "syntax error: this command takes no arguments"
                return True, toy.svg(pos())
            if a:
                return False, "syntax error"
            return True, "\n" + toy.diagram(pos())
        if cmd == "undo":
            if len(state["history"]) < 2:
                return False, "cannot undo"
            state["history"].pop()
            return True, ""
        return False, "unknown command"

    toy.gtp_loop(handle)


if __name__ == "__main__":
    main()
