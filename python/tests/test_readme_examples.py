"""The examples of python/README.md and the top README's one-liner, run as written.

The engine-client example has its own test (test_engine_tetrad.py: it needs the binary). The
batched-play loop runs 3 steps instead of 1,000, and the PettingZoo game stops after 200 turns:
what is checked is that the code as documented runs, not how long a game lasts.
"""

import os
import re
import subprocess
import sys

import pytest

from engine_paths import REPO


def blocks():
    with open(os.path.join(REPO, "python", "README.md"), encoding="utf-8") as f:
        text = f.read()
    found = re.findall(r"(<!-- [^>]* -->\n)?```python\n(.*?)```", text, re.S)
    return [code for marker, code in found if "driving an engine" not in marker]


def test_every_example_block_is_found():
    # Rules, batched play, OpenSpiel, PettingZoo.
    assert len(blocks()) == 4


@pytest.mark.parametrize("index", range(4))
def test_readme_block_runs(index):
    code = blocks()[index]
    if "pyspiel" in code:
        pytest.importorskip("pyspiel")
    if "pettingzoo" in code:
        pytest.importorskip("pettingzoo")
    code = code.replace("range(1000)", "range(3)")
    code = code.replace("for agent in env.agent_iter():", "for agent in env.agent_iter(200):")
    exec(compile(code, "python/README.md", "exec"), {})


def test_top_readme_one_liner_runs():
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        text = f.read()
    line = re.search(r'^python -c "(.*)"$', text, re.M).group(1)
    out = subprocess.run([sys.executable, "-c", line], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    import tetrad

    state = tetrad.Game("poddavki").new_state()
    assert out.stdout.strip() in state.legal_moves()
