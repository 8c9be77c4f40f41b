"""The genuine Windows Minesweeper (winmine.exe, XP's and the NT 4 build) under Wine, live.

The programs are third-party and never in the project: DEVELOPERS.md says where they come from
(README: "The genuine game"). The tests look for them in MINESWEEPER_WINMINE (paths separated by
the system's path separator) or in ../genuine/*/winmine.exe beside the project, and skip, saying
so, where they are absent or where Wine cannot run a 32-bit program (wine32:i386 not installed).
Every click is judged by X's window geometry (bot.games.witness), never by the bot's calibration.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import mss
import numpy as np
import pytest

from bot.games.wine_game import Program, WineGame, genuine
from bot.games.witness import Witness
from bot.play.game_log import GameLog
from bot.play.loop import Options, play
from bot.screen.capture import Screen
from bot.vision.skin import load_skins
from tests.support.wine import wine32_installed

ROOT = Path(__file__).resolve().parents[2]
EXPLODED = (0, 0, 255)  # BGR: the ground of the mine that was hit
pytestmark = pytest.mark.full  # minutes of live play under 32-bit Wine


def _programs() -> dict[str, Path]:
    listed = os.environ.get("MINESWEEPER_WINMINE")
    found = sorted(ROOT.parent.glob("genuine/*/winmine.exe"))
    paths = [Path(p) for p in listed.split(os.pathsep) if p] if listed else found
    return {("nt4" if p.stat().st_size < 64_000 else "xp"): p for p in paths if p.is_file()}


@pytest.fixture
def program(request, wineprefix) -> Program:
    found = _programs()
    if request.param not in found:
        pytest.skip(f"no genuine {request.param} winmine.exe: set MINESWEEPER_WINMINE or put it in "
                    f"{ROOT.parent / 'genuine'}/<name>/winmine.exe (README: the genuine game)")
    if not wine32_installed():
        pytest.skip("Wine cannot run 32-bit programs here: apt-get install wine32:i386 (README: the genuine game)")
    return genuine(found[request.param])


def _field_image(game: WineGame) -> np.ndarray:
    left, top = game.field_origin()
    with mss.MSS() as grabber:
        shot = grabber.grab({"left": left, "top": top, "width": 16 * game.level.cols, "height": 16 * game.level.rows})
    return np.array(shot)[:, :, :3]


def _play(game: WineGame, games: int, profile: Path, tmp_path: Path, **options) -> tuple[list[GameLog], Witness]:
    witness = Witness(game)
    logs: list[GameLog] = []
    with Screen() as screen:
        play(Options(games=games, rule="winxp", skins=options.pop("skins", None) or load_skins(), profile=profile,
                     stop_dir=tmp_path, fresh_layouts=True, **options),
             screen, actuator_factory=witness.factory, logs=logs)
    return logs, witness


@pytest.mark.parametrize("program", ["xp", "nt4"], indirect=True)
def test_genuine_games_found_from_a_fresh_screen_and_played_inside(display, program, tmp_path: Path):
    """No profile, no hint: the shipped classic skin finds the genuine board and plays whole games
    with the winxp first-click rule; every click lands on the field or the face; a lost game shows
    the red ground of the mine that was hit, a won one does not."""
    level = program.preset("beginner")
    with WineGame(level, x=60, y=60, program=program) as game:
        game.drawn()
        logs, witness = _play(game, 3, tmp_path / "p.json", tmp_path)
        final = _field_image(game)
    assert len(logs) == 3 and all(g.result in ("won", "lost") for g in logs), logs
    assert witness.clicks > 0 and witness.outside == 0, [p for p in witness.points if not p[2]]
    corners = final[2::16, 2::16]  # each cell's ground beside its top-left corner (a red 3 never reaches it)
    assert bool((corners == EXPLODED).all(axis=2).any()) == (logs[-1].result == "lost")


@pytest.mark.parametrize("program", ["xp"], indirect=True)
def test_best_time_dialog_left_to_the_player_is_waited_for(display, program, tmp_path: Path):
    """Best times of 999 s: the first win opens XP's name dialog over the board, then its best
    times. With --leave-dialogs a player (here a thread pressing Enter) answers; the bot waits for
    its game meanwhile (patience) and logs the win, with no stop."""
    level = program.preset("beginner")
    with WineGame(level, x=60, y=60, program=program, best_time=999) as game:
        game.drawn()
        answered: list[int] = []
        running = threading.Event()
        running.set()

        def player() -> None:
            while running.is_set():
                try:
                    answered.append(game.answer_dialogs())
                except Exception as err:  # a player keeps going; the assertions below judge
                    print("answering:", err)
                time.sleep(0.2)

        thread = threading.Thread(target=player, daemon=True)
        thread.start()
        logs: list[GameLog] = []
        try:
            while not any(g.result == "won" for g in logs) and len(logs) < 8:
                more, witness = _play(game, 1, tmp_path / "p.json", tmp_path, patience=30.0, answer_dialogs=False)
                assert witness.dialogs == 0  # (the player's to answer)
                assert witness.outside == 0
                logs += more
            # The best times come up only once the name entry is answered: wait for both answers
            # (between the two dialogs, none shows for a moment), then for the last to go.
            deadline = time.monotonic() + 60
            while (sum(answered) < 2 or game.dialogs()) and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            running.clear()
            thread.join(timeout=30)
    assert any(g.result == "won" for g in logs), logs
    assert sum(answered) >= 2  # the name entry, then the best times


@pytest.mark.parametrize("program", ["xp"], indirect=True)
def test_best_time_dialog_is_answered_by_the_bot_and_the_win_counted(display, program, tmp_path: Path):
    """Best times of 999 s and nobody at the keyboard, no patience: the bot answers XP's name
    entry and the best times after it with Return, logs the win and plays on, every click inside."""
    level = program.preset("beginner")
    with WineGame(level, x=60, y=60, program=program, best_time=999) as game:
        game.drawn()
        logs, witness = _play(game, 4, tmp_path / "p.json", tmp_path)
        left_open = game.dialogs()
    assert len(logs) == 4 and all(g.result in ("won", "lost") for g in logs), logs
    assert any(g.result == "won" for g in logs) and witness.dialogs >= 2, (logs, witness.dialogs)
    assert left_open == [] and witness.outside == 0


@pytest.mark.parametrize("program", ["xp"], indirect=True)
def test_a_new_level_is_found_with_the_old_profile(display, program, tmp_path: Path):
    """The profile saved at Beginner points at a 9x9 field; the game then runs at Expert in
    another place: the bot finds it again and plays there, every click inside."""
    profile = tmp_path / "p.json"
    with WineGame(program.preset("beginner"), x=40, y=40, program=program) as game:
        game.drawn()
        logs, _ = _play(game, 1, profile, tmp_path)
    assert profile.exists() and len(logs) == 1
    with WineGame(program.preset("expert"), x=300, y=200, program=program) as game:
        game.drawn()
        logs, witness = _play(game, 1, profile, tmp_path)
    assert len(logs) == 1 and logs[0].result in ("won", "lost")
    assert witness.clicks > 0 and witness.outside == 0


@pytest.mark.parametrize("program", ["xp"], indirect=True)
def test_no_skin_shipped_the_look_is_learnt_on_sight_then_played_at_another_level(display, program, tmp_path: Path):
    """With no skin at all, `play` learns the genuine look on the spot (safe moves only), keeps it,
    plays; the learnt skin alone then finds the board at Expert, elsewhere, from a fresh profile."""
    templates = tmp_path / "templates"
    templates.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "bot", "play", "--rules", "winxp", "--templates", str(templates),
               "--stop-key", "none"]
    with WineGame(program.preset("beginner"), x=40, y=40, program=program) as game:
        game.drawn()
        run = subprocess.run([*command, "--games", "2", "--profile", str(tmp_path / "a.json")], cwd=tmp_path,
                             capture_output=True, text=True, timeout=900, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "learning this one" in run.stderr and (templates / "learnt" / "skin.json").exists()
    assert len(run.stdout.splitlines()) == 4, run.stdout  # header, two games, totals
    with WineGame(program.preset("expert"), x=200, y=150, program=program) as game:
        game.drawn()
        logs, witness = _play(game, 1, tmp_path / "b.json", tmp_path, skins=load_skins(root=templates))
    assert len(logs) == 1 and logs[0].result in ("won", "lost")
    assert witness.outside == 0
