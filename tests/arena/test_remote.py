"""Matches across machines, for real: ARENA.md's recipes, run as they stand. The GNU parallel
``--sshloginfile`` recipe against an OpenSSH server on 127.0.0.1 (two ports, two machines: see
loopback_ssh.py), its shards fetched back with ``--return`` and merged; the Slurm recipe (job
array, then the merge as a dependent job) on a single-node Slurm in a network namespace with
only the loopback interface (loopback_slurm.py); each merge equal to the match played in one
run. And an interrupted shard, played again alone and merged, loses nothing.

Needs Debian's openssh-server, openssh-client, rsync, parallel, slurmctld, slurmd,
slurm-client and munge (``.ci/run`` installs them), and root for the Slurm test's network
namespace. Without them the test is skipped with a message naming what is missing, unless
ARENA_REQUIRE_TEST_DEPS=1 (as in CI).
"""

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import (ARENA, FAKE_REFEREE, HERE, PY, Run, checkout, doc_blocks, fake,  # noqa: E402
                           missing_dependency, run_arena)
from loopback_slurm import missing_packages  # noqa: E402
from loopback_ssh import LoopbackSsh, missing_tools  # noqa: E402
from test_shards import assert_same_as_one_run, merge, tmpdir  # noqa: E402
from test_tetrad import needs  # noqa: E402


def one_run_argv(recipe):
    """The arena command of a recipe (``parallel ... python3 scripts/arena.py ... ::: ...``, or
    a job script's ``python3 scripts/arena.py ...``), without its ``--shard`` and ``--out``: the
    same match played in one run."""
    line = next(x for x in recipe.replace("\\\n", " ").splitlines() if "python3 scripts/arena.py --" in x)
    words = shlex.split(line)
    words = words[words.index("python3"):]
    words = words[:words.index(":::")] if ":::" in words else words
    out = []
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w in ("--shard", "--out"):
            skip = True
        else:
            out.append(w)
    return out


def run_in(cwd, argv, outdir, timeout=300):
    p = subprocess.run([PY] + argv[1:] + ["--out", outdir], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return Run(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), outdir)


class SshRecipeTest(unittest.TestCase):
    """ARENA.md's ``<!-- recipe: ssh -->`` block over two loopback ssh machines."""

    def test_recipe_over_ssh_equals_one_run(self):
        needs("poddavki")
        lacking = missing_tools()
        if lacking:
            missing_dependency("the ssh recipe test needs %s (apt-get install %s)"
                               % (", ".join(lacking), " ".join(lacking)))
        [(_, recipe)] = doc_blocks("scripts/ARENA.md", "ssh")
        ssh = LoopbackSsh(("box1", "box2"))
        try:
            for host in ssh.hosts:
                checkout(os.path.join(ssh.home(host), "tetrad"))
                code, out, err = ssh.ssh(host, "pwd")
                self.assertEqual((code, out.strip()), (0, ssh.home(host)), err)
            local = tmpdir()
            checkout(local)
            with open(os.path.join(local, "hosts.txt"), "w", encoding="ascii") as f:
                f.write("".join("1/%s\n" % h for h in ssh.hosts))
            p = subprocess.run(["sh", "-e", "-c", recipe], cwd=local, env=ssh.env(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=600)
            out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
            self.assertEqual(p.returncode, 0, out + err)
            shard_dirs = sorted(d for d in os.listdir(local) if d.startswith("shard"))
            self.assertEqual(shard_dirs, ["shard1", "shard2", "shard3", "shard4"])
            played = {}
            for host in ssh.hosts:
                remote = os.path.join(ssh.home(host), "tetrad")
                here = sorted(d for d in os.listdir(remote) if d.startswith("shard"))
                self.assertTrue(here, "no shard was played on " + host)
                for d in here:
                    self.assertNotIn(d, played, "%s played on %s and %s" % (d, played.get(d), host))
                    played[d] = host
                    # the local directory is the copy --return fetched from that machine
                    for name in ("games.jsonl", "match.json", "games.pgn"):
                        with open(os.path.join(remote, d, name), "rb") as a, open(os.path.join(local, d, name), "rb") as b:
                            self.assertEqual(a.read(), b.read(), "%s/%s from %s" % (d, name, host))
            self.assertEqual(sorted(played), shard_dirs)
            with open(os.path.join(local, "results", "summary.txt"), encoding="utf-8") as f:
                merged = Run(0, f.read(), err, os.path.join(local, "results"))
            # the shards' reports are printed first, the merge's last
            self.assertTrue(out.endswith(merged.out), out)
            whole = run_in(local, one_run_argv(recipe), tmpdir())
            self.assertEqual(whole.code, 0, whole)
            assert_same_as_one_run(self, merged, whole, 16)
            self.assertTrue(merged.out.startswith("Merged 4 of 4 shards: poddavki, d2 vs d1, 16 games, seed 21\n"),
                            merged.out)
        finally:
            ssh.stop()


class SlurmRecipeTest(unittest.TestCase):
    """ARENA.md's ``<!-- recipe: slurm -->`` blocks (a job array, then the merge as a job
    depending on it) on a single-node Slurm, in a network namespace with only the loopback
    interface (see loopback_slurm.py)."""

    def test_recipe_on_slurm_equals_one_run(self):
        needs("poddavki")
        lacking = missing_packages() + ([] if shutil.which("unshare") else ["util-linux"])
        if lacking:
            missing_dependency("the Slurm recipe test needs %s (apt-get install %s)"
                               % (", ".join(lacking), " ".join(lacking)))
        if os.getuid() != 0:
            missing_dependency("the Slurm recipe test runs Slurm in a network namespace of its own "
                               "(unshare --net), which needs root")
        blocks = dict(doc_blocks("scripts/ARENA.md", "slurm"))
        submit_dir = tmpdir()
        checkout(submit_dir)
        with open(os.path.join(submit_dir, "arena.sbatch"), "w", encoding="utf-8") as f:
            f.write(blocks["arena.sbatch"])
        argv = ["unshare", "--net", "--", PY, os.path.join(HERE, "loopback_slurm.py"), "--timeout", "600", "--",
                "sh", "-e", "-c", blocks[None]]
        proc = subprocess.Popen(argv, cwd=submit_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=700)
        finally:
            if proc.poll() is None:
                proc.terminate()  # the cluster stops on SIGTERM
                proc.communicate(timeout=60)
        job_logs = ""
        for name in sorted(os.listdir(submit_dir)):
            if name.endswith((".log", ".out")):
                with open(os.path.join(submit_dir, name), encoding="utf-8", errors="replace") as f:
                    job_logs += "--- %s\n%s" % (name, f.read())
        report = out.decode("utf-8", "replace") + err.decode("utf-8", "replace") + job_logs
        self.assertEqual(proc.returncode, 0, report)
        results = os.path.join(submit_dir, "results")
        self.assertEqual(sorted(os.listdir(results)), ["all", "shard1", "shard2", "shard3", "shard4"], report)
        with open(os.path.join(results, "all", "summary.txt"), encoding="utf-8") as f:
            merged = Run(0, f.read(), "", os.path.join(results, "all"))
        self.assertTrue(merged.out.startswith("Merged 4 of 4 shards: poddavki, d2 vs d1, 16 games, seed 21\n"),
                        merged.out)
        whole = run_in(submit_dir, one_run_argv(blocks["arena.sbatch"]), tmpdir())
        self.assertEqual(whole.code, 0, whole)
        assert_same_as_one_run(self, merged, whole, 16)


class InterruptedShardTest(unittest.TestCase):
    """A shard stopped half-way (SIGTERM, as Ctrl-C or a machine going down) is played again
    alone into its directory; merged with the others it gives the match of one run."""

    def test_interrupted_shard_replayed_alone(self):
        flag = os.path.join(tmpdir(), "hung")
        # The same engine spec everywhere (the merge compares them): the fake hangs at its 8th
        # move (in its second game) once per FILE, and the file exists except for the run that
        # is interrupted.
        engines = [fake("a", "--seed-per-game", proto="gtp"),
                   fake("b", "--seed-per-game", "--fault", "hang", "--fault-at-total", "8", "--once", flag,
                        proto="gtp")]
        args = ["--games", 8, "--seed", 3, "--random-plies", 2, "--tc", "inf", "--move-timeout", 600]
        open(flag, "w").close()
        whole = run_arena(engines, *args)
        self.assertEqual(whole.code, 0, whole)
        s1 = run_arena(engines, *args, "--shard", "1/2")
        self.assertEqual(s1.code, 0, s1)
        os.remove(flag)

        s2dir = tmpdir()
        argv = [PY, ARENA, "--game", "toy", "--out", s2dir, "--quiet", "--referee", FAKE_REFEREE]
        for e in engines:
            argv += ["--engine", e]
        argv += [str(a) for a in args] + ["--shard", "2/2"]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            # The flag appears when the engine hangs: the games finished by then are fixed.
            deadline = time.monotonic() + 120
            while not os.path.exists(flag):
                self.assertIsNone(proc.poll(), "the shard ended before the engine hung")
                self.assertLess(time.monotonic(), deadline, "the engine never hung")
                time.sleep(0.02)
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        cut = Run(proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), s2dir)
        planned = 4
        self.assertLess(len(cut.games), planned, cut)
        self.assertGreater(len(cut.games), 0, cut)

        partial = merge(s1.dir, cut.dir)
        self.assertEqual(partial.code, 0, partial)
        self.assertIn("arena merge: shard 2/2 is incomplete: %d of %d games; play it again with --shard 2/2 (%s)"
                      % (len(cut.games), planned, cut.dir), partial.err)
        self.assertIn("%d of 8 games finished." % (len(s1.games) + len(cut.games)), partial.out)

        again = run_arena(engines, *args, "--shard", "2/2", outdir=s2dir)
        self.assertEqual(again.code, 0, again)
        self.assertEqual(len(again.games), planned)
        m = merge(s1.dir, again.dir)
        self.assertEqual(m.code, 0, m)
        self.assertNotIn("incomplete", m.err)
        assert_same_as_one_run(self, m, whole, 8)


if __name__ == "__main__":
    unittest.main()
