import os
import shutil
import subprocess

import pytest


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
    """The few GTP commands the cross-check needs, over a pipe."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, line):
        return self.ask_all([line])[0]

    def ask_all(self, commands):
        """Sends all the commands at once (GTP runs them in order), then reads the answers."""
        self.proc.stdin.write("".join(c + "\n" for c in commands))
        self.proc.stdin.flush()
        return [self._answer(c) for c in commands]

    def _answer(self, line):
        lines = []
        while True:
            got = self.proc.stdout.readline()
            if got == "":
                raise RuntimeError(f"engine exited after {line!r}")
            if got.strip() == "" and lines:
                break
            if got.strip():
                lines.append(got.rstrip("\n"))
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError(f"{line!r}: {text}")
        return text[1:].strip()

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


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
