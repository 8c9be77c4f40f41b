"""Simulated runs on a Dask cluster (bot.games.engines) and streamed to a results file that a
run resumes from (bot.games.results_file): the same games and totals as `--jobs`, whatever
the engine, and every game counted once after a lost worker or a killed run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bot.errors import BotError
from bot.games import bench
from bot.games.engines import DaskCluster, Games, Processes
from bot.games.results_file import ResultsFile
from bot.games.simulator import parse_level

ROOT = Path(__file__).resolve().parents[2]
LEVEL = parse_level("intermediate")
TOTALS = ("games", "wins", "decisions", "guesses_per_game", "mean_3bv")


def needs_dask() -> None:
    pytest.importorskip("distributed", reason="Dask's distributed scheduler is not installed: "
                        "pip install -r requirements.txt (or minesweeper-bot[cluster])")


def totals(result: dict) -> dict:
    return {k: result[k] for k in TOTALS}


def indices_in(path: Path) -> list[int]:
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["run"]["seed"] == 5
    return [json.loads(line)["game"] for line in lines[1:]]


def test_a_results_file_resumes_its_run_and_refuses_another(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    first = bench.run(LEVEL, "safe", 30, seed=5, results=path)
    with open(path, "a") as out:
        out.write('{"seed": 5, "game": 31, "won": tr')  # a line cut short by a crash: played again
    again = bench.run(LEVEL, "safe", 60, seed=5, results=path)
    whole = bench.run(LEVEL, "safe", 60, seed=5)
    assert first["games"] == 30 and totals(again) | {"decisions": 0} == totals(whole) | {"decisions": 0}
    assert sorted(indices_in(path)) == list(range(60))  # each game once, none lost
    with pytest.raises(BotError, match="holds another run"):
        bench.run(LEVEL, "safe", 60, seed=6, results=path)
    (tmp_path / "notes.txt").write_text("my notes\n")
    with pytest.raises(BotError, match="not a results file"):
        list(ResultsFile(tmp_path / "notes.txt", {"seed": 5}).games())
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"  # (never written over)


def test_every_engine_plays_the_same_games() -> None:
    games = Games(LEVEL, "safe", 5)
    alone = dict(Processes(1).play(games, range(40)))
    with Processes(2) as pool:
        pooled = dict(pool.play(games, range(40)))
    assert sorted(alone) == sorted(pooled) == list(range(40))
    assert all((alone[i].won, alone[i].clicks) == (pooled[i].won, pooled[i].clicks) for i in alone)


@pytest.mark.full  # (a local cluster of two processes: some seconds to start)
def test_a_local_cluster_gives_the_totals_of_jobs_and_survives_a_killed_worker(tmp_path: Path) -> None:
    needs_dask()
    games = 240
    expected = totals(bench.run(LEVEL, "safe", games, seed=5, jobs=2))
    with DaskCluster(None, workers=2) as cluster:
        assert totals(bench.run(LEVEL, "safe", games, seed=5, engine=cluster)) == expected
    # A worker killed once a third of the games are in: the scheduler plays its blocks elsewhere.
    path = tmp_path / "killed.jsonl"
    killed: list[int] = []
    with DaskCluster(None, workers=2) as cluster:
        def kill_one(done: int, total: int, wins: int, rate: float) -> None:
            if done >= games // 3 and not killed:
                pids = sorted(cluster.client.run(os.getpid).values())
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
        result = bench.run(LEVEL, "safe", games, seed=5, engine=cluster, progress=kill_one, results=path)
    assert killed
    assert {k: result[k] for k in ("games", "wins", "guesses_per_game", "mean_3bv")} == \
        {k: expected[k] for k in ("games", "wins", "guesses_per_game", "mean_3bv")}
    assert sorted(indices_in(path)) == list(range(games))


@pytest.mark.full  # (two runs of the command, on a local cluster)
def test_a_run_killed_mid_way_resumes_from_its_file_with_every_game_once(tmp_path: Path) -> None:
    needs_dask()
    path = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "bot", "bench", "--level", "intermediate", "--games", "400", "--seed", "5",
               "--cluster", "--jobs", "2", "--results", str(path), "--json"]
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None and \
            (not path.exists() or path.read_text().count("\n") < 100):
        time.sleep(0.05)
    assert run.poll() is None, "the run ended before it could be killed"
    os.killpg(run.pid, signal.SIGKILL)  # (the run and its cluster: a machine that went down)
    run.wait(60)
    cut = len(indices_in(path))
    assert 99 <= cut < 400
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    resumed = json.loads(done.stdout)
    assert sorted(indices_in(path)) == list(range(400))
    whole = bench.run(LEVEL, "safe", 400, seed=5, jobs=2)
    assert {k: resumed[k] for k in ("games", "wins", "guesses_per_game", "mean_3bv")} == \
        {k: whole[k] for k in ("games", "wins", "guesses_per_game", "mean_3bv")}
    assert resumed["decisions"] < whole["decisions"]  # (the games read back were not played again)


def test_no_scheduler_at_the_address_is_a_one_line_error() -> None:
    needs_dask()
    with pytest.raises(BotError) as caught, DaskCluster("tcp://127.0.0.1:9", timeout=2):
        pass
    assert str(caught.value).startswith("no Dask scheduler at tcp://127.0.0.1:9:") and "\n" not in str(caught.value)


def test_past_its_bound_the_decision_times_kept_are_a_uniform_sample(monkeypatch) -> None:
    """Up to the bound every time is kept; past it each time seen stays with the same chance, the
    first ones as the last (the sample's mean near the mean of all, its percentiles near theirs)."""
    from bot.games.headless import GameRecord

    monkeypatch.setattr(bench, "KEPT_LATENCIES", 1_000)
    tally = bench.Tally()
    for game in range(100):  # times 0..9 999, in order: a biased sample would lean to the late ones
        tally.add(GameRecord(True, 1, 1, 0, 0.0, [float(100 * game + i) for i in range(100)]))
    kept = np.concatenate(tally.latencies)
    assert tally.decisions == 10_000 and len(kept) == 1_000 and len(set(kept.tolist())) == 1_000
    assert abs(kept.mean() - 4_999.5) < 400 and abs(np.percentile(kept, 10) - 1_000) < 300
    few = bench.Tally()
    few.add(GameRecord(True, 1, 1, 0, 0.0, [1.0, 2.0, 3.0]))
    assert np.concatenate(few.latencies).tolist() == [1.0, 2.0, 3.0]
