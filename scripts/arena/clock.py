"""Time controls (base + increment per side) and the clocks the runner keeps for each engine."""

import math
import re

_TC = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\+\s*(\d+(?:\.\d*)?|\.\d+))?\s*$")


class TimeControl:
    """``base`` and ``inc`` in seconds; ``None`` base means no clock (moves limited otherwise)."""

    def __init__(self, base, inc=0.0):
        self.base = base
        self.inc = inc

    @property
    def timed(self):
        return self.base is not None

    @classmethod
    def parse(cls, text):
        """``2+0.02``, ``60`` (no increment) or ``inf`` (no clock)."""
        if text.strip().lower() in ("inf", "infinite", "none"):
            return cls(None, 0.0)
        m = _TC.match(text)
        if m is None:
            raise ValueError("bad time control %r (expected BASE+INC in seconds, e.g. 2+0.02)" % text)
        base = float(m.group(1))
        inc = float(m.group(2) or 0.0)
        if base <= 0 and inc <= 0:
            raise ValueError("time control %r gives no time at all" % text)
        return cls(base, inc)

    def __str__(self):
        if not self.timed:
            return "inf"
        return "%s+%s" % (_num(self.base), _num(self.inc))


def _num(x):
    return ("%d" % x) if float(x).is_integer() else ("%g" % x)


class Clock:
    """One engine's clock in one game. The engine is charged from the moment its move request
    is sent to the moment its answer arrives (both measured by the runner)."""

    def __init__(self, tc):
        self.tc = tc
        self.remaining = tc.base if tc.timed else math.inf

    def allowance(self, margin):
        """Seconds the current move may take before it loses on time."""
        return self.remaining + margin

    def charge(self, elapsed):
        if self.tc.timed:
            self.remaining = max(0.0, self.remaining - elapsed) + self.tc.inc

    def overstepped(self, elapsed, margin):
        return self.tc.timed and elapsed > self.remaining + margin
