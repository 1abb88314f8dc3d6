"""Match statistics: Elo difference with a 95 % interval, likelihood of superiority, and a
sequential probability ratio test. The Elo and LOS arithmetic follow cutechess-cli, so numbers
are comparable with its reports.
"""

import math


def _erfinv_approx(x):
    """Winitzki's closed-form approximation of the inverse error function (relative error
    ~2e-3). cutechess-cli computes its interval with it, so using it here makes our margins
    agree with cutechess's to the printed digit (1.9572 instead of 1.9600 standard deviations).
    """
    a = 8.0 * (math.pi - 3.0) / (3.0 * math.pi * (4.0 - math.pi))
    y = math.log(1.0 - x * x)
    z = 2.0 / (math.pi * a) + y / 2.0
    r = math.sqrt(math.sqrt(z * z - y / a) - z)
    return -r if x < 0 else r


Z95 = math.sqrt(2.0) * _erfinv_approx(0.95)

# Upper ends (ms) of the intervals of the report's time-use histograms, roughly logarithmic;
# the last interval is open.
TIME_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000)


def score(w, l, d):
    n = w + l + d
    return (w + 0.5 * d) / n if n else float("nan")


def elo_from_score(s):
    """Logistic Elo difference for an expected score ``s`` in [0, 1]."""
    if math.isnan(s):
        return float("nan")
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # + 0.0: never print -0.0


def score_from_elo(e):
    return 1.0 / (1.0 + 10.0 ** (-e / 400.0))


def elo(w, l, d):
    """(difference, 95 % half-interval). The interval comes from the per-game standard
    deviation of the score, mapped through the Elo curve at both ends."""
    n = w + l + d
    if n == 0:
        return float("nan"), float("nan")
    s = score(w, l, d)
    var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n
    return elo_from_score(s), _margin(s, math.sqrt(var / n))


def _margin(s, sd):
    """Half the 95 % interval in Elo of a mean score ``s`` with standard error ``sd``: both
    ends mapped through the Elo curve."""
    hi = elo_from_score(s + Z95 * sd)
    lo = elo_from_score(s - Z95 * sd)
    with_inf = math.isinf(hi) or math.isinf(lo)
    return (hi - lo) / 2.0 if not (with_inf and hi == lo) else float("nan")


def los(w, l):
    """Likelihood of superiority in [0, 1]: draws carry no information about it.
    With no decisive game yet there is nothing to tell the engines apart: 0.5."""
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def pentanomial(pairs):
    """Counts of the game pairs (one opening, colours reversed) by the first engine's points in
    the pair: 0, 1/2, 1, 3/2, 2. ``pairs`` holds the two outcomes (+1, 0, -1) of each pair."""
    counts = [0] * 5
    for a, b in pairs:
        counts[a + b + 2] += 1
    return counts


def pentanomial_stats(counts):
    """(Elo difference, 95 % half-interval, LOS) from pentanomial pair counts, as fishtest
    computes them: the pairs, not the games, are the independent trials. In a game where the
    colour decides most results (Pods), the two games of a pair are far from independent and
    the per-game formulas overstate the error. NaN when there are no pairs."""
    n = sum(counts)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    xs = (0.0, 0.25, 0.5, 0.75, 1.0)
    s = sum(c * x for c, x in zip(counts, xs)) / n
    var = sum(c * (x - s) ** 2 for c, x in zip(counts, xs)) / n
    sd = math.sqrt(var / n)
    margin = _margin(s, sd)
    if sd == 0:
        los = 0.5 if s == 0.5 else float(s > 0.5)
    else:
        los = 0.5 * (1.0 + math.erf((s - 0.5) / (sd * math.sqrt(2.0))))
    return elo_from_score(s), margin, los


def draw_ratio(w, l, d):
    n = w + l + d
    return d / n if n else float("nan")


class Sprt:
    """Generalised SPRT on the logistic Elo scale, with the trinomial (win/draw/loss) model.

    For each hypothesis the log-likelihood of the results is maximised over all win/draw/loss
    probabilities whose expected score is s0 (resp. s1), the scores of elo0 and elo1; the LLR is
    the difference. Unlike the BayesElo model it needs no draws, which matters here: Pods has no
    draw rule. Zero counts are replaced by 0.001 (as fishtest does) so that a run of identical
    results gives the exact binomial ratio (n wins: n ln(s1/s0)) instead of an infinity.
    """

    EPS = 1e-3

    def __init__(self, elo0, elo1, alpha, beta):
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("SPRT alpha and beta must lie strictly between 0 and 1")
        if not elo0 < elo1:
            raise ValueError("SPRT needs elo0 < elo1")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.lower = math.log(beta / (1.0 - alpha))
        self.upper = math.log((1.0 - beta) / alpha)
        self.s0 = score_from_elo(elo0)
        self.s1 = score_from_elo(elo1)

    @classmethod
    def log_likelihood(cls, counts, s):
        """max of sum n_i ln p_i over distributions p on scores (0, 1/2, 1) with mean s.

        The maximiser is p_i = f_i / (1 + lam (x_i - s)) (f the observed frequencies), with lam
        the root of sum f_i (x_i - s) / (1 + lam (x_i - s)) = 0, which decreases in lam: bisect.
        """
        xs = (0.0, 0.5, 1.0)
        reg = [max(n, cls.EPS) for n in counts]
        total = sum(reg)
        f = [n / total for n in reg]
        dev = [x - s for x in xs]
        lo = -1.0 / max(dev)
        hi = -1.0 / min(dev)
        for _ in range(100):
            lam = 0.5 * (lo + hi)
            g = sum(fi * di / (1.0 + lam * di) for fi, di in zip(f, dev))
            if g > 0:
                lo = lam
            else:
                hi = lam
        lam = 0.5 * (lo + hi)
        return sum(n * math.log(fi / (1.0 + lam * di)) for n, fi, di in zip(counts, f, dev) if n > 0)

    def llr(self, w, l, d):
        if w + l + d == 0:
            return 0.0
        counts = (l, d, w)
        return self.log_likelihood(counts, self.s1) - self.log_likelihood(counts, self.s0)

    def decide(self, w, l, d):
        """'H0', 'H1' or None (keep playing)."""
        r = self.llr(w, l, d)
        if r >= self.upper:
            return "H1"
        if r <= self.lower:
            return "H0"
        return None

    @classmethod
    def parse(cls, text):
        parts = [p for p in text.replace(" ", "").split(",") if p]
        kv = {}
        if len(parts) == 4 and all("=" not in p for p in parts):
            kv = dict(zip(("elo0", "elo1", "alpha", "beta"), parts))
        else:
            for p in parts:
                k, sep, v = p.partition("=")
                if not sep or k not in ("elo0", "elo1", "alpha", "beta"):
                    raise ValueError("bad --sprt %r (expected elo0,elo1,alpha,beta)" % text)
                kv[k] = v
        try:
            return cls(float(kv["elo0"]), float(kv["elo1"]), float(kv.get("alpha", 0.05)), float(kv.get("beta", 0.05)))
        except (KeyError, ValueError) as e:
            raise ValueError("bad --sprt %r: %s" % (text, e))
