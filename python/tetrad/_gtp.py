"""GTP v2, client side: numbered commands, answers matched by id, stale answers skipped, and
the time commands with their fallback to whole seconds. Part of ``tetrad.engine``."""

import math
import re

_GTP_HEAD = re.compile(r"^([=?])(\d*)\s*(.*)$")


class GtpAnswer:
    """One GTP answer: ``ok`` (``=``) or not (``?``), its text, when its command was sent and
    when its first line arrived (monotonic seconds)."""

    __slots__ = ("ok", "text", "sent", "received")

    def __init__(self, ok, text, sent, received):
        self.ok = ok
        self.text = text
        self.sent = sent
        self.received = received

    def __repr__(self):
        return "GtpAnswer(%s, %r)" % ("=" if self.ok else "?", self.text)


class GtpConnection:
    """GTP v2 over a Process. Commands are numbered, so that a late answer to an abandoned
    command is recognised and skipped instead of being taken for the answer to the next one."""

    def __init__(self, proc, abort=None):
        self.proc = proc
        self.abort = abort
        self._id = 0
        self.noise = None  # the last line seen outside any answer (for error messages)
        self.int_time = False  # the engine wants whole seconds in time_settings/time_left
        self.time_ok = True  # False once it refused those in whole seconds too

    def send(self, command):
        """Send a command; returns (id, time sent)."""
        self._id += 1
        return self._id, self.proc.send("%d %s" % (self._id, command))

    def ask(self, command, timeout):
        """The GtpAnswer to ``command``; raises EngineTimeout, EngineExited or Aborted."""
        cid, sent = self.send(command)
        return self.wait(cid, sent, sent + timeout)

    def wait(self, cid, sent, deadline, tail=2.0):
        """The answer to command ``cid``. ``deadline`` bounds the arrival of its first line;
        once that has arrived, the rest (up to the empty line) gets ``tail`` more seconds."""
        head = None
        body = []
        received = None
        while True:
            limit = deadline if head is None else max(deadline, received + tail)
            t, line = self.proc.read(limit, self.abort)
            text = line.replace("\t", " ").strip()
            if head is None:
                m = _GTP_HEAD.match(text)
                if m is None:
                    if text:
                        self.noise = text
                    continue  # noise outside any answer
                head = m
                received = t
                body = [m.group(3)]
                continue
            if text == "":
                got = head.group(2)
                if got == "" or int(got) == cid:
                    return GtpAnswer(head.group(1) == "=", "\n".join(body).strip(), sent, received)
                head = None  # an old answer: forget it and keep waiting
                continue
            body.append(line.replace("\t", " ").rstrip())  # keep a diagram's indentation

    def time_command(self, fmt, secs, timeout):
        """Send a time command (``fmt`` with one ``%s`` for the seconds), falling back to whole
        seconds if fractional ones are refused, and to nothing if those are refused too."""
        if not self.time_ok:
            return
        while True:
            # whole seconds: at least 1, since some engines read 0 as "no clock"
            value = str(max(1, int(math.floor(secs)))) if self.int_time else _secs(secs)
            a = self.ask(fmt % value, timeout)
            if a.ok:
                return
            if self.int_time:
                self.time_ok = False  # the engine will have to manage without our clock
                return
            self.int_time = True


def _secs(secs):
    return ("%d" % secs) if float(secs).is_integer() else ("%.3f" % secs)
