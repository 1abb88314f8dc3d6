import os
import shutil
import time

import pytest

from tetrad.engine import Engine

# Seconds for a batch's answer: generous, the machine may be loaded.
TIMEOUT = 120.0


def engine_binary():
    """The engine binary for the GTP cross-checks: $TETRAD_BIN, the repository's release build,
    or `tetrad` on PATH."""
    env = os.environ.get("TETRAD_BIN")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "target", "release", "tetrad")
    if os.path.exists(built):
        return built
    return shutil.which("tetrad")


class Gtp:
    """The few GTP commands the cross-check needs, through the package's one GTP client
    (``tetrad.engine``'s numbered commands, which also let a batch of commands be sent at once)."""

    def __init__(self, binary):
        self.engine = Engine.popen([binary], protocol="gtp", timeout=TIMEOUT)

    def ask(self, line):
        return self.ask_all([line])[0]

    def ask_all(self, commands):
        """Sends all the commands at once (GTP runs them in order), then reads the answers."""
        gtp = self.engine.gtp
        sent = [gtp.send(c) for c in commands]
        answers = []
        for command, (cid, at) in zip(commands, sent):
            answer = gtp.wait(cid, at, time.monotonic() + TIMEOUT)
            if not answer.ok:
                raise RuntimeError(f"{command!r}: ? {answer.text}")
            answers.append(answer.text)
        return answers

    def close(self):
        self.engine.quit()


@pytest.fixture(scope="session")
def gtp():
    binary = engine_binary()
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no engine binary for the GTP cross-check")
        pytest.skip("no engine binary (set TETRAD_BIN)")
    g = Gtp(binary)
    yield g
    g.close()
