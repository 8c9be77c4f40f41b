"""python3 -m benchmarks.endgame --layouts: a larger search judged, exactly, where only it applies."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-m", "benchmarks.endgame", *args],
                          capture_output=True, text=True, timeout=900, check=True, cwd=ROOT)
    line = done.stdout.strip().splitlines()[-1]
    found = re.search(r": (\d+) positions .* finished (\d+), picked another cell at (\d+) \(a worse one at (\d+)\); "
                      r"exact wins gained (-?[\d.]+)", line)
    assert found, line
    return dict(zip(("positions", "solved", "changed", "worse", "gain"), map(float, found.groups())))


def test_without_its_own_search_the_bot_gains_from_one_and_never_loses() -> None:
    """`--layouts 0:200`: the bot plays without its search, and a search up to 200 layouts is
    judged at every position it takes."""
    tally = run("--level", "beginner", "--games", "30", "--seed", "4", "--layouts", "0:200", "--nodes", "5000",
                "--own-nodes", "5000")
    assert tally["positions"] > 0 and tally["solved"] == tally["positions"]
    assert tally["worse"] == 0 and tally["gain"] >= 0


def test_a_larger_search_is_never_worse_than_the_guess_it_replaces() -> None:
    """Boards 0-59 of seed 2027 meet positions of 200-1 000 layouts; an exact search picks there a
    cell that wins at least as often as the bot's guess, often more."""
    tally = run("--level", "expert", "--games", "60", "--seed", "2027", "--layouts", "200:1000", "--nodes", "60000",
                "--own-nodes", "5000", "--jobs", "2")
    assert tally["positions"] >= 1 and tally["solved"] >= 1
    assert tally["worse"] == 0 and tally["gain"] > 0
