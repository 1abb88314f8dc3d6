"""Two ssh "machines" on the loopback address, for the tests of ARENA.md's GNU parallel
recipe: one OpenSSH server started by the test on two free high ports of 127.0.0.1, with a
throw-away host key and a throw-away client key, key-only login, no PAM.

Each port is a machine of its own: its logins start in their own home directory (a
``ForceCommand`` sets HOME and changes into it before running the client's command), so a
shard's directory only reaches the local side if ``parallel --return`` copies it back.

``ssh -F CONFIG box1`` (and ``box2``) log in; ``parallel`` is pointed at that config through
``PARALLEL_SSH``. ``stop()`` (also run at exit) kills the server whatever happened.
"""

import atexit
import ctypes
import getpass
import os
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time

SSHD_CANDIDATES = ("/usr/sbin/sshd", "/usr/local/sbin/sshd")
# Where Debian's sshd, started as root, insists on its privilege-separation directory.
PRIVSEP_DIR = "/run/sshd"

LOGIN = """#!/bin/sh
# The machine behind this port: its own home directory, as a separate host would have.
HOME="$1"
export HOME
cd "$HOME" || exit 1
exec "${SHELL:-/bin/sh}" -c "$SSH_ORIGINAL_COMMAND"
"""


def die_with_parent():
    """For ``preexec_fn``: the daemon is killed if the test process dies, even by SIGKILL (a
    timeout of the test runner), rather than listening on for ever."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def missing_tools():
    """The tools the loopback machines need that this system lacks, as Debian package names."""
    out = []
    if not sshd_path():
        out.append("openssh-server")
    for tool, package in (("ssh", "openssh-client"), ("ssh-keygen", "openssh-client"), ("rsync", "rsync"),
                          ("parallel", "parallel")):
        if not shutil.which(tool) and package not in out:
            out.append(package)
    return out


def sshd_path():
    found = shutil.which("sshd")
    return found or next((p for p in SSHD_CANDIDATES if os.access(p, os.X_OK)), None)


def free_port():
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def _accepts(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            return s.recv(4).startswith(b"SSH-")
    except OSError:
        return False


class LoopbackSsh:
    """``hosts`` names (box1, box2, ...) map to ports of one sshd on 127.0.0.1; ``home(name)``
    is that machine's home directory."""

    def __init__(self, hosts=("box1", "box2")):
        self.dir = tempfile.mkdtemp(prefix="arena-ssh-")
        self.hosts = list(hosts)
        self.proc = None
        self.config = os.path.join(self.dir, "ssh_config")
        atexit.register(self.stop)
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def path(self, name):
        return os.path.join(self.dir, name)

    def home(self, host):
        return self.path("home-" + host)

    def _keygen(self, name):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "arena-test", "-f", self.path(name)],
                       check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, timeout=30)
        with open(self.path(name + ".pub"), encoding="ascii") as f:
            return f.read().strip()

    def _start(self):
        user = getpass.getuser()
        host_key = self._keygen("host_key")
        client_key = self._keygen("client_key")
        with open(self.path("authorized_keys"), "w", encoding="ascii") as f:
            f.write(client_key + "\n")
        login = self.path("login.sh")
        with open(login, "w", encoding="ascii") as f:
            f.write(LOGIN)
        os.chmod(login, 0o755)
        if os.getuid() == 0:
            os.makedirs(PRIVSEP_DIR, mode=0o755, exist_ok=True)
        for attempt in range(5):
            self.ports = {h: free_port() for h in self.hosts}
            if len(set(self.ports.values())) < len(self.hosts):
                continue
            self._write_configs(user, host_key)
            if self._launch():
                return
        raise RuntimeError("sshd did not start on the loopback address:\n" + self._log())

    def _write_configs(self, user, host_key):
        lines = ["ListenAddress 127.0.0.1:%d" % p for p in self.ports.values()]
        lines += [
            "HostKey " + self.path("host_key"),
            "PidFile " + self.path("sshd.pid"),
            "AuthorizedKeysFile " + self.path("authorized_keys"),
            "AuthenticationMethods publickey",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "AllowUsers " + user,
            "UsePAM no",
            # the keys live in a temporary directory, not in a home with sshd's expected modes
            "StrictModes no",
            "PrintMotd no",
            "X11Forwarding no",
            "AllowTcpForwarding no",
            "MaxStartups 50",
            "LogLevel VERBOSE",
        ]
        for h, p in self.ports.items():
            os.makedirs(self.home(h), exist_ok=True)
            lines += ["Match LocalPort %d" % p,
                      "    ForceCommand %s %s" % (shlex.quote(self.path("login.sh")), shlex.quote(self.home(h)))]
        with open(self.path("sshd_config"), "w", encoding="ascii") as f:
            f.write("\n".join(lines) + "\n")
        with open(self.path("host_key.pub"), encoding="ascii") as f:
            host_pub = " ".join(f.read().split()[:2])
        with open(self.path("known_hosts"), "w", encoding="ascii") as f:
            for p in self.ports.values():
                f.write("[127.0.0.1]:%d %s\n" % (p, host_pub))
        client = []
        for h, p in self.ports.items():
            client += ["Host " + h, "    HostName 127.0.0.1", "    Port %d" % p]
        client += [
            "Host *",
            "    User " + user,
            "    IdentityFile " + self.path("client_key"),
            "    IdentitiesOnly yes",
            "    IdentityAgent none",
            "    PasswordAuthentication no",
            "    KbdInteractiveAuthentication no",
            "    BatchMode yes",
            "    StrictHostKeyChecking yes",
            "    UserKnownHostsFile " + self.path("known_hosts"),
            "    GlobalKnownHostsFile /dev/null",
            "    CheckHostIP no",
            "    ControlMaster no",
            "    ControlPath none",
            "    LogLevel ERROR",
        ]
        with open(self.config, "w", encoding="ascii") as f:
            f.write("\n".join(client) + "\n")

    def _launch(self):
        """Start sshd; True once every port answers with an SSH banner, False if it exited
        (a port taken in the meantime: the caller retries with others)."""
        log = open(self.path("sshd.log"), "ab")
        try:
            # -D: stay in the foreground, so this object owns the process; -e: log to the file
            self.proc = subprocess.Popen([sshd_path(), "-D", "-e", "-f", self.path("sshd_config")],
                                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                                         preexec_fn=die_with_parent)
        finally:
            log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                return False
            if all(_accepts(p) for p in self.ports.values()):
                return True
            time.sleep(0.05)
        self._kill()
        return False

    def _log(self):
        try:
            with open(self.path("sshd.log"), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def ssh(self, host, command, timeout=60):
        """Run ``command`` on ``host``: (exit code, stdout, stderr)."""
        p = subprocess.run(["ssh", "-F", self.config, host, command], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def env(self):
        """The environment for ``parallel``: its ssh (and the rsync it runs) use this config."""
        return dict(os.environ, PARALLEL_SSH="ssh -F " + shlex.quote(self.config))

    def _kill(self):
        if self.proc is None:
            return
        # sshd forks a process per connection into its session: end the whole group
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self):
        self._kill()
        if os.path.isdir(self.dir):
            shutil.rmtree(self.dir, True)
