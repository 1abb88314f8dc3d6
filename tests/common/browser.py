"""Headless Chromium through Selenium, for the browser tests of report.html
(tests/arena/test_browser.py) and of `tetrad gui` (tests/gui/test_gui.py).

Needs Debian's ``chromium`` and ``chromium-driver`` and Selenium from PyPI (``.ci/run`` installs
them). Without them a test is skipped with a message saying what is missing, unless
ARENA_REQUIRE_TEST_DEPS=1 (as in CI), where a missing browser is a failure.
"""

import os
import shutil
import tempfile
import unittest

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage")


def missing(what, test="browser test"):
    text = "%s needs %s (Debian: apt-get install chromium chromium-driver; pip install selenium)" % (test, what)
    if os.environ.get("ARENA_REQUIRE_TEST_DEPS") == "1":
        raise AssertionError(text + "; ARENA_REQUIRE_TEST_DEPS=1 makes that a failure")
    raise unittest.SkipTest(text)


def start_browser(window="1200,1400", test="browser test"):
    """(browser, profile directory): remove the directory once the browser has quit."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing("Selenium (not importable)", test)
    binary = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    driver = shutil.which("chromedriver") or (os.path.exists("/usr/lib/chromium/chromedriver") and "/usr/lib/chromium/chromedriver")
    if not binary:
        missing("Chromium (no chromium on PATH)", test)
    if not driver:
        missing("chromedriver (no chromedriver on PATH)", test)
    profile = tempfile.mkdtemp(prefix="test-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for flag in CHROMIUM_FLAGS + ("--window-size=" + window,):
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
