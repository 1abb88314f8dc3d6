"""Speed of the bindings, side by side in one run (a benchmark, not a test).

    python python/bench.py [--seconds S] [--rounds R] [--threads T] [--engine PATH]

1. Batched play: ``VecEnv("poddavki", 1024)`` steps (mask and observation included; only
   ``step`` is timed, the numpy policy is not) against OpenSpiel's ``checkers`` stepped from
   Python (``legal_actions``, ``apply_action``, ``observation_tensor`` per step), both sides
   with the same policy: ``first``, the lowest legal action (a numpy argmax over the mask;
   ``legal_actions()[0]``), and ``random``, a uniformly random one (an argmax over the mask's
   columns in a random order; ``random.randrange``). The random policy's copy of the mask (2 MB
   a step) pushes some of the games out of the processor's cache before each step, which then
   runs slower.
2. ``State.legal_moves()`` + ``play()`` against the same pair over GTP (``legal_moves``,
   ``play``) to the engine binary through the package's engine client
   (``tetrad.engine.Engine.command``), and over a bare pipe with no client (the protocol's
   floor), in microseconds per pair.
"""

import argparse
import os
import random
import subprocess
import time

import sys

import numpy as np

# The installed package, not the source folder beside this script, unless that folder holds
# the extension (an editable install: `maturin develop`).
_here = os.path.dirname(os.path.abspath(__file__))
if not any(f.startswith("_native") for f in os.listdir(os.path.join(_here, "tetrad"))):
    sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _here]
import tetrad  # noqa: E402


def vecenv_steps_per_second(seconds, policy, n=1024, threads=None):
    env = tetrad.VecEnv("poddavki", n, seed=1, threads=threads)
    obs, mask = env.reset()
    rng = np.random.default_rng(0)
    steps, spent = 0, 0.0
    while spent < seconds:
        if policy == "first":
            actions = np.argmax(mask, axis=1)
        else:
            # The legal action that comes first in a random order of all actions (the same
            # order for every game at a step): for each game, uniform over its legal actions.
            order = rng.permutation(mask.shape[1])
            actions = order[np.argmax(np.take(mask, order, axis=1), axis=1)]
        t = time.perf_counter()
        obs, mask, rewards, done = env.step(actions)
        spent += time.perf_counter() - t
        steps += n
    return steps / spent


def openspiel_steps_per_second(seconds, policy):
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
            if policy == "first":
                state.apply_action(legal[0])
            else:
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
    from tetrad.engine import Engine

    with Engine.popen([binary], protocol="gtp") as engine:
        engine.command("set_game poddavki")
        rng = random.Random(0)
        pairs, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            legal = engine.command("legal_moves").split()
            if not legal:
                engine.command("clear_board")
                continue
            engine.command("play " + legal[rng.randrange(len(legal))])
            pairs += 1
        return (time.perf_counter() - start) / pairs * 1e6


def pipe_pair_us(seconds, binary):
    """The same pair over a bare pipe, no client: the protocol's own floor."""
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
    parser.add_argument("--seconds", type=float, default=1.0, help="each side, each round")
    parser.add_argument(
        "--engine", default=os.path.join(here, "..", "target", "release", "tetrad")
    )
    parser.add_argument("--threads", type=int, default=None, help="VecEnv threads (default: cores)")
    parser.add_argument("--rounds", type=int, default=9, help="alternating rounds per policy")
    args = parser.parse_args()
    for policy in ("first", "random"):
        # Short alternating rounds: the two sides see the same machine (a virtual machine's
        # speed drifts by a fifth over minutes); the median round is reported.
        rounds = []
        for _ in range(args.rounds):
            vec = vecenv_steps_per_second(args.seconds, policy, threads=args.threads)
            try:
                spiel = openspiel_steps_per_second(args.seconds, policy)
            except ImportError:
                spiel = None
            rounds.append((vec / spiel if spiel else 0.0, vec, spiel))
        ratio, vec, spiel = sorted(rounds)[len(rounds) // 2]
        print(f"VecEnv('poddavki', 1024), {policy:6} policy: {vec:,.0f} steps/s")
        if spiel is None:
            print("OpenSpiel not installed (pip install open-spiel): no comparison")
            continue
        print(f"OpenSpiel checkers, {policy:6} policy:     {spiel:,.0f} steps/s")
        spread = ", ".join(f"{r:.1f}x" for r, _, _ in rounds)
        print(f"  ratio: {ratio:.1f}x (median of {args.rounds} rounds: {spread})")
    ours = binding_pair_us(args.seconds)
    print(f"State.legal_moves() + play():        {ours:.2f} us per pair")
    if os.path.exists(args.engine):
        theirs = gtp_pair_us(args.seconds, args.engine)
        print(f"the same over GTP (engine client):  {theirs:.2f} us per pair")
        print(f"  ratio: {theirs / ours:.1f}x")
        bare = pipe_pair_us(args.seconds, args.engine)
        print(f"the same over a bare pipe, no client: {bare:.2f} us per pair")
        print(f"  ratio: {bare / ours:.1f}x")
    else:
        print(f"no engine binary at {args.engine}: no GTP comparison (--engine PATH)")


if __name__ == "__main__":
    main()
