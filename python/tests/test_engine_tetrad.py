"""The engine client against tetrad itself, in both dialects: play, analyse, configure, the
low-level calls, and a duck-typed state. Searches are node- or depth-limited (deterministic with
one thread and a seed); every wait is bounded by the client's timeouts."""

import pytest

from engine_paths import tetrad_bin
from tetrad.engine import Engine, EngineRefused, Limit

PROTOCOLS = ["gtp", "ugi"]
POS = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"  # poddavki after c3-d4


def popen(protocol):
    return Engine.popen([tetrad_bin(), "--threads", "1", "--seed", "7"], protocol=protocol,
                        timeout=20.0, margin=5.0, search_timeout=60.0)


@pytest.fixture(scope="module")
def referee():
    """A GTP tetrad that lists legal moves, through the same client's ``command``."""
    with popen("gtp") as e:
        yield e


def legal(referee, game, pos=None, moves=()):
    referee.command("set_game " + game)
    if pos is not None:
        referee.command("set_position " + pos)
    for m in moves:
        referee.command("play " + m)
    return referee.command("legal_moves").split()


class State:
    """Stands for pyext's tetrad.State: position(), to_move() and a game with a name."""

    class game:
        name = "diamond"

    def __init__(self, position):
        self._position = position

    def position(self):
        return self._position

    def to_move(self):
        return 0


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_play_every_game_from_its_start(protocol, referee):
    games = referee.command("list_games").split()
    assert "poddavki" in games and len(games) >= 5
    with popen(protocol) as e:
        assert e.id_name == "tetrad"
        for game in games:
            r = e.play(None, Limit(nodes=2000), game=game)
            assert r.move in legal(referee, game), (game, r.move)
            if protocol == "ugi":
                assert r.depth >= 1 and r.score is not None and r.pv[0] == r.move
            else:
                assert r.score is None and r.pv == []  # genmove reports no search


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_play_a_position_and_moves(protocol, referee):
    first = legal(referee, "poddavki", POS)[0]
    moves = [first, legal(referee, "poddavki", POS, [first])[0]]
    with popen(protocol) as e:
        r = e.play(POS, Limit(depth=4), game="poddavki", moves=moves)
        assert r.move in legal(referee, "poddavki", POS, moves)


def test_both_dialects_play_the_same_move(referee):
    moves = []
    for protocol in PROTOCOLS:
        with popen(protocol) as e:
            moves.append(e.play(POS, Limit(depth=5), game="poddavki").move)
    assert moves[0] == moves[1]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_analyse_gives_k_lines_best_first(protocol, referee):
    with popen(protocol) as e:
        lines = e.analyse(POS, Limit(depth=4), multipv=3, game="poddavki")
        assert len(lines) == 3
        ok = legal(referee, "poddavki", POS)
        firsts = [l.pv[0] for l in lines]
        assert len(set(firsts)) == 3 and all(m in ok for m in firsts)
        assert all(l.depth == 4 and l.score is not None for l in lines)
        cps = [l.score.cp for l in lines]
        assert cps == sorted(cps, reverse=True)
        # and the engine plays single-PV again afterwards
        assert e.play(POS, Limit(depth=2), game="poddavki").move in ok


def test_gtp_limits_do_not_outlive_their_search():
    """GTP limits are tetrad's search caps (set_option): a later search must not inherit them."""
    with popen("gtp") as e:
        e.play(POS, Limit(nodes=50), game="poddavki")
        lines = e.analyse(POS, Limit(depth=7), multipv=2, game="poddavki")
        assert [l.depth for l in lines] == [7, 7]  # 50 nodes would have stopped far short
        e.play(POS, Limit(clock=(2, 2)), game="poddavki")
        assert e.gtp.time_ok and not e.gtp.int_time  # fractional seconds accepted
        assert e.play(POS, Limit(depth=3), game="poddavki").move in legal(e, "poddavki", POS)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_clock_and_time_limits(protocol, referee):
    with popen(protocol) as e:
        r = e.play(POS, Limit(clock=(3, 3, 0.1, 0.1)), game="poddavki")
        assert r.move in legal(referee, "poddavki", POS)
        assert r.elapsed < 3.0
        r = e.play(POS, Limit(time=0.1), game="poddavki")
        assert r.elapsed < 2.0


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_errors_are_refusals_and_change_nothing(protocol, referee):
    with popen(protocol) as e:
        with pytest.raises(EngineRefused):
            e.configure({"no_such_option": 1})
        with pytest.raises(EngineRefused, match="invalid position"):
            e.play("W:W99:B1", Limit(depth=2), game="poddavki")
        e.configure({"seed": 3} if protocol == "gtp" else {"Seed": 3})
        assert e.play(POS, Limit(depth=2), game="poddavki").move in legal(referee, "poddavki", POS)


class Played(State):
    """A state with a history, as tetrad.State has: moves(), copy() and undo()."""

    class game:
        name = "poddavki"

    def __init__(self, positions, moves, undo_fails=False):
        State.__init__(self, positions[-1])
        self.positions, self.played, self.undo_fails = list(positions), list(moves), undo_fails

    def position(self):
        return self.positions[-1]

    def moves(self):
        return list(self.played)

    def copy(self):
        return Played(self.positions, self.played, self.undo_fails)

    def undo(self):
        if self.undo_fails:
            raise RuntimeError("cannot undo")
        self.positions.pop()
        self.played.pop()

    def to_move(self):
        return len(self.played) % 2


def test_a_state_is_sent_with_its_history(referee):
    from tetrad.engine import _describe

    referee.command("set_game poddavki")
    positions, moves = [referee.command("get_position")], []
    for _ in range(3):
        moves.append(legal(referee, "poddavki", positions[0], moves)[0])
        referee.command("play " + moves[-1])
        positions.append(referee.command("get_position"))
    state = Played(positions, moves)
    assert _describe(state, None, None) == (positions[0], moves, "poddavki", 1)
    assert _describe(state, ["x"], "diamond") == (positions[0], moves + ["x"], "diamond", None)
    assert _describe(Played(positions, moves, undo_fails=True), None, None) == (positions[-1], [], "poddavki", 1)
    with popen("ugi") as e:
        assert e.play(state, Limit(nodes=500)).move in legal(referee, "poddavki", positions[-1])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_state_object(protocol, referee):
    referee.command("set_game diamond")
    start = referee.command("get_position")
    with popen(protocol) as e:
        r = e.play(State(start), Limit(nodes=1000))
        assert r.move in legal(referee, "diamond", start)


def test_raw_lines_and_gtp_commands():
    with popen("gtp") as e:
        e.send(b"\xff\xfe garbage \x07")
        assert e.read_line().startswith("?")
        assert e.read_line() == ""
        assert e.command("protocol_version") == "2"
        with pytest.raises(EngineRefused, match="unknown command"):
            e.command("no_such_command")
    with popen("ugi") as e:
        e.send("isready")
        assert e.read_line() == "readyok"
        with pytest.raises(EngineRefused):
            e.command("setoption name Hash value -5")


def test_quit_ends_the_engine():
    e = popen("ugi")
    e.quit()
    assert e.proc.exit_status() == 0 and not e.alive()


def test_the_readme_example_runs(capsys):
    """python/README.md's example, as it stands (with this build's binary)."""
    import os
    import re

    from engine_paths import REPO

    with open(os.path.join(REPO, "python", "README.md"), encoding="utf-8") as f:
        text = f.read()
    code = re.search(r"<!-- example: driving an engine -->\n```python\n(.*?)```", text, re.S).group(1)
    exec(compile(code.replace('"target/release/tetrad"', repr(tetrad_bin())), "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5 and out[-1].startswith("refused: tetrad refused the search: error: invalid position")
    move, kind, _, depth, first = out[0].split()[:5]  # "b6-c5 cp 12 6 b6-c5 ..."
    assert kind in ("cp", "mate") and depth == "6" and first == move
    assert [l.split()[0] for l in out[1:4]] == ["1", "2", "3"]
