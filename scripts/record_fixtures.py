#!/usr/bin/env python3
"""Record real WineMine screenshots with their true boards, for the vision tests.

The truth never comes from the vision code. WineMine seeds its generator from the clock in whole
seconds at the first click, so two games whose first click lands on the same cell in the same
second get the same mines. Game A is lost on purpose at once, and the layout is read off the
revealed mines with two pixel probes; game B, started in the same second, is then played with that
layout in our simulator, which says what every cell shows after every click. The probes are
checked against the simulator after every step (a covered cell has the green body colour at its
centre, an opened one does not), and the game must end exactly as the simulator says it does;
any disagreement throws the recording away.

    python3 scripts/record_fixtures.py fixtures/winemine
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.board import FLAG, QUESTION, UNOPENED, Board, format_grid
from bot.games.simulator import Game, Level
from bot.games.wine_game import Window, WineGame
from bot.screen.capture import Screen
from bot.screen.xdisplay import VirtualDisplay

CELL = 16
BODY = (0, 128, 0)  # BGR of an unopened cell's body, and of the ground under a revealed mine
RED = (0, 0, 255)  # ground of the exploded mine


class Mismatch(Exception):
    """What the screen shows is not what the simulator predicts: drop this recording."""


class Recorder:
    def __init__(self, out: Path, game: WineGame, window: Window, screen: Screen, rng: np.random.Generator):
        import pyautogui  # only once a display exists

        pyautogui.PAUSE = 0
        pyautogui.FAILSAFE = True
        self.gui = pyautogui
        self.out = out
        self.game = game
        self.screen = screen
        self.rng = rng
        self.level = game.level
        self.set_window(window)

    def set_window(self, window: Window) -> None:
        cx, cy = window.client
        self.window = window
        self.field = (cx + 5, cy + 33)  # WineMine's client layout (../shared/README.md), from X geometry
        self.face = (cx + (window.width - 24) // 2 - 1 + 12, cy + 5 + 12)

    # -- input ---------------------------------------------------------------
    def centre(self, cell: tuple[int, int]) -> tuple[int, int]:
        return self.field[0] + cell[1] * CELL + 8, self.field[1] + cell[0] * CELL + 8

    def left(self, cell: tuple[int, int]) -> None:
        self.gui.click(*self.centre(cell))

    def right(self, cell: tuple[int, int]) -> None:
        self.gui.rightClick(*self.centre(cell))

    def restart(self) -> None:
        self.gui.click(*self.face)

    # -- independent probes ------------------------------------------------
    def grab(self) -> np.ndarray:
        time.sleep(0.06)  # WineMine takes ~20 ms to start redrawing after an event
        return self.screen.grab_stable(timeout=3, interval=0.03)

    def cell_pixels(self, img: np.ndarray, y: int, x: int) -> np.ndarray:
        """Pixel (y, x) inside every cell, as a rows x cols x 3 array."""
        fx, fy = self.field
        rows = fy + np.arange(self.level.rows) * CELL + y
        cols = fx + np.arange(self.level.cols) * CELL + x
        return img[np.ix_(rows, cols)]

    def mines_after_loss(self, img: np.ndarray) -> np.ndarray:
        centre = self.cell_pixels(img, 7, 7)
        ground = self.cell_pixels(img, 1, 1)
        dark = (centre == 0).all(axis=2)
        green = (ground == BODY).all(axis=2)
        red = (ground == RED).all(axis=2)
        return dark & (green | red)

    def covered(self, img: np.ndarray) -> np.ndarray:
        """Cells whose centre still shows the unopened body colour (flags and marks sit off-centre)."""
        return (self.cell_pixels(img, 12, 12) == BODY).all(axis=2)

    def check(self, img: np.ndarray, sim: Game) -> None:
        expected = np.isin(sim.shown, (UNOPENED, FLAG, QUESTION))
        seen = self.covered(img)
        if not np.array_equal(expected, seen):
            bad = np.argwhere(expected != seen)[:5].tolist()
            raise Mismatch(f"screen and simulator disagree at {bad}")

    # -- recording ---------------------------------------------------------
    def save(self, name: str, img: np.ndarray, board: Board, face: str, counter: int, note: str = "") -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(self.out / f"{name}.png"), img)
        (self.out / f"{name}.txt").write_text(format_grid(board) + "\n")
        meta = {
            "face": face,
            "counter": counter,
            "field": {
                "left": self.field[0],
                "top": self.field[1],
                "cell_w": CELL,
                "cell_h": CELL,
                "rows": self.level.rows,
                "cols": self.level.cols,
            },
            "mines": self.level.mines,
            "truth": "layout from the revealed mines of a game started in the same second; cells from the simulator",
        }
        if note:
            meta["note"] = note
        (self.out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
        print("saved", name, face, counter)

    def learn_layout(self, first: tuple[int, int]) -> tuple[np.ndarray, int] | None:
        """Game A: first click at the start of a second, then lose at once. Returns mines and the second."""
        while time.time() % 1 > 0.05:
            time.sleep(0.005)
        second = int(time.time())
        self.left(first)
        cells = self.rng.permutation(self.level.rows * self.level.cols)
        order = [tuple(int(v) for v in divmod(i, self.level.cols)) for i in cells]
        for cell in order[:80]:
            self.left(cell)
        img = self.grab()
        mines = self.mines_after_loss(img)
        if not mines.any() or int(time.time()) != second:
            return None
        return mines, second

    def play(self, name: str, first: tuple[int, int], plan: str) -> bool:
        """One recorded game B. plan: 'win' or 'lose'. Returns False if it had to be thrown away."""
        self.restart()
        fresh = self.grab()
        learned = self.learn_layout(first)
        if learned is None:
            return False
        mines, second = learned
        self.restart()
        self.left(first)
        if int(time.time()) != second:
            return False
        sim = Game.from_layout(mines)
        sim.open(first)
        total = int(mines.sum())
        try:
            img = self.grab()
            self.check(img, sim)
            self.save(f"{name}-start", fresh, Board(np.full(mines.shape, UNOPENED, np.int8), total), "playing", total)
            self.save(f"{name}-open", img, sim.board(), "playing", total)
            safe = [tuple(c) for c in np.argwhere(~mines)]
            safe = [safe[i] for i in self.rng.permutation(len(safe))]
            mine_cells = [tuple(c) for c in np.argwhere(mines)]
            mine_cells = [mine_cells[i] for i in self.rng.permutation(len(mine_cells))]
            if plan == "dense":  # many mines: open the rare high numbers first, so 6, 7 and 8 are seen
                safe.sort(key=lambda c: -sim.counts[c])
                opening = [c for c in safe if sim.counts[c] >= 4]
            else:
                opening = safe[: len(safe) // 3]
            for cell in opening:
                if sim.status == "playing" and sim.shown[cell] == UNOPENED:
                    self.left(cell)
                    sim.open(cell)
            flags = mine_cells[:3]
            marks = mine_cells[3:5]
            for cell in flags:
                self.right(cell)
                sim.flag(cell)
            for cell in marks:
                self.right(cell)
                self.right(cell)
                sim.shown[cell] = QUESTION
            wrong = None
            if plan != "win":
                wrong = next((c for c in safe if sim.shown[c] == UNOPENED), None)
                if wrong is not None:
                    self.right(wrong)
                    sim.flag(wrong)
            img = self.grab()
            self.check(img, sim)
            counter = total - int((sim.shown == FLAG).sum())
            self.save(f"{name}-middle", img, sim.board(), "playing", counter)
            if plan == "lose":  # a button held on a covered cell: drawn like an opened 0, face says "ooh"
                held = next(c for c in safe if sim.shown[c] == UNOPENED)
                self.gui.moveTo(*self.centre(held))
                self.gui.mouseDown()
                pressed = self.grab()
                self.gui.moveTo(self.field[0] + 4, self.field[1] - 20)  # off the field: releasing there does nothing
                self.gui.mouseUp()
                note = f"button held on {[int(v) for v in held]}"
                self.save(f"{name}-pressed", pressed, sim.board(), "pressed", counter, note=note)
                self.check(self.grab(), sim)
            if plan != "win":
                boom = next(c for c in mine_cells if sim.shown[c] == UNOPENED)
                self.left(boom)
                sim.open(boom)
                face = "lost"
            else:
                for cell in safe:
                    if sim.status == "playing" and sim.shown[cell] in (UNOPENED, QUESTION):
                        self.left(cell)
                        sim.open(cell)
                face = "won"
            img = self.grab()
            if sim.status != face:
                raise Mismatch(f"simulator says {sim.status}, plan was {face}")
            counter = 0 if face == "won" else total - int(np.isin(sim.shown, (FLAG, -6)).sum())
            self.save(f"{name}-{face}", img, sim.board(), face, counter)
            return True
        except Mismatch as err:
            print("dropped", name, err)
            for path in self.out.glob(f"{name}-*"):
                path.unlink()
            return False


def record(out: Path, level: Level, positions: list[tuple[int, int]], plans: list[str], prefix: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    with WineGame(level, x=positions[0][0], y=positions[0][1]) as game, Screen() as screen:
        time.sleep(1)
        window = game.window()
        assert window is not None
        rec = Recorder(out, game, window, screen, rng)
        for i, ((x, y), plan) in enumerate(zip(positions, plans)):
            rec.set_window(game.move(x, y))
            time.sleep(0.3)
            first = (0, 0) if i % 2 == 0 else (level.rows - 1, level.cols - 1)
            for _ in range(5):
                if rec.play(f"{prefix}{i}", first, plan):
                    break
            else:
                print("gave up on", prefix, i)


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "fixtures/winemine")
    with VirtualDisplay():  # one display for the whole run: pyautogui binds to it on import
        record_all(out)


def record_all(out: Path) -> None:
    record(out, Level(9, 9, 10), [(20, 30), (600, 400), (1100, 800)], ["win", "lose", "win"], "beginner", 1)
    record(out, Level(16, 16, 40), [(5, 10), (700, 600), (300, 200)], ["lose", "win", "lose"], "intermediate", 2)
    record(out, Level(16, 30, 99), [(0, 0), (780, 700), (400, 300)], ["win", "lose", "win"], "expert", 3)
    record(out, Level(16, 30, 200), [(100, 100), (500, 500)], ["dense", "dense"], "dense", 4)
    record(out, Level(24, 30, 450), [(60, 40)], ["dense"], "crowded", 5)
    record(out, Level(10, 12, 11), [(900, 100)], ["win"], "custom", 6)  # 11 - 3 flags: the counter shows an 8


if __name__ == "__main__":
    main()
