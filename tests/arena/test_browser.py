"""report.html in a real browser: headless Chromium, driven by Selenium, opens the report of a
small real tetrad match and steps through a game.

Needs Debian's ``chromium`` and ``chromium-driver`` and Selenium from PyPI (``.ci/run`` installs
them). Without them the test is skipped with a message saying what is missing, unless
ARENA_REQUIRE_TEST_DEPS=1 (as in CI), where a missing browser is a failure.
``ARENA_SCREENSHOT=FILE.png`` saves a screenshot of the report.
"""

import os
import shlex
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import TETRAD, run_arena  # noqa: E402
from test_tetrad import needs, referee_has_svg  # noqa: E402

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1200,1400")


def _missing(what):
    text = "browser test needs %s (Debian: apt-get install chromium chromium-driver; pip install selenium)" % what
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
    profile = tempfile.mkdtemp(prefix="arena-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        opts.add_argument(flag)
    opts.add_argument("--user-data-dir=" + profile)
    os.environ.setdefault("SE_AVOID_STATS", "true")
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never download a browser or driver
    try:
        # an explicit driver path: Selenium must not go looking for one on the network
        browser = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    except Exception:
        shutil.rmtree(profile, True)
        raise
    return browser, profile


class ReportInBrowserTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        needs("poddavki")
        engines = ["cmd=%s,name=deep,proto=gtp,depth=2" % TETRAD, "cmd=%s,name=shallow,proto=ugi,depth=1" % TETRAD]
        cls.run_ = run_arena(engines, "--games", 2, "--tc", "inf", "--max-plies", 60, "--random-plies", 2,
                             "--seed", 3, game="poddavki", referee=shlex.quote(TETRAD), timeout=60)
        cls.browser, cls.profile = start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        shutil.rmtree(cls.profile, True)

    def text(self, css):
        return self.browser.find_element("css selector", css).text

    def board(self):
        return self.browser.find_element("id", "board").get_attribute("innerHTML")

    def ply(self):
        return int(self.browser.find_element("id", "ply").get_attribute("data-ply"))

    def click(self, css):
        self.browser.find_element("css selector", css).click()

    def wait_boards(self, game):
        """The boards of a game are unpacked asynchronously: wait until they are shown."""
        from selenium.webdriver.support.ui import WebDriverWait

        def ready(b):
            el = b.find_element("id", "board")
            return el.get_attribute("data-game") == str(game) and el.get_attribute("data-ready") == "1"
        WebDriverWait(self.browser, 20).until(ready)

    def test_step_through_a_game(self):
        r = self.run_
        self.assertEqual(r.code, 0, r)
        b = self.browser
        b.get("file://" + os.path.join(r.dir, "report.html"))
        self.assertIn("deep", self.text("#score"))
        self.assertRegex(self.text("#elo"), r"\S+ \u00b1 \S+")
        rows = b.find_elements("css selector", "tr.game")
        self.assertEqual(len(rows), 2)
        self.wait_boards(1)
        svg = referee_has_svg()
        inner = "svg" if svg else "pre"
        self.assertTrue(b.find_elements("css selector", "#board " + inner), "no %s board: %s" % (inner, self.board()[:200]))

        g = r.games[0]
        plies = len(g["opening"]) + len(g["moves"])
        self.assertEqual(self.ply(), 0)
        self.assertIn("(0 / %d)" % plies, self.text("#ply"))
        start = self.board()
        self.click("#next")
        self.assertEqual(self.ply(), 1)
        self.assertIn(g["opening"][0], self.text("#ply"))
        after_one = self.board()
        self.assertNotEqual(start, after_one)
        self.click("#last")
        self.assertEqual(self.ply(), plies)
        self.assertIn(g["moves"][-1]["move"], self.text("#ply"))
        self.assertNotEqual(self.board(), after_one)
        self.click("#prev")
        self.assertEqual(self.ply(), plies - 1)
        self.click("#moves .mv[data-ply='3']")
        self.assertEqual(self.ply(), 3)
        self.assertIn("cur", self.browser.find_element("css selector", "#moves .mv[data-ply='3']").get_attribute("class"))
        self.click("#first")
        self.assertEqual(self.ply(), 0)
        self.assertEqual(self.board(), start)

        rows[1].click()
        self.wait_boards(2)
        self.assertIn("Game 2", self.text("#vtitle"))
        self.assertEqual(self.ply(), 0)
        start2 = self.board()
        self.click("#next")
        self.assertEqual(self.ply(), 1)
        self.assertNotEqual(self.board(), start2)
        shot = os.environ.get("ARENA_SCREENSHOT")
        if shot:
            self.click("#moves .mv[data-ply='%d']" % min(12, plies))
            b.save_screenshot(shot)


if __name__ == "__main__":
    unittest.main()
