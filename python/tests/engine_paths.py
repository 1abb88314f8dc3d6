"""Where the engine client's tests find things: the client itself (the installed package's, or
this checkout's when the package is not installed: the client needs no build), the tetrad
binary and the arena's scriptable fake engine."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

try:
    import tetrad.engine  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(REPO, "python"))
    import tetrad.engine  # noqa: F401

TETRAD = os.environ.get("TETRAD_BIN") or os.path.join(REPO, "target", "release", "tetrad")
FAKE = os.path.join(REPO, "tests", "arena", "fake_engine.py")


def tetrad_bin():
    """The release binary; a clear failure (not a skip) when it is not built."""
    if not os.access(TETRAD, os.X_OK):
        raise AssertionError("no tetrad binary at %s: run `cargo build --release` first (or set TETRAD_BIN)" % TETRAD)
    return TETRAD


def fake(*flags):
    """The argv of the toy-game fake engine with ``flags`` (see tests/arena/fake_engine.py)."""
    return [sys.executable, "-S", FAKE] + list(flags)
