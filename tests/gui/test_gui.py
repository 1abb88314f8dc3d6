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
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
# the repository's protocol client (python/tetrad/engine.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))

import browser  # noqa: E402
from tetrad.engine import Engine  # noqa: E402

TETRAD = os.environ.get("TETRAD_BIN", "target/release/tetrad")

# What each game's test move shows off, as a test of a move entry from legal_moves_json. A game
# not named here (one the registry lists that this test does not know, such as the test kit's
# toy game) is tested with any move a click can enter, if it has one.
WANTED = {
    "poddavki": lambda m: len(m["points"]) >= 3,  # a capture chain
    "phutball": lambda m: len(m["points"]) >= 2,  # a ball jump
    "diamond": lambda m: m["no_points"],  # the swap
    "pods-standard": lambda m: m["piece"] is not None,  # a pod from the hand
    "pods-advanced": lambda m: m["piece"] is not None,
}


def start_browser():
    return browser.start_browser(window="1200,1000", test="GUI browser test")


class Gtp:
    """The engine over GTP, to find test positions; a refused command fails the test."""

    def __init__(self):
        self.engine = Engine.popen([TETRAD, "--protocol", "gtp"], protocol="gtp", timeout=60.0)

    def ask(self, line):
        return self.engine.command(line)

    def close(self):
        self.engine.quit()


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
        self.wait(lambda: self.js("return !!window.tetrad && tetrad.idle()"))

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

    def click(self, css):
        """Finds and clicks in one script: the page redraws the board and the hand whenever an
        answer arrives, and an element found by one call can be stale by the next."""
        found = self.js("const e = document.querySelector(arguments[0]);"
                        " if (e) e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return !!e", css)
        self.assertTrue(found, "nothing to click at " + css)

    def select(self, css, value):
        from selenium.webdriver.support.ui import Select
        Select(self.el(css)).select_by_value(value)

    def moves(self):
        # One script, not element by element: the list is redrawn when the engine answers.
        return self.js("return [...document.querySelectorAll('#moves [data-move]')]"
                       ".map((e) => e.getAttribute('data-move'))")

    def idle(self):
        return self.js("return tetrad.idle()")

    def new_game(self, game, side):
        self.select("#engine-side", side)
        self.wait(self.idle, what="idle")
        self.js("window.before = tetrad.state.st")
        if self.el("#game").get_attribute("value") != game:
            self.select("#game", game)
        else:
            self.el("#new-game").click()
        self.wait(lambda: self.js("return tetrad.state.st !== window.before && tetrad.state.st.game") == game and self.idle(), what="new game")

    def test_every_game_by_clicks(self):
        games = [o.get_attribute("value") for o in self.els("#game option")]
        # The page offers the engine's games (list_games): these and any the registry adds.
        self.assertLessEqual(set(WANTED), set(games))
        print("test_every_game_by_clicks: games", " ".join(games), file=sys.stderr)
        shots = os.environ.get("GUI_SCREENSHOTS")
        for game in games:
            with self.subTest(game=game):
                self.el("#movetime").clear()
                self.el("#movetime").send_keys("50")
                self.new_game(game, "none")
                clickable = lambda m: bool(m["points"]) or m["piece"] is not None  # noqa: E731
                try:
                    position, move = find_position(self.gtp, game, WANTED.get(game, clickable))
                except AssertionError:
                    if game in WANTED:
                        raise
                    self.skipTest("no move of %s is entered by clicks" % game)
                # Loading the position string.
                self.js("document.getElementById('position').value = arguments[0]", position)
                self.el("#load-position").click()
                self.wait(lambda: self.js("return tetrad.state.st.position") == position and self.idle(), what="position loaded")
                self.assertEqual(self.moves(), [])
                # An illegal click changes nothing.
                starts = set(p for m in self.js("return tetrad.state.st.legal") for p in m["points"][:1])
                # Found and clicked in one script, as in click(): the board may be redrawn between calls.
                clicked_off = move["piece"] is None and self.js(
                    "const starts = new Set(arguments[0]);"
                    "const e = [...document.querySelectorAll('#board .hit[data-point]')]"
                    ".find((e) => !starts.has(e.getAttribute('data-point')));"
                    "if (e) e.dispatchEvent(new MouseEvent('click'));"
                    "return !!e;", sorted(starts))
                if clicked_off:
                    self.assertIn("no legal move", self.el("#status").text)
                    self.assertEqual(self.js("return tetrad.state.st.position"), position)
                # The engine plays the side not to move; the move is entered by clicks.
                mover = self.js("return tetrad.toMoveIndex()")
                self.select("#engine-side", "second" if mover == 0 else "first")
                if move["no_points"]:
                    self.el("#swap").click()
                else:
                    if move["piece"] is not None:
                        self.click('#hand [data-piece="%s"]' % move["piece"])
                    for p in move["points"]:
                        self.click('#board .hit[data-point="%s"]' % p)
                    choice = self.els('#choices [data-choice="%s"]' % move["move"])
                    if choice:
                        choice[0].click()
                self.wait(lambda: len(self.moves()) >= 1, what="the clicked move")
                self.assertEqual(self.moves()[0], move["move"])
                over = lambda: self.el("#status").text.startswith("game over")
                self.wait(lambda: (len(self.moves()) == 2 or over()) and self.idle(), what="the engine's answer")
                # Analysis: MultiPV lines, each with its first move, deepening while it runs.
                if not over():
                    self.el("#analyse").click()
                    lines = lambda: self.js("return [...document.querySelectorAll('#analysis [data-move]')]"
                                            ".map((e) => [e.getAttribute('data-move'), +e.getAttribute('data-depth')])")
                    self.wait(lambda: len(lines()) >= 2, what="analysis lines")
                    legal = set(m["move"] for m in self.js("return tetrad.state.st.legal"))
                    for line, _depth in lines():
                        self.assertIn(line, legal)
                    first = max(d for _, d in lines())
                    self.wait(lambda: max(d for _, d in lines()) > first, what="a deeper analysis line")
                    if shots:
                        os.makedirs(shots, exist_ok=True)
                        time.sleep(0.3)
                        self.browser.save_screenshot(os.path.join(shots, "gui-%s.png" % game))
                    self.el("#analyse").click()
                    self.wait(self.idle, what="analysis stopped")
                # The record the engine writes, in the game's format, downloaded by the page.
                self.el("#save-game").click()
                self.wait(lambda: self.el("#save-game").get_attribute("data-file"), what="the record")
                name, text = (self.el("#save-game").get_attribute(a) for a in ("data-file", "data-record"))
                self.js("document.getElementById('save-game').removeAttribute('data-file')")
                self.assertEqual(name, game + (".pdn" if game == "poddavki" else ".pgn"))
                self.assertIn('[Variant "%s"]' % game, text)
                self.assertIn('[PlyCount "%d"]' % len(self.moves()), text)
                self.gtp.ask("set_game " + game)
                if position == self.gtp.ask("get_position"):
                    self.assertIn('[Opening "start"]', text)
                else:
                    self.assertIn('[FEN "%s"]' % position, text)
                # Taking back returns to the loaded position.
                self.el("#undo").click()
                self.wait(lambda: self.moves() == [] and self.idle(), what="take back")
                self.assertEqual(self.js("return tetrad.state.st.position"), position)

    def test_flip_turns_the_labels_with_the_board(self):
        games = [o.get_attribute("value") for o in self.els("#game option")]
        self.new_game(games[0], "none")
        label_x = ("return Object.fromEntries([...document.querySelectorAll('#board text.coord')]"
                   ".map((t) => [t.textContent, t.getBoundingClientRect().x]))")
        before = self.js(label_x)
        files = [f["label"] for f in self.js("return tetrad.state.st.layout.files")]
        first, last = files[0], files[-1]
        self.assertLess(before[first], before[last])
        self.el("#flip").click()
        after = self.js(label_x)
        self.assertGreater(after[first], after[last])
        turned = self.js("return [...document.querySelectorAll('#board text.coord')]"
                         ".every((t) => (t.getAttribute('transform') || '').startsWith('rotate(180'))")
        self.assertTrue(turned)
        self.el("#flip").click()
        self.assertEqual(self.js(label_x), before)

    def test_each_game_shows_its_own_options(self):
        for game in [o.get_attribute("value") for o in self.els("#game option")]:
            with self.subTest(game=game):
                self.new_game(game, "none")
                self.gtp.ask("set_game " + game)
                lines = [l.split() for l in self.gtp.ask("list_options game").splitlines() if l.strip()]
                own = [w[0] for w in lines if w[0] != "clear_hash"]
                shown = self.js("return [...document.querySelectorAll('#game-options .option')]"
                                ".filter((l) => !l.hidden).map((l) => l.querySelector('[data-option]')"
                                ".getAttribute('data-option'))")
                self.assertEqual(sorted(shown), sorted(own))
                # Each field shows this game's default (the helper engine sets no option), not
                # the value the game before had: `eval` is learned in some games, classic in others.
                defaults = {w[0]: w[1] for w in lines if len(w) >= 3}
                values = self.js("return Object.fromEntries([...document.querySelectorAll('#game-options .option')]"
                                 ".filter((l) => !l.hidden).map((l) => l.querySelector('[data-option]'))"
                                 ".map((e) => [e.getAttribute('data-option'),"
                                 " e.type === 'checkbox' ? String(e.checked) : e.value]))")
                self.assertEqual(values, {n: defaults[n] for n in shown})

    def test_the_clock_counts_and_its_flag_ends_the_game(self):
        self.el("#clock-base").clear()
        self.el("#clock-base").send_keys("2")
        games = [o.get_attribute("value") for o in self.els("#game option")]
        self.new_game(games[0], "none")
        self.assertFalse(self.el("#clocks").get_attribute("hidden"))
        sides = [s["name"] for s in self.js("return tetrad.state.st.layout.sides")]
        self.wait(lambda: self.el("#status").text.startswith("game over"), timeout=30, what="the flag")
        self.assertEqual(self.el("#status").text, "game over: %s wins (time)" % sides[1])
        self.assertTrue(self.el("#clock-0").text.endswith("0:00.0"))
        # On a clock, the engine is told its time and answers; its clock has run meanwhile.
        self.el("#clock-base").clear()
        self.el("#clock-base").send_keys("30")
        self.new_game(games[0], "second")
        self.js("const st = tetrad.state.st; tetrad.clickPoint(st.legal[0].points[0]);"
                " if (st.legal[0].points[1]) tetrad.clickPoint(st.legal[0].points[1])")
        self.wait(lambda: len(self.moves()) == 2 and self.idle(), what="the engine's answer")
        self.assertNotEqual(self.el("#clock-1").text, "%s 0:30.0" % sides[1])
        self.assertFalse(self.el("#status").text.startswith("game over"))
        self.el("#clock-base").clear()
        self.el("#clock-base").send_keys("0")

    def test_the_eval_bar_shows_the_engines_own_search(self):
        # No analysis runs: the score is the one the engine's genmove search reported.
        self.assertFalse(self.js("return tetrad.state.analysing"))
        games = [o.get_attribute("value") for o in self.els("#game option")]
        self.new_game(games[0], "second")
        if not self.el("#eval-bar-toggle").is_selected():
            self.el("#eval-bar-toggle").click()
        self.assertIsNone(self.el("#eval-bar").get_attribute("data-score"))
        self.js("const st = tetrad.state.st; tetrad.clickPoint(st.legal[0].points[0]);"
                " if (st.legal[0].points[1]) tetrad.clickPoint(st.legal[0].points[1])")
        self.wait(lambda: len(self.moves()) == 2 and self.idle(), what="the engine's answer")
        score = self.el("#eval-bar").get_attribute("data-score")
        self.assertRegex(score or "", r"^-?\d+$")
        self.el("#eval-bar-toggle").click()

    def test_engine_against_itself_to_the_end(self):
        self.el("#movetime").clear()
        self.el("#movetime").send_keys("10")
        games = [o.get_attribute("value") for o in self.els("#game option")]
        self.new_game(games[0], "none")
        self.select("#engine-side", "both")
        self.wait(lambda: self.el("#status").text.startswith("game over"), timeout=240, what="the game's end")
        result = self.js("return tetrad.state.st.layout.result")
        # The status words the result as the board's caption does.
        words = "draw" if result["outcome"] == "draw" else result["outcome"] + " wins"
        self.assertEqual(self.el("#status").text, "game over: %s (%s)" % (words, result["reason"]))
        self.assertGreater(len(self.moves()), 4)

    def play_by_clicks(self, plies, seed):
        """Seeded random legal moves entered by clicks (the hand's button first for a piece from
        the hand), both sides played by the page's user."""
        rng = random.Random(seed)
        for k in range(plies):
            if self.js("return !!tetrad.state.st.layout.result"):
                break
            legal = self.js("return tetrad.state.st.legal")
            move = rng.choice(sorted(legal, key=lambda m: m["move"]))
            if move["no_points"]:
                self.click('#hand [data-move="%s"]' % move["move"])
            else:
                if move["piece"] is not None:
                    self.click('#hand [data-piece="%s"]' % move["piece"])
                for p in move["points"]:
                    self.click('#board .hit[data-point="%s"]' % p)
                if self.els('#choices [data-choice="%s"]' % move["move"]):
                    self.click('#choices [data-choice="%s"]' % move["move"])
            self.wait(lambda: len(self.moves()) == k + 1 and self.idle(), what="move %d played" % (k + 1))

    def review(self, depth):
        """Reviews the game on the board at a fixed depth (the time no limit), as a test must."""
        self.js("document.getElementById('review-depth').value = arguments[0];"
                "document.getElementById('review-time').value = 60000", depth)
        total = len(self.moves()) + 1
        self.click("#review")
        self.wait(lambda: self.el("#review-progress").text == "%d/%d" % (total, total) and self.idle(),
                  timeout=120, what="the review")

    def test_review_of_a_game_played_by_clicks(self):
        self.new_game("poddavki", "none")
        self.play_by_clicks(16, seed=5)
        moves = self.moves()
        self.review(depth=4)
        notes = self.js("return [...document.querySelectorAll('#moves [data-move]')].map((e) =>"
                        " [e.getAttribute('data-move'), e.getAttribute('data-loss'), e.getAttribute('data-mark')])")
        self.assertEqual([n[0] for n in notes], moves)
        for _move, loss, mark in notes:
            self.assertGreaterEqual(int(loss), 0)
            # docs/gui.md's thresholds, in the engine's units
            expected = "blunder" if int(loss) >= 300 else "mistake" if int(loss) >= 100 else \
                "inaccuracy" if int(loss) >= 50 else None
            self.assertEqual(mark, expected)
        marked = [k for k, n in enumerate(notes) if n[2]]
        self.assertTrue(marked, "random moves, and not one marked: %s" % notes)
        for el in ("#accuracy-first", "#accuracy-second"):
            self.assertTrue(0 <= float(self.el(el).text) <= 100, self.el(el).text)
        # A marked move selected: the position before it, and the move the engine preferred.
        k = marked[0]
        self.click('#moves [data-ply="%d"]' % (k + 1))
        self.wait(lambda: self.el("#better-move").text, what="the better move")
        better = self.el("#better-move").text
        self.assertNotEqual(better, moves[k])
        self.gtp.ask("set_game poddavki")
        for m in moves[:k]:
            self.gtp.ask("play " + m)
        self.assertIn(better, self.gtp.ask("legal_moves").split())
        self.assertTrue(self.els("#board .hit.better"))
        shots = os.environ.get("GUI_SCREENSHOTS")
        if shots:
            os.makedirs(shots, exist_ok=True)
            self.browser.save_screenshot(os.path.join(shots, "gui-review.png"))
        # The annotated record: each move with its comment as the arena writes them, the marks.
        self.click("#save-game")
        self.wait(lambda: self.el("#save-game").get_attribute("data-file"), what="the record")
        text = self.el("#save-game").get_attribute("data-record")
        self.js("document.getElementById('save-game').removeAttribute('data-file')")
        comments = re.findall(r"\{([^}]*)\}", text)
        self.assertEqual(len(comments), len(moves), text)
        for c in comments:
            self.assertRegex(c, r"^([+-]?\d+\.\d\d|[+-]M\d+)/\d+ \d+\.\d+s$")
        symbol = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
        for k in marked:
            spelled = moves[k].replace(":", "x")
            self.assertRegex(text, r"(^|\s)%s%s(\s|$)" % (re.escape(spelled), re.escape(symbol[notes[k][2]])))
        # ... loaded back: the same game, stepped through from its start.
        self.new_game("pods-standard", "none")
        self.js("document.getElementById('record').value = arguments[0]", text)
        self.click("#load-record")
        self.wait(lambda: self.moves() == moves and self.idle(), what="the record loaded")
        self.assertEqual(self.el("#game").get_attribute("value"), "poddavki")
        self.click("#nav-first")
        self.wait(lambda: self.js("return tetrad.state.viewPly") == 0, what="the record's start")

    def test_a_pdn_pydraughts_wrote_loads(self):
        try:
            import draughts
            from draughts.PDN import PDNReader, PDNWriter
        except ImportError:
            browser.missing("pydraughts (pip install pydraughts)", "the PDN test")
        import tempfile
        board = draughts.Board("russian")
        rng = random.Random(3)
        for _ in range(12):
            board.push(rng.choice(sorted(board.legal_moves(), key=lambda m: m.pdn_move)))
        folder = tempfile.mkdtemp(prefix="test-gui-pdn-")
        try:
            path = os.path.join(folder, "game.pdn")
            PDNWriter(filename=path, board=board, tags={"Event": "pydraughts"})
            played = PDNReader(filename=path).games[0].moves
            self.new_game("phutball", "none")
            # The file chosen, as a person would.
            self.el("#record-file").send_keys(path)
            self.wait(lambda: len(self.moves()) == len(played) and self.idle(), what="the PDN loaded")
        finally:
            shutil.rmtree(folder, True)
        self.assertEqual(self.el("#game").get_attribute("value"), "poddavki")
        # pydraughts writes a capture chain by its ends (d4xh4), the engine by every landing (d4:f2:h4)
        ends = lambda m: (re.split("[-x:]", m)[0], re.split("[-x:]", m)[-1])
        self.assertEqual([ends(m) for m in self.moves()], [ends(m) for m in played])
        pieces = lambda fen: sorted((part[0], sq) for part in fen.split(":")[1:] for sq in part[1:].split(",") if sq)
        self.assertEqual(pieces(self.js("return tetrad.state.st.position")), pieces(board.fen))

    def test_pods_in_hand_are_drawn(self):
        for game in ("pods-standard", "pods-advanced"):
            with self.subTest(game=game):
                self.new_game(game, "none")
                buttons = self.js("return [...document.querySelectorAll('#hand [data-piece]')].map((b) =>"
                                  " [b.getAttribute('data-piece'), b.querySelectorAll('svg .leg').length])")
                pieces = sorted(set(m["piece"] for m in self.js("return tetrad.state.st.legal") if m["piece"]))
                self.assertEqual([b[0] for b in buttons], pieces)
                for piece, legs in buttons:
                    self.assertGreater(legs, 0, piece)
                shots = os.environ.get("GUI_SCREENSHOTS")
                if shots and game == "pods-standard":
                    os.makedirs(shots, exist_ok=True)
                    self.browser.save_screenshot(os.path.join(shots, "gui-pods-hand.png"))
                # The other side's pods once it is its turn: its own legs, as its pods stand.
                self.play_by_clicks(1, seed=1)
                pictures = self.js("return [...document.querySelectorAll('#hand [data-piece] svg g')]"
                                   ".map((g) => g.getAttribute('class'))")
                side = self.js("return tetrad.state.st.layout.to_move")
                self.assertTrue(pictures)
                self.assertTrue(all(c.split()[-1] == side for c in pictures), pictures)


if __name__ == "__main__":
    unittest.main()
