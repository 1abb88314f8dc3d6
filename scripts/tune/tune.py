#!/usr/bin/env python3
"""Texel tuning of tetrad's evaluation weights (Python standard library only).

Stages, each a subcommand (`run` does all four into one directory):

  generate  seeded self-play of the engine over GTP at a fixed depth or node count, from the
            start plus random opening plies; writes sampled positions as `POSITION RESULT`
            lines (RESULT: the first mover's score, 1, 0.5 or 0), `# game N` before each game
  features  the evaluation's raw feature vectors of those positions (`tetrad features`); keeps
            only the quiet ones the weighted sum scores
  fit       logistic regression of the result on the evaluation: the scale K first, then the
            weights by Newton steps on the regularised log loss; prints the loss before and
            after on the training games and on held-out games
  write     the fitted weights as the game's `weights.rs`, the table its evaluation uses

Everything is deterministic for given options: the games by their seeds and a depth or node
limit (one search thread, hash cleared every game), the split by game number, the fit by its
fixed iteration. See docs/strength/engine.md, "Tuning".
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import threading

# The repository's protocol client (python/tetrad/engine.py, standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from tetrad.engine import Engine, EngineError  # noqa: E402

# Where each tunable game keeps its weight table, relative to the repository.
FOLDERS = {"poddavki": "poddavki", "diamond": "diamond", "pods-advanced": "pods"}


class TuneError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# generate


# One self-play move at the depths tuning uses takes well under a second; this bounds a stuck one.
COMMAND_TIMEOUT = 300.0


class Gtp:
    """One engine process spoken to in GTP through the protocol client; its failures and
    refusals become TuneError."""

    def __init__(self, cmd):
        try:
            self.engine = Engine.popen(cmd, protocol="gtp", timeout=COMMAND_TIMEOUT)
        except EngineError as e:
            raise TuneError(str(e))

    def send(self, line):
        try:
            return self.engine.command(line)
        except EngineError as e:
            raise TuneError(str(e))

    def close(self):
        self.engine.quit()


def play_game(gtp, args, index):
    """One self-play game; returns (status, [(ply, position)], first mover's score)."""
    rng = random.Random(f"{args.seed}:{index}")
    if args.game.startswith("pods"):
        gtp.send(f"set_option pods_rotation {rng.choice([0, 90, 180, 270])}")
    gtp.send(f"set_game {args.game}")
    first = gtp.send("side_to_move")
    ply = 0
    for _ in range(args.random_plies):
        if gtp.send("game_result") != "ongoing":
            return "ended in the opening", [], None
        moves = gtp.send("legal_moves").split()
        if not moves:
            return "ended in the opening", [], None
        gtp.send(f"play {rng.choice(moves)}")
        ply += 1
    seen = []
    while True:
        result = gtp.send("game_result")
        if result != "ongoing":
            break
        if ply >= args.max_plies:
            return "too long", [], None
        if ply >= args.skip_plies and rng.random() < args.sample:
            seen.append((ply, gtp.send("get_position")))
        gtp.send("genmove")
        ply += 1
    winner = result.split()[0]
    score = 0.5 if winner == "draw" else (1.0 if winner == first else 0.0)
    return "played", seen, score


def generate(args):
    cmd = [args.engine, "--protocol", "gtp", "--threads", "1"]
    limit = [f"set_option depth {args.depth}"] if args.depth else []
    if args.nodes:
        limit.append(f"set_option nodes {args.nodes}")
    if not limit:
        raise TuneError("generate needs --depth or --nodes (a deterministic search)")
    games = list(range(args.games))
    results = {}
    errors = []
    lock = threading.Lock()
    done = [0]

    def worker(share):
        try:
            gtp = Gtp(cmd)
            for line in limit:
                gtp.send(line)
            for i in share:
                results[i] = play_game(gtp, args, i)
                with lock:
                    done[0] += 1
                    if args.progress and done[0] % args.progress == 0:
                        print(f"generate: {done[0]} of {len(games)} games", file=sys.stderr)
            gtp.close()
        except (TuneError, OSError) as e:
            errors.append(str(e))

    workers = max(1, min(args.concurrency, len(games)))
    threads = [
        threading.Thread(target=worker, args=(games[k::workers],)) for k in range(workers)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise TuneError(errors[0])
    counts = {}
    positions = 0
    with open(args.out, "w") as f:
        f.write(f"# tetrad self-play: {args.game}, {describe_limit(args)}, seed {args.seed}\n")
        for i in games:
            status, seen, score = results[i]
            counts[status] = counts.get(status, 0) + 1
            if status != "played":
                continue
            f.write(f"# game {i}\n")
            for _, pos in seen:
                f.write(f"{pos} {fmt_score(score)}\n")
                positions += 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    print(f"generate: {args.games} games ({summary}), {positions} positions -> {args.out}")


def describe_limit(args):
    parts = []
    if args.depth:
        parts.append(f"depth {args.depth}")
    if args.nodes:
        parts.append(f"nodes {args.nodes}")
    parts.append(f"{args.random_plies} random plies")
    return ", ".join(parts)


def fmt_score(score):
    return {1.0: "1", 0.0: "0"}.get(score, "0.5")


# ---------------------------------------------------------------------------------------------
# features


def read_positions(path):
    """[(game, position, first mover's score)] from a generate file."""
    out = []
    game = 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                words = line[1:].split()
                if len(words) == 2 and words[0] == "game":
                    game = int(words[1])
                continue
            pos, _, score = line.rpartition(" ")
            if score not in ("1", "0", "0.5") or not pos:
                raise TuneError(f"{path}:{n}: not 'POSITION RESULT': {line}")
            out.append((game, pos, float(score)))
    return out


def features(args):
    rows = read_positions(args.positions)
    text = "".join(pos + "\n" for _, pos, _ in rows)
    proc = subprocess.run(
        [args.engine, "features", "--game", args.game],
        input=text,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise TuneError(f"tetrad features: {proc.stderr.strip()}")
    lines = proc.stdout.splitlines()
    header = {}
    while lines and lines[0].startswith("# "):
        key, _, value = lines.pop(0)[2:].partition(" ")
        header[key] = value
    if len(lines) != len(rows):
        raise TuneError(f"tetrad features gave {len(lines)} lines for {len(rows)} positions")
    names = header.get("names", "").split()
    skipped = {}
    kept = 0
    with open(args.out, "w") as f:
        f.write(f"# game {header.get('game', args.game)}\n")
        f.write(f"# names {header.get('names', '')}\n")
        f.write(f"# weights {header.get('weights', '')}\n")
        f.write("# columns: game-number side-to-move's-score features...\n")
        for (game, _, score), line in zip(rows, lines):
            words = line.split()
            if words[0] == "-":
                skipped[words[1]] = skipped.get(words[1], 0) + 1
                continue
            if len(words) != len(names) + 1:
                raise TuneError(f"tetrad features: bad line '{line}'")
            own = score if words[0] == "1" else 1.0 - score
            f.write(f"{game} {fmt_score(own)} {' '.join(words[1:])}\n")
            kept += 1
    summary = ", ".join(f"{n} {r}" for r, n in sorted(skipped.items())) or "none"
    print(f"features: {kept} quiet positions kept of {len(rows)} (skipped: {summary}) -> {args.out}")


def read_features(path):
    header = {}
    data = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("# "):
                key, _, value = line[2:].strip().partition(" ")
                header[key] = value
                continue
            words = line.split()
            if not words:
                continue
            try:
                data.append((int(words[0]), float(words[1]), [int(x) for x in words[2:]]))
            except ValueError:
                raise TuneError(f"{path}:{n}: not a feature line") from None
    names = header.get("names", "").split()
    weights = [int(x) for x in header.get("weights", "").split()]
    if not names or len(weights) != len(names):
        raise TuneError(f"{path}: no '# names' and '# weights' header")
    for _, _, x in data:
        if len(x) != len(names):
            raise TuneError(f"{path}: a vector of {len(x)} features, not {len(names)}")
    return header.get("game", "?"), names, weights, data


# ---------------------------------------------------------------------------------------------
# fit


def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def log_loss(evals, ys, scale):
    """Mean cross-entropy of the results given the evaluations at `scale` units a logit."""
    total = 0.0
    for e, y in zip(evals, ys):
        p = min(max(sigmoid(e / scale), 1e-12), 1.0 - 1e-12)
        total -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / max(1, len(ys))


def evals_of(w, xs):
    return [sum(a * b for a, b in zip(w, x)) for x in xs]


SCALE_MAX = 100000.0
# Evaluation units a logit when none can be fitted: about a man (a piece) worth of advantage.
FALLBACK_SCALE = 100.0


def fit_scale(evals, ys):
    """The scale minimising the log loss: golden-section search on its logarithm."""
    lo, hi = math.log(1.0), math.log(SCALE_MAX)
    g = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = log_loss(evals, ys, math.exp(a)), log_loss(evals, ys, math.exp(b))
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = log_loss(evals, ys, math.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = log_loss(evals, ys, math.exp(b))
    return math.exp((lo + hi) / 2.0)


def solve(a, b):
    """Solves a x = b by Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            raise TuneError("singular system in the fit")
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        x[c] = (m[c][n] - sum(m[c][k] * x[k] for k in range(c + 1, n))) / m[c][c]
    return x


def objective(w, xs, ys, scale, w0, spread, l2):
    penalty = l2 * sum(((a - b) / s) ** 2 for a, b, s in zip(w, w0, spread))
    return log_loss(evals_of(w, xs), ys, scale) + penalty


def fit_weights(w0, xs, ys, scale, l2, free, iterations):
    """Newton steps (with step halving) on the log loss plus an L2 pull towards the starting
    weights, measured in units of each feature's typical contribution; only `free` move."""
    n = len(xs)
    d = len(w0)
    # A feature's spread: its standard deviation in evaluation units (1 where it never varies).
    spread = []
    for j in range(d):
        col = [x[j] for x in xs]
        mean = sum(col) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in col) / n)
        spread.append(scale / sd if sd > 0 else 1.0)
    w = [float(v) for v in w0]
    best = objective(w, xs, ys, scale, w0, spread, l2)
    for _ in range(iterations):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for x, y in zip(xs, ys):
            p = sigmoid(sum(a * b for a, b in zip(w, x)) / scale)
            r = (p - y) / scale
            c = p * (1.0 - p) / (scale * scale)
            for i in range(d):
                if x[i]:
                    grad[i] += r * x[i]
                    ci = c * x[i]
                    row = hess[i]
                    for j in range(d):
                        if x[j]:
                            row[j] += ci * x[j]
        for i in range(d):
            grad[i] = grad[i] / n + 2.0 * l2 * (w[i] - w0[i]) / spread[i] ** 2
            for j in range(d):
                hess[i][j] /= n
            hess[i][i] += 2.0 * l2 / spread[i] ** 2 + 1e-12
        idx = [i for i in range(d) if free[i]]
        if not idx:
            break
        step = solve([[hess[i][j] for j in idx] for i in idx], [grad[i] for i in idx])
        t = 1.0
        while t > 1e-4:
            cand = w[:]
            for k, i in enumerate(idx):
                cand[i] -= t * step[k]
            value = objective(cand, xs, ys, scale, w0, spread, l2)
            if value < best:
                break
            t /= 2.0
        else:
            break
        improvement = best - value
        w, best = cand, value
        if improvement < 1e-10:
            break
    return w


def split(data, holdout_every):
    """Training and held-out rows: every `holdout_every`-th game is held out (0: none)."""
    train, test = [], []
    for game, y, x in data:
        if holdout_every and game % holdout_every == holdout_every - 1:
            test.append((y, x))
        else:
            train.append((y, x))
    return train, test


def fit(args):
    game, names, w0, data = read_features(args.features)
    train, test = split(data, args.holdout_every)
    if len(train) < 2:
        raise TuneError(f"{args.features}: too few positions to fit ({len(train)})")
    xs = [x for _, x in train]
    ys = [y for y, _ in train]
    tx = [x for _, x in test]
    ty = [y for y, _ in test]
    fixed = set(args.fixed.split(",")) if args.fixed else set()
    unknown = fixed - set(names)
    if unknown:
        raise TuneError(f"--fixed: no weight named {', '.join(sorted(unknown))}")
    free = [n not in fixed for n in names]
    how = "given"
    if args.scale:
        scale = args.scale
    else:
        scale = fit_scale(evals_of(w0, xs), ys)
        how = "fitted at the current weights"
        if scale > 0.99 * SCALE_MAX:
            # The current weights predict nothing (or the opposite): there is no scale to fit.
            scale = FALLBACK_SCALE
            how = "the current weights predict nothing (K -> 0): the default; see --scale"
    fitted = fit_weights(w0, xs, ys, scale, args.l2, free, args.iterations)
    w1 = [int(round(v)) for v in fitted]
    loss = {
        "train_before": log_loss(evals_of(w0, xs), ys, scale),
        "train_after": log_loss(evals_of(w1, xs), ys, scale),
        "holdout_before": log_loss(evals_of(w0, tx), ty, scale) if test else None,
        "holdout_after": log_loss(evals_of(w1, tx), ty, scale) if test else None,
    }
    report = {
        "game": game,
        "names": names,
        "before": w0,
        "after": w1,
        "scale": scale,
        "scale_source": how,
        "l2": args.l2,
        "fixed": sorted(fixed),
        "train_positions": len(train),
        "holdout_positions": len(test),
        "loss": loss,
    }
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(f"fit: {game}, {len(train)} training and {len(test)} held-out positions")
    print(f"fit: scale K = 1/{scale:.1f} (evaluation units a logit, {how})")
    for n, a, b in zip(names, w0, w1):
        print(f"fit:   {n:16} {a:6} -> {b:6}")
    print(f"fit: training loss {loss['train_before']:.6f} -> {loss['train_after']:.6f}")
    if test:
        print(f"fit: held-out loss {loss['holdout_before']:.6f} -> {loss['holdout_after']:.6f}")
    print(f"fit: -> {args.out}")


# ---------------------------------------------------------------------------------------------
# write


def weights_rs(game, names, values):
    """The text of a game's `weights.rs` (rustfmt's layout)."""
    lines = [
        f"//! Evaluation weights of `{game}`: written by `scripts/tune/tune.py write`.",
        f'//! The fit: docs/strength/engine.md ("Tuning"); its matches: docs/strength/{game.split("-")[0]}.md.',
        "",
        "use super::eval::Weights;",
        "",
        "pub const WEIGHTS: Weights = Weights {",
    ]
    lines += [f"    {n}: {v}," for n, v in zip(names, values)]
    lines += ["};", ""]
    return "\n".join(lines)


def write(args):
    with open(args.fit) as f:
        report = json.load(f)
    values = report["before" if args.current else "after"]
    if len(values) != len(report["names"]) or not all(isinstance(v, int) for v in values):
        raise TuneError(f"{args.fit}: weights do not match the names")
    with open(args.out, "w") as f:
        f.write(weights_rs(report["game"], report["names"], values))
    print(f"write: {report['game']} weights -> {args.out}")


# ---------------------------------------------------------------------------------------------
# run


def run(args):
    os.makedirs(args.dir, exist_ok=True)
    args.out = os.path.join(args.dir, "positions.txt")
    generate(args)
    args.positions = args.out
    args.out = os.path.join(args.dir, "features.txt")
    features(args)
    args.features = args.out
    args.out = os.path.join(args.dir, "fit.json")
    fit(args)
    args.fit = args.out
    args.current = False
    args.out = os.path.join(args.dir, "weights.rs")
    write(args)
    if args.game in FOLDERS:
        print(f"run: to use them, copy {args.out} to src/games/{FOLDERS[args.game]}/weights.rs")


def make_parent(path):
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Texel tuning of tetrad's evaluation weights.",
        epilog="docs/strength/engine.md, section Tuning, has the recipe.",
    )
    sub = ap.add_subparsers(dest="command", required=True)

    def gen_opts(p):
        p.add_argument("--engine", default="target/release/tetrad", help="tetrad binary")
        p.add_argument("--game", required=True, choices=sorted(FOLDERS))
        p.add_argument("--games", type=int, default=100, help="self-play games (default 100)")
        p.add_argument("--depth", type=int, default=0, help="search depth a move")
        p.add_argument("--nodes", type=int, default=0, help="search nodes a move")
        p.add_argument("--random-plies", type=int, default=6, help="random opening plies (6)")
        p.add_argument("--skip-plies", type=int, default=10, help="first ply sampled (10)")
        p.add_argument("--sample", type=float, default=0.5, help="chance a ply is kept (0.5)")
        p.add_argument("--max-plies", type=int, default=400, help="longer games are dropped")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--concurrency", type=int, default=1, help="engines at once (1)")
        p.add_argument("--progress", type=int, default=100,
                       help="report every N games on stderr (0: never; default 100)")

    def fit_opts(p):
        p.add_argument("--holdout-every", type=int, default=5,
                       help="every N-th game is held out (default 5; 0: none)")
        p.add_argument("--l2", type=float, default=1e-4,
                       help="pull towards the current weights (default 1e-4)")
        p.add_argument("--fixed", default="", help="comma-separated weights kept as they are")
        p.add_argument("--iterations", type=int, default=20, help="Newton steps at most (20)")
        p.add_argument("--scale", type=float, default=0.0,
                       help="evaluation units a logit, instead of fitting it (K = 1/scale)")

    p = sub.add_parser("generate", help="self-play positions with results")
    gen_opts(p)
    p.add_argument("--out", required=True)
    p.set_defaults(func=generate)

    p = sub.add_parser("features", help="feature vectors of generated positions")
    p.add_argument("--engine", default="target/release/tetrad")
    p.add_argument("--game", required=True, choices=sorted(FOLDERS))
    p.add_argument("--positions", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=features)

    p = sub.add_parser("fit", help="logistic regression of results on the evaluation")
    p.add_argument("--features", required=True)
    fit_opts(p)
    p.add_argument("--out", required=True, help="fit report (JSON)")
    p.set_defaults(func=fit)

    p = sub.add_parser("write", help="weights.rs from a fit report")
    p.add_argument("--fit", required=True)
    p.add_argument("--current", action="store_true", help="write the weights before the fit")
    p.add_argument("--out", required=True)
    p.set_defaults(func=write)

    p = sub.add_parser("run", help="generate, features, fit and write into one directory")
    gen_opts(p)
    fit_opts(p)
    p.add_argument("--dir", required=True)
    p.set_defaults(func=run)

    args = ap.parse_args(argv)
    try:
        if getattr(args, "out", None):
            make_parent(args.out)
        args.func(args)
    except (TuneError, OSError) as e:
        print(f"tune: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
