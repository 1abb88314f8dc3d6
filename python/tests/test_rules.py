"""The rules through the bindings: the engine's GTP answers agree, errors are exceptions."""

import copy
import random

import pytest

import tetrad

GAMES_PER_RULE_SET = 200


def test_games_are_the_registry():
    names = tetrad.games()
    assert "poddavki" in names and "pods-advanced" in names
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name", tetrad.games())
def test_random_games_agree_with_gtp(gtp, name):
    gtp.ask(f"set_game {name}")
    listed = gtp.ask("list_games").split()
    assert listed == tetrad.games()
    game = tetrad.Game(name)
    rng = random.Random(name)
    for _ in range(GAMES_PER_RULE_SET):
        # The game is played through the bindings, then replayed over GTP in one batch of
        # commands (positions, legal moves, result); the answers must be the bindings'.
        state = game.new_state()
        commands, expected = ["clear_board"], [""]
        # Phutball's random games crowd the board: past ~40 plies its move lists explode.
        for _ in range(rng.randrange(1, 40 if name == "phutball" else 80)):
            legal = state.legal_moves()
            commands += ["get_position", "legal_moves"]
            expected += [state.position(), " ".join(legal)]
            if not legal:
                break
            move = rng.choice(legal)
            commands.append(f"play {move}")
            expected.append("")
            state.play(move)
        commands += ["get_position", "game_result"]
        expected += [state.position(), state.result()]
        answers = gtp.ask_all(commands)
        answers[-1] = answers[-1].split()[0]
        for command, want, got in zip(commands, expected, answers):
            assert got == want, f"{command}: {state.moves()}"


def test_state_basics():
    g = tetrad.Game("poddavki")
    s = g.new_state()
    assert s.to_move() == 0 and not s.is_over() and s.winner() is None and s.reason() is None
    start = s.position()
    first = s.legal_moves()[0]
    assert s.play(first) == first
    assert s.moves() == [first] and s.to_move() == 1
    t = s.copy()
    assert t == s and hash(t) == hash(s) and copy.deepcopy(s) == s
    assert s.undo() and s.position() == start and s.moves() == []
    assert t != s and not s.undo()
    assert s.svg().startswith("<svg") and s._repr_svg_() == s.svg()
    assert s.layout()["game"] == "poddavki"
    assert g.from_position(t.position()) == t
    assert repr(t) == f"tetrad.State('poddavki', '{t.position()}')"  # it once hung: two locks


def test_errors_are_exceptions():
    g = tetrad.Game("diamond")
    s = g.new_state()
    before = s.position()
    with pytest.raises(tetrad.IllegalMove):
        s.play("zz99")
    with pytest.raises(tetrad.IllegalMove):
        s.play("")
    assert s.position() == before
    with pytest.raises(ValueError, match="unknown game"):
        tetrad.Game("chess")
    with pytest.raises(ValueError, match="unknown option"):
        tetrad.Game("poddavki", no_such_option=1)
    with pytest.raises(ValueError):
        g.from_position("not a position")
    with pytest.raises(tetrad.IllegalMove):
        s.move(-1)
    with pytest.raises(tetrad.IllegalMove):
        s.move(g.num_actions)
    assert issubclass(tetrad.IllegalMove, ValueError)


def test_search_in_process():
    s = tetrad.Game("poddavki").new_state()
    r = s.search(depth=4)
    assert r.move in s.legal_moves() and r.depth >= 4 and r.pv[0] == r.move
    assert (r.score is None) != (r.mate is None)
    lines = s.search(nodes=2000, multipv=3).lines
    assert len(lines) == 3 and len({l.pv[0] for l in lines}) == 3
    with pytest.raises(ValueError):
        s.search()
