"""`tetrad gui` in a real browser: headless Chromium, driven by Selenium, plays every game the
engine lists by clicking, as a person would, through the page's documented hooks (docs/gui.md).

For each game a position where the interesting way of entering a move is legal (a capture chain,
a ball jump, a pod from the hand, a swap) is found by random play through the engine's own
`legal_moves_json`, loaded through the page's position box, and the move is clicked; the engine
must answer. Then the analysis shows MultiPV lines and the move is taken back. One game is played
engine against engine to its end.

Needs Debian's ``chromium`` and ``chromium-driver`` and Selenium (``.ci/run`` installs them);
skipped with a message when missing, unless ARENA_REQUIRE_TEST_DEPS=1 (CI). TETRAD_BIN is the
binary (``tests`` in src/gui set it). ``GUI_SCREENSHOTS=DIR`` saves each game's page as
DIR/gui-GAME.png.
"""

import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import time
import unittest

TETRAD = os.environ.get("TETRAD_BIN", "target/release/tetrad")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1200,1000")

# What each game's test move shows off, as a test of a move entry from legal_moves_json.
WANTED = {
    "poddavki": lambda m: len(m["points"]) >= 3,  # a capture chain
    "phutball": lambda m: len(m["points"]) >= 2,  # a ball jump
    "diamond": lambda m: m["no_points"],  # the swap
    "pods-standard": lambda m: m["piece"] is not None,  # a pod from the hand
    "pods-advanced": lambda m: m["piece"] is not None,
}


def _missing(what):
    text = "GUI browser test needs %s (Debian: apt-get install chromium chromium-driver; pip install selenium)" % what
    if os.environ.get("ARENA_REQUIRE_TEST_DEPS") == "1":
        raise AssertionError(text + "; ARENA_REQUIRE_TEST_DEPS=1 makes that a failure")
    raise unittest.SkipTest(text)


def start_browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("Selenium (not importable)")
    binary = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    driver = shutil.which("chromedriver") or (os.path.exists("/usr/lib/chromium/chromedriver") and "/usr/lib/chromium/chromedriver")
    if not binary:
        _missing("Chromium (no chromium on PATH)")
    if not driver:
        _missing("chromedriver (no chromedriver on PATH)")
    profile = tempfile.mkdtemp(prefix="gui-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        opts.add_argument(flag)
    opts.add_argument("--user-data-dir=" + profile)
    os.environ.setdefault("SE_AVOID_STATS", "true")
    os.environ.setdefault("SE_OFFLINE", "true")
    browser = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    return browser, profile


class Gtp:
    """The engine over GTP, to find test positions."""

    def __init__(self):
        self.p = subprocess.Popen([TETRAD, "--protocol", "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if not l.strip():
                if out:
                    break
                continue
            out.append(l.rstrip("\n"))
        head = out[0]
        assert head.startswith("="), "%s: %s" % (line, "\n".join(out))
        return "\n".join([head[1:].strip()] + out[1:]).strip()

    def close(self):
        self.p.stdin.close()
        self.p.wait(10)


def find_position(gtp, game, wanted, seed=1):
    """A position along seeded random play with a move `wanted` accepts: (position, move)."""
    rng = random.Random(seed)
    for _ in range(50):
        gtp.ask("set_game " + game)
        for _ply in range(120):
            moves = json.loads(gtp.ask("legal_moves_json"))["moves"]
            if not moves:
                break
            good = [m for m in moves if wanted(m)]
            if good:
                return gtp.ask("get_position"), good[0]
            gtp.ask("play " + rng.choice(moves)["move"])
    raise AssertionError("no position with the wanted move in " + game)


class GuiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser, cls.profile = start_browser()
        cls.server = subprocess.Popen([TETRAD, "gui", "--port", "0"], stdout=subprocess.PIPE, text=True)
        line = cls.server.stdout.readline()
        m = re.search(r"http://\S+", line)
        assert m, "no URL in %r" % line
        cls.url = m.group(0)
        cls.gtp = Gtp()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        shutil.rmtree(cls.profile, True)
        cls.server.terminate()
        cls.server.wait(10)
        cls.gtp.close()

    def setUp(self):
        self.browser.get(self.url)
        self.wait(lambda: self.js("return st !== null && !busy && !thinking"))

    def js(self, script, *args):
        return self.browser.execute_script(script, *args)

    def el(self, css):
        return self.browser.find_element("css selector", css)

    def els(self, css):
        return self.browser.find_elements("css selector", css)

    def wait(self, cond, timeout=60, what="condition"):
        end = time.time() + timeout
        while time.time() < end:
            try:
                if cond():
                    return
            except Exception:  # the page is between two states
                pass
            time.sleep(0.05)
        self.fail("timed out waiting for %s; status: %s" % (what, self.el("#status").text))

    def select(self, css, value):
        from selenium.webdriver.support.ui import Select
        Select(self.el(css)).select_by_value(value)

    def moves(self):
        # One script, not element by element: the list is redrawn when the engine answers.
        return self.js("return [...document.querySelectorAll('#moves [data-move]')]"
                       ".map((e) => e.getAttribute('data-move'))")

    def idle(self):
        return self.js("return !busy && !thinking")

    def new_game(self, game, side):
        self.select("#engine-side", side)
        self.wait(self.idle, what="idle")
        self.js("window.before = st")
        if self.el("#game").get_attribute("value") != game:
            self.select("#game", game)
        else:
            self.el("#new-game").click()
        self.wait(lambda: self.js("return st !== window.before && st.game") == game and self.idle(), what="new game")

    def test_every_game_by_clicks(self):
        games = [o.get_attribute("value") for o in self.els("#game option")]
        self.assertEqual(sorted(games), sorted(WANTED))
        shots = os.environ.get("GUI_SCREENSHOTS")
        for game in games:
            with self.subTest(game=game):
                self.el("#movetime").clear()
                self.el("#movetime").send_keys("50")
                self.new_game(game, "none")
                position, move = find_position(self.gtp, game, WANTED[game])
                # Loading the position string.
                self.js("document.getElementById('position').value = arguments[0]", position)
                self.el("#load-position").click()
                self.wait(lambda: self.js("return st.position") == position and self.idle(), what="position loaded")
                self.assertEqual(self.moves(), [])
                # An illegal click changes nothing.
                starts = set(p for m in self.js("return st.legal") for p in m["points"][:1])
                off = [e for e in self.els("#board .hit[data-point]") if e.get_attribute("data-point") not in starts]
                if off and move["piece"] is None:
                    self.js("arguments[0].dispatchEvent(new MouseEvent('click'))", off[0])
                    self.assertIn("no legal move", self.el("#status").text)
                    self.assertEqual(self.js("return st.position"), position)
                # The engine plays the side not to move; the move is entered by clicks.
                mover = self.js("return toMoveIndex()")
                self.select("#engine-side", "second" if mover == 0 else "first")
                if move["no_points"]:
                    self.el("#swap").click()
                else:
                    if move["piece"] is not None:
                        self.el('#hand [data-piece="%s"]' % move["piece"]).click()
                    for p in move["points"]:
                        self.js("arguments[0].dispatchEvent(new MouseEvent('click'))",
                                self.el('#board .hit[data-point="%s"]' % p))
                    choice = self.els('#choices [data-choice="%s"]' % move["move"])
                    if choice:
                        choice[0].click()
                self.wait(lambda: len(self.moves()) >= 1, what="the clicked move")
                self.assertEqual(self.moves()[0], move["move"])
                over = lambda: self.el("#status").text.startswith("game over")
                self.wait(lambda: (len(self.moves()) == 2 or over()) and self.idle(), what="the engine's answer")
                # Analysis: MultiPV lines, each with its first move.
                if not over():
                    self.el("#analyse").click()
                    lines = lambda: self.js("return [...document.querySelectorAll('#analysis [data-move]')]"
                                            ".map((e) => e.getAttribute('data-move'))")
                    self.wait(lambda: len(lines()) >= 2, what="analysis lines")
                    legal = set(m["move"] for m in self.js("return st.legal"))
                    for line in lines():
                        self.assertIn(line, legal)
                    if shots:
                        os.makedirs(shots, exist_ok=True)
                        time.sleep(0.3)
                        self.browser.save_screenshot(os.path.join(shots, "gui-%s.png" % game))
                    self.el("#analyse").click()
                    self.wait(self.idle, what="analysis stopped")
                # Taking back returns to the loaded position.
                self.el("#undo").click()
                self.wait(lambda: self.moves() == [] and self.idle(), what="take back")
                self.assertEqual(self.js("return st.position"), position)

    def test_engine_against_itself_to_the_end(self):
        self.el("#movetime").clear()
        self.el("#movetime").send_keys("10")
        games = [o.get_attribute("value") for o in self.els("#game option")]
        self.new_game(games[0], "none")
        self.select("#engine-side", "both")
        self.wait(lambda: self.el("#status").text.startswith("game over"), timeout=240, what="the game's end")
        result = self.js("return st.layout.result")
        self.assertTrue(self.el("#status").text.endswith(result["outcome"] + " " + result["reason"]))
        self.assertGreater(len(self.moves()), 4)


if __name__ == "__main__":
    unittest.main()
