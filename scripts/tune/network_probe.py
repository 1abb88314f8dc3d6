#!/usr/bin/env python3
"""How much a small network would fit beyond a game's linear learned evaluation, offline.

    python3 scripts/tune/network_probe.py --inputs INPUTS --weights WEIGHTS [--hidden 8]
        [--epochs 16] [--learning-rate 0.0003] [--batch 1024] [--holdout-every 10] [--seed 1]

INPUTS is `tetrad train --inputs FILE`'s file (each quiet position's active inputs and blended
target, lambda and K in its header); WEIGHTS a weight file of the same game (`learned.txt`, or
`tetrad train --out`). The probe fits a residual network on top of those fixed weights,

    evaluation = weights . x + 100 * (w2 . relu(W1 (x / scale) + b1)),

each input scaled by its largest absolute value, by Adam on the log loss of sigmoid(evaluation / K)
against the targets, on the same split as the trainer (every `holdout-every`-th game held out),
and prints the losses before training and after each epoch: on the training positions, the
held-out ones, and the held-out ones no training game reached (`unseen`: the only fair test of a
model that can learn positions by heart). The first line's held-out loss is the linear
model's, as `tetrad train` reports it for those weights. An experiment, not a
pipeline stage: nothing it fits reaches the engine (docs/strength/diamond.md, "A small network
on the same data, offline"). Needs numpy and scipy.
"""

import argparse
import sys

import numpy as np
import scipy.sparse as sp


def read_inputs(path):
    """(K, game numbers, positions, targets, the inputs as (rows, columns, values)) of an
    `--inputs` file."""
    k = None
    games, positions, targets, rows, cols, vals = [], [], [], [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                if line.startswith("# K "):
                    k = float(line[4:])
                continue
            fields = line.rstrip("\n").split("\t")
            r = len(games)
            games.append(int(fields[0]))
            positions.append(fields[1])
            targets.append(float(fields[2]))
            for item in fields[3:]:
                i, v = item.split(":")
                rows.append(r)
                cols.append(int(i))
                vals.append(float(v))
    if k is None:
        raise SystemExit(f"{path}: no '# K' line: not a `tetrad train --inputs` file")
    return k, np.array(games), positions, np.array(targets), (rows, cols, vals)


def read_weights(path):
    """The weights of a weight file: `#` lines, then `GAME COUNT`, then the numbers."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    count = int(lines[0].split()[1])
    w = np.array([float(x) for l in lines[1:] for x in l.split()], np.float64)
    if len(w) != count:
        raise SystemExit(f"{path}: {len(w)} weights, the header says {count}")
    return w


def log_loss(evals, targets, k):
    p = np.clip(1.0 / (1.0 + np.exp(-evals / k)), 1e-12, 1.0 - 1e-12)
    return float(np.mean(-(targets * np.log(p) + (1.0 - targets) * np.log(1.0 - p))))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--weights", required=True)
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--learning-rate", type=float, default=0.0003)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--holdout-every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    k, games, positions, y, (rows, cols, vals) = read_inputs(args.inputs)
    w = read_weights(args.weights)
    x = sp.csr_matrix((vals, (rows, cols)), shape=(len(games), len(w)), dtype=np.float64)
    held = games % args.holdout_every == 0 if args.holdout_every > 0 else np.zeros(len(games), bool)
    xt, yt, xh, yh = x[~held], y[~held], x[held], y[held]
    base_t, base_h = xt @ w, xh @ w
    # Held-out positions that no training game reached: a network can learn the others by
    # heart (self-play games share their openings and, in a game of forced captures, much more).
    seen = {p for p, h in zip(positions, held) if not h}
    unseen = np.array([p not in seen for p, h in zip(positions, held) if h], bool)
    scale = sp.diags(1.0 / np.maximum(1.0, abs(x).max(axis=0).toarray().ravel()))
    st, sh = (xt @ scale).tocsr(), (xh @ scale).tocsr()

    rng = np.random.default_rng(args.seed)
    h = args.hidden
    params = [rng.standard_normal((len(w), h)) * 0.1, np.zeros(h), rng.standard_normal(h) * 0.1]
    moments = [[np.zeros_like(p), np.zeros_like(p)] for p in params]
    out = 100.0  # the network's output in evaluation units

    def evaluate(s, base):
        w1, b1, w2 = params
        z = s @ w1 + b1
        return base + out * (np.maximum(z, 0.0) @ w2), z

    def losses(evals_t, evals_h):
        nan = float("nan")
        return (
            log_loss(evals_t, yt, k) if len(yt) else nan,
            log_loss(evals_h, yh, k) if len(yh) else nan,
            log_loss(evals_h[unseen], yh[unseen], k) if unseen.any() else nan,
        )

    def report(epoch):
        figures = losses(evaluate(st, base_t)[0], evaluate(sh, base_h)[0])
        print("epoch %d: training %.5f, held out %.5f, unseen %.5f" % ((epoch,) + figures), flush=True)

    print(f"{len(yt)} training positions, {len(yh)} held out ({unseen.sum()} of them unseen in"
          f" training); K = {k:.1f}; {h} hidden units")
    # Before any step the network adds w2 . relu(...), not zero: the linear model alone first.
    print("linear weights alone: training %.5f, held out %.5f, unseen %.5f" % losses(base_t, base_h))
    report(0)
    step = 0
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(yt))
        for first in range(0, len(order), args.batch):
            batch = order[first:first + args.batch]
            evals, z = evaluate(st[batch], base_t[batch])
            p = 1.0 / (1.0 + np.exp(-evals / k))
            g = (p - yt[batch]) / k / len(batch) * out
            w1, b1, w2 = params
            a = np.maximum(z, 0.0)
            gz = np.outer(g, w2) * (z > 0)
            grads = [np.asarray(st[batch].T @ gz), gz.sum(axis=0), a.T @ g]
            step += 1
            for p_, g_, (m, v) in zip(params, grads, moments):
                m *= 0.9
                m += 0.1 * g_
                v *= 0.999
                v += 0.001 * g_ * g_
                p_ -= args.learning_rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        report(epoch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
