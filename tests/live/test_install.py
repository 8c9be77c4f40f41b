"""The project as a user installs it: `pip install .` into a fresh virtual environment made by the
system's Python (Debian's /usr/bin/python3 here: PEP 668 forbids installing into it directly), then
the `minesweeper-bot` command run from another directory, the shipped skins found as package data."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import bot

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.full  # a virtual environment and a pip install each run
SYSTEM_PYTHON = next((p for p in ("/usr/bin/python3", shutil.which("python3")) if p and Path(p).exists()), None)


def _venv_works(python: str) -> bool:
    return subprocess.run([python, "-c", "import venv, ensurepip"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    if SYSTEM_PYTHON is None or not _venv_works(SYSTEM_PYTHON):
        pytest.skip(f"no system Python with venv and ensurepip ({SYSTEM_PYTHON}): apt-get install python3-venv")
    venv = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([SYSTEM_PYTHON, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", str(ROOT)],
                          capture_output=True, text=True, timeout=1200)
    if done.returncode != 0 and ("No matching distribution" in done.stderr or "Network" in done.stderr):
        pytest.skip(f"pip could not reach a package index: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stderr[-2000:]
    return venv / "bin" / "minesweeper-bot"


def test_the_installed_command_runs_from_another_directory(installed: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    version = subprocess.run([str(installed), "--version"], cwd=elsewhere, capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and version.stdout.split() == ["minesweeper-bot", bot.__version__]
    solved = subprocess.run([str(installed), "solve", "-", "--mines", "2", "--json"], input="01?10001?\n",
                            cwd=elsewhere, capture_output=True, text=True, timeout=60)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["mine"] == [[0, 2], [0, 8]]
    fixture = ROOT / "fixtures" / "winemine" / "expert2-middle"
    replayed = subprocess.run([str(installed), "replay", "--json", str(fixture.with_suffix(".png"))], cwd=elsewhere,
                              capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr  # the shipped skins, from the installed package
    assert json.loads(replayed.stdout)["grid"] == fixture.with_suffix(".txt").read_text().split()
    assert not (elsewhere / "calibration").exists() and not list(elsewhere.iterdir())  # nothing written here


def test_the_installed_bot_keeps_what_it_writes_in_the_user_data_folder(installed: Path, tmp_path: Path):
    """Learnt skins and the profile go to the user's data folder (XDG here), never into the
    installed package; skins learnt there are loaded beside the shipped ones."""
    data = tmp_path / "data"
    code = ("from bot import places; from bot.vision.skin import load_skins; import shutil; "
            "print(places.INSTALLED, places.learnt_root(), places.default_profile(), sep='\\n'); "
            "shutil.copytree(places.SHIPPED / 'classic', places.learnt_root() / 'mine'); "
            "print(sorted(s.folder.name for s in load_skins()))")
    python = installed.parent / "python"
    done = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(data)})
    assert done.returncode == 0, done.stderr
    flag, root, profile, names = done.stdout.splitlines()
    assert flag == "True"
    assert root == str(data / "minesweeper-bot" / "templates")
    assert profile == str(data / "minesweeper-bot" / "profile.json")
    shipped = [d.name for d in (Path(__file__).parents[2] / "templates").iterdir() if (d / "skin.json").exists()]
    assert names == str(sorted([*shipped, "mine"]))  # every shipped look, and the learnt one beside them
