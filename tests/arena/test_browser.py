"""report.html in a real browser: headless Chromium, driven by Selenium, opens the report of a
small real tetrad match and steps through a game, and looks at the charts the page draws.

Needs Debian's ``chromium`` and ``chromium-driver`` and Selenium from PyPI (``.ci/run`` installs
them). Without them the test is skipped with a message saying what is missing, unless
ARENA_REQUIRE_TEST_DEPS=1 (as in CI), where a missing browser is a failure.
``ARENA_SCREENSHOT=FILE.png`` saves a screenshot of the report; ``ARENA_CHART_SCREENSHOT=FILE.png``
one of the charts of an SPRT match.
"""

import os
import shlex
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))

from arena_harness import TETRAD, fake, run_arena  # noqa: E402
from test_tetrad import needs, referee_has_svg  # noqa: E402
from browser import start_browser  # noqa: E402


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


class ChartsInBrowserTest(unittest.TestCase):
    """The charts of a depth-limited SPRT match between two UGI engines (both report scores):
    the course of the match, a game's evaluation and time charts, the engines' histograms."""

    @classmethod
    def setUpClass(cls):
        needs("poddavki")
        engines = ["cmd=%s,name=d3,proto=ugi,depth=3" % TETRAD, "cmd=%s,name=d2,proto=ugi,depth=2" % TETRAD]
        cls.run_ = run_arena(engines, "--games", 8, "--tc", "inf", "--max-plies", 80, "--random-plies", 2,
                             "--seed", 3, "--sprt", "0,100,0.05,0.05", game="poddavki", referee=shlex.quote(TETRAD),
                             timeout=90)
        cls.browser, cls.profile = start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        shutil.rmtree(cls.profile, True)

    def find(self, css):
        return self.browser.find_elements("css selector", css)

    def ply(self):
        return int(self.browser.find_element("id", "ply").get_attribute("data-ply"))

    def test_charts_are_drawn_and_lead_to_moves(self):
        r = self.run_
        self.assertEqual(r.code, 0, r)
        b = self.browser
        b.get("file://" + os.path.join(r.dir, "report.html"))
        finished = len(r.games)
        # the course: score, Elo with its band, and the SPRT's llr between its two bounds
        panels = self.find("#course svg")
        self.assertEqual(len(panels), 3)
        score = self.find("#course-score polyline.series")[0].get_attribute("points").split()
        self.assertEqual(len(score), finished)
        self.assertEqual(len(self.find("#course-llr polyline.series")[0].get_attribute("points").split()), finished)
        self.assertEqual(len(self.find("#course-llr line")), 2)  # lower and upper bound
        self.assertTrue(self.find("#course-elo polyline.series") or self.find("#course-elo .band") or
                        r.summary["elo"] is None)

        g = r.games[0]
        book = len(g["opening"])
        points = self.find("#evalchart circle.pt")
        self.assertEqual(len(points), len(g["moves"]))  # both engines report a score for every move
        self.assertEqual(len(self.find("#evalchart polyline.series")), 2)
        mates = [m for m in g["moves"] if m["score"].startswith("mate")]
        self.assertEqual(len(self.find("#evalchart circle.pt.mate")), len(mates))
        bars = self.find("#timechart rect.bar")
        self.assertEqual(len(bars), len(g["moves"]))
        self.assertEqual(sorted(int(x.get_attribute("data-ply")) for x in bars), list(range(book + 1, book + len(g["moves"]) + 1)))
        for k in range(len(r.summary["engines"])):
            self.assertTrue(self.find("#hist-%d svg rect" % k), "no histogram for engine %d" % k)
        depths = [float(x.text) for x in self.find("#times td.depth")]
        # each engine's average over the depths its moves reported in the games' records (a
        # search that finds a forced win stops short of its depth limit)
        reported = {}
        for game in r.games:
            for m in game["moves"]:
                if m.get("depth") is not None:
                    reported.setdefault(game["engines"][m["side"]], []).append(m["depth"])
        self.assertEqual(depths, [float("%.1f" % (sum(reported[n]) / len(reported[n]))) for n in ("d3", "d2")])
        self.assertTrue(2.5 < depths[0] <= 3.0 and depths[1] == 2.0, depths)

        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(b, 20).until(lambda d: d.find_element("id", "board").get_attribute("data-ready") == "1")
        start = b.find_element("id", "board").get_attribute("innerHTML")
        target = points[len(points) // 2]
        want = int(target.get_attribute("data-ply"))
        b.execute_script("arguments[0].scrollIntoView({block: 'center'});", target)
        target.click()
        self.assertEqual(self.ply(), want)
        self.assertNotEqual(b.find_element("id", "board").get_attribute("innerHTML"), start)
        self.assertIn("cur", b.find_element("css selector", "#moves .mv[data-ply='%d']" % want).get_attribute("class"))
        self.assertEqual(b.find_element("id", "evalcursor").get_attribute("visibility"), "visible")
        bar = self.find("#timechart rect.bar")[-1]
        b.execute_script("arguments[0].scrollIntoView({block: 'center'});", bar)
        # A bar is as tall as its move's time: a fast move's is a pixel or two, and the chart's
        # axis line over it takes a pointer click, so the click is sent to the bar itself.
        b.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}));", bar)
        self.assertEqual(self.ply(), book + len(g["moves"]))

        # a tournament's report: the course of every engine's rating
        t = run_arena([fake("opt", extra="restart=on"), fake("one", "--play one", extra="restart=on"),
                       fake("wait", "--play wait", extra="restart=on")], "--games", 2, "--seed", 2, "--tc", "2+0.05")
        self.assertEqual(t.code, 0, t)
        b.get("file://" + os.path.join(t.dir, "report.html"))
        lines = self.find("#course-ratings polyline.series")
        self.assertEqual(len(lines), 3)
        counts = [len(x.get_attribute("points").split()) for x in lines]
        # the anchor (opt) is at 0 from the first game on; the others from their first game
        self.assertEqual(counts[0], len(t.games))
        self.assertTrue(all(1 <= c <= len(t.games) for c in counts[1:]), counts)
        self.assertEqual(len(self.find("#crosstable tr")), 4)
        b.get("file://" + os.path.join(r.dir, "report.html"))

        # another game: its own charts
        b.find_elements("css selector", "tr.game")[1].click()
        self.assertEqual(len(self.find("#evalchart circle.pt")), len(r.games[1]["moves"]))
        shot = os.environ.get("ARENA_CHART_SCREENSHOT")
        if shot:
            b.find_elements("css selector", "tr.game")[0].click()
            b.execute_script("arguments[0].dispatchEvent(new MouseEvent('click'));", self.find("#evalchart circle.pt")[14])
            height = b.execute_script("return document.documentElement.scrollHeight;")
            b.set_window_size(1200, min(4000, height + 140))  # the whole page (window chrome included)
            b.execute_script("window.scrollTo(0, 0);")
            b.save_screenshot(shot)


if __name__ == "__main__":
    unittest.main()
