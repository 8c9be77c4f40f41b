"""A classic-grey Minesweeper on a fake screen, played by bot.games.simulator: a game whose look no
shipped skin has (its sprites are drawn here, with their own glyphs and colours) and whose truth
is always known. Display scaling is the screenshot resized, clicks mapped back.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, WRONG_FLAG
from bot.games.simulator import Game, Level

GREY, DARK, WHITE, DESK = (189, 189, 189), (123, 123, 123), (255, 255, 255), (96, 112, 40)
INK = {1: (220, 60, 0), 2: (0, 140, 20), 3: (20, 20, 230), 4: (140, 0, 40), 5: (0, 20, 140), 6: (140, 140, 0),
       7: (30, 30, 30), 8: (110, 110, 110)}
CELL = 16
FACE = 26


def _text(img: np.ndarray, text: str, colour: tuple[int, int, int], scale: float = 0.45) -> None:
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
    x, y = (img.shape[1] - w) // 2, (img.shape[0] + h) // 2
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_DUPLEX, scale, colour, 1, cv2.LINE_AA)


def _raised(n: int) -> np.ndarray:
    tile = np.full((n, n, 3), GREY, np.uint8)
    tile[:2, :] = WHITE
    tile[:, :2] = WHITE
    tile[-2:, 1:] = DARK
    tile[1:, -2:] = DARK
    return tile


def _flat(n: int) -> np.ndarray:
    tile = np.full((n, n, 3), GREY, np.uint8)
    tile[0, :] = DARK
    tile[:, 0] = DARK
    return tile


def _mine(tile: np.ndarray) -> np.ndarray:
    n = tile.shape[0]
    cv2.circle(tile, (n // 2, n // 2), n // 4, (0, 0, 0), -1, cv2.LINE_AA)
    cv2.line(tile, (n // 2, 2), (n // 2, n - 3), (0, 0, 0), 1)
    cv2.line(tile, (2, n // 2), (n - 3, n // 2), (0, 0, 0), 1)
    tile[n // 2 - 2 : n // 2, n // 2 - 2 : n // 2] = WHITE
    return tile


def _flagged(tile: np.ndarray) -> np.ndarray:
    n = tile.shape[0]
    pts = np.array([[n // 2, 3], [n // 2, n // 2], [4, n // 2 - 3]], np.int32)
    cv2.fillPoly(tile, [pts], (0, 0, 210))
    cv2.line(tile, (n // 2, 3), (n // 2, n - 5), (0, 0, 0), 1)
    cv2.line(tile, (n // 2 - 3, n - 4), (n // 2 + 3, n - 4), (0, 0, 0), 2)
    return tile


def sprites(n: int = CELL) -> dict[int, np.ndarray]:
    out = {UNOPENED: _raised(n), 0: _flat(n)}
    for d in range(1, 9):
        out[d] = _flat(n)
        _text(out[d][1:, 1:], str(d), INK[d])
    out[FLAG] = _flagged(_raised(n))
    out[QUESTION] = _raised(n)
    _text(out[QUESTION][2:-2, 2:-2], "?", (0, 0, 0))
    out[MINE] = _mine(_flat(n))
    boom = _flat(n)
    boom[1:, 1:] = (0, 0, 255)
    out[EXPLODED] = _mine(boom)
    out[WRONG_FLAG] = _mine(_flat(n))
    cv2.line(out[WRONG_FLAG], (2, 2), (n - 3, n - 3), (0, 0, 230), 2)
    cv2.line(out[WRONG_FLAG], (n - 3, 2), (2, n - 3), (0, 0, 230), 2)
    return out


def faces() -> dict[str, np.ndarray]:
    out = {}
    for state in ("playing", "pressed", "won", "lost"):
        face = _raised(FACE)
        c = FACE // 2
        cv2.circle(face, (c, c), 9, (0, 230, 255), -1)
        cv2.circle(face, (c, c), 9, (0, 0, 0), 1, cv2.LINE_AA)
        if state == "won":
            cv2.rectangle(face, (c - 6, c - 4), (c + 6, c - 2), (0, 0, 0), -1)
        elif state == "lost":
            for x in (c - 4, c + 3):
                cv2.line(face, (x - 1, c - 5), (x + 1, c - 3), (0, 0, 0), 1)
                cv2.line(face, (x + 1, c - 5), (x - 1, c - 3), (0, 0, 0), 1)
        else:
            face[c - 4 : c - 2, c - 4 : c - 2] = 0
            face[c - 4 : c - 2, c + 2 : c + 4] = 0
        if state == "pressed":
            cv2.circle(face, (c, c + 4), 2, (0, 0, 0), 1)
        elif state == "lost":
            cv2.ellipse(face, (c, c + 6), (4, 2), 0, 180, 360, (0, 0, 0), 1)
        else:
            cv2.ellipse(face, (c, c + 2), (4, 3), 0, 0, 180, (0, 0, 0), 1)
        out[state] = face
    return out


class FlagsToWin(Game):
    """ace-minesweeper's rule: every safe cell opened is not a win; every mine flagged too."""

    def _reveal(self, cells: list[tuple[int, int]]) -> None:
        flags = self.shown == FLAG
        super()._reveal(cells)
        if self.status == "won" and not (flags == self.mine).all():
            self.status = "playing"  # (the simulator flags the mines itself on a win: not here)
            self.shown[self.mine & ~flags] = UNOPENED

    def flag(self, cell: tuple[int, int]) -> None:
        super().flag(cell)
        opened = ((self.shown >= 0) | self.mine).all()
        if self.status == "playing" and opened and ((self.shown == FLAG) == self.mine).all():
            self.status = "won"


class ToyGame:
    """Screen, mouse and game in one: grab() shows it, click/hold/release play it."""

    def __init__(self, level: Level | None = None, scale: float = 1.0, at: tuple[int, int] = (130, 90),
                 seed: int = 0, screen: tuple[int, int] = (800, 600), game: type[Game] = Game,
                 rule: str = "safe", quiet_win: bool = False, stretch: tuple[int, int] = (0, 0),
                 new_game_key: str | None = None, hover: bool = False, double_click: float = 0.0,
                 long_press: float = 0.0, lost_right: tuple[int, ...] = (), face_lag: float = 0.0,
                 win_covered: bool = False, end_outline: bool = False) -> None:
        level = level or Level(9, 9, 10)
        # No face (GNOME Mines): nothing above the field but the counter; a key starts a new game.
        self.new_game_key = new_game_key
        self.keys: list[str] = []
        self.restarted: list[str] = []  # the game's status at each new game a key started
        self.hover = hover  # the covered cell under the pointer drawn lit (GNOME Mines)
        # A second press on one cell this soon is a double click, ignored (GNOME Mines); its question
        # mark is then drawn as its flag with a few pixels more, as GNOME Mines' is at 23 px.
        self.double_click = double_click
        self.long_press = long_press  # a cell held this long is flagged on release, not opened (GNOME)
        self.held_since = 0.0
        self.pressed: dict[tuple[int, int], float] = {}

        self.pointer: tuple[int, int] = (0, 0)
        # The right-clicks (counted from 1) that never reach the game: events lost on a loaded machine.
        self.lost_right, self.rights = set(lost_right), 0
        # The face painted this long after the cells that ended the game (WineMine on a loaded machine).
        self.face_lag, self.ended = face_lag, 0.0
        self.win_covered = win_covered  # a win leaves its unflagged mines covered (GNOME Mines)
        self.end_outline = end_outline  # a game over outlines every opened cell in green (XBomb)
        # A field stretched to its window (GNOME Mines): the first stretch[0] columns and stretch[1]
        # rows are a pixel wider, their sprites drawn at the cell's start, the spare pixel left bare.
        self.steps = [np.array([CELL + (k < extra) for k in range(n)]) for n, extra in
                      ((level.cols, stretch[0]), (level.rows, stretch[1]))]
        self.quiet_win = quiet_win  # a win leaves the playing face (Minegauler): only the board tells it
        self.level, self.scale, self.at, self.screen = level, scale, at, screen
        self.cells, self.faces = sprites(), faces()
        if double_click:
            self.cells[QUESTION] = self.cells[FLAG].copy()
            self.cells[QUESTION][CELL - 5 : CELL - 3, 3:5] = (0, 0, 0)
        self.seed, self.kind, self.rule = seed, game, rule
        self.games = 0
        self.clicks: list[tuple[int, int, str]] = []
        self.held: tuple[int, int] | None = None
        self.new_game()

    def new_game(self) -> None:
        self.game = self.kind(self.level, self.rule, seed=self.seed + self.games)
        self.games += 1

    @property
    def field(self) -> tuple[int, int]:
        return self.at[0] + 12, self.at[1] + 55

    @property
    def starts(self) -> tuple[np.ndarray, np.ndarray]:
        """Each column's and row's first pixel, unscaled."""
        fx, fy = self.field
        return fx + np.concatenate([[0], np.cumsum(self.steps[0])[:-1]]), \
            fy + np.concatenate([[0], np.cumsum(self.steps[1])[:-1]])

    def face_rect(self) -> tuple[int, int, int, int]:
        fx, _ = self.field
        return fx + int(self.steps[0].sum()) // 2 - FACE // 2, self.at[1] + 15, FACE, FACE

    def draw(self, shown: np.ndarray | None = None, face: str | None = None) -> np.ndarray:
        shown = self.game.shown if shown is None else shown
        rows, cols = shown.shape
        img = np.full((self.screen[1], self.screen[0], 3), DESK, np.uint8)
        x0, y0 = self.at
        width, height = int(self.steps[0].sum()), int(self.steps[1].sum())
        w, h = width + 24, height + 67
        img[y0 : y0 + h, x0 : x0 + w] = GREY
        img[y0, x0 : x0 + w] = WHITE
        img[y0 : y0 + h, x0] = WHITE
        fx, fy = self.field
        img[fy - 3 : fy + height + 3, fx - 3 : fx + width + 3] = DARK
        img[fy : fy + height + 3, fx : fx + width + 3] = WHITE
        xs, ys = self.starts
        for r in range(rows):
            for c in range(cols):
                code = int(shown[r, c])
                if self.held == (r, c) and code in (UNOPENED, QUESTION):
                    code = 0
                img[ys[r] : ys[r] + CELL, xs[c] : xs[c] + CELL] = self.cells[code]
                if self.end_outline and code >= 0 and self.game.status != "playing":
                    cv2.rectangle(img, (int(xs[c]) + 1, int(ys[r]) + 1), (int(xs[c]) + CELL - 2, int(ys[r]) + CELL - 2),
                                  (0, 200, 0), 1)
                if self.hover and code == UNOPENED and self._cell(*self.pointer) == (r, c):
                    img[ys[r] + 2 : ys[r] + CELL - 2, xs[c] + 2 : xs[c] + CELL - 2] = WHITE
        state = face or ("pressed" if self.held else self.game.status)
        if face is None and state in ("won", "lost") and time.monotonic() < self.ended + self.face_lag:
            state = "playing"  # (the cells that ended it are painted: the face not yet)
        if self.quiet_win and state == "won" and face is None:
            state = "playing"
        x, y, fw, fh = self.face_rect()
        if self.new_game_key is None:
            img[y : y + fh, x : x + fw] = self.faces[state]
        left = int(self.level.mines - (shown == FLAG).sum())
        box = img[y + 1 : y + 25, fx + 4 : fx + 45]
        box[:] = 0
        for k, ch in enumerate(f"{left:03d}" if left >= 0 else f"-{-left:02d}"):  # one cell a digit, as LEDs
            _text(box[:, 1 + 13 * k : 14 + 13 * k], ch, (0, 0, 255), 0.6)
        if self.scale != 1.0:
            img = cv2.resize(img, None, fx=self.scale, fy=self.scale, interpolation=cv2.INTER_LINEAR)
        return img

    # -- the learner's screen and hands -----------------------------------
    def grab(self) -> np.ndarray:
        return self.draw()

    def _cell(self, x: int, y: int) -> tuple[int, int] | None:
        x, y = x / self.scale, y / self.scale
        xs, ys = self.starts
        c, r = int(np.searchsorted(xs, x, side="right")) - 1, int(np.searchsorted(ys, y, side="right")) - 1
        if 0 <= r < self.level.rows and 0 <= c < self.level.cols and x < xs[c] + self.steps[0][c] \
                and y < ys[r] + self.steps[1][r]:
            return r, c
        return None

    def move(self, x: int, y: int) -> None:
        self.pointer = (x, y)

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.pointer = (x, y)
        self.clicks.append((x, y, button))
        cell = self._cell(x, y)
        if cell is not None and self.double_click:
            now = time.monotonic()
            last, self.pressed[cell] = self.pressed.get(cell, -1e9), now
            if now - last < self.double_click:
                return
        fx, fy, fw, fh = self.face_rect()
        if cell is None:
            on_face = fx <= x / self.scale < fx + fw and fy <= y / self.scale < fy + fh
            if button == "left" and on_face and self.new_game_key is None:
                self.new_game()
            return
        if button == "right":
            self.rights += 1
            if self.rights in self.lost_right:
                return
        if self.game.status == "playing":
            self.ended = time.monotonic()  # (when it ends, if this click ends it)
        if self.win_covered and self.game.status == "playing":
            was = self.game.shown.copy()
            self._play(cell, button)
            if self.game.status == "won":
                self.game.shown[self.game.mine & (was == UNOPENED)] = UNOPENED
            return
        self._play(cell, button)

    def _play(self, cell: tuple[int, int], button: str) -> None:
        if button == "left":
            self.game.open(cell)
        elif button == "right" and self.game.status == "playing":
            code = int(self.game.shown[cell])
            if code == UNOPENED:
                self.game.flag(cell)  # (a game won by flags ends here)
            else:
                self.game.shown[cell] = {FLAG: QUESTION, QUESTION: UNOPENED}.get(code, code)

    def key(self, x: int, y: int, combo: str) -> None:
        self.pointer = (x, y)
        self.keys.append(combo)
        if combo == self.new_game_key and self._cell(x, y) is not None:  # (keys reach the game under the pointer)
            self.restarted.append(self.game.status)
            self.new_game()

    def hold(self, x: int, y: int) -> None:
        self.pointer = (x, y)
        self.held = self._cell(x, y)
        self.held_since = time.monotonic()

    def release(self, x: int, y: int) -> None:
        held, self.held = self.held, None
        if held is not None and held == self._cell(x, y):
            long = self.long_press and time.monotonic() - self.held_since > self.long_press
            self.click(x, y, "right" if long else "left")


def unseen_boards(scale: float, seed: int, count: int = 10):
    """Intermediate games of this toy look, a few random clicks in, anywhere on the screen: boards
    a skin learnt from Beginner and crowded 9 x 9 games has never seen."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        at = (int(rng.integers(0, 300)), int(rng.integers(0, 200)))
        toy = ToyGame(Level(16, 16, 40), scale=scale, seed=seed * 1000 + i, at=at)
        for _ in range(int(rng.integers(1, 30))):
            toy.game.open((int(rng.integers(16)), int(rng.integers(16))))
        yield toy


def check_reads(skin, toy: ToyGame) -> None:
    """The skin finds the toy's board with no hint and reads cells, face and counter exactly."""
    from bot.vision.calibrate import calibrate
    from bot.vision.reader import read

    image = toy.grab()
    cal, _ = calibrate(image, [skin])
    assert (cal.rows, cal.cols, cal.scale) == (16, 16, 1.0)
    reading = read(image, cal.with_pitch(skin), skin)
    assert not reading.unknown.any() and np.array_equal(reading.codes, toy.game.shown)
    assert (reading.face, reading.counter) == (toy.game.status, 40 - int((toy.game.shown == FLAG).sum()))
