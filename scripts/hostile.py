#!/usr/bin/env python3
"""Hostile sessions: many seeded random sessions against the engine, in both dialects and all
games, with junk lines, option changes (Threads up to 4, Hash up to 1024 MiB), searches that are
stopped or left running, and every way a session can end: `quit`, end of input, and the driver
killed mid-search (the engine then orphaned).

Each engine runs under a small relay process (this script, `relay` mode) that stands for the
driver: killing the relay leaves the engine with its input at end and its output unread, as when
a GUI or match runner dies. This script makes itself a child subreaper (Linux), so that an
orphaned engine becomes its child and its exit can be seen and reaped.

Checks, per session: every command answered exactly once and every answer framed (GTP `=`/`?`
blocks ended by an empty line, with the command's id; UGI lines of the known kinds, one
`bestmove` per `go`, one `readyok` per `isready`); exit status 0 after `quit` or end of input;
peak resident memory (VmHWM) at most the largest Hash of the session plus 64 MiB; and no engine
left behind (an orphaned one must exit within ORPHAN_GRACE seconds; at the end /proc is scanned
for any process carrying this run's marker in its environment).

    python3 scripts/hostile.py --sessions 1000 --jobs 2 --seed 1
    python3 scripts/hostile.py --sessions 8 --max-hash 64      # the test suite's run

Standard library only. Exit status 0 when every check passed.
"""

import argparse
import ctypes
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The repository's protocol client (python/tetrad/engine.py, standard library only), for the
# plain requests; the sessions themselves write raw bytes through a relay and check the framing.
sys.path.insert(0, os.path.join(ROOT, "python"))
from tetrad.engine import Engine  # noqa: E402
MARKER = "TETRAD_HOSTILE_RUN"
# Generous bounds on expected events, not measurements: the machine may be loaded.
ORPHAN_GRACE = 15.0
SESSION_TIMEOUT = 120.0
RSS_MARGIN_MIB = 64
HASH_SIZES = [1, 4, 16, 64, 128, 256, 512, 1024]


# ------------------------------------------------------------------ relay mode (the "driver")


def relay(cmd):
    """Runs `cmd` with pipes and copies our stdin to its stdin and its stdout to ours; says the
    engine's pid on stderr first. Exits with the engine's status."""
    engine = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, bufsize=0)
    os.write(2, ("pid %d\n" % engine.pid).encode())

    def pump(src, dst, close):
        try:
            while True:
                data = os.read(src, 65536)
                if not data:
                    break
                view = memoryview(data)
                while view:
                    view = view[os.write(dst, view):]
        except OSError:
            pass
        close()

    inward = threading.Thread(target=pump, args=(0, engine.stdin.fileno(), engine.stdin.close),
                              daemon=True)
    inward.start()
    pump(engine.stdout.fileno(), 1, lambda: os.close(1))
    sys.exit(engine.wait())


# ------------------------------------------------------------------ /proc


def proc_status(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            return f.read()
    except OSError:
        return None


def field_kib(status, name):
    for line in status.splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    return 0


def running(pid):
    """Whether `pid` is a live process (a zombie has ended)."""
    status = proc_status(pid)
    if status is None:
        return False
    state = next((l.split()[1] for l in status.splitlines() if l.startswith("State:")), "Z")
    return state not in ("Z", "X")


def marked_processes(run_id):
    """Live processes whose environment carries this run's marker."""
    want = ("%s=%s" % (MARKER, run_id)).encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % name, "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if want in env and running(int(name)):
            found.append(int(name))
    return found


def become_subreaper():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_CHILD_SUBREAPER = 36
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap(pid):
    """Reaps `pid` if it has become our child and ended; True once it is gone."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return True
    except ChildProcessError:
        pass
    return not running(pid)


# ------------------------------------------------------------------ session scripts


def junk(rng):
    kind = rng.random()
    if kind < 0.3:
        words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz_-") for _ in range(rng.randint(1, 12)))
                 for _ in range(rng.randint(1, 5))]
        raw = " ".join(words).encode()
    elif kind < 0.6:
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(1, 80)))
        raw = raw.replace(b"\n", b" ")
    elif kind < 0.8:
        raw = rng.choice([b"play", b"genmove x", b"set_option", b"setoption name",
                          b"position fen ???", b"perft -1",
                          b"set_game chess", b"setoption name Hash value 99999", b"\t\x00\x07",
                          b"boardsize 0", b"undo undo", b"go perft 99", b"quitx"])
    else:
        raw = b"x" * rng.choice([10, 1000, 300000])
    # Our commands carry ids from 1000 up; junk never starts with a digit, so it never has one,
    # and never with a word that is a command whose answers are counted or that ends the session.
    # As the engine reads it: control characters dropped, blanks trimmed.
    try:
        text = "".join(" " if c == "\t" else c for c in raw.decode("utf-8")
                       if c == "\t" or (unicodedata.category(c) != "Cc" and c != "\ufeff"))
    except UnicodeDecodeError:
        return raw  # refused whole
    words = text.split()
    if words and (words[0][0].isdigit() or words[0].lower() in COUNTED):
        raw = b"x" + raw
    return raw


COUNTED = {"go", "quit", "isready", "uci", "ugi", "uai", "stop", "genmove", "ponderhit", "exit",
           "d", "eval", "query"}


class Script:
    """What one session sends, and what it expects back."""

    def __init__(self):
        self.steps = []  # (bytes line, pause seconds)
        self.ids = []  # GTP ids sent
        self.search_ids = []  # those of `genmove`s
        self.searches = 0
        self.readies = 0
        self.max_hash = 16

    def send(self, line, rng):
        self.steps.append((line if isinstance(line, bytes) else line.encode(),
                           rng.choice([0, 0, 0, 0.001, 0.01, 0.03])))


def gtp_script(rng, games, args, ending):
    s = Script()
    n = [1000]

    def cmd(text):
        if text == "genmove":
            s.searches += 1
            s.search_ids.append(n[0])
        s.ids.append(n[0])
        s.send("%d %s" % (n[0], text), rng)
        n[0] += 1

    cmd("set_option depth %d" % rng.randint(1, 4))
    cmd("set_option nodes %d" % rng.randint(200, 20000))
    for _ in range(rng.randint(3, 30)):
        r = rng.random()
        if r < 0.12:
            cmd("set_game %s" % rng.choice(games))
        elif r < 0.2:
            h = rng.choice([x for x in HASH_SIZES if x <= args.max_hash])
            s.max_hash = max(s.max_hash, h)
            cmd("set_option hash %d" % h)
        elif r < 0.27:
            cmd("set_option threads %d" % rng.randint(1, args.max_threads))
        elif r < 0.5:
            cmd("genmove")
        elif r < 0.55:
            cmd("perft %d" % rng.randint(1, 3))
        elif r < 0.6:
            cmd(rng.choice(["undo", "clear_board", "showboard", "list_options", "legal_moves",
                            "final_score", "name", "set_option clear_hash"]))
        elif r < 0.65:
            cmd("play %s" % rng.choice(["c3-d4", "e4", "zz", "a1", "pass"]))
        else:
            s.send(junk(rng), rng)
    if ending in ("kill", "eof-cut"):
        # Work that would run for hours: only the driver's death (or --after-eof) ends it.
        cmd("set_option nodes 0")
        cmd("set_option depth 100")
        if rng.random() < 0.5:
            cmd("genmove")
        else:
            cmd("perft 20")
    if ending == "quit":
        cmd("quit")
    return s


def ugi_script(rng, games, args, ending):
    s = Script()
    s.send("uci", rng)

    def go(text):
        s.searches += 1
        s.send("go " + text, rng)

    for _ in range(rng.randint(3, 30)):
        r = rng.random()
        if r < 0.12:
            s.send("setoption name UCI_Variant value %s" % rng.choice(games), rng)
        elif r < 0.2:
            h = rng.choice([x for x in HASH_SIZES if x <= args.max_hash])
            s.max_hash = max(s.max_hash, h)
            s.send("setoption name Hash value %d" % h, rng)
        elif r < 0.26:
            s.send("setoption name Threads value %d" % rng.randint(1, args.max_threads), rng)
        elif r < 0.32:
            s.readies += 1
            s.send("isready", rng)
        elif r < 0.38:
            s.send(rng.choice(["ucinewgame", "position startpos", "setoption name Clear Hash",
                               "position startpos moves zz", "stop", "ponderhit"]), rng)
        elif r < 0.6:
            go(rng.choice(["depth %d" % rng.randint(1, 4), "nodes %d" % rng.randint(100, 20000),
                           "movetime %d" % rng.randint(1, 50),
                           "wtime %d btime %d" % (rng.randint(50, 2000), rng.randint(50, 2000))]))
        elif r < 0.68:
            # Searches that only `stop` (or `ponderhit`, then their time) ends.
            search, ends = rng.choice([("infinite", ["stop"]), ("infinite", ["isready", "stop"]),
                                       ("ponder movetime 30", ["ponderhit"]),
                                       ("ponder movetime 30", ["stop"]), ("depth 100", ["stop"])])
            go(search)
            for line in ends:
                s.readies += line == "isready"
                s.send(line, rng)
        else:
            s.send(junk(rng), rng)
    if ending in ("kill", "eof-cut"):
        go(rng.choice(["depth 100", "infinite"]) if ending == "kill" else "depth 100")
    elif ending in ("eof", "quit") and rng.random() < 0.3:
        go("infinite")  # stopped by the end of input or by quit, and still answered
    if ending == "quit":
        s.send("quit", rng)
    return s


# ------------------------------------------------------------------ checks


def check_gtp(out, script, complete):
    """Answers are blocks ended by an empty line; a killed session's last one may be cut."""
    errors = []
    blocks = out.split("\n\n")
    tail = blocks.pop()
    if tail and complete:
        errors.append("answer not ended by an empty line: %r" % tail[:80])
    counts = {}
    for block in blocks:
        head = block.split("\n")[0]
        if head[:1] not in ("=", "?"):
            errors.append("unframed answer %r" % head[:80])
        else:
            digits = ""
            for ch in head[1:]:
                if not ch.isdigit():
                    break
                digits += ch
            rest = head[1 + len(digits):]
            if rest and not rest.startswith(" "):
                errors.append("bad answer head %r" % head[:80])
            if digits:
                counts[int(digits)] = counts.get(int(digits), 0) + 1
    for i, c in counts.items():
        if c != 1 or i not in script.ids:
            errors.append("id %d answered %d times" % (i, c))
    if complete:
        missing = [i for i in script.ids if i not in counts]
        if missing:
            errors.append("ids never answered: %s" % missing[:10])
    return errors, sum(1 for i in script.search_ids if counts.get(i) == 1)


UGI_KINDS = ("id ", "option ", "uciok", "readyok", "info ", "bestmove ")


def check_ugi(out, script, complete):
    errors = []
    lines = out.split("\n")
    tail_cut = not out.endswith("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, line in enumerate(lines):
        last_partial = tail_cut and i == len(lines) - 1
        if not line.startswith(UGI_KINDS) and not last_partial:
            errors.append("unknown line %r" % line[:80])
    best = sum(1 for l in lines if l.startswith("bestmove "))
    ready = sum(1 for l in lines if l == "readyok")
    if complete:
        if best != script.searches:
            errors.append("%d go, %d bestmove" % (script.searches, best))
        if ready != script.readies:
            errors.append("%d isready, %d readyok" % (script.readies, ready))
        if "uciok" not in lines:
            errors.append("no uciok")
    elif best > script.searches or ready > script.readies:
        errors.append("more answers than questions: %d/%d bestmove, %d/%d readyok"
                      % (best, script.searches, ready, script.readies))
    return errors, best


# ------------------------------------------------------------------ one session


def run_session(index, args, games, run_id):
    rng = random.Random("%d-%d" % (args.seed, index))
    dialect = rng.choice(["gtp", "ugi"])
    ending = rng.choices(["quit", "eof", "kill", "eof-cut"], weights=[35, 35, 25, 5])[0]
    engine_args = [args.engine]
    if ending == "eof-cut":
        engine_args += ["--after-eof", "1"]
    script = (gtp_script if dialect == "gtp" else ugi_script)(rng, games, args, ending)
    kill_after = rng.choice([0, 0.05, 0.2, 0.5]) if ending == "kill" else None

    env = dict(os.environ, **{MARKER: run_id})
    started = time.monotonic()
    driver = subprocess.Popen([sys.executable, os.path.abspath(__file__), "relay", "--"] + engine_args,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, bufsize=0)
    head = driver.stderr.readline().decode()
    if not head.startswith("pid "):
        driver.kill()
        driver.wait()
        return {"index": index, "errors": ["relay did not start the engine: %r" % head]}
    pid = int(head.split()[1])
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(lambda: driver.stdout.read(65536), b"")),
                              daemon=True)
    reader.start()
    peak = [0]
    done = threading.Event()

    def watch():
        while not done.is_set():
            status = proc_status(pid)
            if status is not None:
                peak[0] = max(peak[0], field_kib(status, "VmHWM"))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    errors = []
    try:
        for line, pause in script.steps:
            driver.stdin.write(line + b"\n")
            if pause:
                time.sleep(pause)
        driver.stdin.flush()
    except (BrokenPipeError, OSError):
        if ending != "quit":
            errors.append("the engine stopped reading early")
    orphan_exit = None
    code = None
    if ending == "kill":
        time.sleep(kill_after)
        status = proc_status(pid)
        if status is not None:
            peak[0] = max(peak[0], field_kib(status, "VmHWM"))
        driver.kill()
        driver.wait()
        killed_at = time.monotonic()
        while time.monotonic() - killed_at < ORPHAN_GRACE and not reap(pid):
            time.sleep(0.02)
        if reap(pid):
            orphan_exit = time.monotonic() - killed_at
        reader.join(5)
    else:
        if ending != "quit":
            driver.stdin.close()
        try:
            code = driver.wait(timeout=SESSION_TIMEOUT)
        except subprocess.TimeoutExpired:
            errors.append("no exit within %d s" % SESSION_TIMEOUT)
            driver.kill()
            driver.wait()
        reader.join(10)
        if ending == "quit":
            try:
                driver.stdin.close()
            except OSError:
                pass
    done.set()
    watcher.join()
    left = False
    if not reap(pid):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not reap(pid):
            time.sleep(0.02)
        if not reap(pid):
            left = True
            errors.append("engine %d left behind" % pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            reap(pid)
    out = b"".join(chunks).decode("utf-8", "replace")
    if "\ufffd" in out:
        errors.append("output is not UTF-8")
    complete = ending != "kill"
    if dialect == "gtp":
        errs, answered = check_gtp(out, script, complete)
    else:
        errs, answered = check_ugi(out, script, complete)
    errors += errs
    if complete and code not in (0, None):
        errors.append("exit status %s" % code)
    if peak[0] > (script.max_hash + RSS_MARGIN_MIB) * 1024:
        errors.append("peak RSS %d MiB with Hash %d" % (peak[0] // 1024, script.max_hash))
    return {
        "index": index, "dialect": dialect, "ending": ending, "errors": errors,
        "searches": script.searches, "answered": answered, "lines": len(script.steps),
        "peak_over_hash_mib": peak[0] / 1024 - script.max_hash, "left": left,
        "orphan_exit": orphan_exit, "seconds": time.monotonic() - started,
    }


def list_games(engine):
    with Engine.popen([engine], protocol="gtp", timeout=60.0) as e:
        return e.command("list_games").split()


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "relay":
        relay(sys.argv[3:] if sys.argv[2] == "--" else sys.argv[2:])
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "tetrad"))
    p.add_argument("--sessions", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2, help="sessions at once")
    p.add_argument("--max-hash", type=int, default=1024, help="largest Hash, MiB")
    p.add_argument("--max-threads", type=int, default=4)
    p.add_argument("--quiet", action="store_true", help="only the summary")
    p.add_argument("--log", help="file to write one JSON line per session to")
    args = p.parse_args()
    args.engine = os.path.abspath(args.engine)
    subreaper = become_subreaper()
    games = list_games(args.engine)
    if not games:
        print("hostile: no games listed by %s" % args.engine, file=sys.stderr)
        return 2
    run_id = "%d-%d" % (os.getpid(), int(time.time()))
    started = time.monotonic()
    results = []
    log = open(args.log, "w") if args.log else None
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_session, i, args, games, run_id) for i in range(args.sessions)]
        for f in futures:
            r = f.result()
            results.append(r)
            if log:
                log.write(json.dumps(r) + "\n")
                log.flush()
            if not args.quiet and len(results) % 100 == 0:
                print("%d sessions, %d failed, %.0f s" % (
                    len(results), sum(1 for x in results if x["errors"]),
                    time.monotonic() - started), flush=True)
            if r["errors"] and not args.quiet:
                print("session %d (%s, %s): %s" % (r["index"], r.get("dialect"), r.get("ending"),
                                                   "; ".join(r["errors"][:5])), flush=True)
    leftovers = marked_processes(run_id)
    for pid in leftovers:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    failed = [r for r in results if r["errors"]]
    orphan_times = [r["orphan_exit"] for r in results if r.get("orphan_exit") is not None]
    kills = sum(1 for r in results if r.get("ending") == "kill")
    count = lambda key, value: sum(1 for r in results if r.get(key) == value)
    print("games: %s" % " ".join(games))
    print("sessions: %d (gtp %d, ugi %d; quit %d, eof %d, eof-cut %d, killed driver %d), seed %d"
          % (len(results), count("dialect", "gtp"), count("dialect", "ugi"), count("ending", "quit"),
             count("ending", "eof"), count("ending", "eof-cut"), kills, args.seed))
    print("searches sent: %d, answered: %d (GTP answers by id, UGI bestmove lines)"
          % (sum(r.get("searches", 0) for r in results), sum(r.get("answered", 0) for r in results)))
    print("failures: %d" % len(failed))
    print("max peak RSS over the session's Hash: %.1f MiB (limit %d)"
          % (max((r.get("peak_over_hash_mib", 0) for r in results), default=0), RSS_MARGIN_MIB))
    print("orphaned engines gone: %d of %d, slowest %.2f s after the driver died%s"
          % (len(orphan_times), kills, max(orphan_times, default=0),
             "" if subreaper else " (not a subreaper: zombies counted as gone)"))
    print("leftover engine processes: %d in sessions, %d in the final /proc scan"
          % (sum(1 for r in results if r.get("left")), len(leftovers)))
    print("time: %.0f s" % (time.monotonic() - started))
    return 1 if failed or leftovers else 0


if __name__ == "__main__":
    sys.exit(main())
