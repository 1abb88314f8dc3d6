"""GTP v2 client side: numbered commands, answers matched by id, stale answers skipped."""

import re


_HEAD = re.compile(r"^([=?])(\d*)\s*(.*)$")


class Answer:
    __slots__ = ("ok", "text", "sent", "received")

    def __init__(self, ok, text, sent, received):
        self.ok = ok
        self.text = text
        self.sent = sent
        self.received = received

    def __repr__(self):
        return "Answer(%s, %r)" % ("=" if self.ok else "?", self.text)


class GtpConn:
    """Talks GTP over a Proc. Ids let a late answer to an abandoned command be recognised
    and skipped instead of being taken for the answer to the next one."""

    def __init__(self, proc, abort=None):
        self.proc = proc
        self.abort = abort
        self._id = 0

    def send(self, command):
        """Send a command; returns (id, time sent)."""
        self._id += 1
        return self._id, self.proc.send("%d %s" % (self._id, command))

    def ask(self, command, timeout):
        cid, sent = self.send(command)
        return self.wait(cid, sent, sent + timeout)

    def wait(self, cid, sent, deadline, tail=2.0):
        """The answer to command ``cid``. ``deadline`` bounds the arrival of its first line;
        once that has arrived, the rest (up to the empty line) gets ``tail`` more seconds.
        Raises Timeout, Eof or Aborted (from Proc.read)."""
        head = None
        body = []
        received = None
        while True:
            limit = deadline if head is None else max(deadline, received + tail)
            t, line = self.proc.read(limit, self.abort)
            text = line.replace("\t", " ").strip()
            if head is None:
                m = _HEAD.match(text)
                if m is None:
                    continue  # noise outside any answer
                head = m
                received = t
                body = [m.group(3)]
                continue
            if text == "":
                got = head.group(2)
                if got == "" or int(got) == cid:
                    return Answer(head.group(1) == "=", "\n".join(body).strip(), sent, received)
                head = None  # an old answer: forget it and keep waiting
                continue
            body.append(line.replace("\t", " ").rstrip())  # keep a diagram's indentation

