"""End to end on the real WineMine under our own Xvfb: full games, no misclick, results seen right."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bot.errors import BotError, VisionError
from bot.games.simulator import LEVELS, Level
from bot.games.wine_game import WineGame
from bot.play.loop import Options, play
from bot.screen.actuator import Actuator, Target
from bot.screen.capture import Screen
from bot.vision.skin import load_skins
from tests.support.catcher import Catcher
from tests.support.waiting import wait_for

RED = (0, 0, 255)  # ground of WineMine's exploded mine (BGR)
pytestmark = pytest.mark.usefixtures("wineprefix")  # every test here runs Wine in a prefix of its own


class Recording:
    """pyautogui, with every click written down."""

    def __init__(self) -> None:
        import pyautogui

        pyautogui.PAUSE = 0.0
        self.gui = pyautogui
        self.clicks: list[tuple[int, int, str]] = []
        self.times: list[float] = []

    def click(self, x, y, button="left"):
        self.clicks.append((x, y, button))
        self.times.append(time.monotonic())
        self.gui.click(x, y, button=button)

    def mouseDown(self, x, y, button="left"):  # pyautogui's names
        self.clicks.append((x, y, "hold"))
        self.gui.mouseDown(x, y, button=button)

    def mouseUp(self, x, y, button="left"):
        self.gui.mouseUp(x, y, button=button)

    def moveTo(self, x, y):  # (nothing pressed: not a click)
        self.gui.moveTo(x, y)


def field_of(game: WineGame) -> tuple[int, int]:
    """Field origin from X's window geometry: independent of our calibration."""
    window = game.window()
    assert window is not None
    cx, cy = window.client
    return cx + 5, cy + 33


def user_opens_a_cell(screen: Screen, left: int, top: int) -> None:
    """Click the middle cell of a 9x9 field as a user would, and wait (up to 30 s) until the game
    has painted something of what it opened."""
    import pyautogui

    field = (slice(top, top + 144), slice(left, left + 144))
    before = screen.grab()[field].copy()
    pyautogui.click(left + 4 * 16 + 8, top + 4 * 16 + 8)
    deadline = time.monotonic() + 30
    while np.array_equal(screen.grab()[field], before) and time.monotonic() < deadline:
        time.sleep(0.02)


def exploded_seen(image: np.ndarray, left: int, top: int, level: Level) -> bool:
    ys = top + np.arange(level.rows) * 16 + 1
    xs = left + np.arange(level.cols) * 16 + 1
    return bool((image[np.ix_(ys, xs)] == RED).all(axis=2).any())


# The one live WineMine game of the quick suite: Beginner; the rest run with --full.
@pytest.mark.parametrize(
    "name", ["beginner", *(pytest.param(n, marks=pytest.mark.full) for n in ("intermediate", "expert"))]
)
def test_full_games_without_a_misclick(display, tmp_path: Path, name: str):
    level = Level(*LEVELS[name])
    recorder = Recording()
    with WineGame(level, x=150 + 40 * len(name), y=90) as game, Screen() as screen:
        game.drawn()
        left, top = field_of(game)
        # WineMine reads its level from the registry, shared by every WineMine of this user: check
        # the window really shows this level (its X geometry), so the probes below look at it all.
        window = game.window()
        assert (window.width - 10, window.height - 19 - 38) == (level.cols * 16, level.rows * 16), window
        options = Options(games=2, skins=load_skins(), profile=tmp_path / "p.json", stop_dir=tmp_path,
                          fresh_layouts=True)
        logs = play(options, screen, lambda target: Actuator(target, recorder))
        final = screen.grab()
    assert len(logs) == 2 and all(g.result in ("won", "lost") for g in logs)
    assert exploded_seen(final, left, top, level) == (logs[-1].result == "lost")
    width, height = level.cols * 16, level.rows * 16
    face = (left + width // 2 - 13, top - 28)
    for x, y, button in recorder.clicks:
        on_field = left <= x < left + width and top <= y < top + height
        on_face = face[0] <= x < face[0] + 24 and face[1] <= y < face[1] + 24 and button == "left"
        assert on_field or on_face, (x, y, button)
        if on_field:  # every click lands in the middle of a cell, not on a border
            assert 3 <= (x - left) % 16 <= 12 and 3 <= (y - top) % 16 <= 12
    assert sum(g.clicks for g in logs) + 1 == len(recorder.clicks)  # one restart between the games


@pytest.mark.full
def test_dry_run_changes_nothing(display, tmp_path: Path):
    level = Level(9, 9, 10)
    with WineGame(level, x=300, y=300) as game, Screen() as screen:
        game.drawn()
        left, top = field_of(game)
        user_opens_a_cell(screen, left, top)
        before = screen.grab_stable(interval=0.05)
        out = tmp_path / "advice.png"
        options = Options(dry_run=True, max_frames=1, annotated=out, skins=load_skins(),
                          profile=tmp_path / "p.json", stop_dir=tmp_path)

        def refuse(target: Target) -> Actuator:
            raise AssertionError("a dry run must not even build an actuator")

        play(options, screen, refuse)
        time.sleep(0.2)
        after = screen.grab_stable(interval=0.05)
    field = (slice(top, top + level.rows * 16), slice(left, left + level.cols * 16))
    assert np.array_equal(before[field], after[field])  # (the timer above it may tick)
    assert out.exists() and out.stat().st_size > 0


@pytest.mark.full
def test_dry_run_overlay_follows_the_user_and_lets_clicks_through(display, tmp_path: Path):
    """The dry run's overlay on the real game: rings where the advice says, the game visible
    between them, clicks on a ring reaching the game, a fresh drawing after each move, and the
    bot's own reads never disturbed by its marks."""
    import threading

    import pyautogui

    from bot.board import EXPLODED
    from bot.play.loop import Player
    from bot.vision.reader import Field, read

    colours = {"safe": (0, 200, 0), "mines": (0, 0, 230), "guess": (255, 120, 0)}  # BGR of the overlay
    with WineGame(Level(9, 9, 10), x=300, y=300) as game, Screen() as screen:
        game.drawn()
        left, top = field_of(game)
        field = Field(left, top, 16, 9, 9)
        user_opens_a_cell(screen, left, top)
        options = Options(dry_run=True, annotated=tmp_path / "advice.png", skins=load_skins(),
                          profile=tmp_path / "p.json", stop_dir=tmp_path)
        box: dict = {}

        def watch() -> None:
            with Screen() as own:
                box["player"] = player = Player(own, options, lambda target: None)
                box["drawn"] = player.watch()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()

        def shown(n: int) -> tuple[np.ndarray, list]:
            """The screen once the overlay shows the n-th drawing (after a moment to settle)."""
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                player = box.get("player")
                if player is not None and len(player.advised) >= n:
                    time.sleep(0.5)
                    return screen.grab(), player.advised
                time.sleep(0.05)
            raise AssertionError(f"drawing {n} never came")

        moves = []
        for n in range(1, 5):
            image, advised = shown(n)
            board, advice = advised[n - 1]
            if advice is None:
                break  # the game ended: nothing more to show
            assert board.cells[4, 4] >= 0
            guess = set() if advice.safe or advice.guess is None else {advice.guess}
            ringed = set()
            for kind, cells in (("safe", advice.safe), ("mines", advice.mines), ("guess", guess)):
                for r, c in cells:
                    x0, y0 = left + 16 * c, top + 16 * r
                    assert tuple(image[y0 + 1, x0 + 1]) == colours[kind], (n, kind, r, c)
                    assert tuple(image[y0 + 14, x0 + 8]) == colours[kind], (n, kind, r, c)
                    ringed.add((r, c))
            assert ringed  # something is always drawn while the game is on
            # Between the rings the game shows: every other cell reads as the watcher read it.
            reading = read(image, field, box["player"].game_view.skin)
            for r in range(9):
                for c in range(9):
                    if (r, c) not in ringed:
                        assert not reading.unknown[r, c] and reading.codes[r, c] == board.cells[r, c], (n, r, c)
            # The user follows the advice, clicking on the ring itself: the click goes to the game.
            r, c = sorted(advice.safe)[0] if advice.safe else advice.guess
            pyautogui.click(left + 16 * c + 2, top + 16 * r + 2)
            moves.append((r, c))
        shown(len(moves) + 1)
        options.max_frames = 0  # the user is done: the watch ends
        watcher.join(timeout=10)
        # The overlay's window is destroyed as the watch ends; the game repaints the cells under
        # its rings when its own expose event comes, which under load is after the join returns.
        last: dict = {}

        def repainted() -> bool:
            last["grab"] = screen.grab()
            return not read(last["grab"], field, box["player"].game_view.skin).unknown.any()

        wait_for(repainted, 15)
        final = last["grab"]
    assert not watcher.is_alive()
    advised = box["player"].advised
    # Two moves at least, unless the game ended sooner (a first guess can hit a mine): then the
    # last drawing is the finished game, with no advice.
    assert len(moves) >= 2 or (moves and advised[len(moves)][1] is None)
    for n, cell in enumerate(moves):
        before, after = advised[n][0], advised[n + 1][0]
        assert before.cells[cell] < 0 and (after.cells[cell] >= 0 or after.cells[cell] == EXPLODED)
    # The overlay is gone with the watcher; the last board it read is the one the game shows.
    reading = read(final, field, box["player"].game_view.skin)
    assert not reading.unknown.any() and np.array_equal(reading.codes, advised[-1][0].cells)


def play_in_background(screen: Screen, recorder: Recording, games: int, tmp_path: Path, outcome: dict):
    """Start the play loop in a thread, as a user's session runs beside whatever else happens."""
    import threading

    from bot.play.loop import Stop

    options = Options(games=games, skins=load_skins(), profile=tmp_path / "p.json", stop_dir=tmp_path,
                      fresh_layouts=True)

    def run() -> None:
        try:
            outcome["logs"] = play(options, screen, lambda target: Actuator(target, recorder))
        except Stop as err:
            outcome["stop"] = str(err)
        except BotError as err:  # kept for the assertions (the test failing is the one to report)
            outcome["error"] = str(err)

    player = threading.Thread(target=run)
    player.start()
    return player


@pytest.mark.full
def test_window_moved_then_closed_mid_game(display, tmp_path: Path):
    """The bot follows a moved window, and stops cleanly (no click, no traceback) when it closes."""
    recorder = Recording()
    outcome: dict = {}
    with WineGame(Level(16, 30, 99), x=20, y=40) as game, Screen() as screen:
        game.drawn()
        player = play_in_background(screen, recorder, 50, tmp_path, outcome)
        deadline = time.monotonic() + 60
        while len(recorder.clicks) < 5 and time.monotonic() < deadline and player.is_alive():
            time.sleep(0.05)  # it is playing
        game.move(500, 400)
        moved_at = len(recorder.clicks)
        deadline = time.monotonic() + 15
        while len(recorder.clicks) < moved_at + 20 and time.monotonic() < deadline and player.is_alive():
            time.sleep(0.1)
        after_move = len(recorder.clicks) - moved_at
        left, top = field_of(game)
        game.close()
        player.join(timeout=30)
    assert not player.is_alive()
    assert "stop" in outcome and "stopped safely" in outcome["stop"]
    assert after_move > 0, outcome  # it went on playing in the window's new place
    late = recorder.clicks[moved_at + 5 :]
    assert all(left <= x < left + 480 and top - 28 <= y < top + 256 for x, y, _ in late)


@pytest.mark.full
def test_learning_winemine_with_no_templates(display, tmp_path: Path):
    """calibrate --learn on the real game, the shipped WineMine sprites unused: a Beginner run, then a
    crowded custom run that carries on from it (7s and 8s need crowds). What it learns must read
    every recorded fixture exactly: cells, face and counter."""
    import json

    import cv2

    from bot.board import parse_grid
    from bot.learn.live import learn_live, write_skin
    from bot.vision.calibrate import calibrate
    from bot.vision.reader import Field, read
    from bot.vision.skin import load_skin

    folder = tmp_path / "learnt"
    for level, games in ((Level(9, 9, 10), 12), (Level(9, 9, 64), 60)):
        recorder = Recording()
        with WineGame(level, x=200, y=120) as game, Screen() as screen:
            game.drawn()
            left, top = field_of(game)
            known = load_skin(folder) if folder.exists() else None
            learnt = learn_live(screen, games=games, backend=recorder, known=known)
        lat = learnt.lattice
        assert (lat.left, lat.top, lat.pitch, lat.rows, lat.cols) == (left, top, 16, 9, 9)
        face = (left + 9 * 8 - 13, top - 28)
        for x, y, button in recorder.clicks:  # nothing outside the field and the face
            on_field = left <= x < left + 9 * 16 and top <= y < top + 9 * 16
            on_face = face[0] <= x < face[0] + 24 and face[1] <= y < face[1] + 24 and button == "left"
            assert on_field or on_face, (x, y, button)
        write_skin(learnt, folder, "learnt")
    assert not learnt.missing, learnt.missing
    skin = load_skin(folder)
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "winemine"
    for meta_path in sorted(fixtures.glob("*.json")):
        meta = json.loads(meta_path.read_text())
        f = meta["field"]
        image = cv2.imread(str(meta_path.with_suffix(".png")))
        reading = read(image, Field(f["left"], f["top"], 16, f["rows"], f["cols"]), skin)
        truth = parse_grid(meta_path.with_suffix(".txt").read_text()).cells
        assert not ((reading.codes != truth) & ~reading.unknown).any(), meta_path.stem
        if meta["face"] != "pressed":  # (a held cell reads unknown, as with the shipped skin)
            assert not reading.unknown.any(), meta_path.stem
        assert (reading.face, reading.counter) == (meta["face"], meta["counter"]), meta_path.stem
        cal, _ = calibrate(image, [skin])  # and found with no hint, as replay and play find boards
        assert (cal.left, cal.top, cal.rows, cal.cols) == (f["left"], f["top"], f["rows"], f["cols"])


class Scaled:
    """The live screen as a display scaled by `scale` shows it: grabs enlarged smoothly, clicks
    mapped back. Every click is recorded in real screen pixels."""

    def __init__(self, screen: Screen, scale: float) -> None:
        self.screen, self.scale, self.real = screen, scale, Recording()

    def grab(self) -> np.ndarray:
        import cv2

        time.sleep(0.06)
        shot = self.screen.grab_stable(timeout=2.0)
        return cv2.resize(shot, None, fx=self.scale, fy=self.scale, interpolation=cv2.INTER_LINEAR)

    def click(self, x, y, button="left"):
        self.real.click(round(x / self.scale), round(y / self.scale), button)

    def hold(self, x, y):
        self.real.mouseDown(round(x / self.scale), round(y / self.scale))

    def release(self, x, y):
        self.real.mouseUp(round(x / self.scale), round(y / self.scale))

    def move(self, x, y):
        self.real.moveTo(round(x / self.scale), round(y / self.scale))


@pytest.mark.full
@pytest.mark.parametrize("scale", (1.25, 1.5))
def test_learning_winemine_on_a_scaled_display(display, tmp_path: Path, scale: float):
    import json

    import cv2

    from bot.board import parse_grid
    from bot.learn.live import Learner, write_skin
    from bot.vision.calibrate import calibrate
    from bot.vision.reader import read
    from bot.vision.skin import load_skin

    folder = tmp_path / "learnt"
    for level, games in ((Level(9, 9, 10), 12), (Level(9, 9, 64), 60)):
        with WineGame(level, x=200, y=120) as game, Screen() as screen:
            game.drawn()
            left, top = field_of(game)
            scaled = Scaled(screen, scale)
            known = load_skin(folder) if folder.exists() else None
            learnt = Learner(scaled.grab, lambda lat, face, s=scaled: s, games=games, known=known).run()
        for x, y, button in scaled.real.clicks:
            assert left <= x < left + 9 * 16 and top - 30 <= y < top + 9 * 16, (x, y, button)
        write_skin(learnt, folder, "learnt")
    assert not learnt.missing, learnt.missing
    skin = load_skin(folder)
    assert skin.cell == 16 * scale
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "winemine"
    for meta_path in sorted(fixtures.glob("*.json")):
        meta = json.loads(meta_path.read_text())
        image = cv2.imread(str(meta_path.with_suffix(".png")))
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        cal, _ = calibrate(image, [skin])
        reading = read(image, cal.with_pitch(skin), skin)
        truth = parse_grid(meta_path.with_suffix(".txt").read_text()).cells
        assert reading.codes.shape == truth.shape, meta_path.stem
        assert not ((reading.codes != truth) & ~reading.unknown).any(), meta_path.stem
        if meta["face"] != "pressed":
            assert not reading.unknown.any(), meta_path.stem
        assert (reading.face, reading.counter) == (meta["face"], meta["counter"]), meta_path.stem


@pytest.mark.full
def test_learn_refuses_a_screen_without_a_board(display, tmp_path: Path, capsys):
    """`calibrate --learn` with no game on the screen: one clear line, exit status 2, no click."""
    import pyautogui

    from bot.cli import main

    before = pyautogui.position()
    code = main(["calibrate", "--learn", "--skin", "nothing", "--templates", str(tmp_path),
                 "--profile", str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert code == 2 and "no Minesweeper board" in err
    assert pyautogui.position() == before and not (tmp_path / "nothing").exists()


class ToyWindow:
    """tests/support/toy_window.py in the display: a game the bot has never seen, in a real window."""

    def __init__(self, level: str, scale: float, seed: int, at: tuple[int, int] = (150, 120)) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.toy_window", "--level", level, "--scale", str(scale),
             "--seed", str(seed), "--at", f"{at[0]},{at[1]}"],
            cwd=Path(__file__).resolve().parents[2],
        )

    def __enter__(self) -> ToyWindow:
        from bot.vision.lattice import find_lattice

        deadline = time.monotonic() + 60  # until Tk is up and its fresh board drawn (a loaded machine is slow)
        with Screen() as screen:
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    find_lattice(screen.grab())
                    return self
                except VisionError:
                    time.sleep(0.1)
        raise AssertionError("the toy window never showed its board")

    def __exit__(self, *exc: object) -> None:
        from bot.screen.xdisplay import stop_process

        stop_process(self.proc)


@pytest.mark.full
@pytest.mark.parametrize("scale", (1.0, 1.25, 1.5))
def test_learning_a_toy_game_window_no_skin_ships(display, tmp_path: Path, scale: float):
    """calibrate --learn on a live classic-grey window driven by the simulator, its sprites drawn
    by the test alone; then the learnt skin reads boards of that game it never saw, exactly."""
    from bot.learn.live import learn_live, write_skin
    from bot.vision.skin import load_skin
    from tests.support.toy_game import check_reads, unseen_boards

    folder = tmp_path / "toy"
    for level, games in (("9x9x10", 30), ("9x9x64", 60)):
        with ToyWindow(level, scale, seed=7), Screen() as screen:
            known = load_skin(folder) if folder.exists() else None
            learnt = learn_live(screen, games=games, known=known)
        write_skin(learnt, folder, "toy")
    assert not learnt.missing, learnt.missing
    skin = load_skin(folder)
    for toy in unseen_boards(scale, seed=2):
        check_reads(skin, toy)


def _play_then(tmp_path: Path, stop) -> tuple[subprocess.Popen, str, str]:
    """`play` as a user runs it, in its own process on Beginner, stopped by `stop(process)` once it
    has played a while."""
    root = Path(__file__).resolve().parents[2]
    with WineGame(Level(9, 9, 10), x=200, y=150) as game:
        game.drawn()
        left, top = field_of(game)
        run = subprocess.Popen([sys.executable, "-m", "bot", "play", "--games", "500", "--profile",
                                str(tmp_path / "p.json")], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(root)})
        try:
            deadline = time.monotonic() + 60  # until the board changes: it is playing
            with Screen() as screen:
                first = screen.grab()
                while time.monotonic() < deadline and run.poll() is None:
                    time.sleep(0.5)
                    if not np.array_equal(screen.grab()[top : top + 144, left : left + 144],
                                          first[top : top + 144, left : left + 144]):
                        break
            time.sleep(2.0)  # a few games (waiting instead for a fresh board to show again once hung a
            # Ctrl-C for over 60 s: not understood yet, see the issue note)
            stop(run)
            out, err = run.communicate(timeout=60)
        finally:
            if run.poll() is None:
                run.kill()
    return run, out, err


@pytest.mark.full
def test_the_stop_key_ends_a_run_with_its_summary(display, tmp_path: Path):
    """Escape pressed while the game has the focus stops the run, with the summary of the games
    played: the user's choice, so exit 0 and no "error:"."""
    run, out, err = _play_then(tmp_path, lambda _: subprocess.run(["xdotool", "key", "Escape"], check=True, timeout=30))
    assert run.returncode == 0, err
    assert "stop key" in err and "error" not in err and "Traceback" not in err
    assert out.splitlines()[0].startswith("game result")  # the summary table
    assert "won" in out or "lost" in out


@pytest.mark.full
def test_ctrl_c_ends_a_run_with_its_summary(display, tmp_path: Path):
    run, out, err = _play_then(tmp_path, lambda process: process.send_signal(signal.SIGINT))
    assert run.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert out.splitlines()[0].startswith("game result")
    assert "won" in out or "lost" in out


@pytest.mark.full
def test_play_learns_a_look_it_does_not_know_then_plays(display, tmp_path: Path):
    """`play` on a game whose look no skin knows (the toy window): it says so, learns the look on
    the spot with safe moves, keeps it as a new skin, and plays the games asked for."""
    import shutil

    from bot.vision.skin import TEMPLATES

    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    root = Path(__file__).resolve().parents[2]
    with ToyWindow("9x9x10", 1.0, seed=11):
        run = subprocess.run([sys.executable, "-m", "bot", "play", "--games", "2", "--templates", str(templates),
                              "--profile", str(tmp_path / "p.json"), "--stop-key", "none"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(root)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "learning this one" in run.stderr and (templates / "learnt" / "skin.json").exists()
    lines = run.stdout.splitlines()
    assert lines[0].startswith("game result") and len(lines) == 4  # header, two games, totals


@pytest.mark.full
def test_window_moved_ten_times_no_click_reaches_the_canary(display, tmp_path: Path):
    """Expert on the real game, its window moved ten times at random moments while the bot plays,
    over a canary window: not one click lands beside the game, and the bot plays on each time."""
    import threading

    canary = Catcher(below=True)  # under everything: a click that misses the game lands here
    subprocess.run(["xdotool", "mousemove", "3", "1000", "click", "1", "mousemove", "640", "512"], check=True,
                   timeout=30)  # the canary hears a click that misses everything
    deadline = time.monotonic() + 20
    while not canary.clicks and time.monotonic() < deadline:
        time.sleep(0.02)
    assert canary.clicks == [(3, 1000)]
    canary.clicks.clear()
    outcome: dict = {}
    rng = np.random.default_rng(int(os.environ.get("CANARY_SEED", "3")))
    enough = threading.Event()
    logs: list = []
    try:
        with WineGame(Level(16, 30, 99), x=40, y=40) as game, Screen() as screen:
            options = Options(games=1000, skins=load_skins(), profile=tmp_path / "p.json", stop_dir=tmp_path,
                              fresh_layouts=True, stopped=enough.is_set)

            def run() -> None:
                try:
                    play(options, screen, logs=logs)
                except Exception as err:
                    outcome["stop"] = repr(err)

            player = threading.Thread(target=run)
            player.start()
            moves, games_at_move = 0, []
            while moves < 10 and player.is_alive():
                time.sleep(float(rng.uniform(0.2, 0.8)))
                game.move(int(rng.integers(0, 700)), int(rng.integers(0, 600)))
                games_at_move.append(len(logs))
                moves += 1
            deadline = time.monotonic() + 120  # a game finished after the last move: it plays on
            while len(logs) <= games_at_move[-1] and time.monotonic() < deadline and player.is_alive():
                time.sleep(0.1)
            enough.set()  # the user's stop key
            player.join(timeout=120)
    finally:
        canary.close()
    assert not player.is_alive()
    assert moves == 10 and not canary.clicks, (canary.clicks, outcome)
    assert "stop key" in outcome.get("stop", ""), outcome  # it played until told to stop
    assert len(logs) > games_at_move[-1]


@pytest.mark.full
def test_a_prefix_made_before_wine32_gets_its_32_bit_side(tmp_path, monkeypatch):
    """The demo's prefix is kept between runs; made while Wine had only its 64-bit loader it has an
    empty syswow64, and every game started in it after wine32 came fails. Emptied here by hand, in
    a prefix of this test's own: wineboot rewrites the prefix's files in place, so never the
    hard-linked copy the other tests share."""
    from bot.games.wine_game import add_32bit_side

    if not Path("/usr/lib/wine/wine").exists():
        pytest.skip("no 32-bit Wine loader (wine32:i386) on this machine: nothing to add a 32-bit side for")
    prefix = tmp_path / "prefix"
    monkeypatch.setenv("WINEPREFIX", str(prefix))
    env = {**os.environ, "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}
    try:
        subprocess.run(["wineboot", "--init"], env=env, capture_output=True, timeout=300, check=False)
        subprocess.run(["wineserver", "-w"], env=env, capture_output=True, timeout=300, check=False)
        wow = prefix / "drive_c" / "windows" / "syswow64"
        assert (wow / "kernel32.dll").exists(), "wineboot made no 32-bit side to begin with"
        shutil.rmtree(wow)
        wow.mkdir()
        broken = subprocess.run(["wine", "cmd", "/c", "echo", "hi"], env=env, capture_output=True, text=True,
                                timeout=120)
        assert broken.returncode != 0 and "c0000135" in broken.stderr, broken.stderr
        assert add_32bit_side(prefix)
        mended = subprocess.run(["wine", "cmd", "/c", "echo", "hi"], env=env, capture_output=True, text=True,
                                timeout=120)
        assert mended.returncode == 0 and mended.stdout.strip() == "hi", mended.stderr
        assert not add_32bit_side(prefix)  # whole now: nothing more to do
    finally:
        subprocess.run(["wineserver", "-k"], env=env, capture_output=True, timeout=60, check=False)
