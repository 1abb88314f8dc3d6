"""A single-node Slurm cluster on the loopback address, from Debian's packages (slurmctld,
slurmd, slurm-client, munge), for the test of ARENA.md's Slurm recipe.

Everything lives in one temporary directory: the munge key, socket and logs, slurm.conf (found
by the daemons and by sbatch/squeue through SLURM_CONF), the state and spool directories. The
daemons run in the foreground as children of this object, on free high ports of 127.0.0.1, and
``stop()`` (also run at exit) ends them whatever happened. The system's own munge and Slurm
configuration are neither read nor touched.

Run as a script, it starts a cluster and waits, printing the SLURM_CONF to export, so that the
recipe can be tried by hand: ``python3 tests/arena/loopback_slurm.py``.
"""

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from loopback_ssh import free_port  # noqa: E402

TOOLS = (("munged", "munge"), ("mungekey", "munge"), ("slurmctld", "slurmctld"), ("slurmd", "slurmd"),
         ("sbatch", "slurm-client"), ("squeue", "slurm-client"), ("sinfo", "slurm-client"))
NODE = "arenanode"


def _which(tool):
    return shutil.which(tool) or next((p for p in ("/usr/sbin/" + tool, "/sbin/" + tool) if os.access(p, os.X_OK)), None)


def missing_packages():
    """The Debian packages of the tools this cluster needs that the system lacks."""
    out = []
    for tool, package in TOOLS:
        if not _which(tool) and package not in out:
            out.append(package)
    return out


class LoopbackSlurm:
    def __init__(self, cpus=2):
        self.dir = tempfile.mkdtemp(prefix="arena-slurm-")
        os.chmod(self.dir, 0o755)
        self.procs = []
        self.cpus = cpus
        atexit.register(self.stop)
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def path(self, name):
        return os.path.join(self.dir, name)

    def env(self):
        """The environment for sbatch, squeue and the jobs: this cluster's configuration."""
        return dict(os.environ, SLURM_CONF=self.path("slurm.conf"))

    def _spawn(self, name, argv):
        log = open(self.path(name + ".out"), "ab")
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=self.env(),
                                    start_new_session=True)
        finally:
            log.close()
        self.procs.append((name, proc))
        return proc

    def _start(self):
        for d in ("munge", "state", "spool"):
            os.makedirs(self.path(d), mode=0o700)
        key = self.path("munge/munge.key")
        subprocess.run([_which("mungekey"), "--create", "--keyfile", key], check=True, timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.chmod(key, 0o600)
        sock = self.path("munge/munge.socket")
        # --force: munged refuses to run as root otherwise; --origin: the loopback, not the
        # address the host name resolves to
        self._spawn("munged", [_which("munged"), "--foreground", "--force", "--socket", sock, "--key-file", key,
                               "--pid-file", self.path("munge/munged.pid"), "--log-file", self.path("munge/munged.log"),
                               "--seed-file", self.path("munge/munged.seed"), "--origin", "127.0.0.1"])
        self._wait(lambda: os.path.exists(sock), "munged")
        ctl_port, node_port = free_port(), free_port()
        host = socket.gethostname().split(".")[0]
        user = "root" if os.getuid() == 0 else os.environ.get("USER", "root")
        conf = [
            "ClusterName=arena",
            # slurmctld recognises itself by the host name; the address is the loopback
            "SlurmctldHost=%s(127.0.0.1)" % host,
            "SlurmctldPort=%d" % ctl_port,
            "SlurmdPort=%d" % node_port,
            "SlurmUser=" + user,
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            "AuthInfo=socket=" + sock,
            "StateSaveLocation=" + self.path("state"),
            "SlurmdSpoolDir=" + self.path("spool"),
            "SlurmctldPidFile=" + self.path("slurmctld.pid"),
            "SlurmdPidFile=" + self.path("slurmd.pid"),
            "SlurmctldLogFile=" + self.path("slurmctld.log"),
            "SlurmdLogFile=" + self.path("slurmd.log"),
            # no cgroups: the test may run in a container
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "SchedulerType=sched/backfill",
            # a job whose dependency failed is cancelled rather than left pending for ever
            "SchedulerParameters=kill_invalid_depend",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "JobAcctGatherType=jobacct_gather/none",
            "MpiDefault=none",
            "SwitchType=switch/none",
            "ReturnToService=2",
            "SlurmdTimeout=60",
            "NodeName=%s NodeAddr=127.0.0.1 NodeHostname=%s CPUs=%d State=UNKNOWN" % (NODE, host, self.cpus),
            "PartitionName=arena Nodes=%s Default=YES MaxTime=INFINITE State=UP" % NODE,
        ]
        with open(self.path("slurm.conf"), "w", encoding="ascii") as f:
            f.write("\n".join(conf) + "\n")
        # -D: foreground, so that this object owns the daemons; -i: forget any earlier state
        self._spawn("slurmctld", [_which("slurmctld"), "-D", "-i"])
        self._spawn("slurmd", [_which("slurmd"), "-D", "-N", NODE])
        self._wait(self._node_idle, "the node to be idle")

    def _node_idle(self):
        p = subprocess.run([_which("sinfo"), "-h", "-N", "-o", "%t"], env=self.env(), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=30)
        return p.returncode == 0 and p.stdout.decode().split() == ["idle"]

    def _wait(self, ready, what, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, proc in self.procs:
                if proc.poll() is not None:
                    raise RuntimeError("%s exited (%s) while waiting for %s:\n%s" % (name, proc.returncode, what, self.logs()))
            if ready():
                return
            time.sleep(0.2)
        raise RuntimeError("timed out waiting for %s:\n%s" % (what, self.logs()))

    def logs(self):
        out = []
        for name in ("munged.out", "munge/munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"):
            try:
                with open(self.path(name), encoding="utf-8", errors="replace") as f:
                    out.append("--- %s\n%s" % (name, f.read()[-3000:]))
            except OSError:
                pass
        return "\n".join(out)

    def queue_empty(self):
        p = subprocess.run([_which("squeue"), "-h", "-o", "%i"], env=self.env(), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=30)
        return p.returncode == 0 and not p.stdout.strip()

    def wait_idle(self, timeout):
        """Wait until no job is pending or running."""
        self._wait(self.queue_empty, "the jobs to finish", timeout)

    def stop(self):
        # slurmd first: it ends its job steps; munged last, which the others authenticate with
        for name, proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    proc.wait(timeout=10)
        self.procs = []
        if os.path.isdir(self.dir):
            shutil.rmtree(self.dir, True)


if __name__ == "__main__":
    lacking = missing_packages()
    if lacking:
        sys.exit("missing: apt-get install %s" % " ".join(lacking))
    cluster = LoopbackSlurm()
    print("single-node Slurm running; in another shell:\n  export SLURM_CONF=%s\nCtrl-C stops it." % cluster.path("slurm.conf"))
    try:
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
