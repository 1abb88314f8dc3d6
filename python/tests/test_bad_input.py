"""Property test: random strings, numbers and arrays fed to every entry point raise a clear
exception (tetrad.IllegalMove, ValueError or TypeError, as python/README.md says), never crash the
interpreter, and change nothing."""

import random

import numpy as np
import pytest

import tetrad

ALPHABET = "abcdefghijklmnoABCDEFG0123456789-:x/ rbwXO*@\n\t\x00é\ud800"
JUMP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/7X7/15/7X7/7O7/7X7/15/15 r"
ERRORS = (ValueError, TypeError)  # tetrad.IllegalMove is a ValueError


def random_text(rng):
    if rng.random() < 0.3:  # something close to a real move or position
        return rng.choice(["h11", "h10-h12", "c3-d4", "a1", "e3xg5", "15/15 r", "Ap-a1"]) + "".join(
            rng.choice(ALPHABET) for _ in range(rng.randrange(0, 3))
        )
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 40)))


def random_value(rng, num_actions):
    """Anything but a legal action: numbers of every kind, strings, None, containers."""
    return rng.choice(
        [
            -1,
            -(2**31),
            num_actions,
            num_actions + rng.randrange(1000),
            2**63,
            2**70,
            -(2**70),
            float("nan"),
            float("inf"),
            1.5,
            np.float32(2.0),
            np.int64(-3),
            np.uint64(2**64 - 1),
            None,
            "3",
            b"1",
            [1],
            (),
            object(),
        ]
    )


def snapshot(s):
    return (s.position(), s.moves(), s.pending(), s.observation().tobytes(), s.legal_actions())


def states(name, rng):
    """A few states of the game: the start, some along a random game and (Phutball) one in the
    middle of a ball move."""
    g = tetrad.Game(name)
    s = g.new_state()
    out = [s.copy()]
    for _ in range(12):
        actions = s.legal_actions()
        if not actions:
            break
        s.play_action(actions[-1] if rng.random() < 0.5 else rng.choice(actions))
        out.append(s.copy())
    if name == "phutball":  # the ball jumped up once from h3, over h4, to h5: a move under way
        s = g.from_position(JUMP)
        s.play_action(315)
        out.append(s)
    return g, out


@pytest.mark.parametrize("name", tetrad.games())
def test_random_input_raises_and_changes_nothing(name):
    rng = random.Random(name)
    g, some = states(name, rng)
    if name == "phutball":
        assert any(s.pending() for s in some)  # a ball move under way is fed junk too
    for s in some:
        before = snapshot(s)
        for _ in range(60):
            text = random_text(rng)
            try:
                s.copy().play(text)  # a legal move (lenient notation) is played on a copy
            except ValueError:  # IllegalMove, or UnicodeEncodeError for a lone surrogate
                with pytest.raises(ValueError):
                    s.play(text)
            for call in (s.action, s.actions):
                try:
                    call(text)
                except ValueError:
                    pass
            value = random_value(rng, g.num_actions)
            for call in (s.move, s.play_action):
                with pytest.raises(ERRORS):
                    call(value)
            for junk in (value, text.encode("utf-8", "surrogatepass")):
                if not isinstance(junk, str):
                    with pytest.raises(TypeError):
                        s.play(junk)
            assert snapshot(s) == before
        with pytest.raises(ERRORS):
            g.from_position(random_text(rng))
        with pytest.raises(TypeError):
            g.from_position(None)


def test_games_and_options_refuse_junk():
    rng = random.Random(2)
    for _ in range(200):
        text = random_text(rng)
        if text in tetrad.games():
            continue
        with pytest.raises(ValueError):
            tetrad.Game(text)
    for junk in (None, 3, b"poddavki", ["poddavki"]):
        with pytest.raises(TypeError):
            tetrad.Game(junk)
    for _ in range(50):
        key = random_text(rng).replace("\ud800", "") or "x"
        with pytest.raises(ValueError, match="unknown option"):
            tetrad.Game("phutball", **{key: random_text(rng)})
    with pytest.raises(ValueError):
        tetrad.Game("phutball", eval="no such evaluation")
    for n in (0, -1):
        with pytest.raises((ValueError, OverflowError)):
            tetrad.VecEnv("diamond", n)
    with pytest.raises(ValueError):
        tetrad.VecEnv("diamond", 2, opponent="tetrad:nodes=-5")


@pytest.mark.parametrize("name", tetrad.games())
def test_vecenv_step_refuses_bad_arrays_and_changes_nothing(name):
    n = 3
    env = tetrad.VecEnv(name, n, seed=1, threads=1)
    twin = tetrad.VecEnv(name, n, seed=1, threads=1)
    obs, mask = env.reset()
    twin.reset()
    rng = np.random.default_rng(9)
    A = env.num_actions
    legal = np.argmax(mask, axis=1)
    bad = [
        np.zeros(n - 1, np.int64),
        np.zeros(n + 1, np.int64),
        np.zeros((n, 1), np.int64),
        np.zeros((0,), np.int64),
        legal.astype(np.float64),
        np.full(n, np.nan),
        legal.astype(np.float32),
        legal.astype(np.bool_),
        legal.astype(object),
        legal.astype(str),
        np.full(n, -1),
        np.full(n, A),
        np.full(n, 2**62, np.int64),
        np.full(n, 2**64 - 1, np.uint64),
        [2**70] * n,
        None,
        "0 1 2",
        3,
    ]
    for _ in range(30):
        row = legal.copy()
        row[rng.integers(n)] = rng.integers(-(2**40), 2**40)
        inside = (row >= 0) & (row < A)
        if not (inside.all() and mask[np.arange(n), row].all()):
            bad.append(row)
    before = (obs.copy(), mask.copy())
    for actions in bad:
        with pytest.raises(ERRORS):
            env.step(actions)
        assert np.array_equal(obs, before[0]) and np.array_equal(mask, before[1])
    # Nothing changed: the next legal steps are the twin's, which never saw bad input.
    for _ in range(5):
        legal = np.argmax(mask, axis=1)
        got = [x.copy() for x in env.step(legal)]
        want = twin.step(legal)
        for u, v in zip(got, want):
            assert np.array_equal(u, v)
        mask = got[1]
