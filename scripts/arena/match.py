"""The match: workers that each own a referee and one instance of each engine play the games;
a collector counts results, writes one JSON line per game and runs the SPRT."""

import bisect
import json
import os
import re
import socket
import threading
import time
import traceback

from tetrad.engine import Aborted, kill_all

from . import records, stats, tournament, webreport
from .clock import Clock
from .engines import FAULTS, Failure, Setup, make_player
from .referee import Referee, RefereeError

MAX_MOVE_LEN = 256
MAX_REFEREE_FAILURES = 3  # in a row, in one worker: then the match stops


class Config:
    def __init__(self, **kw):
        self.game = kw["game"]
        self.specs = kw["specs"]  # EngineSpec per engine: two, or more in a tournament
        self.names = kw["names"]  # distinct display names
        self.tc = kw["tc"]
        # None for a two-engine match, else "round-robin" or "gauntlet"
        self.tournament = kw.get("tournament")
        self.rounds = kw.get("rounds", 1)
        self.per_pairing = kw.get("per_pairing", kw["games"])  # games per pairing and round
        self.pairings = tournament.pairings(self.tournament, len(self.names))
        self.games = kw["games"]
        self.anchor = kw.get("anchor", 0)
        self.concurrency = kw.get("concurrency", 1)
        self.out = kw.get("out")
        self.max_plies = kw.get("max_plies", 0)
        self.book = kw["book"]
        self.sprt = kw.get("sprt")
        self.referee = kw["referee"]  # argv
        self.sides = kw["sides"]
        self.settings = kw["settings"]
        self.trace = kw.get("trace")
        # the games (0-based) this run plays: all of them, or one shard's share
        indices = kw.get("indices")
        self.indices = list(range(self.games) if indices is None else indices)
        self.shard = kw.get("shard")  # (K, N) or None
        self.start = kw.get("start")  # the game's start position string
        self.event = kw.get("event") or tournament.default_event(self.tournament, self.names)
        self.board_limit = kw.get("board_limit", 200)  # games whose boards the report shows
        self.seed = kw.get("seed")

    @property
    def planned(self):
        return len(self.indices)

    def tc_of(self, idx):
        return self.specs[idx].tc or self.tc

    def schedule(self, index):
        """(engine A, engine B, the game's number within their pairing, 0-based) of game
        ``index``; see tournament.schedule."""
        return tournament.schedule(self.pairings, self.per_pairing, index)


class Tally:
    """Win/loss/draw counts from the first engine's (A's) point of view."""

    def __init__(self):
        self.w = self.l = self.d = 0

    def add(self, outcome):
        if outcome > 0:
            self.w += 1
        elif outcome < 0:
            self.l += 1
        else:
            self.d += 1

    @property
    def n(self):
        return self.w + self.l + self.d

    def as_tuple(self):
        return self.w, self.l, self.d


def outcomes(j, names):
    """(A's outcome, the first mover's outcome, A's side) of a finished game's record."""
    p1 = {"1-0": 1, "0-1": -1}.get(j["result"], 0)
    a_side = 0 if j["p1"] == names[0] else 1
    return (p1 if a_side == 0 else -p1), p1, a_side


class Standings:
    """What the reports count, built from the games' JSON records alone (so a merge of shards
    counts exactly what one run would)."""

    def __init__(self, tournament_kind=None):
        self.tournament = tournament_kind  # None: two engines, with the classic tallies
        self.cross = {}  # (name, opponent) -> Tally from name's side
        self.total = Tally()
        self.by_side = (Tally(), Tally())  # A playing first mover / second mover
        self.sides_tally = Tally()  # first mover vs second mover
        self.reasons = {}
        self.aborted = 0
        self.finished = 0
        self.move_ms = {}  # engine name -> [moves, total ms, max ms]
        self.time_histogram = {}  # engine name -> moves per TIME_BUCKETS interval
        self.depths = {}  # engine name -> [moves with a reported depth, sum of the depths]
        self.pair_outcomes = {}  # pair number -> A's outcomes of its finished games

    def pairs(self):
        """A's two outcomes in each pair whose games both finished."""
        return [tuple(v) for _, v in sorted(self.pair_outcomes.items()) if len(v) == 2]

    def pair_stats(self):
        """(pentanomial counts, Elo, 95 % half-interval, LOS) over the finished pairs, or None
        when no pair has finished."""
        pairs = self.pairs()
        if not pairs:
            return None
        counts = stats.pentanomial(pairs)
        return (counts,) + stats.pentanomial_stats(counts)

    def count(self, j, names):
        if j.get("result") == "*":
            self.aborted += 1
            return
        self.finished += 1
        p1 = {"1-0": 1, "0-1": -1}.get(j["result"], 0)
        self.cross.setdefault((j["p1"], j["p2"]), Tally()).add(p1)
        self.cross.setdefault((j["p2"], j["p1"]), Tally()).add(-p1)
        self._count_time(j)
        reason = j["reason"]
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        if self.tournament is not None:
            return
        a_outcome, p1_outcome, a_side = outcomes(j, names)
        self.total.add(a_outcome)
        self.by_side[a_side].add(a_outcome)
        self.sides_tally.add(p1_outcome)
        if j.get("pair") is not None:
            self.pair_outcomes.setdefault(j["pair"], []).append(a_outcome)

    def _count_time(self, j):
        for m in j.get("moves", ()):
            name = j["engines"].get(m["side"])
            t = self.move_ms.setdefault(name, [0, 0.0, 0.0])
            t[0] += 1
            t[1] += m.get("ms", 0.0)
            t[2] = max(t[2], m.get("ms", 0.0))
            h = self.time_histogram.setdefault(name, [0] * (len(stats.TIME_BUCKETS) + 1))
            h[bisect.bisect_right(stats.TIME_BUCKETS, m.get("ms", 0.0))] += 1
            if m.get("depth") is not None:
                d = self.depths.setdefault(name, [0, 0])
                d[0] += 1
                d[1] += m["depth"]


class Match(Standings):
    def __init__(self, config):
        Standings.__init__(self, config.tournament)
        self.cfg = config
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.next_index = 0
        self.running = 0
        self.sprt_decision = None
        self.fatal = None
        self.interrupted = False
        self.started = time.monotonic()
        self.records = []  # JSON records of the games, in the order they ended
        self.boards = {}  # game number -> {"kind": "svg"|"text", "frames": [...]}
        self._jsonl = None
        self._boards = None
        self._listeners = []
        if config.out:
            os.makedirs(os.path.join(config.out, "stderr"), exist_ok=True)
            for old in os.listdir(os.path.join(config.out, "stderr")):
                if old.endswith(".log"):
                    os.remove(os.path.join(config.out, "stderr", old))
            self._jsonl = open(os.path.join(config.out, "games.jsonl"), "w", encoding="utf-8")
            self._boards = open(os.path.join(config.out, "boards.jsonl"), "w", encoding="utf-8")
            with open(os.path.join(config.out, "games.pgn"), "w", encoding="utf-8"):
                pass
            self.write_report()

    def on_game(self, fn):
        """fn(record) is called (under the lock) after each counted game."""
        self._listeners.append(fn)

    # ---- scheduling ------------------------------------------------------------------------

    def take(self):
        with self.lock:
            if self.stop.is_set() or self.next_index >= len(self.cfg.indices):
                return None
            i = self.cfg.indices[self.next_index]
            self.next_index += 1
            self.running += 1
            return i

    def record(self, rec):
        with self.lock:
            self.running -= 1
            if rec is None:
                return
            j = rec["json"]
            if self._jsonl is not None:
                self._jsonl.write(json.dumps(j, ensure_ascii=False) + "\n")
                self._jsonl.flush()
            self.count(j, self.cfg.names)
            if rec["aborted"]:
                return
            self.records.append(j)
            boards = rec.get("boards")
            if boards is not None:
                self.boards[j["game"]] = boards
                if self._boards is not None:
                    self._boards.write(json.dumps(dict(boards, game=j["game"]), ensure_ascii=False) + "\n")
                    self._boards.flush()
            if self.cfg.out:
                with open(os.path.join(self.cfg.out, "games.pgn"), "a", encoding="utf-8") as f:
                    f.write(records.pgn_game(j, self.pgn_meta()))
            # A shard neither decides nor stops: only the merge of all shards may.
            if self.cfg.sprt is not None and self.sprt_decision is None and self.cfg.shard is None and self.tournament is None:
                decision = self.cfg.sprt.decide(*self.total.as_tuple())
                if decision is not None:
                    self.sprt_decision = decision
                    self.stop.set()
            if self.cfg.out:
                self.write_report()
            for fn in self._listeners:
                fn(rec)

    def pgn_meta(self):
        return {"event": self.cfg.event, "sides": self.cfg.sides, "start": self.cfg.start}

    def write_report(self):
        webreport.write(os.path.join(self.cfg.out, "report.html"), self)

    def fail(self, message):
        with self.lock:
            if self.fatal is None:
                self.fatal = message
        self.stop.set()

    # ---- running ---------------------------------------------------------------------------

    def run(self, progress=None, interval=0.5):
        workers = [Worker(self, k + 1) for k in range(max(1, min(self.cfg.concurrency, self.cfg.planned)))]
        for w in workers:
            w.start()
        try:
            while any(w.is_alive() for w in workers):
                for w in workers:
                    w.join(timeout=interval / len(workers))
                if progress is not None:
                    progress(self)
        except KeyboardInterrupt:
            self.interrupted = True
            self.stop.set()
            kill_all()  # do not wait for engines to finish their moves
            raise
        finally:
            self.stop.set()
            for w in workers:
                w.join()
            if self._jsonl is not None:
                self._jsonl.close()
                self._jsonl = None
            if self._boards is not None:
                self._boards.close()
                self._boards = None
        if progress is not None:
            progress(self)
        return self


class Worker(threading.Thread):
    def __init__(self, match, wid):
        threading.Thread.__init__(self, name="arena-worker-%d" % wid, daemon=True)
        self.m = match
        self.cfg = match.cfg
        self.wid = wid
        self.ref = None
        self.ref_failures = 0
        self.svg = True  # until the referee refuses showboard svg
        self.players = [
            make_player(spec, self.cfg.game, self.cfg.settings, match.stop, self.cfg.trace, "%s#%d" % (name, wid))
            for spec, name in zip(self.cfg.specs, self.cfg.names)
        ]
        for i, p in enumerate(self.players):
            p.tc = self.cfg.tc_of(i)

    def run(self):
        try:
            while True:
                i = self.m.take()
                if i is None:
                    return
                rec = None
                try:
                    rec = self.play(i)
                finally:
                    self.m.record(rec)
        except Exception:
            self.m.fail("worker %d: %s" % (self.wid, traceback.format_exc()))
        finally:
            for p in self.players:
                try:
                    p.close()
                except Exception:
                    p.kill()
            if self.ref is not None:
                self.ref.close()

    def referee(self):
        if self.ref is None or not self.ref.alive():
            if self.ref is not None:
                self.ref.proc.kill()
            path = None
            if self.cfg.out:
                path = os.path.join(self.cfg.out, "stderr", "referee-%d.log" % self.wid)
            self.ref = Referee(self.cfg.referee, self.cfg.settings.command_timeout, path, self.cfg.trace, self.m.stop, "referee#%d" % self.wid)
            self.ref.set_game(self.cfg.game)
            self.ref.sides = self.cfg.sides
        return self.ref

    def play(self, index):
        """Play game ``index`` (0-based); returns its record, or None if the match stopped."""
        try:
            rec = Game(self, index).play()
            self.ref_failures = 0
            if self.cfg.out and index < self.cfg.board_limit and not rec["aborted"]:
                rec["boards"] = self.render(rec["json"])
            return rec
        except Aborted:
            return None
        except RefereeError as e:
            if self.m.stop.is_set():
                return None
            self.ref_failures += 1
            if self.ref is not None:
                self.ref.proc.kill()
                self.ref = None
            if self.ref_failures >= MAX_REFEREE_FAILURES:
                self.m.fail("the referee failed %d times in a row; last: %s" % (self.ref_failures, e))
            return aborted_record(self.cfg, index, "referee failure", str(e))


    def render(self, j):
        """The board before the game and after each ply, drawn by the referee: ``showboard
        svg``, or the text ``showboard`` when the referee has no SVG. None if it cannot."""
        for _ in range(2):
            try:
                return self._render(j)
            except _TextBoards:
                continue  # drawn again, all in text
            except (RefereeError, Aborted):
                return None  # the game still counts, without boards
        return None

    def _render(self, j):
        ref = self.referee()
        ref.new_game(j["start"])
        frames = [self._board(ref)]
        for m in list(j["opening"]) + [e["move"] for e in j["moves"]]:
            ok, _ = ref.play(m)
            if not ok:
                return None
            frames.append(self._board(ref))
        return {"kind": "svg" if self.svg else "text", "count": len(frames), "gz": webreport.pack(frames)}

    def _board(self, ref):
        if self.svg:
            ok, text = ref.attempt("showboard svg")
            if ok and "<svg" in text:
                return text
            self.svg = False
            # frames drawn so far stay SVG only if all are; start the game over in text
            raise _TextBoards()
        return ref.ask("showboard")


class _TextBoards(Exception):
    pass


def aborted_record(cfg, index, reason, detail):
    return {
        "aborted": True,
        "json": {"game": index + 1, "pair": cfg.schedule(index)[2] // 2 + 1, "result": "*", "winner": None, "reason": "Aborted (%s)" % reason, "detail": detail},
    }


_HOST = socket.gethostname() or "?"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.+-]+")


class Game:
    def __init__(self, worker, index):
        self.w = worker
        self.cfg = worker.cfg
        self.index = index
        a, b, self.number = self.cfg.schedule(index)
        self.engines = (a, b)  # A and B: the two engines of the game's pairing
        self.a_side = self.number % 2  # A plays the first mover in even games, the second in odd ones
        self.seat = (a, b) if self.a_side == 0 else (b, a)  # seat[side] = engine index
        self.moves = []
        self.log = []
        self.opening = None
        self.started = time.monotonic()
        self.wall = time.time()

    def play(self):
        cfg, w = self.cfg, self.w
        ref = w.referee()
        op = cfg.book.get(self.number // 2, ref)  # every pairing plays the same openings
        ref.new_game(op.base, op.moves)
        self.opening = op
        setup = Setup(cfg.game, op.base, op.is_start, op.moves, cfg.sides)
        for i in self.engines:
            w.players[i].set_stderr(self._stderr_path(i))
        self.clocks = [Clock(cfg.tc_of(self.seat[0])), Clock(cfg.tc_of(self.seat[1]))]
        for i in self.engines:
            try:
                w.players[i].prepare(setup)
            except Failure as f:
                return self._forfeit(i, f, ref)
        try:
            return self._loop(ref, setup)
        finally:
            for i in self.engines:
                if w.players[i].spec.restart:
                    w.players[i].close()

    def _loop(self, ref, setup):
        cfg, players = self.cfg, self.w.players
        while True:
            if self.w.m.stop.is_set():
                raise Aborted()
            res = ref.result()
            if res.over:
                return self._by_rules(ref, res)
            if cfg.max_plies and len(self.moves) >= cfg.max_plies:
                return self._finish(ref, 0, "Draw by adjudication (%d plies)" % cfg.max_plies, "maximum number of plies reached")
            name = ref.side_to_move()
            if name not in cfg.sides:
                raise RefereeError("referee names the side to move %r, not one of %s" % (name, "/".join(cfg.sides)))
            side = cfg.sides.index(name)
            legal = ref.listed_moves()
            mover = self.seat[side]
            try:
                reply = players[mover].think(setup, self.moves, side, self.clocks)
            except Failure as f:
                return self._forfeit(mover, f, ref)
            move = reply.move
            # GTP would strip a comment: "e4#junk" must not pass for "e4"
            if len(move) > MAX_MOVE_LEN or not move.isprintable() or move.split() != [move] or "#" in move:
                return self._forfeit(mover, Failure("malformed", repr(move[:MAX_MOVE_LEN])), ref)
            ok, why = ref.play(move)
            if not ok:
                return self._forfeit(mover, Failure("illegal", "%s: %s" % (move, why or "refused by the referee")), ref, attempted=move)
            if legal is not None and move not in legal:
                # Without the list (too many moves to list) the move stays as it was sent.
                move = ref.canonical(move, legal)
            self.clocks[side].charge(reply.elapsed)
            self.moves.append(move)
            entry = {"side": name, "move": move, "ms": round(reply.elapsed * 1000, 1)}
            if self.clocks[side].tc.timed:
                entry["left"] = int(self.clocks[side].remaining * 1000)
            if reply.move != move:
                entry["sent"] = reply.move
            if reply.depth is not None:
                entry["depth"] = reply.depth
            if reply.score is not None:
                entry["score"] = reply.score
            self.log.append(entry)
            other = self.seat[1 - side]
            try:
                players[other].observe(name, move)
            except Failure as f:
                return self._forfeit(other, f, ref)

    # ---- endings ---------------------------------------------------------------------------

    def _by_rules(self, ref, res):
        if res.kind == "draw":
            reason = "Draw (%s)" % res.reason if res.reason else "Draw"
            return self._finish(ref, 0, reason, res.reason)
        side = self.cfg.sides.index(res.winner)
        winner = self.seat[side]
        name = self.cfg.names[winner]
        reason = "%s wins (%s)" % (name, res.reason) if res.reason else "%s wins" % name
        return self._finish(ref, 1 if winner == self.engines[0] else -1, reason, res.reason)

    def _forfeit(self, loser, failure, ref=None, attempted=None):
        if self.w.m.stop.is_set():
            raise Aborted()  # the match is over; engines may have been killed under us
        player = self.w.players[loser]
        if failure.kind in ("hang", "crash", "start"):
            player.kill()  # restarted before the next game
        reason = "%s %s" % (self.cfg.names[loser], FAULTS[failure.kind])
        return self._finish(ref, -1 if loser == self.engines[0] else 1, reason, failure.detail, failure.kind, attempted)

    def _finish(self, ref, a_outcome, reason, detail, fault=None, attempted=None):
        cfg = self.cfg
        names = cfg.names
        p1_outcome = a_outcome if self.a_side == 0 else -a_outcome
        final = None
        if ref is not None:
            try:
                final = ref.position()
            except RefereeError:
                final = None
        a, b = self.engines
        winner = None if a_outcome == 0 else names[a if a_outcome > 0 else b]
        j = {
            "game": self.index + 1,
            "pair": self.number // 2 + 1,
            "game_name": cfg.game,
            "engines": {cfg.sides[0]: names[self.seat[0]], cfg.sides[1]: names[self.seat[1]]},
            "p1": names[self.seat[0]],
            "p2": names[self.seat[1]],
            "tc": {names[a]: str(cfg.tc_of(a)), names[b]: str(cfg.tc_of(b))},
            "start": self.opening.base,
            "opening": self.opening.moves,
            "opening_source": self.opening.source,
            "moves": self.log,
            "plies": len(self.moves),
            "result": {1: "1-0", -1: "0-1", 0: "1/2-1/2"}[p1_outcome],
            "winner": winner,
            "reason": reason,
            "detail": detail or "",
            "final": final,
            "seconds": round(time.monotonic() - self.started, 3),
            "date": time.strftime("%Y.%m.%d", time.gmtime(self.wall)),
            "site": _HOST,
        }
        if cfg.tournament is not None:
            j["round"] = self.index // (len(cfg.pairings) * cfg.per_pairing) + 1
        if fault is not None:
            j["fault"] = fault
        if attempted is not None:
            j["illegal_move"] = attempted
        return {"aborted": False, "a_outcome": a_outcome, "p1_outcome": p1_outcome, "a_side": self.a_side, "json": j}

    def _stderr_path(self, idx):
        if not self.cfg.out:
            return None
        name = _UNSAFE.sub("_", self.cfg.names[idx]) or "engine%d" % (idx + 1)
        return os.path.join(self.cfg.out, "stderr", "game-%05d-%s.log" % (self.index + 1, name))
