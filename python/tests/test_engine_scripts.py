"""The measuring scripts in scripts/ that speak through the engine client, each run small
against this build (the arena, the tuner and hostile.py have tests of their own under tests/).
Each run is bounded by a subprocess timeout."""

import json
import os
import subprocess
import sys

from engine_paths import REPO, tetrad_bin
from tetrad.engine import Engine

TIMEOUT = 120


def script(name, *args):
    out = subprocess.run([sys.executable, os.path.join(REPO, "scripts", name)] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         timeout=TIMEOUT, cwd=REPO)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def test_latency():
    out = script("latency.py", "--bin", tetrad_bin(), "--runs", "2", "--game", "diamond")
    assert "diamond        go depth 1 round trip ms: median" in out
    assert "stop->bestmove ms" in out and "go 1s+10ms clock" in out


def test_ttd(tmp_path):
    with Engine.popen([tetrad_bin()], protocol="gtp") as e:
        e.command("set_game poddavki")
        start = e.command("get_position")
        e.command("set_option nodes 200")
        moves = [e.command("genmove") for _ in range(12)]
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps({"game_name": "poddavki", "start": start, "opening": [],
                                 "moves": [{"move": m} for m in moves]}) + "\n")
    out = script("ttd.py", "--games", str(games), "--depth", "3", "--every", "3",
                 tetrad_bin() + ":1", tetrad_bin() + ":2")
    assert out.startswith("2 positions of poddavki, depth 3\n")
    assert out.count("total") == 2


def test_egdb_openings():
    out = script("egdb_openings.py", "--bin", tetrad_bin(), "--count", "1", "--nodes", "200")
    position = out.strip()
    assert position.count("\n") == 0 and position[:2] in ("W:", "B:")
    with Engine.popen([tetrad_bin()], protocol="gtp") as e:
        e.command("set_game poddavki")
        e.command("set_position " + position)  # the engine takes it back
        assert e.command("game_result") == "ongoing"


def test_dense_genmove(tmp_path):
    with Engine.popen([tetrad_bin()], protocol="gtp") as e:
        e.command("set_game phutball")
        start = e.command("get_position")
    positions = tmp_path / "positions.txt"
    positions.write_text(start + "\n")
    out = script("dense_genmove.py", "--bin", tetrad_bin(), "--movetime", "50", "--file", str(positions))
    assert "| genmove " in out and "| get_position " in out and "peak RSS" in out


def test_egdb_startup(tmp_path):
    built = subprocess.run([tetrad_bin(), "egdb", "build", "--game", "poddavki", "--pieces", "3",
                            "--dir", str(tmp_path), "--threads", "1"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    assert built.returncode == 0, built.stderr
    out = script("egdb_startup.py", "--bin", tetrad_bin(), "--dir", str(tmp_path), "--pieces", "3",
                 "--positions", "50")
    assert "set_option egdb_path + first egdb_probe:" in out
    assert "50 random positions of 2 to 3 pieces probed" in out and "error" not in out
    assert "resident after them:" in out


def test_bench_runs():
    """python/bench.py, the speed figures in python/README.md, run for a moment."""
    out = subprocess.run([sys.executable, os.path.join(REPO, "python", "bench.py"),
                          "--seconds", "0.05", "--rounds", "1", "--engine", tetrad_bin()],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=TIMEOUT, cwd=REPO)
    assert out.returncode == 0, out.stdout + out.stderr
    for line in ("VecEnv('poddavki', 1024), first  policy:", "ratio:",
                 "State.legal_moves() + play():", "the same over GTP (engine client):"):
        assert line in out.stdout, out.stdout


def test_network_probe(tmp_path):
    """The probe on `tetrad train --inputs` of a few self-play games: its linear line is the
    trainer's held-out loss for those weights, and training lowers its training loss."""
    data, weights, inputs = tmp_path / "data.tsv", tmp_path / "w.txt", tmp_path / "inputs.tsv"
    with open(data, "w") as f:
        subprocess.run([tetrad_bin(), "selfplay", "--game", "poddavki", "--games", "30", "--nodes",
                        "100", "--random-plies", "6", "--seed", "5"], stdout=f, check=True,
                       stderr=subprocess.DEVNULL, timeout=TIMEOUT)
    train = subprocess.run([tetrad_bin(), "train", "--game", "poddavki", "--data", str(data),
                            "--out", str(weights), "--inputs", str(inputs), "--epochs", "2",
                            "--holdout-every", "5"], stderr=subprocess.PIPE,
                           universal_newlines=True, check=True, timeout=TIMEOUT).stderr
    held = train.split("held-out positions: ")[1].split(", ")[1].split()[0]
    out = script(os.path.join("tune", "network_probe.py"), "--inputs", str(inputs), "--weights",
                 str(weights), "--holdout-every", "5", "--epochs", "6", "--learning-rate", "0.01",
                 "--batch", "64")
    lines = out.splitlines()
    linear = lines[1]
    assert linear.startswith("linear weights alone:"), out
    assert abs(float(linear.split("held out ")[1].split(",")[0]) - float(held)) < 2e-5, (linear, train)
    losses = [float(l.split("training ")[1].split(",")[0]) for l in lines[2:]]
    assert len(losses) == 7 and losses[-1] < losses[0], out
