"""python3 -m benchmarks.oracle: another solver's guesses reach the games through its line protocol."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: A stand-in solver that cheats: it answers a covered cell holding no mine (the protocol gives it
#: every mine), so with its guesses no game can be lost.
SEER = """
import sys
for line in sys.stdin:
    head, opened = line.strip().split(";")
    cols, rows, mines = head.split(" ")
    mines = {int(i) for i in mines.split(",") if i}
    opened = {int(i) for i in opened.split(",") if i}
    print("a line to skip")
    free = [i for i in range(int(cols) * int(rows)) if i not in mines and i not in opened]
    print(f"{free[-1] // int(cols)} {free[-1] % int(cols)}" if free else "none", flush=True)
"""


def run(oracle: str, *extra: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.oracle", "--oracle", oracle, "--level", "beginner",
         "--games", "30", "--seed", "4", *extra], capture_output=True, text=True, timeout=600, check=True,
        cwd=ROOT)
    return done.stdout


def test_a_perfect_guesser_wins_every_game_the_bot_alone_loses(tmp_path: Path) -> None:
    seer = tmp_path / "seer.py"
    seer.write_text(SEER)
    out = run(f"{sys.executable} {seer}")
    first = out.splitlines()[0]
    assert "with the other's guesses (all) 30;" in first, out
    assert "won only alone 0," in first, out
    alone = int(first.split("the bot alone won ")[1].split(",")[0])
    assert alone < 30, "30 Beginner games all won without a guess: the test proves nothing"


def test_guesses_of_other_kinds_are_not_taken(tmp_path: Path) -> None:
    seer = tmp_path / "seer.py"
    seer.write_text(SEER)
    out = run(f"{sys.executable} {seer}", "--take", "XX")
    first = out.splitlines()[0]
    alone = first.split("the bot alone won ")[1].split(",")[0]
    assert f"with the other's guesses (XX) {alone};" in first, out
    assert any(f"{k}" in out.splitlines()[-1] for k in ("FF", "FI", "IF", "II")), out


def test_guesses_outside_the_covered_range_are_not_taken(tmp_path: Path) -> None:
    """No Beginner position has 81 or more cells covered once a guess is due: none is taken; with
    the whole range, every game the bot alone lost is won."""
    seer = tmp_path / "seer.py"
    seer.write_text(SEER)
    first = run(f"{sys.executable} {seer}", "--covered", "81:82").splitlines()[0]
    alone = first.split("the bot alone won ")[1].split(",")[0]
    assert f"with the other's guesses (all, covered 81:82) {alone};" in first, first
    assert int(alone) < 30
    every = run(f"{sys.executable} {seer}", "--covered", "0:82").splitlines()[0]
    assert "(all, covered 0:82) 30;" in every, every
