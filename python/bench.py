"""Speed of the bindings, side by side in one run (a benchmark, not a test).

    python python/bench.py [--seconds S] [--engine PATH]

1. Batched random play: ``VecEnv("poddavki", 1024)`` steps (mask and observation included;
   only ``step`` is timed, the numpy policy is not) against OpenSpiel's ``checkers`` stepped
   from Python (``legal_actions``, ``apply_action``, ``observation_tensor`` per step).
2. ``State.legal_moves()`` + ``play()`` against the same pair over GTP (``legal_moves``,
   ``play``) to the engine binary through a pipe, in microseconds per pair.
"""

import argparse
import os
import random
import subprocess
import time

import sys

import numpy as np

# The installed package, not the source folder beside this script (which has no extension).
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _here]
import tetrad  # noqa: E402


def vecenv_steps_per_second(seconds, n=1024):
    env = tetrad.VecEnv("poddavki", n, seed=1)
    obs, mask = env.reset()
    rng = np.random.default_rng(0)
    steps, spent = 0, 0.0
    while spent < seconds:
        actions = np.argmax(mask * rng.random(mask.shape, dtype=np.float32), axis=1)
        t = time.perf_counter()
        obs, mask, rewards, done = env.step(actions)
        spent += time.perf_counter() - t
        steps += n
    return steps / spent


def openspiel_steps_per_second(seconds):
    import pyspiel

    game = pyspiel.load_game("checkers")
    rng = random.Random(0)
    state = game.new_initial_state()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            state.observation_tensor(0)
            steps += 1
    return steps / (time.perf_counter() - start)


def binding_pair_us(seconds):
    game = tetrad.Game("poddavki")
    rng = random.Random(0)
    state = game.new_state()
    pairs, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = state.legal_moves()
        if not legal:
            state = game.new_state()
            continue
        state.play(legal[rng.randrange(len(legal))])
        pairs += 1
    return (time.perf_counter() - start) / pairs * 1e6


def gtp_pair_us(seconds, binary):
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        first = proc.stdout.readline()
        while proc.stdout.readline().strip():
            pass
        return first[1:].strip()

    ask("set_game poddavki")
    rng = random.Random(0)
    pairs, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = ask("legal_moves").split()
        if not legal:
            ask("clear_board")
            continue
        ask("play " + legal[rng.randrange(len(legal))])
        pairs += 1
    elapsed = time.perf_counter() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return elapsed / pairs * 1e6


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument(
        "--engine", default=os.path.join(here, "..", "target", "release", "tetrad")
    )
    args = parser.parse_args()
    vec = vecenv_steps_per_second(args.seconds)
    print(f"VecEnv('poddavki', 1024) random play: {vec:,.0f} steps/s")
    try:
        spiel = openspiel_steps_per_second(args.seconds)
        print(f"OpenSpiel checkers from Python:      {spiel:,.0f} steps/s")
        print(f"  ratio: {vec / spiel:.1f}x")
    except ImportError:
        print("OpenSpiel not installed (pip install open-spiel): no comparison")
    ours = binding_pair_us(args.seconds)
    print(f"State.legal_moves() + play():        {ours:.2f} us per pair")
    if os.path.exists(args.engine):
        theirs = gtp_pair_us(args.seconds, args.engine)
        print(f"the same over GTP (pipe):            {theirs:.2f} us per pair")
        print(f"  ratio: {theirs / ours:.1f}x")
    else:
        print(f"no engine binary at {args.engine}: no GTP comparison (--engine PATH)")


if __name__ == "__main__":
    main()
