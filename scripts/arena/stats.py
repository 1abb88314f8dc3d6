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
    sd = math.sqrt(var / n)
    hi = elo_from_score(s + Z95 * sd)
    lo = elo_from_score(s - Z95 * sd)
    with_inf = math.isinf(hi) or math.isinf(lo)
    margin = (hi - lo) / 2.0 if not (with_inf and hi == lo) else float("nan")
    return elo_from_score(s), margin


def los(w, l):
    """Likelihood of superiority in [0, 1]: draws carry no information about it.
    With no decisive game yet there is nothing to tell the engines apart: 0.5."""
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def draw_ratio(w, l, d):
    n = w + l + d
    return d / n if n else float("nan")


class Sprt:
    """Generalised SPRT on the logistic Elo scale (the normal approximation of the trinomial
    likelihood ratio, as used by current testing frameworks). It needs no draws, which matters
    here: Pods has no draw rule at all.

    LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var), with s the mean score, var the per-game score
    variance and s0/s1 the expected scores at elo0/elo1. While every game has had the same
    result the variance is 0; it is then estimated as if half a win and half a loss had been
    added, so a run of wins can still end the test (it would otherwise never decide).
    """

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

    def llr(self, w, l, d):
        n = w + l + d
        if n == 0:
            return 0.0
        s = score(w, l, d)
        var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n
        if var <= 0.0:
            w2, l2 = w + 0.5, l + 0.5
            n = w2 + l2 + d
            s = (w2 + 0.5 * d) / n
            var = (w2 * (1 - s) ** 2 + l2 * s ** 2 + d * (0.5 - s) ** 2) / n
        return n * (self.s1 - self.s0) * (2.0 * s - self.s0 - self.s1) / (2.0 * var)

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
