"""Actions, masks and observations; VecEnv."""

import os
import random
import signal

import numpy as np
import pytest

import tetrad


def complete_sequences(s, seen):
    """The moves every complete decision sequence from here plays (through play_action and
    undo); a decision point met again by another order of steps is walked once."""
    moves = []
    for a in s.legal_actions():
        done = s.play_action(a)
        if done is not None:
            moves.append(done)
        else:
            key = s.observation().tobytes()
            if key not in seen:
                seen.add(key)
                moves += complete_sequences(s, seen)
        assert s.undo()
    return moves


@pytest.mark.parametrize("name", tetrad.games())
def test_decision_sequences_and_legal_moves_are_a_bijection(name):
    """Along random games played action by action (half the time the highest legal action:
    for Phutball a jump or the stop, so ball moves go hop by hop): the mask's bits are distinct
    moves or steps; where the legal moves are few enough to list, the complete decision
    sequences reach each of them exactly once, and each move's own `actions` play it."""
    g = tetrad.Game(name)
    rng = random.Random(40)
    steps = 0
    for _ in range(6):
        s = g.new_state()
        for _ in range(60):
            mask = s.legal_mask()
            assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
            actions = np.flatnonzero(mask).tolist()
            assert actions == s.legal_actions()
            assert len({s.move(a) for a in actions}) == len(actions)
            obs = s.observation()
            assert obs.dtype == np.float32 and obs.shape == g.observation_shape
            legal = s.legal_moves(limit=1000)
            if legal is not None:
                before = (s.position(), s.pending(), obs.tobytes())
                reached = complete_sequences(s, set())
                assert len(reached) == len(set(reached))
                assert set(reached) == {s.copy().play(m) for m in legal}
                for m in rng.sample(legal, min(len(legal), 10)):
                    seq = s.actions(m)
                    assert s.action(m) == seq[0]
                    t = s.copy()
                    assert [t.play_action(a) for a in seq[:-1]] == [None] * (len(seq) - 1)
                    assert t.play_action(seq[-1]) == s.copy().play(m)
                assert (s.position(), s.pending(), s.observation().tobytes()) == before
            if not actions:
                break
            a = actions[-1] if rng.random() < 0.5 else rng.choice(actions)
            if s.play_action(a) is None:
                steps += 1
                assert s.pending() and s.pending_move() and not s.is_over()
    if name == "phutball":
        assert steps >= 5


def test_phutball_jump_hop_by_hop():
    """A ball move through the action API: the same player decides again, the observation shows
    the move under way, undo takes back one step, the stop ends the move (an own goal too)."""
    g = tetrad.Game("phutball")
    # Red to move; the ball on h3 with men on h2 and h4, h6: a jump down lands on h1 (Red's own
    # goal line), a jump up on h5 and then on h7.
    s = g.from_position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/7X7/15/7X7/7O7/7X7/15/15 r")
    up, down, stop = 315, 319, 323
    assert {up, down} <= set(s.legal_actions()) and stop not in s.legal_actions()
    assert s.move(up) == "h3-h5" and s.move(down) == "h3-h1"
    assert s.play_action(up) is None
    assert s.to_move() == 0 and s.pending() == [up] and s.pending_move() == "h3-h5"
    obs = s.observation()
    assert obs[1, 5, 7] == 1 and obs[2, 4, 7] == 1 and obs[0, 4, 7] == 0 and obs[4].all()
    assert s.legal_actions() == [up, stop]  # no placement in the middle of a move
    assert s.legal_moves() == ["h3-h5", "h3-h5-h7"]
    assert s.move(up) == "h3-h5-h7" and s.move(stop) == "h3-h5"
    with pytest.raises(tetrad.IllegalMove):
        s.play("a5")  # not a way on from the jump under way
    with pytest.raises(tetrad.IllegalMove):
        s.search(depth=1)
    assert s.actions("h3-h5-h7") == [up, stop]
    t = s.copy()
    assert t == s and hash(t) == hash(s) and t != g.from_position(s.position())
    assert s.play_action(up) is None and s.play_action(stop) == "h3-h5-h7"
    assert s.to_move() == 1 and s.pending() == [] and not s.observation()[4].any()
    assert s.undo() and s.pending() == [up, up]  # back before the stop
    assert s.undo() and s.undo() and s.pending() == [] and s.to_move() == 0
    assert s.play_action(down) is None and not s.is_over()  # on the goal line, mid-move
    assert s.play_action(stop) == "h3-h1" and s.is_over() and s.winner() == 1


def run(env, steps, seed):
    rng = np.random.default_rng(seed)
    obs, mask = env.reset()
    trace = []
    for _ in range(steps):
        actions = np.argmax(mask * rng.random(mask.shape), axis=1)
        obs, mask, rewards, done = env.step(actions)
        trace.append((obs.copy(), mask.copy(), rewards.copy(), done.copy()))
    return trace


@pytest.mark.parametrize("name", tetrad.games())
@pytest.mark.parametrize("opponent", [None, "tetrad:nodes=50"])
def test_vecenv_is_deterministic(name, opponent):
    """Same seed, same trajectory, on one thread or several (the chunks go to whichever
    thread is free)."""
    a = run(tetrad.VecEnv(name, 6, seed=3, opponent=opponent, threads=3), 40, 1)
    b = run(tetrad.VecEnv(name, 6, seed=3, opponent=opponent, threads=1), 40, 1)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            assert np.array_equal(u, v)


@pytest.mark.parametrize("name", tetrad.games())
def test_vecenv_matches_state_and_restarts(name):
    """Game 0 of a VecEnv against a State given the same actions: the observation (written
    only where it changes after the first step), the mask, the rewards, the restarts."""
    env = tetrad.VecEnv(name, 3, seed=1)
    obs, mask = env.reset()
    s = tetrad.Game(name).new_state()
    assert np.array_equal(obs[0], s.observation()) and np.array_equal(mask[1], s.legal_mask())
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(400):
        actions = np.argmax(mask * rng.random(mask.shape), axis=1)
        s.play_action(int(actions[0]))
        obs, mask, rewards, done = env.step(actions)
        if done[0]:
            finished += 1
            w = s.winner()
            assert rewards[0].tolist() == ([0, 0] if w is None else [1, -1] if w == 0 else [-1, 1])
            s = tetrad.Game(name).new_state()
        assert np.array_equal(obs[0], s.observation())
        assert np.array_equal(mask[0], s.legal_mask())
    assert finished > 0


def test_vecenv_legality_does_not_trust_the_mask():
    """The arrays a VecEnv hands out are its own buffers, writeable (numpy copies a read-only
    array for every reduction), rewritten where they change by the next step: an action is
    checked against the game's own legal list, so a bit written into the mask lets nothing
    illegal through, and a refused step changes nothing."""
    env, twin = tetrad.VecEnv("poddavki", 2, seed=1), tetrad.VecEnv("poddavki", 2, seed=1)
    (obs, mask), (_, twin_mask) = env.reset(), twin.reset()
    mask.setflags(write=False)  # the caller's choice: refused, not a crash
    with pytest.raises(ValueError, match="writeable"):
        env.step(np.argmax(twin_mask, axis=1))
    mask.setflags(write=True)
    illegal = int(np.argmin(mask[0]))
    mask[:] = True
    with pytest.raises(ValueError, match="action %d of game 0 is not one" % illegal):
        env.step(np.array([illegal, int(np.argmax(twin_mask[1]))]))
    for _ in range(40):
        actions = np.argmax(twin_mask, axis=1)
        got = env.step(actions)
        want = twin.step(actions)
        twin_mask = want[1]
        for i in (0, 2, 3):  # obs, rewards, done: the same games
            assert np.array_equal(got[i], want[i])
        assert not (want[1] & ~got[1]).any()  # every legal bit is set


def test_vecenv_errors():
    env = tetrad.VecEnv("diamond", 4, seed=0)
    with pytest.raises(ValueError, match="reset"):
        env.step(np.zeros(4, np.int64))
    obs, mask = env.reset()
    with pytest.raises(ValueError, match="length"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError):
        env.step(np.full(4, -1))
    with pytest.raises(ValueError):
        env.step("nonsense")
    with pytest.raises(ValueError):
        tetrad.VecEnv("diamond", 4, opponent="stockfish")
    legal = np.argmax(mask, axis=1)
    env.step(legal)
    rng = np.random.default_rng(5)
    for _ in range(50):
        bad = rng.integers(-5, env.num_actions + 5, size=rng.integers(0, 8))
        try:
            env.step(bad)
        except ValueError:
            pass


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_vecenv_steps_in_a_forked_child():
    """A child forked after the VecEnv started its threads (multiprocessing's default on
    Linux) has none of them: its steps run on its one thread, the same games as the parent's
    (a child that hangs is killed by its alarm, and its missing answer fails the test)."""
    env = tetrad.VecEnv("poddavki", 64, seed=5, threads=2)
    _, mask = env.reset()
    _, mask, _, _ = env.step(np.argmax(mask, axis=1))

    def play(mask):
        for _ in range(20):
            obs, mask, _, _ = env.step(np.argmax(mask, axis=1))
        return obs.tobytes() + mask.tobytes()

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            signal.alarm(60)
            os.write(write, play(mask))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    assert data == play(mask)
