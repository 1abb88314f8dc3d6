#!/usr/bin/env python3
"""Times GTP commands on Phutball positions full of men, each in a fresh engine, and reports the
engine's peak resident memory (Linux). The positions are the densest ones of
tests/engine/phutball_dense.rs (4.7, 28 and 7.5 million ball moves, and one with over 100 million),
or one position string per line of --file.

usage: python3 scripts/dense_genmove.py [--bin target/release/tetrad] [--movetime 1000]
                                        [--file POSITIONS] [--threatened]

--threatened: the other side to move, with the men it would need to score (rows next to its
goal) taken away, so that it must stop the opponent's threat.
"""
import argparse
import os
import sys

# The repository's protocol client (python/tetrad/engine.py, standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from tetrad.engine import Engine  # noqa: E402

POSITIONS = [
    "15/2X4X3X2X/X1X1XXXX1X4X/X5X1X6/1X3X4X1X2/2X2X2X1X4/2XX1X3XXX1XX/2XXXX1X1XX3X/X1X1X1X1X1X3X/1X1X1X3XXX1X1/X3XX1OXX1XX1X/4X2X1X2XX1/1XX6X5/1XXX2X2XXXX2/10X4/X1X4X3X1X1/6X1X2X1X1/4X1X2X2XX1/X2XXXX2X3X1/2X1X2X3X2X/15 r",
    "15/XX3XX4X2X/3X1XXX2X3X/2X2X1XXXXXX1X/2XXXX1X2X1X1X/X5X4X2X/2X3XX7/X1XX1XXX3XX2/8X1X2XX/XXX2X2X3O2/1XX1X7XX1/X6X3XX2/X1X2X8X/2X4XX1X2X1/XX13/XX1X5XXX3/1XXX1XX5X2/X2XXXXXX1XXX2/2XX2X1X4X1/3XX1X3X1X2/15 r",
    "15/13XX/1XX5XXXXXXX/X6X4X2/2XOX5X3X/3X6XX1XX/3X2XX1X1XXXX/X3XXXXX2XXX1/XXX2X1XX2X3/X1X2X5X1XX/X3X4X1XX1X/7X3X3/2XX7X2X/5X5X3/1X1XXX3XXXXX1/X1X1X2X4XXX/XXXXX4XXX1X1/3XX1XX1X1XXXX/X12X1/2X10XX/15 b",
    "15/XX5X1XXXX1X/XX7XXX1XX/XXXX1X3XX4/XX1XX1XXX1X3X/4XXX2X3X1/5X2XXX2X1/X4XX4XX2/3XX1X2XX1XXX/X2X1X4XX1X1/X1XX1X1O2XX1X1/2XX1X1X3XX1X/1X2XX1XXXXX1X1/X3XXX8/8X2X1X1/11X1X1/XX1X2XXXX2XXX/1X1XXXX2XX1XXX/1XX2XXX2XX3/X1XXX4X1X1XX/15 b",
]
AFTER = ["game_result", "undo", "legal_moves", "showboard", "get_position"]


def expand(row):
    out, i = [], 0
    while i < len(row):
        j = i
        while j < len(row) and row[j].isdigit():
            j += 1
        if j > i:
            out += ["."] * int(row[i:j])
            i = j
        else:
            out.append(row[i])
            i += 1
    return out


def compress(cells):
    s, n = "", 0
    for c in cells:
        if c == ".":
            n += 1
            continue
        if n:
            s, n = s + str(n), 0
        s += c
    return s + (str(n) if n else "")


def threatened(pos):
    rows_text, side = pos.split()
    rows = [expand(r) for r in rows_text.split("/")]  # rows[0] is row 20
    side = "b" if side == "r" else "r"
    for r in (1, 2) if side == "b" else (18, 19):
        rows[20 - r] = ["O" if c == "O" else "." for c in rows[20 - r]]
    return "/".join(compress(r) for r in rows) + " " + side


# Generous: a dense position's legal_moves answer is about 100 MB of text.
COMMAND_TIMEOUT = 600.0


def run(binary, movetime, pos):
    engine = Engine.popen([binary], protocol="gtp", timeout=COMMAND_TIMEOUT)

    def cmd(c):
        a = engine.ask(c)
        text = ("= " if a.ok else "? ") + a.text
        return " / ".join(text.splitlines()), a.received - a.sent

    for c in ["set_game phutball", "set_position " + pos, "set_option movetime %d" % movetime]:
        cmd(c)
    report = []
    for c in ["genmove"] + AFTER:
        a, t = cmd(c)
        report.append("%s %.2fs [%s]" % (c, t, a[:32]))
    with open("/proc/%d/status" % engine.pid) as f:
        hwm = next(l for l in f if l.startswith("VmHWM")).split()[1]
    engine.quit()
    print("%s... %s | %s | peak RSS %d MiB" % (pos[:20], pos[-1], " | ".join(report),
                                              int(hwm) // 1024), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/tetrad")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--file")
    ap.add_argument("--threatened", action="store_true")
    args = ap.parse_args()
    positions = POSITIONS
    if args.file:
        with open(args.file) as f:
            positions = [l.strip() for l in f if l.strip()]
    for pos in positions:
        run(args.bin, args.movetime, threatened(pos) if args.threatened else pos)


if __name__ == "__main__":
    main()
