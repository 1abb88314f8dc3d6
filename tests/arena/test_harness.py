"""The test harness itself: a skipped test says why, and CI (ARENA_REQUIRE_TEST_DEPS=1) skips
nothing."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import HERE, PY  # noqa: E402

SUITE = textwrap.dedent("""
    import sys, unittest
    sys.path.insert(0, %r)
    import arena_harness  # noqa: F401

    class T(unittest.TestCase):
        def test_needs_a_tool(self):
            self.skipTest("the widget test needs frobnicate (apt-get install frobnicate)")

        def test_plain(self):
            pass

    unittest.main()
""")


def run_suite(require):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SUITE % HERE)
    env = dict(os.environ)
    env.pop("ARENA_REQUIRE_TEST_DEPS", None)
    if require:
        env["ARENA_REQUIRE_TEST_DEPS"] = "1"
    try:
        p = subprocess.run([PY, f.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60)
    finally:
        os.remove(f.name)
    return p.returncode, p.stderr.decode("utf-8", "replace")


class SkipReportTest(unittest.TestCase):
    def test_a_skip_prints_its_reason(self):
        code, err = run_suite(require=False)
        self.assertEqual(code, 0, err)
        self.assertIn("skipped __main__.T.test_needs_a_tool: the widget test needs frobnicate "
                      "(apt-get install frobnicate)\n", err)
        self.assertIn("OK (skipped=1)", err)

    def test_a_skip_fails_when_tools_are_required(self):
        code, err = run_suite(require=True)
        self.assertEqual(code, 1, err)
        self.assertIn("AssertionError: skipped (the widget test needs frobnicate (apt-get install frobnicate)); "
                      "ARENA_REQUIRE_TEST_DEPS=1 makes a skip a failure", err)
        self.assertIn("FAILED (failures=1)", err)


if __name__ == "__main__":
    unittest.main()
