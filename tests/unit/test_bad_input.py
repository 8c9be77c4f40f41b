"""Bad input gets one clear line on stderr and exit status 2: never a traceback, never a library's
own warnings, never minutes of work on something that cannot be a screenshot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from bot.vision.calibrate import load_profile

ROOT = Path(__file__).resolve().parents[2]
SHOT = ROOT / "fixtures" / "winemine" / "expert2-middle.png"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    return result.stderr


def test_truncated_png_is_one_line_without_libpng_noise(tmp_path):
    (tmp_path / "cut.png").write_bytes(SHOT.read_bytes()[:3000])
    assert "not a readable image" in one_line_error(run("replay", "cut.png", cwd=tmp_path))


def test_out_naming_a_folder_or_no_image_type_is_refused(tmp_path):
    (tmp_path / "folder").mkdir()
    assert "is a folder" in one_line_error(run("replay", str(SHOT), "--out", "folder", cwd=tmp_path))
    assert "cannot write" in one_line_error(run("replay", str(SHOT), "--out", "noext", cwd=tmp_path))


def test_a_huge_image_is_refused_before_it_is_decoded(tmp_path):
    Image.fromarray(np.zeros((9000, 9000, 3), np.uint8)).save(tmp_path / "huge.png")
    assert "million pixels" in one_line_error(run("replay", "huge.png", cwd=tmp_path))


def test_a_grid_with_a_byte_order_mark_is_read(tmp_path):
    (tmp_path / "bom.txt").write_bytes("\ufeff01?10001?\n".encode())
    result = run("solve", "bom.txt", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["mine"] == [[0, 2], [0, 8]]


def test_a_grid_past_a_million_cells_is_refused_at_once_and_one_below_is_solved(tmp_path):
    """A 50 MB one-row grid took 42 s and a 7070 x 7070 one over a minute, past the 5 s deadline:
    past MAX_CELLS a grid is refused in one line; a million-cell one is still solved."""
    from bot.board import MAX_CELLS

    (tmp_path / "row.txt").write_text("1" + "?" * MAX_CELLS + "\n")
    assert "1,000,001 cells" in one_line_error(run("solve", "row.txt", cwd=tmp_path))
    (tmp_path / "square.txt").write_text(("?" * 1000 + "\n") * 999 + "1" + "?" * 999 + "\n")
    result = run("solve", "square.txt", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["guess"] is not None


def test_a_picture_with_two_boards_is_refused_naming_both(tmp_path):
    """Two games side by side: exit 0 with one of them (which one by their order) was a wrong
    answer for the other; both are named and none is read."""
    import cv2

    a, b = cv2.imread(str(SHOT)), cv2.imread(str(ROOT / "fixtures" / "winemine" / "expert1-middle.png"))
    both = np.full((max(a.shape[0], b.shape[0]), a.shape[1] + b.shape[1] + 40, 3), (128, 96, 64), np.uint8)
    both[:a.shape[0], :a.shape[1]] = a
    both[:b.shape[0], a.shape[1] + 40:] = b
    cv2.imwrite(str(tmp_path / "two.png"), both)
    error = one_line_error(run("replay", "two.png", cwd=tmp_path))
    assert "two boards" in error and "16x30" in error


@pytest.mark.parametrize("level", ["2x100000000x1", "100000x100000x5"])
def test_an_absurd_level_is_refused_at_once(tmp_path, level):
    assert "at most" in one_line_error(run("bench", "--level", level, cwd=tmp_path))


@pytest.mark.parametrize("text", ["{not json", '{"skin": "classic"}', "\udcff".encode("utf-8", "surrogateescape")])
def test_a_corrupt_profile_means_calibrating_afresh(tmp_path, text):
    path = tmp_path / "profile.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    assert load_profile(path) is None


def test_output_into_a_closed_pipe_is_not_a_traceback(tmp_path):
    (tmp_path / "g.txt").write_text("\n".join(["0" * 100 + "?" * 100] * 200) + "\n")  # ~300 kB of JSON
    run = subprocess.run(f"{sys.executable} -m bot solve g.txt --json | head -c 10", shell=True, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert "Traceback" not in run.stderr and len(run.stdout) == 10


def test_image_paths_with_any_characters(tmp_path, capsys):
    """A screenshot named and written in a folder with characters outside ASCII: read, and the
    annotated copy written (OpenCV's own imread/imwrite take narrow paths: on Windows such a
    path was not found, or not written, without an error)."""
    import shutil

    from bot.cli import main
    from bot.imagefile import read_image, write_image

    folder = tmp_path / "Zoë écran 画面"
    folder.mkdir()
    shot = folder / "démineur-ü.png"
    shutil.copy(Path(__file__).resolve().parents[2] / "fixtures" / "winemine" / "beginner1-middle.png", shot)
    image = read_image(shot)
    assert image is not None and image.shape[2] == 3
    assert write_image(folder / "copie.png", image) and np.array_equal(read_image(folder / "copie.png"), image)
    assert main(["replay", str(shot), "--out", str(folder / "annoté.png")]) == 0
    assert read_image(folder / "annoté.png").shape == image.shape
    assert "skin" in capsys.readouterr().out


def test_a_bug_is_one_line_and_its_traceback_a_file(tmp_path, monkeypatch, capsys):
    """Whatever input meets a bug, the user reads one line saying so and where its traceback is
    kept for a report, and the exit status says the job failed; never a traceback on the terminal."""
    from bot import cli

    def broken(args):
        raise ValueError("cannot reshape array of size 5 into shape (2,2)")

    monkeypatch.setitem(cli.COMMANDS, "solve", broken)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.delenv("MINESWEEPER_BOT_TRACEBACK", raising=False)
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # (TMPDIR read afresh)
    assert cli.main(["solve", "-"]) == cli.Exit.FAILED
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: an internal error (ValueError: cannot reshape"), err
    assert "Traceback" not in err
    saved = Path(err.split("please report it with ")[1].strip())
    assert saved.parent == tmp_path and "in broken" in saved.read_text() and "Traceback" in saved.read_text()
    monkeypatch.setenv("MINESWEEPER_BOT_TRACEBACK", "1")  # (for a developer: the traceback itself)
    with pytest.raises(ValueError):
        cli.main(["solve", "-"])


def test_a_prefix_without_its_32_bit_side_names_the_repair(tmp_path, monkeypatch):
    """What CI met once wine32:i386 came to a machine whose cached prefix was older: Wine's own
    words alone do not say what to do."""
    from bot.errors import BotError
    from bot.games import wine_game

    monkeypatch.setenv("WINEPREFIX", str(tmp_path / "prefix"))
    stale = ["sh", "-c", "echo 'wine: could not load kernel32.dll, status c0000135' >&2; exit 53"]
    with pytest.raises(BotError, match=r"made before wine32 was installed: rm .*prefix/\.update-timestamp"):
        wine_game._run(stale)
    with pytest.raises(BotError) as other:
        wine_game._run(["sh", "-c", "echo 'something else' >&2; exit 1"])
    assert "wine32" not in str(other.value)
