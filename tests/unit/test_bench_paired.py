"""python3 -m benchmarks.paired: each variant is played against one run of the current guess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*variants: str) -> subprocess.CompletedProcess:
    extra = [arg for variant in variants for arg in ("--variant", variant)]
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.paired", "--level", "beginner", "--games", "40",
         "--seed", "4", *extra], capture_output=True, text=True, timeout=900, cwd=ROOT)


def test_each_variant_starts_from_the_current_settings_not_from_the_one_before() -> None:
    # The first variant changes some of these games; the second is the current guess itself, so
    # it can differ in no game unless it inherited the first one's settings.
    done = run("depth=1,ltr=0,layouts=1", "cutoff=0.9")
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if "paired games" in line]
    assert len(lines) == 2, done.stdout
    first, second = lines
    assert first.split("current ")[1].split(" won")[0] == second.split("current ")[1].split(" won")[0]
    assert "won only by current 0, only by depth=1,ltr=0,layouts=1 0" not in first, done.stdout
    assert second.endswith("won only by current 0, only by cutoff=0.9 0"), done.stdout


def test_an_unknown_setting_stops_the_run_before_any_game_with_one_line() -> None:
    done = run("cutoff=0.9", "pockets=1")  # (a dropped option: docs/experiments.md)
    assert done.returncode == 2
    assert "unknown setting 'pockets=1'" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "paired games" not in done.stdout  # nothing was played
