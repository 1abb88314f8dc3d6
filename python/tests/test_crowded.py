"""A crowded Phutball board (over 100,000 ball moves) costs bounded memory through the action
API: masks, moves of actions, observations and whole ball moves taken hop by hop, through the
State, VecEnv, OpenSpiel and PettingZoo, in a process whose address space may grow by 512 MiB
at most (listing the board's moves alone would take gigabytes)."""

import os
import subprocess
import sys
import textwrap

WORKLOAD = textwrap.dedent(
    """
    import random, re, resource
    import numpy as np
    import tetrad

    def crowded(density, seed):
        rng = random.Random(seed)
        rows = []
        for r in range(20, -1, -1):
            row = "".join(
                "O" if (r, c) == (10, 7) else "X" if 1 <= r <= 19 and rng.random() < density else "1"
                for c in range(15)
            )
            rows.append(re.sub("1+", lambda m: str(len(m.group())), row))
        return "/".join(rows) + " r"

    g = tetrad.Game("phutball")
    position = crowded(0.5, 3)
    assert g.from_position(position).legal_moves(limit=100_000) is None  # truly crowded
    frameworks = []
    try:
        import pyspiel, tetrad.openspiel
        tetrad.openspiel.register()
        frameworks.append("openspiel")
    except ImportError:
        pass
    try:
        import tetrad.pettingzoo
        frameworks.append("pettingzoo")
    except ImportError:
        pass
    with open("/proc/self/status") as f:
        size = int(re.search(r"VmSize:\\s+(\\d+) kB", f.read()).group(1)) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (size + (512 << 20), resource.RLIM_INFINITY))

    rng = random.Random(1)
    def pick(actions):
        hops = [a for a in actions if a >= 315]  # jumps and the stop: long ball moves
        return rng.choice(hops) if hops and rng.random() < 0.9 else rng.choice(actions)

    s = g.from_position(position)
    steps = 0
    for _ in range(400):
        if s.is_over():
            s = g.from_position(position)
        actions = np.flatnonzero(s.legal_mask()).tolist()
        assert len({s.move(a) for a in actions}) == len(actions)
        s.observation()
        steps += s.play_action(pick(actions)) is None
    assert steps > 100, steps

    env = tetrad.VecEnv("phutball", 4, seed=2, threads=1)
    obs, mask = env.reset()
    for _ in range(300):  # random games crowd the board
        obs, mask, rewards, done = env.step([pick(np.flatnonzero(m).tolist()) for m in mask])

    if "openspiel" in frameworks:
        game = pyspiel.load_game("tetrad_phutball")
        state = type(game.new_initial_state())(game, g.from_position(position))
        for _ in range(200):
            if state.is_terminal():
                state = type(state)(game, g.from_position(position))
            state.observation_tensor(state.current_player())
            state.apply_action(pick(state.legal_actions()))
    if "pettingzoo" in frameworks:
        env = tetrad.pettingzoo.env("phutball")
        env.reset()
        env.state = g.from_position(position)
        for agent in env.agent_iter(200):
            obs, reward, term, trunc, info = env.last()
            action = None if term or trunc else pick(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
    print("ok", steps, frameworks)
    """
)


def test_crowded_phutball_costs_bounded_memory_through_the_action_api():
    out = subprocess.run(
        [sys.executable, "-c", WORKLOAD],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, OPENBLAS_NUM_THREADS="1"),
    )
    assert out.returncode == 0 and out.stdout.startswith("ok"), out.stdout + out.stderr
