"""Actions, masks and observations; VecEnv."""

import random

import numpy as np
import pytest

import tetrad


@pytest.mark.parametrize("name", tetrad.games())
def test_mask_bits_and_legal_moves_are_a_bijection(name):
    g = tetrad.Game(name)
    rng = random.Random(40)
    for _ in range(10):
        s = g.new_state()
        for _ in range(80):
            legal = s.legal_moves()
            if len(legal) > 2000:
                break  # crowded Phutball boards: see python/README.md
            mask = s.legal_mask()
            assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
            decoded = {s.move(a) for a in np.flatnonzero(mask)}
            assert len(decoded) == mask.sum()
            if name != "phutball":
                assert decoded == set(legal)
                for m in legal:
                    assert s.move(s.action(m)) == m
            else:
                assert decoded <= set(legal)
            obs = s.observation()
            assert obs.dtype == np.float32 and obs.shape == g.observation_shape
            if not legal:
                break
            s.play(rng.choice(legal))


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
def test_vecenv_is_deterministic(name):
    a = run(tetrad.VecEnv(name, 6, seed=3, opponent="tetrad:nodes=50"), 40, 1)
    b = run(tetrad.VecEnv(name, 6, seed=3, opponent="tetrad:nodes=50", threads=1), 40, 1)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            assert np.array_equal(u, v)


def test_vecenv_matches_state_and_restarts():
    env = tetrad.VecEnv("poddavki", 3, seed=1)
    obs, mask = env.reset()
    s = tetrad.Game("poddavki").new_state()
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
            s = tetrad.Game("poddavki").new_state()
        assert np.array_equal(obs[0], s.observation())
        assert np.array_equal(mask[0], s.legal_mask())
    assert finished > 0


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
