"""Command line of the arena (``python3 scripts/arena.py --help``)."""

import argparse
import atexit
import json
import os
import shlex
import shutil
import signal
import sys
import threading
import time

from tetrad.engine import kill_all

from . import records, shards, tournament
from .clock import TimeControl
from .engines import Failure, Settings, make_player
from .spec import EngineSpec
from .match import Config, Match
from .openings import Book, read_file
from .referee import Referee, RefereeError
from .report import Progress, final_report, summary
from .stats import Sprt

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_REFEREE = os.path.join(REPO, "target", "release", "tetrad")

EPILOG = """\
engine fields (comma separated): cmd=COMMAND (may hold arguments; quote as in a shell),
name=NAME, proto=ugi|uci|uai|gtp (default ugi), option.NAME=VALUE (UGI setoption / GTP
set_option), dir=DIR, arg=ARG (one more argument), restart=on|off, tc=BASE+INC (this engine's
own clock), depth=N, nodes=N, movetime=MS.

example:
  python3 scripts/arena.py --game diamond \\
      --engine cmd=target/release/tetrad,name=a,proto=ugi,option.Hash=64 \\
      --engine cmd=target/release/tetrad,name=b,proto=gtp \\
      --games 100 --tc 2+0.02 --concurrency 2 --out results/

merging shards played with --shard K/N (same options, same --seed):
  python3 scripts/arena.py merge shard1/ shard2/ shard3/ --out results/
"""


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="arena.py",
        description="Play engine-vs-engine matches of tetrad's games under a referee.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", required=True, help="a game as the engine lists it (GTP list_games); pods = pods-standard")
    p.add_argument("--engine", action="append", default=[], metavar="SPEC",
                   help="an engine (give two, or more for a tournament)")
    p.add_argument("--each", action="append", default=[], metavar="SPEC", help="fields applied to every engine")
    p.add_argument("--games", type=int, default=2,
                   help="number of games, per pairing and round in a tournament (default 2; each opening is played twice)")
    p.add_argument("--tournament", choices=tournament.KINDS,
                   help="play every engine against every other (round-robin, the default with more than two "
                        "engines) or the first against each other one (gauntlet)")
    p.add_argument("--rounds", type=int, default=1, metavar="N",
                   help="tournament: play the pairings' --games N times over, with new openings (default 1)")
    p.add_argument("--anchor", metavar="NAME", help="tournament: the engine rated 0 (default: the first)")
    p.add_argument("--tc", default="10+0.1", help="time control BASE+INC in seconds, or inf (default 10+0.1)")
    p.add_argument("--margin", type=float, default=100, metavar="MS",
                   help="time a move may exceed the clock by before it loses, for process scheduling (default 100)")
    p.add_argument("--concurrency", type=int, default=1, help="games played at the same time (default 1)")
    p.add_argument("--out", metavar="DIR",
                   help="write games.jsonl, games.pgn, report.html, summary.txt/json and engine stderr here")
    p.add_argument("--seed", type=int, help="seed for openings and rotations (default: from the clock; printed)")
    p.add_argument("--max-plies", type=int, default=500, metavar="N",
                   help="adjudicate a draw after N plies played by the engines (0: never; default 500)")
    p.add_argument("--openings", metavar="FILE", help="file of position strings, one per line")
    p.add_argument("--pgn-in", metavar="FILE", help="openings from a PGN/PDN file: each game's start position and moves")
    p.add_argument("--pgn-plies", type=int, metavar="N", help="with --pgn-in: only the first N plies of each game")
    p.add_argument("--openings-order", choices=("sequential", "random"), default="sequential")
    p.add_argument("--random-plies", type=int, default=0, metavar="N", help="add N seeded random plies to each opening")
    p.add_argument("--no-rotate", action="store_true", help="Pods: keep the board's rotation instead of a random one per opening")
    p.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA", help="stop when a sequential probability ratio test decides")
    p.add_argument("--referee", metavar="CMD", help="GTP referee command (default: target/release/tetrad, else tetrad on PATH)")
    p.add_argument("--stall", type=float, default=1.0, metavar="SEC",
                   help="after an engine's time runs out, how long to wait before declaring it hung (default 1)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SEC", help="limit for answers to non-move commands (default 10)")
    p.add_argument("--move-timeout", type=float, default=60.0, metavar="SEC", help="per-move limit when --tc inf (default 60)")
    p.add_argument("--debug", action="store_true", help="log all protocol traffic (to DIR/protocol.log, or stderr)")
    p.add_argument("--shard", metavar="K/N", help="play only the K-th of N shares of the games (needs --seed); see merge")
    p.add_argument("--event", metavar="TEXT", help="PGN Event tag and report title (default: tetrad arena: A vs B)")
    p.add_argument("--report-boards", type=int, default=200, metavar="N",
                   help="draw boards in report.html for the first N games (default 200)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    return p.parse_args(argv)


def referee_argv(text):
    if text:
        return shlex.split(text)
    if os.path.exists(DEFAULT_REFEREE):
        return [DEFAULT_REFEREE]
    found = shutil.which("tetrad")
    if found:
        return [found]
    raise ValueError("no referee: build tetrad (cargo build --release) or pass --referee CMD")


def build(args):
    if len(args.engine) < 2:
        raise ValueError("give at least two --engine options (got %d)" % len(args.engine))
    if len(args.engine) > 2 and args.tournament is None:
        args.tournament = "round-robin"
    if args.tournament is None and (args.rounds != 1 or args.anchor is not None):
        raise ValueError("--rounds and --anchor are for tournaments (--tournament, or more than two engines)")
    if args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    if args.tournament is not None and args.sprt:
        raise ValueError("--sprt tests two engines: it cannot be used in a tournament")
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    if args.concurrency < 1:
        raise ValueError("--concurrency must be at least 1")
    if args.max_plies < 0 or args.random_plies < 0:
        raise ValueError("--max-plies and --random-plies cannot be negative")
    specs = [EngineSpec.parse(e, args.each) for e in args.engine]
    tc = TimeControl.parse(args.tc)
    for s in specs:
        t = s.tc or tc
        if not t.timed and s.proto != "gtp" and not (s.depth or s.nodes or s.movetime):
            raise ValueError("with no clock (tc inf), UGI engine %s needs depth=, nodes= or movetime=" % (s.name or s.cmd))
    sprt = Sprt.parse(args.sprt) if args.sprt else None
    settings = Settings(margin=args.margin / 1000.0, grace=args.stall, command_timeout=args.timeout,
                        startup_timeout=args.timeout, move_timeout=args.move_timeout)
    if args.openings and args.pgn_in:
        raise ValueError("give --openings or --pgn-in, not both")
    if args.pgn_plies is not None and (args.pgn_plies < 0 or not args.pgn_in):
        raise ValueError("--pgn-plies needs --pgn-in and a number of plies >= 0")
    if args.report_boards < 0:
        raise ValueError("--report-boards cannot be negative")
    if args.shard is not None:
        shards.parse(args.shard)
        if args.seed is None:
            raise ValueError("--shard needs --seed, so that every shard plays its share of the same match")
    lines = read_file(args.openings) if args.openings else None
    return specs, tc, sprt, settings, lines, referee_argv(args.referee)


def probe_referee(argv, game, lines, timeout, pgn=None):
    """Start the referee once: check the game, learn the sides and start position, and
    check every opening of the file (``pgn``: (path, plies) of a PGN file to read them from,
    which needs the start position). Returns (sides, start, lines)."""
    ref = Referee(argv, timeout)
    try:
        try:
            ref.set_game(game)
        except RefereeError as e:
            games = ref.list_games()
            raise RefereeError("the referee does not play %s%s (%s)" % (game, "; it plays: " + ", ".join(games) if games else "", e))
        sides = ref.discover_sides(game)
        start = ref.position()
        what = "openings line"
        if pgn is not None:
            lines = records.read_openings(pgn[0], game, start, pgn[1])
            what = "%s: game" % pgn[0]
        for n, pos, moves in lines or ():
            where = "%s %d" % (what, n)
            try:
                ref.new_game(start if pos == "startpos" else pos, moves)
            except RefereeError as e:
                raise RefereeError("%s: %s" % (where, e))
            if ref.result().over:
                raise RefereeError("%s: the game is already over there%s" % (
                    where, " (use --pgn-plies to keep only the opening)" if pgn is not None else ""))
        return sides, start, lines
    finally:
        ref.close()


def probe_engine(spec, game, settings):
    """Start an engine once to check it and learn its name."""
    p = make_player(spec, game, settings)
    try:
        p.start()
        return p.id_name
    finally:
        p.close()


def names_for(specs, found):
    names = []
    for spec, ident in zip(specs, found):
        names.append(spec.name or ident or os.path.basename(spec.argv[0]))
    for name in set(names):
        same = [k for k, n in enumerate(names) if n == name]
        if len(same) < 2:
            continue
        given = [k for k in same if specs[k].name]
        if len(given) > 1:
            raise ValueError("the engines need different names (%d are named %r)" % (len(given), name))
        for k in same:
            names[k] = "%s-%d" % (name, k + 1)
    if len(set(names)) != len(names):
        raise ValueError("the engines need different names (%s)" % ", ".join(names))
    return names


def _count(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def anchor_index(args, names):
    if args.anchor is None:
        return 0
    if args.anchor not in names:
        raise ValueError("--anchor %s is none of the engines (%s)" % (args.anchor, ", ".join(names)))
    return names.index(args.anchor)


def _interrupt(signum, frame):
    raise KeyboardInterrupt()


def _stop_on_signals():
    """SIGTERM and SIGHUP stop the match like Ctrl-C does, so the engines (in process groups of
    their own, out of reach of the terminal's signals) are killed rather than orphaned."""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, _interrupt)


def main(argv=None, stdout=None, stderr=None):
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["merge"]:
        return shards.merge_main(argv[1:], out, err)
    atexit.register(kill_all)
    _stop_on_signals()
    args = parse_args(argv)
    try:
        specs, tc, sprt, settings, lines, ref_argv = build(args)
    except (ValueError, OSError) as e:
        err.write("arena: %s\n" % e)
        return 2
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % 1000000007
    trace = None
    try:
        pgn = (args.pgn_in, args.pgn_plies) if args.pgn_in else None
        sides, start, lines = probe_referee(ref_argv, args.game, lines, args.timeout, pgn)
        found = []
        for s in specs:
            try:
                found.append(probe_engine(s, args.game, settings))
            except Failure as f:
                raise RefereeError("engine %s: %s" % (s.name or s.cmd, f.detail))
        names = names_for(specs, found)
        if args.out:
            os.makedirs(args.out, exist_ok=True)
        if args.debug:
            trace = open(os.path.join(args.out, "protocol.log"), "w", encoding="utf-8") if args.out else err
        book = Book(args.game, start, lines, args.random_plies, seed, args.openings_order == "random", not args.no_rotate)
        shard = shards.parse(args.shard) if args.shard else None
        pairs = tournament.pairings(args.tournament, len(names))
        games = args.games * args.rounds * len(pairs)
        cfg = Config(game=args.game, specs=specs, names=names, tc=tc, games=games, concurrency=args.concurrency,
                     tournament=args.tournament, rounds=args.rounds, per_pairing=args.games,
                     anchor=anchor_index(args, names),
                     out=args.out, max_plies=args.max_plies, book=book, sprt=sprt, referee=ref_argv, sides=sides,
                     settings=settings, trace=trace, start=start, event=args.event, board_limit=args.report_boards,
                     seed=seed, shard=shard, indices=shards.indices(games, shard))
        if args.out:
            shards.write_identity(args.out, shards.identity(args, cfg, seed))
        match = Match(cfg)
    except (RefereeError, ValueError, OSError) as e:
        err.write("arena: %s\n" % e)
        return 1
    odds = "" if all(s.tc is None for s in specs) else " (%s)" % " / ".join(str(cfg.tc_of(i)) for i in range(len(specs)))
    if cfg.tournament is None:
        what = "Match: %s, %s vs %s, %d games" % (args.game, names[0], names[1], games)
    else:
        what = "Tournament: %s, %s of %s, %s x %s x %s = %d games" % (
            args.game, cfg.tournament, ", ".join(names), _count(len(pairs), "pairing"), _count(args.games, "game"),
            _count(args.rounds, "round"), games)
    out.write("%s, tc %s%s, concurrency %d, seed %d%s\n" % (
        what, tc, odds, args.concurrency, seed, ", shard %d/%d: %d games" % (shard[0], shard[1], cfg.planned) if shard else ""))
    out.flush()
    progress = Progress(err, enabled=not args.quiet)
    code = 0
    try:
        match.run(progress)
    except KeyboardInterrupt:
        code = 130
    progress.done()
    report = final_report(match)
    if match.interrupted:
        report.append("Interrupted.")
    if match.fatal:
        report.append("Match stopped: %s" % match.fatal.strip())
        code = code or 1
    text = "\n".join(report) + "\n"
    out.write(text)
    out.flush()
    if args.out:
        with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
            info = summary(match)
            info["seed"] = seed
            if shard:
                info["shard"] = list(shard)
            json.dump(info, f, indent=2)
            f.write("\n")
        match.write_report()
    if trace is not None and trace is not err:
        trace.close()
    return code
