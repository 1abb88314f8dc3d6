"""The engine client against engines that misbehave (the arena's toy fake engine): each fault
raises the EngineError subclass that names it, within the limit plus the margin, and the script
goes on. Every wait here is bounded by the client's own timeouts (a second or two)."""

import os
import time

import pytest

from engine_paths import fake
from tetrad.engine import (Engine, EngineError, EngineExited, EngineGarbage, EngineRefused,
                           EngineStartError, EngineTimeout, Info, Limit, Score)

START = "21 n 0"  # the toy game's start position
QUICK = dict(timeout=2.0, margin=0.5, search_timeout=2.0)
PROTOCOLS = ["gtp", "ugi"]


def popen(protocol, *flags):
    return Engine.popen(fake(*flags), protocol=protocol, **QUICK)


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_sound_fake_plays(protocol):
    with popen(protocol) as e:
        r = e.play(START, Limit(time=0.5), game="toy")
        assert r.move in ("1", "2", "3")
        if protocol == "ugi":
            assert r.depth == 1 and str(r.score) == "cp 0" and r.pv == [r.move]


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("fault, error, match", [
    ("crash", EngineExited, "exited"),
    ("garbage", EngineTimeout, "unexpected line: '#####"),  # noise lines, then nothing
    ("flood", EngineTimeout, "unexpected line: 'flood ~~~"),  # noise without end, fast
    ("malformed", EngineGarbage, "malformed bestmove|not one move"),
])
def test_a_fault_raises_its_error_and_the_script_goes_on(protocol, fault, error, match):
    e = popen(protocol, "--fault", fault)
    with pytest.raises(error, match=match):
        e.play(START, Limit(time=0.2), game="toy")
    e.quit()
    with popen(protocol) as again:
        assert again.play(START, Limit(depth=1), game="toy").move in ("1", "2", "3")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_hang_times_out_and_is_killed(protocol):
    e = popen(protocol, "--fault", "hang")
    t = time.monotonic()
    with pytest.raises(EngineTimeout, match="killed"):
        e.play(START, Limit(time=0.2), game="toy")
    took = time.monotonic() - t
    # limit 0.2 + margin 0.5 (+ margin 0.5 after UGI's stop); generous slack for a loaded machine
    assert took >= 0.7 and took < 6.0
    assert not e.alive() and gone(e.pid)
    with pytest.raises(EngineError):
        e.play(START, Limit(time=0.2), game="toy")  # a dead engine refuses at once
    e.quit()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_hang_in_a_depth_search_waits_search_timeout(protocol):
    e = popen(protocol, "--fault", "hang")
    t = time.monotonic()
    with pytest.raises(EngineTimeout):
        e.play(START, Limit(depth=3), game="toy")
    assert 2.0 <= time.monotonic() - t < 8.0
    e.quit()


def test_null_move_is_none():
    with popen("ugi", "--fault", "nomove") as e:
        assert e.play(START, Limit(time=0.5), game="toy").move is None


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_early_exit_fails_the_start(protocol):
    with pytest.raises(EngineExited, match="handshake"):
        popen(protocol, "--fault", "quitstart")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_silent_start_times_out(protocol):
    t = time.monotonic()
    with pytest.raises(EngineTimeout, match="handshake"):
        popen(protocol, "--fault", "badstart")
    assert time.monotonic() - t < 6.0


def test_missing_program():
    with pytest.raises(EngineStartError, match="cannot start"):
        Engine.popen(["/nonexistent/engine"], protocol="ugi", **QUICK)


def test_refused_option_and_unknown_protocol():
    with popen("ugi") as e:
        with pytest.raises(EngineError, match="unknown option"):
            e.configure({"NoSuchOption": 3})
        e.configure({"Seed": 5})  # still usable
    with pytest.raises(ValueError):
        Engine.popen(fake(), protocol="uci2")
    with pytest.raises(ValueError):
        Limit()


def test_gtp_time_commands_fall_back_to_whole_seconds():
    with popen("gtp", "--int-time") as e:
        r = e.play(START, Limit(clock=(1.5, 2.5)), game="toy")
        assert r.move in ("1", "2", "3")
        assert e.gtp.int_time and e.gtp.time_ok


def test_analyse_needs_what_the_engine_lacks():
    # the fake has no MultiPV option (UGI) and no analyze command (GTP)
    with popen("ugi") as e:
        lines = e.analyse(START, Limit(depth=1), game="toy")
        assert len(lines) == 1 and lines[0].depth == 1 and lines[0].pv in (["1"], ["2"], ["3"])
        with pytest.raises(EngineRefused, match="no MultiPV"):
            e.analyse(START, Limit(depth=1), multipv=2, game="toy")
    with popen("gtp") as e:
        with pytest.raises(EngineRefused, match="unknown command"):
            e.analyse(START, Limit(depth=1), game="toy")
        assert e.play(START, Limit(depth=1), game="toy").move in ("1", "2", "3")


def test_info_lines_are_read_leniently():
    i = Info.parse("depth 7 seldepth x multipv 2 score mate -3 nodes 12 junk pv a b".split())
    assert (i.depth, i.seldepth, i.multipv, i.nodes, i.pv) == (7, None, 2, 12, ["a", "b"])
    assert i.score == Score("mate", -3) and i.score.mate == -3 and i.score.cp is None
    assert str(i.score) == "mate -3"
    i = Info.parse("move c3-d4 score cp 50 depth 4".split())  # a GTP analyze line
    assert i.pv == ["c3-d4"] and i.score.cp == 50 and i.depth == 4
    i = Info.parse("string error: bad position".split())
    assert i.string == "error: bad position" and i.score is None and i.pv == []
    assert Info.parse("score cp".split()).score is None


def test_a_line_after_the_deadline_is_a_timeout_and_kept():
    """However fast a child writes, a read ends at its deadline: a line queued before the read
    but arrived after the deadline raises EngineTimeout, and the next read gets it."""
    import sys

    from tetrad.engine import Process

    p = Process([sys.executable, "-S", "-c", "import time; time.sleep(0.3); print('late', flush=True)"])
    try:
        deadline = time.monotonic()
        waited = time.monotonic() + 10.0
        while p.lines.empty() and time.monotonic() < waited:  # the line, stamped after the deadline
            time.sleep(0.05)
        with pytest.raises(EngineTimeout):
            p.read(deadline)
        t, line = p.read(time.monotonic() + 2.0)
        assert line == "late" and t > deadline
    finally:
        p.kill()
