"""A single-node Slurm cluster on the loopback address, from Debian's packages (slurmctld,
slurmd, slurm-client, munge), for the test of ARENA.md's Slurm recipe.

slurmctld and slurmd listen on every address of the machine, whatever their configuration
says, so the cluster runs in a network namespace of its own that has only the loopback
interface: run this file under ``unshare --net`` (as root). It refuses to start where it sees
any other interface.

    unshare --net python3 tests/arena/loopback_slurm.py -- COMMAND...

brings the loopback interface up, starts the cluster, runs COMMAND (SLURM_CONF set for sbatch
and squeue), waits until the queue is empty, stops the cluster and exits with COMMAND's status
(or 1 if the jobs did not finish). With ``-- bash`` it gives a shell to try the recipe by hand.

Everything lives in one temporary directory: the munge key, socket and logs, slurm.conf, the
state and spool directories. The daemons run in the foreground as children of this process, and
are stopped at the end whatever happened. The system's own munge and Slurm configuration are
neither read nor touched.
"""

import argparse
import atexit
import fcntl
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from loopback_ssh import die_with_parent, free_port  # noqa: E402

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
                                    start_new_session=True, preexec_fn=die_with_parent)
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


def interfaces():
    """The network interfaces this process sees."""
    with open("/proc/net/dev", encoding="ascii") as f:
        return [line.split(":")[0].strip() for line in f.read().splitlines()[2:] if ":" in line]


def loopback_up():
    """Bring ``lo`` up (a new network namespace starts with it down), with a second loopback
    address: the daemons look up their listening address with AI_ADDRCONFIG, which glibc
    answers for IPv4 only once an address other than 127.0.0.1 is configured."""
    siocgifflags, siocsifflags, siocsifaddr, iff_up = 0x8913, 0x8914, 0x8916, 0x1
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        req = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(s, siocgifflags, req))[1]
        if not flags & iff_up:
            fcntl.ioctl(s, siocsifflags, struct.pack("16sh", b"lo", flags | iff_up))
        alias = struct.pack("16sHH4s8x", b"lo:1", socket.AF_INET, 0, socket.inet_aton("127.0.0.2"))
        fcntl.ioctl(s, siocsifaddr, alias)
    finally:
        s.close()


def main(argv):
    ap = argparse.ArgumentParser(description="Run COMMAND against a single-node Slurm on the loopback "
                                             "address (under unshare --net).")
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600, help="seconds to wait for the queue to empty")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give a COMMAND after --")
    lacking = missing_packages()
    if lacking:
        sys.exit("loopback_slurm: missing: apt-get install %s" % " ".join(lacking))
    others = [i for i in interfaces() if i != "lo"]
    if others:
        sys.exit("loopback_slurm: the daemons would listen on %s too; run under unshare --net" % ", ".join(others))
    loopback_up()
    # a test that gives up sends SIGTERM: stop the cluster on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    cluster = LoopbackSlurm(cpus=args.cpus)
    try:
        code = subprocess.call(command, env=cluster.env())
        try:
            cluster.wait_idle(timeout=args.timeout)
        except RuntimeError as e:
            sys.stderr.write("loopback_slurm: %s\n" % e)
            code = code or 1
        if code:
            sys.stderr.write(cluster.logs() + "\n")
        return code
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
