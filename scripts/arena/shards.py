"""Matches across machines: ``--shard K/N`` plays the K-th share of a match's games, and
``arena.py merge`` joins the shards' records into one set of records and one report.

Pairs of games (an opening with colours reversed) are dealt round-robin: pair p goes to shard
p mod N + 1. Openings and colours depend only on the seed and the game's number, so a shard
plays its games exactly as the unsharded run would.

Every ``--out`` directory holds ``match.json``: what defines the match (game, engines, clocks,
seed, openings, limits) and which shard it is. The merge refuses directories whose matches
differ in any of those.
"""

import argparse
import hashlib
import json
import os

from . import records, tournament, webreport
from .match import Standings
from .report import final_report, summary
from .stats import Sprt

FORMAT = 1


def parse(text):
    """(K, N) from ``K/N``, 1 <= K <= N."""
    k, sep, n = str(text).partition("/")
    try:
        k, n = int(k), int(n)
    except ValueError:
        raise ValueError("bad --shard %r (expected K/N, e.g. 2/4)" % text)
    if not sep or n < 1 or not 1 <= k <= n:
        raise ValueError("bad --shard %r: need 1 <= K <= N" % text)
    return k, n


def indices(games, shard):
    """The 0-based game indices a shard plays (all of them without one)."""
    if shard is None:
        return list(range(games))
    k, n = shard
    return [i for i in range(games) if (i // 2) % n == k - 1]


def _digest(path):
    if not path:
        return None
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def identity(args, cfg, seed):
    """match.json for a run: the fields that must agree between shards under "match"."""
    match = {
        "game": args.game,
        "engines": list(args.engine),
        "each": list(args.each),
        "names": list(cfg.names),
        "tc": args.tc,
        "margin": args.margin,
        "stall": args.stall,
        "games": args.games,
        "seed": seed,
        "max_plies": args.max_plies,
        "openings": _digest(args.openings),
        "openings_order": args.openings_order,
        "pgn_in": _digest(args.pgn_in),
        "pgn_plies": args.pgn_plies,
        "random_plies": args.random_plies,
        "rotate": not args.no_rotate,
        "sprt": args.sprt,
        "event": cfg.event,
    }
    if cfg.tournament is not None:  # absent from two-engine matches, whose files stay as they were
        match.update(tournament=cfg.tournament, rounds=cfg.rounds, per_pairing=cfg.per_pairing, anchor=cfg.anchor,
                     total_games=cfg.games)
    return {
        "format": FORMAT,
        "match": match,
        "shard": list(cfg.shard) if cfg.shard else None,
        "sides": list(cfg.sides),
        "start": cfg.start,
        "tc_of": [str(cfg.tc_of(i)) for i in range(len(cfg.names))],
    }


def write_identity(out, ident):
    with open(os.path.join(out, "match.json"), "w", encoding="utf-8") as f:
        json.dump(ident, f, indent=2)
        f.write("\n")


class MergeError(Exception):
    pass


def _load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise MergeError("cannot read %s: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise MergeError("%s is not valid JSON: %s" % (path, e))


def _load_lines(path, required=True):
    if not os.path.exists(path):
        if required:
            raise MergeError("%s is missing" % path)
        return []
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except ValueError as e:
                    raise MergeError("%s line %d is not valid JSON: %s" % (path, n, e))
    return out


def _differences(a, b):
    keys = sorted(set(a) | set(b))
    return ["%s %s vs %s" % (k, json.dumps(a.get(k)), json.dumps(b.get(k))) for k in keys if a.get(k) != b.get(k)]


class _Cfg:
    """The part of a match's Config the reports read, rebuilt from match.json."""

    def __init__(self, ident, planned):
        m = ident["match"]
        self.game = m["game"]
        self.names = list(m["names"])
        self.sides = tuple(ident["sides"])
        self.start = ident["start"]
        self.games = m.get("total_games", m["games"])
        self.seed = m["seed"]
        self.event = m["event"]
        self.sprt = Sprt.parse(m["sprt"]) if m["sprt"] else None
        self.shard = None
        self.board_limit = self.games
        self.planned = planned
        self._tc = ident["tc_of"]
        self.tournament = m.get("tournament")
        self.rounds = m.get("rounds", 1)
        self.per_pairing = m.get("per_pairing", m["games"])
        self.anchor = m.get("anchor", 0)
        self.pairings = tournament.pairings(self.tournament, len(self.names))

    def tc_of(self, idx):
        return self._tc[idx]


class Merged(Standings):
    def __init__(self, ident, planned, games, boards, merged_from):
        cfg = _Cfg(ident, planned)
        Standings.__init__(self, cfg.tournament)
        self.cfg = cfg
        self.records = [j for j in games if j.get("result") != "*"]
        self.boards = boards
        self.merged_from = merged_from
        self.fatal = None
        for j in games:
            self.count(j, self.cfg.names)
        t = self.total
        self.sprt_decision = self.cfg.sprt.decide(t.w, t.l, t.d) if self.cfg.sprt else None


def merge(dirs):
    """(Merged, identity, notes) of the shard directories; raises MergeError."""
    if not dirs:
        raise MergeError("give the shard directories to merge")
    idents = []
    for d in dirs:
        path = os.path.join(d, "match.json")
        if not os.path.exists(path):
            raise MergeError("%s has no match.json: not an arena --out directory" % d)
        ident = _load_json(path)
        if ident.get("format") != FORMAT or "match" not in ident:
            raise MergeError("%s: match.json is not in a format this arena reads" % d)
        idents.append(ident)
    first = idents[0]
    for d, ident in zip(dirs[1:], idents[1:]):
        diff = _differences(first["match"], ident["match"])
        if diff:
            raise MergeError("%s and %s are not shards of the same match: %s" % (dirs[0], d, "; ".join(diff)))
    total = first["match"].get("total_games", first["match"]["games"])
    shard_of = {}
    counts = set()
    for d, ident in zip(dirs, idents):
        k, n = ident["shard"] or (1, 1)
        counts.add(n)
        if k in shard_of:
            raise MergeError("%s and %s are both shard %d/%d" % (shard_of[k], d, k, n))
        shard_of[k] = d
    if len(counts) != 1:
        raise MergeError("the directories split the match into different numbers of shards (%s)" % ", ".join(str(c) for c in sorted(counts)))
    n = counts.pop()
    games, boards, seen, notes = [], {}, {}, []
    planned = 0
    for d, ident in zip(dirs, idents):
        shard = tuple(ident["shard"]) if ident["shard"] else None
        own = set(i + 1 for i in indices(total, shard))
        planned += len(own)
        lines = _load_lines(os.path.join(d, "games.jsonl"))
        if len(lines) < len(own) and shard:
            # An interrupted shard plays the same games when run again alone: say so, as the
            # merged report would otherwise just look short.
            notes.append("shard %d/%d is incomplete: %d of %d games; play it again with --shard %d/%d (%s)"
                         % (shard[0], shard[1], len(lines), len(own), shard[0], shard[1], d))
        for j in lines:
            g = j.get("game")
            if g not in own:
                raise MergeError("%s holds game %r, which is not in its shard" % (d, g))
            if j.get("result") == "*":
                continue  # aborted: the unsharded run would not count it either
            if g in seen:
                raise MergeError("game %d is in both %s and %s" % (g, seen[g], d))
            seen[g] = d
            games.append(j)
        for b in _load_lines(os.path.join(d, "boards.jsonl"), required=False):
            if b.get("game") in own:
                boards[b["game"]] = {"kind": b.get("kind"), "count": b.get("count"), "gz": b.get("gz")}
    games.sort(key=lambda j: j["game"])
    missing = sorted(set(range(1, n + 1)) - set(shard_of))
    if missing:
        notes.append("shards missing: %s of %d (the report covers the others)" % (", ".join(str(k) for k in missing), n))
    merged_from = "%d of %d shards" % (len(shard_of), n)
    return Merged(first, planned, games, boards, merged_from), first, notes


def merge_main(argv, out, err):
    p = argparse.ArgumentParser(prog="arena.py merge",
                                description="Merge the --out directories of shards (--shard K/N) into one set of records and one report.")
    p.add_argument("dirs", nargs="+", metavar="DIR", help="a shard's --out directory")
    p.add_argument("--out", required=True, metavar="DIR", help="where the merged records and report go")
    args = p.parse_args(argv)
    try:
        view, ident, notes = merge(args.dirs)
        for d in args.dirs:
            if os.path.abspath(d) == os.path.abspath(args.out):
                raise MergeError("--out %s is one of the shards" % args.out)
    except MergeError as e:
        err.write("arena merge: %s\n" % e)
        return 1
    for note in notes:
        err.write("arena merge: %s\n" % note)
    os.makedirs(args.out, exist_ok=True)
    cfg = view.cfg
    with open(os.path.join(args.out, "games.jsonl"), "w", encoding="utf-8") as f:
        for j in view.records:
            f.write(json.dumps(j, ensure_ascii=False) + "\n")
    with open(os.path.join(args.out, "boards.jsonl"), "w", encoding="utf-8") as f:
        for g in sorted(view.boards):
            f.write(json.dumps(dict(view.boards[g], game=g), ensure_ascii=False) + "\n")
    meta = {"event": cfg.event, "sides": cfg.sides, "start": cfg.start}
    with open(os.path.join(args.out, "games.pgn"), "w", encoding="utf-8") as f:
        for j in view.records:
            f.write(records.pgn_game(j, meta))
    merged = dict(ident, shard=None, merged_from=[os.path.abspath(d) for d in args.dirs])
    write_identity(args.out, merged)
    what = "%s vs %s" % tuple(cfg.names) if cfg.tournament is None else "%s of %s" % (cfg.tournament, ", ".join(cfg.names))
    lines = ["Merged %s: %s, %s, %d games, seed %s" % (view.merged_from, cfg.game, what, cfg.games, cfg.seed)]
    lines += final_report(view)
    text = "\n".join(lines) + "\n"
    out.write(text)
    with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
        info = summary(view)
        info["seed"] = cfg.seed
        info["merged_from"] = view.merged_from
        json.dump(info, f, indent=2)
        f.write("\n")
    webreport.write(os.path.join(args.out, "report.html"), view)
    return 0
