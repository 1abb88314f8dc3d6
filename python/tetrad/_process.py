"""The engine client's lowest layer: a child process that may misbehave, with line I/O under
deadlines, stderr captured or dropped, and sure cleanup; and the errors every layer raises.

Every child runs in its own process group so that killing it also kills whatever it spawned,
and is always reaped (``wait``) after the kill, so no zombie outlives the caller. Part of
``tetrad.engine`` (import the names from there); standard library only.
"""

import os
import queue
import signal
import subprocess
import sys
import threading
import time

MAX_LINE = 1 << 20  # a longer line is delivered in pieces; nothing legitimate is that long
POLL = 0.1  # seconds between checks of the abort flag while waiting for output


# ---- errors ----------------------------------------------------------------------------------


class EngineError(Exception):
    """The engine failed: it could not start, exited, hung, refused or answered garbage."""


class EngineStartError(EngineError):
    """The engine could not be started (no such program, not executable...)."""


class EngineTimeout(EngineError):
    """No answer before the deadline (the high-level calls kill the engine then)."""


class EngineExited(EngineError):
    """The engine closed its output: it exited or crashed."""


class EngineGarbage(EngineError):
    """The engine answered something the protocol does not allow."""


class EngineRefused(EngineError):
    """The engine answered a command with an error (GTP ``?``, UGI ``info string error``)."""


class Aborted(Exception):
    """The caller's abort flag was set while waiting (not the engine's fault)."""


# ---- the child process ---------------------------------------------------------------------

_STOP = object()
_CLOSE = object()
_live = set()
_live_lock = threading.Lock()
_trace_lock = threading.Lock()


def kill_all():
    """Kill and reap every child still running (used on interrupt and at exit)."""
    with _live_lock:
        procs = list(_live)
    for p in procs:
        p.kill()


def _own_group():
    """Popen arguments giving the child a process group of its own, in our session.

    Not a session of its own (setsid): Linux schedules each session as a group (autogroup), and
    on a loaded machine a child alone in its group got the CPU back about one scheduler tick
    (4 ms) after each line we sent, which was charged to its clock."""
    if os.name != "posix":
        return {}
    if sys.version_info >= (3, 11):
        return {"process_group": 0}
    return {"preexec_fn": os.setpgrp}


class Process:
    """One child process speaking a line protocol on stdin/stdout.

    ``trace``: a file every line sent and received is written to, timestamped. ``stderr_path``:
    where the child's stderr goes (created on its first byte); None drops it."""

    def __init__(self, argv, cwd=None, label="", trace=None, stderr_path=None, env=None):
        self.label = label or os.path.basename(argv[0])
        self.argv = list(argv)
        self._trace = trace
        self.lines = queue.Queue()
        self._wq = queue.Queue()
        self._sink_lock = threading.Lock()
        self._sink_path = stderr_path
        self._sink = None
        self._killed = False
        self.eof = False
        self.eof_time = None
        self._late = None  # a line that arrived after a read's deadline, kept for the next read
        try:
            self._p = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                **_own_group(),
            )
        except (OSError, ValueError) as e:
            raise EngineStartError("cannot start %r: %s" % (" ".join(self.argv), e))
        with _live_lock:
            _live.add(self)
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._write_stdin, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for t in self._threads:
            t.start()

    @property
    def pid(self):
        return self._p.pid

    def exit_status(self, wait=0.5):
        """The exit code once the child has ended (waiting up to ``wait`` s), else None."""
        try:
            return self._p.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def alive(self):
        return not self.eof and not self._killed

    # ---- I/O -------------------------------------------------------------------------------

    def send(self, line):
        """Queue a line (text, or bytes sent as they are) for the child; returns the time it was
        queued (a move's clock starts then, so the writer's latency never favours the engine)."""
        now = time.monotonic()
        if isinstance(line, bytes):
            self._log(">", line.decode("utf-8", "replace"))
            self._wq.put(line + b"\n")
        else:
            self._log(">", line)
            self._wq.put((line + "\n").encode("utf-8", "replace"))
        return now

    def read(self, deadline, abort=None):
        """The next stdout line as (arrival time, text) before ``deadline`` (monotonic).

        Raises EngineTimeout, EngineExited (sticky: every later read raises it too) or Aborted
        (``abort``, a threading.Event, was set). A line that arrived after the deadline raises
        EngineTimeout too and is kept for the next read: a child flooding its output cannot keep
        a reader past its deadline however fast it writes."""
        while True:
            if abort is not None and abort.is_set():
                raise Aborted()
            if self._late is not None:
                item, self._late = self._late, None
            else:
                left = deadline - time.monotonic()
                try:
                    if left <= 0:
                        item = self.lines.get_nowait()
                    else:
                        item = self.lines.get(timeout=min(left, POLL))
                except queue.Empty:
                    if time.monotonic() >= deadline:
                        raise EngineTimeout("%s sent nothing before the deadline" % self.label)
                    continue
            if item[1] is not None and item[0] > deadline:
                self._late = item
                raise EngineTimeout("%s sent no answer before the deadline" % self.label)
            if item[1] is None:
                self.eof = True
                self.eof_time = item[0]
                self.lines.put(item)  # keep EOF visible to later reads
                if abort is not None and abort.is_set():
                    raise Aborted()  # killed because the caller stopped: not the child's fault
                raise EngineExited("%s exited (status %s)" % (self.label, self.exit_status()))
            return item

    def drain(self):
        """Discard the lines already received (never blocks)."""
        self._late = None
        while True:
            try:
                item = self.lines.get_nowait()
            except queue.Empty:
                return
            if item[1] is None:
                self.eof = True
                self.lines.put(item)
                return

    def set_stderr_sink(self, path):
        """Send the child's stderr from now on to ``path`` (created on the first byte), or drop it."""
        with self._sink_lock:
            if self._sink is not None:
                self._sink.close()
                self._sink = None
            self._sink_path = path

    # ---- shutdown --------------------------------------------------------------------------

    def close(self, quit_line=None, timeout=1.0):
        """Ask the child to exit (quit line, then end of input); kill it if it does not."""
        if self._killed:
            return
        if quit_line is not None and not self.eof:
            self.send(quit_line)
        self._wq.put(_CLOSE)
        try:
            self._p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self):
        """Kill the child and its process group, reap it, and stop the helper threads."""
        if self._killed:
            return
        self._killed = True
        # Only signal while the child is unreaped: its pid (and group id) cannot be reused then.
        if self._p.returncode is None:
            try:
                if os.name == "posix":
                    os.killpg(self._p.pid, signal.SIGKILL)
                else:
                    self._p.kill()
            except OSError:
                pass
        try:
            self._p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self._wq.put(_STOP)
        for t in self._threads:
            t.join(timeout=1.0)
        for f in (self._p.stdin, self._p.stdout, self._p.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass
        with self._sink_lock:
            if self._sink is not None:
                self._sink.close()
                self._sink = None
        with _live_lock:
            _live.discard(self)

    # ---- threads ---------------------------------------------------------------------------

    def _log(self, direction, text):
        if self._trace is not None:
            with _trace_lock:  # one lock for all children: they share the trace file
                try:
                    self._trace.write("%.3f %s %s %s\n" % (time.monotonic(), self.label, direction, text))
                    self._trace.flush()
                except (OSError, ValueError):
                    pass

    def _read_stdout(self):
        f = self._p.stdout
        try:
            while True:
                raw = f.readline(MAX_LINE)
                if not raw:
                    break
                now = time.monotonic()
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                self._log("<", text)
                self.lines.put((now, text))
        except (OSError, ValueError):
            pass
        self.lines.put((time.monotonic(), None))

    def _write_stdin(self):
        f = self._p.stdin
        while True:
            item = self._wq.get()
            if item is _STOP:
                return
            try:
                if item is _CLOSE:
                    f.close()
                    return
                f.write(item)
                f.flush()
            except (OSError, ValueError):
                return  # the child is gone or stopped reading; the reader will notice

    def _read_stderr(self):
        f = self._p.stderr
        try:
            while True:
                raw = f.readline(MAX_LINE)
                if not raw:
                    return
                with self._sink_lock:
                    if self._sink is None and self._sink_path is not None:
                        try:
                            self._sink = open(self._sink_path, "ab")
                        except OSError:
                            self._sink_path = None
                    if self._sink is not None:
                        self._sink.write(raw)
                        self._sink.flush()
        except (OSError, ValueError):
            pass
