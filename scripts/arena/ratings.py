"""Ratings of many engines from all their games at once: the maximum-likelihood fit of the
logistic (Bradley-Terry) model, as Ordo does, a draw counting as half a win.

Engine i's expected score against j is 1 / (1 + 10^((r_j - r_i) / 400)); the ratings that make
the games most likely are those where every engine's expected points equal its points. One
engine (the anchor) is held at 0, the others are rated relative to it. The 95 % intervals come
from the curvature of the log-likelihood at its maximum (the inverse of the Fisher information
with the anchor's row and column removed): they are the errors relative to the anchor.

The maximum does not exist when the engines split into two groups one of which scored nothing
against the other (an engine that won every game, say): its rating would be infinite. Then, as
BayesElo's prior does, one virtual draw is added to every pairing that played, and the fit says
so (``prior``).
"""

import math

SCALE = 400.0 / math.log(10.0)  # Elo points per unit of the natural log-odds
Z95 = 1.959963984540054
PRIOR_DRAWS = 1


class Fit:
    def __init__(self, names, elo, error, points, games, anchor, prior):
        self.names = names
        self.elo = elo  # by engine, the anchor 0.0
        self.error = error  # 95 % half-interval relative to the anchor (0.0 for it); None if unknown
        self.points = points
        self.games = games
        self.anchor = anchor
        self.prior = prior  # virtual draws added per pairing (0: the plain maximum likelihood)

    def ranked(self):
        """Engine indices, best first (ties in the engines' order)."""
        return sorted(range(len(self.names)), key=lambda i: (-self.elo[i], i))


def _connected(n, scored):
    """Whether every engine can be reached from every other along "scored something
    against": the condition for the maximum to exist (Zermelo's)."""
    def reach(start, forward):
        seen, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in range(n):
                edge = scored[i][j] if forward else scored[j][i]
                if edge and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen
    return len(reach(0, True)) == n and len(reach(0, False)) == n


def _solve(a, b):
    """x with a x = b (Gaussian elimination with partial pivoting); None if singular."""
    n = len(b)
    m = [list(row) + [v] for row, v in zip(a, b)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                if f:
                    for k in range(c, n + 1):
                        m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse_diagonal(a):
    n = len(a)
    out = []
    for i in range(n):
        col = _solve(a, [1.0 if k == i else 0.0 for k in range(n)])
        if col is None:
            return None
        out.append(col[i])
    return out


def fit(names, results, anchor=0):
    """The fit over ``results``: {(i, j): (points of i against j, games)} for engine indices
    i != j (either order, or both: they are added up). Engines without games get no rating
    (NaN). Returns a Fit."""
    n = len(names)
    pts = [[0.0] * n for _ in range(n)]
    games = [[0] * n for _ in range(n)]
    for (i, j), (p, g) in results.items():
        pts[i][j] += p
        pts[j][i] += g - p
        games[i][j] += g
        games[j][i] += g
    played = [k for k in range(n) if sum(games[k]) > 0]
    total_points = [sum(pts[k]) for k in range(n)]
    total_games = [sum(games[k]) for k in range(n)]
    if anchor not in played:
        return Fit(names, [0.0 if k == anchor else math.nan for k in range(n)], [None] * n, total_points,
                   total_games, anchor, 0)
    # only the engines connected to the anchor through games can be rated against it
    group = sorted(_component(anchor, games))
    idx = {k: a for a, k in enumerate(group)}
    m = len(group)
    p = [[pts[i][j] for j in group] for i in group]
    g = [[games[i][j] for j in group] for i in group]
    prior = 0
    if not _connected(m, [[p[i][j] > 0 for j in range(m)] for i in range(m)]):
        prior = PRIOR_DRAWS
        for i in range(m):
            for j in range(m):
                if g[i][j]:
                    p[i][j] += 0.5 * prior
                    g[i][j] += prior
    theta = _maximise(p, g, idx[anchor])
    elo = [math.nan] * n
    error = [None] * n
    free = [a for a in range(m) if a != idx[anchor]]
    info = [[0.0] * len(free) for _ in free]
    for x, a in enumerate(free):
        for y, b in enumerate(free):
            if a == b:
                info[x][y] = sum(g[a][c] * _pq(theta[a] - theta[c]) for c in range(m) if c != a)
            else:
                info[x][y] = -g[a][b] * _pq(theta[a] - theta[b])
    variances = _inverse_diagonal(info) if free else []
    for a, k in enumerate(group):
        elo[k] = (theta[a] - theta[idx[anchor]]) * SCALE + 0.0
    error[anchor] = 0.0
    if variances is not None:
        for x, a in enumerate(free):
            error[group[a]] = Z95 * math.sqrt(max(variances[x], 0.0)) * SCALE
    return Fit(names, elo, error, total_points, total_games, anchor, prior)


def _component(start, games):
    seen, todo = {start}, [start]
    while todo:
        i = todo.pop()
        for j, g in enumerate(games[i]):
            if g and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def _expected(d):
    return 1.0 / (1.0 + math.exp(-d))


def _pq(d):
    e = _expected(d)
    return e * (1.0 - e)


def _log_likelihood(theta, p, g):
    total = 0.0
    for i in range(len(theta)):
        for j in range(len(theta)):
            if g[i][j] and p[i][j]:
                total += p[i][j] * math.log(_expected(theta[i] - theta[j]))
    return total


def _maximise(p, g, anchor, steps=200):
    """Newton's method on the concave log-likelihood, the anchor held at 0, each step halved
    until it improves the likelihood."""
    m = len(p)
    theta = [0.0] * m
    free = [a for a in range(m) if a != anchor]
    if not free:
        return theta
    best = _log_likelihood(theta, p, g)
    for _ in range(steps):
        grad = [sum(p[a][c] - g[a][c] * _expected(theta[a] - theta[c]) for c in range(m) if c != a) for a in free]
        if max(abs(x) for x in grad) < 1e-12:
            break
        info = [[0.0] * len(free) for _ in free]
        for x, a in enumerate(free):
            for y, b in enumerate(free):
                if a == b:
                    info[x][y] = sum(g[a][c] * _pq(theta[a] - theta[c]) for c in range(m) if c != a)
                else:
                    info[x][y] = -g[a][b] * _pq(theta[a] - theta[b])
        step = _solve(info, grad)
        if step is None:
            break
        t = 1.0
        while t > 1e-9:
            trial = list(theta)
            for x, a in enumerate(free):
                trial[a] += t * step[x]
            ll = _log_likelihood(trial, p, g)
            if ll >= best:
                break
            t *= 0.5
        else:
            break
        theta, best = trial, ll
    return theta
