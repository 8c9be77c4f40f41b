"""The live loop: look, check, decide, act, in batches, until the games are played.

Nothing is clicked unless the board just read is complete (no unknown cell, face and counter
read), consistent with the board before it (opened cells stay opened, numbers never change)
and satisfiable. Anything else is re-captured; a window that moved is re-calibrated; after a
few failures the loop stops with a message and the offending screenshot saved. It never guesses
where the board is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from bot.actuator import Actuator, ActuatorError, Target, TargetMoved
from bot.advice import Advice, advise
from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, WRONG_FLAG, Board, format_grid
from bot.calibrate import Calibration, best_offset, load_profile, locate
from bot.capture import Region, Screen
from bot.deadline import DEFAULT_SECONDS
from bot.errors import BotError, CaptureError, InconsistentBoardError, VisionError
from bot.imagefile import write_image
from bot.overlay import Overlay, drawing
from bot.platform import OverlayError, current
from bot.simulator import Game
from bot.skin import Skin
from bot.unseen import unread, unseen_face, unseen_numbers, with_face, with_number
from bot.vision import Field, Reading, face_box, read

SETTLE = 0.03  # WineMine starts redrawing ~20 ms after a click
RETRIES = 25  # bad frames in a row before giving up (about 2.5 s: a window covered for a second)


class Stop(BotError):
    """The loop cannot go on safely; the message says why and where the screenshot is."""


class NotFound(Stop):
    """No board the skins know was ever found on the screen (a look to learn, or no game at all)."""


class Stale(VisionError):
    """The game on the screen is no longer the one a batch was decided on (moved, covered,
    restarted): the batch is dropped and the board read again, not a misread."""


NEW_GAME_READS = 3  # reads alike of a board that cannot follow the last: another game, not a misread
STALE_BATCHES = 20  # batches dropped in a row before the loop gives up (a window dragged about)


@dataclass
class GameLog:
    result: str  # won, lost, abandoned
    seconds: float
    clicks: int
    guesses: int
    three_bv: int | None


@dataclass
class Options:
    games: int = 1
    flags: bool = False
    dry_run: bool = False
    rule: str = "safe"
    profile: Path | None = Path("calibration/profile.json")
    record: Path | None = None
    annotated: Path = Path("dry-run.png")
    stop_dir: Path = Path(".")
    max_frames: int | None = None  # dry run: stop after this many frames (tests)
    overlay: bool = True  # dry run: draw over the game (else, or where it cannot, only the PNG)
    fresh_layouts: bool = False  # WineMine seeds from the clock's second: start each game in a new one
    stopped: Callable[[], bool] | None = None  # the user's stop key: asked before every click
    patience: float = 0.0  # seconds a game seen before, then hidden (a dialog over it), is waited for
    skins: list[Skin] = field(default_factory=list)
    #: The game's window (left, top, width, height, desktop pixels) where the window system knows
    #: it: the board is looked for there first.
    window: tuple[int, int, int, int] | None = None
    #: Mines in the game, for a game whose counter the skin cannot read (or that has none); else
    #: what the skin learnt for the board's size, if anything.
    mines: int | None = None


def three_bv_of(board: Board) -> int | None:
    """3BV of a finished game, from the final board (a win or a loss shows every mine)."""
    mines = np.isin(board.cells, (FLAG, MINE, EXPLODED))
    lost = (board.cells == EXPLODED).any()
    if not mines.any() or (not lost and (board.cells == UNOPENED).any()):
        return None
    return Game.from_layout(mines & (board.cells != WRONG_FLAG)).three_bv()


def _finished(reading: Reading) -> Reading:
    """A game over, with cells still unread (a number the skin never saw, shown at the end): its
    cells no longer matter, only its result and a click on the face do. They count as covered."""
    return replace(reading, codes=np.where(reading.unknown, UNOPENED, reading.codes),
                   unknown=np.zeros_like(reading.unknown),
                   counter=0 if reading.counter is None else reading.counter)


def _won_under(reading: Reading) -> bool:
    """A game without a face, won, its mines flagged in a look its skin reads only at the size it
    was learnt at (GNOME Mines' flag at 48 px from a skin of 46): no cell reads covered, and the
    numbers prove every unread cell a mine."""
    codes = reading.codes.copy()
    if np.isin(codes[~reading.unknown], (UNOPENED, QUESTION, MINE, EXPLODED)).any():
        return False
    codes[reading.unknown] = UNOPENED
    try:
        advice = advise(Board(codes), odds=False)
    except (InconsistentBoardError, BotError):
        return False
    return not advice.safe and set(advice.mines) == {tuple(int(v) for v in c) for c in np.argwhere(reading.unknown)}


def _follows(before: Board, after: Board) -> bool:
    """Could `after` come from `before` by play? Opened cells stay opened and keep their number."""
    opened = before.cells >= 0
    return bool(np.array_equal(before.cells[opened], after.cells[opened]))


class Player:
    def __init__(self, screen: Screen, options: Options, actuator_factory: Callable[[Target], Actuator] = Actuator,
                 say: Callable[[str], None] = lambda _: None):
        self.screen = screen
        self.say = say
        self.advised: list[tuple[Board, Advice | None]] = []  # dry run: each board shown, and its advice
        self.options = options
        self.make_actuator = actuator_factory
        self.origin = screen.monitors()[0]
        self.cal: Calibration | None = None
        self.skin: Skin | None = None
        self.field: Field | None = None
        self.actuator: Actuator | None = None
        self.region: Region | None = None
        self.view: Field | None = None
        self.shown: Field | None = None  # the field in the last frame looked at (region or screen)
        self.frames = 0
        self.clicked: list[tuple[int, int]] = []  # the last batch's clicks
        self.replaced = False  # look() saw the game replaced by another one (the user restarted)
        self.own_flags: set[tuple[int, int]] = set()  # this game's flags we put on proven mines

    # -- seeing --------------------------------------------------------------
    def grab(self) -> tuple[np.ndarray, Field | None]:
        """A settled frame of the game's region (cheaper than the screen), with the field in it;
        the whole screen, and no field, before calibration."""
        if self.region is None:
            return self.screen.grab_stable(timeout=2.0, interval=0.01), None
        return self.screen.grab_stable(self.region, timeout=2.0, interval=0.004), self.view

    def _set_region(self, width: int, height: int) -> None:
        """The field plus the face and counter above it, clipped to the grabbed screen."""
        f, s = self.field, max(self.cal.scale, self.cal.cell_scale or 0.0)  # (the frame round the cells is theirs)
        fx, fy, fw, _ = face_box(f, self.skin)  # (xdemineur's face sits 61 px above its field)
        led = f.top + self.skin.counter_offset[1] * f.scale_of_chrome(self.skin) if len(self.skin.digit_sprites) else fy
        x0 = max(0, int(min(f.left - 16 * s, fx - 8)))
        y0 = max(0, int(min(f.top - 48 * s, fy - 8, led - 8)))
        x1 = min(width, int(max(f.left + f.width + 16 * s, fx + fw + 8)) + 1)
        y1 = min(height, int(f.top + f.height + 8 * s) + 1)
        self.region = Region(x0 + self.origin.left, y0 + self.origin.top, x1 - x0, y1 - y0)
        self.view = replace(f, left=f.left - x0, top=f.top - y0)

    def calibrate(self, image: np.ndarray) -> None:
        window = self.options.window  # (desktop pixels: the grab's are from the virtual screen's origin)
        within = None if window is None else (window[0] - self.origin.left, window[1] - self.origin.top, *window[2:])
        try:
            cal, skin, _ = locate(image, self.options.skins, self.options.profile, within)
        except VisionError:
            if not self._new_game_where_it_was(image):
                raise
            image = self.screen.grab_stable(timeout=2.0, interval=0.01)
            cal, skin, _ = locate(image, self.options.skins, self.options.profile, within)
        self.cal, self.skin, self.field = cal, skin, cal.with_pitch(skin)
        self._set_region(image.shape[1], image.shape[0])
        clicks = self.actuator.clicks if self.actuator is not None else 0
        if self.actuator is not None:
            self.actuator.close()
        self.actuator = None if self.options.dry_run else self.make_actuator(self._target(self.field, skin))
        if self.actuator is not None:
            self.actuator.clicks = clicks  # one count for the whole run, whatever the window did

    def _target(self, field: Field, skin: Skin) -> Target:
        """The field on the screen, as the actuator guards and clicks it."""
        fx, fy, fw, fh = face_box(field, skin)
        face = (fx + self.origin.left, fy + self.origin.top, fw, fh) if not skin.faceless else (0, 0, 0, 0)
        left, top = field.left + self.origin.left, field.top + self.origin.top
        park = (left + field.width / 2, max(self.origin.top, top - 4)) if skin.hover else None  # (off the cells)
        return Target(left, top, field.pitch, field.rows, field.cols, face, skin.new_game_key, park, field.xs, field.ys)

    def _new_game_where_it_was(self, image: np.ndarray) -> bool:
        """A game without a face is found by its field, which needs a covered cell in every row and
        column (bot.calibrate); a finished one may have none, or show mines its skin, learnt at
        another size, reads only loosely. Where the saved profile's field still reads for the most
        part with its skin, and that skin starts a new game by a key, the key is pressed there."""
        cal = load_profile(self.options.profile) if self.options.profile is not None else None
        skin = next((s for s in self.options.skins if cal is not None and s.name == cal.skin), None)
        if self.options.dry_run or skin is None or skin.new_game_key is None:
            return False
        field = cal.with_pitch(skin)
        try:
            reading = read(image, field, skin)
        except VisionError:
            return False
        if not reading.framed or reading.unknown.mean() > 0.5:
            return False
        actuator = self.make_actuator(self._target(field, skin))
        try:
            actuator.restart()
        finally:
            actuator.close()
        self.say(f"a finished game of skin {skin.name!r} where the profile has it: "
                 f"a new one started ({skin.new_game_key})")
        return True

    def look(self, previous: Board | None) -> tuple[np.ndarray, Reading, Board]:
        """A complete, consistent, satisfiable read, or Stop after RETRIES bad frames and the
        options' patience (a game hidden by a dialog the player answers comes back)."""
        problem = "no frame"
        image = None
        deadline = time.monotonic() + (self.options.patience if self.cal is not None else 0.0)
        tries = 0
        changed_reads: list[bytes] = []
        while tries < RETRIES or time.monotonic() < deadline:
            tries += 1
            if tries == RETRIES + 1:
                self.say(f"the game is hidden ({problem}): waiting up to {self.options.patience:.0f} s for it")
            if tries > RETRIES:
                self.still_wanted()  # a long wait: the stop key still ends it
            try:
                image, field = self.grab()
                if field is None:
                    self.calibrate(image)
                    field = self.field
                reading = read(image, field, self.skin)
                if reading.face is None and not reading.unknown.any():
                    reading = self._name_face(image, field, reading)
                if reading.face is None or reading.unknown.mean() > 0.5:
                    image = self.screen.grab_stable(timeout=2.0, interval=0.01)  # moved? find it again
                    self.calibrate(image)
                    previous = None
                    field = self.field
                    reading = read(image, field, self.skin)
                if reading.unknown.any() and field.pitch != self.skin.cell:
                    field, reading = self._realign(image, field, reading)
                self.shown = field
                if not reading.complete and reading.unknown.any():
                    reading = self._name_unseen(image, field, reading)
                if not reading.complete and reading.framed and reading.face in ("won", "lost"):
                    reading = _finished(reading)
                elif not reading.complete and reading.framed and self.skin.faceless and _won_under(reading):
                    reading = _finished(replace(reading, face="won"))
                if not reading.complete:
                    problem = f"{int(reading.unknown.sum())} cell(s) unreadable (covered or half drawn?)"
                    raise VisionError(problem)
                if reading.face == "pressed":  # a button is down: the cell under it is drawn opened
                    problem = "a mouse button is held on the board"
                    raise VisionError(problem)
                board = self._with_total(reading.game_board(), reading)
                changed = previous is not None and previous.shape == board.shape and not _follows(previous, board)
                if changed and (board.cells >= 0).any():  # all covered again: the user restarted
                    changed_reads.append(board.cells.tobytes())
                    if len(changed_reads) < NEW_GAME_READS or len(set(changed_reads[-NEW_GAME_READS:])) != 1:
                        problem = "the board changed in a way the game cannot (a misread?)"
                        raise VisionError(problem)
                    # The same board read again and again: not a misread but another game (a user
                    # restart that a click of ours then opened): the game played is over.
                    self.replaced = True
                return image, reading, board
            except (VisionError, CaptureError) as err:
                problem = str(err)
                time.sleep(0.1)
        saved = self._save_stop(image)
        raise (NotFound if self.cal is None else Stop)(f"stopped safely: {problem}; last screenshot: {saved}")

    def _realign(self, image: np.ndarray, field: Field, reading: Reading) -> tuple[Field, Reading]:
        """Scaled cells read at a half-pixel shift where a few do not read in place: the place was
        fixed when the board was all covered, and a number's glyph, resampled from another size,
        can need the sub-pixel offset that a covered cell does not (ace-minesweeper's 24 px cells
        from a 12 px skin). The field follows the shift; a shift never reads more cells wrongly
        than in place, as each cell must still match a sprite closely."""
        moved, again = best_offset(image, self.skin, field)
        if again.unknown.sum() >= reading.unknown.sum():
            return field, reading
        dx, dy = moved.left - field.left, moved.top - field.top
        self.view = moved
        self.field = replace(self.field, left=self.field.left + dx, top=self.field.top + dy)
        return moved, again

    def _name_unseen(self, image: np.ndarray, field: Field, reading: Reading) -> Reading:
        """Unknown cells that are a number the skin has never seen (bot.unseen): named when the
        board allows one number only and the look holds still in a second frame (a cell caught
        half drawn never gets a name); the skin grows by it and the frame is read again. A look
        the board does not name yet is played around (an opened cell, number unknown): ending
        the game instead threw away the games that had got far, and a third of the Expert wins
        with a skin learnt on sight."""
        found = unseen_numbers(image, field, self.skin, reading)
        if found is None or not self._holds_still(image):
            return reading
        for look in found:
            if look.number is not None:
                self.skin = with_number(self.skin, look.number, look.tile)
                self.say(f"a number this skin had not seen yet: named {look.number} from the board, and kept")
        if any(look.number is not None for look in found):
            reading = read(image, field, self.skin)
        return unread(reading, found)  # looks not named yet: opened cells, number unknown, for now

    def _with_total(self, board: Board, reading: Reading) -> Board:
        """The board with its mine total where no counter shows it: the solver plays a game's end
        far better knowing it (README: `scripts/bench_paired.py --variant no-total`)."""
        if board.mines is not None or reading.counted or reading.face != "playing":
            return board
        total = self.options.mines if self.options.mines is not None else self.skin.mines.get(board.cells.shape)
        return board if total is None else board.with_mines(total)

    def _holds_still(self, image: np.ndarray) -> bool:
        """The same picture a moment later: a look caught half drawn is never named."""
        time.sleep(SETTLE)
        again, again_field = self.grab()
        return again_field is not None and again.shape == image.shape and np.array_equal(again, image)

    def _name_face(self, image: np.ndarray, field: Field, reading: Reading) -> Reading:
        """A face the skin has never seen, named by the board when it tells a game's end (bot.unseen:
        a game won only with every mine flagged shows its won face, never seen while learning, only
        then), in a frame that holds still; the skin grows by it and the frame is read again."""
        found = unseen_face(image, field, self.skin, reading)
        if found is None or not self._holds_still(image):
            return reading
        name, tile = found
        self.skin = with_face(self.skin, name, tile)
        self.say(f"a face this skin had not seen yet: named {name} from the board, and kept")
        return read(image, field, self.skin)

    def _save_stop(self, image: np.ndarray | None) -> str:
        if image is None:
            return "none (the screen could not be grabbed)"
        path = self.options.stop_dir / f"stopped-{time.strftime('%Y%m%d-%H%M%S')}.png"
        write_image(str(path), image)
        return str(path)

    def record(self, image: np.ndarray, board: Board) -> None:
        if self.options.record is None:
            return
        self.options.record.mkdir(parents=True, exist_ok=True)
        stem = self.options.record / f"frame-{self.frames:05d}"
        write_image(str(stem.with_suffix(".png")), image)
        stem.with_suffix(".txt").write_text(format_grid(board) + "\n")

    # -- deciding and acting ------------------------------------------------
    def decide(self, board: Board) -> Advice:
        try:
            trusted = frozenset(c for c in self.own_flags if board.cells[c] == FLAG)  # the user's are claims
            advice = advise(board, self.options.rule, odds=False, trusted=trusted, deadline=DEFAULT_SECONDS)
            if not advice.safe:
                advice = advise(board, self.options.rule, trusted=trusted, deadline=DEFAULT_SECONDS)
            return advice
        except InconsistentBoardError as err:
            raise VisionError(f"the board read has no mine layout: {err}") from err

    def still_covered(self, board: Board, cell: tuple[int, int]) -> bool:
        """Right before a click: the game, grabbed again, must still be the one the batch was
        decided on, where it was, and the cell still covered.

        The whole game region is read afresh: its frame seen on all four sides where the field
        was (a window moved, even by a whole number of cells, or covered, fails this), the face
        still there, and no cell read contradicting the board decided on (a restart or a level
        change shows covered cells where numbers were). Cells still being drawn may read as
        unknown; only the clicked one must read. An opened cell (a cascade from an earlier click
        of the batch got there first) is skipped; anything else stops the batch, so no click is
        ever decided on a stale board.
        """
        image = self.screen.grab(self.region)
        reading = read(image, self.view, self.skin)
        known = ~reading.unknown
        opened = board.cells >= 0
        stale = (not reading.framed or reading.face is None or reading.face == "lost" or not known[cell]
                 or not np.array_equal(reading.codes[opened & known], board.cells[opened & known]))
        if stale:
            raise Stale("the game window moved, was covered or restarted during a batch")
        return int(reading.codes[cell]) in (UNOPENED, QUESTION)

    def wait_for_change(self, before: np.ndarray, timeout: float = 0.5) -> None:
        """Poll until every cell just clicked looks different from the frame the batch was decided
        on: the game has drawn the batch (look() then waits for the drawing to settle). Cheaper
        than a fixed pause, which must allow for the slowest response. A frame grabbed while the
        game still draws is never unsafe, only stale: it is a board from earlier in the same game."""
        if not self.clicked or self.region is None or before.shape[:2] != (self.region.height, self.region.width):
            time.sleep(SETTLE)
            return
        v = self.view
        boxes = [(round(y), round(x)) for x, y in (v.cell_origin(r, c) for r, c in self.clicked)]
        size = round(v.pitch)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                now = self.screen.grab(self.region)
            except CaptureError:
                return
            if now.shape == before.shape and all(
                    not np.array_equal(now[y : y + size, x : x + size], before[y : y + size, x : x + size])
                    for y, x in boxes):
                return
            time.sleep(0.002)

    def still_wanted(self) -> bool:
        """True, until the user presses the stop key: then Stop, and the next click is not made."""
        if self.options.stopped is not None and self.options.stopped():
            raise Stop("stopped: the stop key was pressed")
        return True

    def act(self, board: Board, advice: Advice) -> int:
        """Click a batch; returns how many of the clicks were guesses. The mouse's own check (the
        game's window still where it was, in the same X server grab as the click) drops the
        batch like the check by pixels does."""
        try:
            return self._act(board, advice)
        except TargetMoved as err:
            raise Stale(str(err)) from err

    def _act(self, board: Board, advice: Advice) -> int:
        assert self.actuator is not None
        covered = board.covered()
        self.clicked = []
        if advice.safe:
            for cell in sorted(advice.safe):
                if covered[cell] and self.still_wanted() and self.still_covered(board, cell):
                    self.actuator.open(cell)
                    self.clicked.append(cell)
            if self.options.flags:
                for cell in sorted(advice.mines):
                    if board.cells[cell] == UNOPENED and self.still_wanted() and self.still_covered(board, cell):
                        self.actuator.flag(cell)
                        self.own_flags.add(cell)
                        self.clicked.append(cell)
            return 0
        if (advice.guess is not None and covered[advice.guess] and self.still_wanted()
                and self.still_covered(board, advice.guess)):
            self.actuator.open(advice.guess)
            self.clicked.append(advice.guess)
            return 1
        left = [c for c in sorted(advice.mines) if board.cells[c] == UNOPENED]
        if advice.guess is None and left:  # every covered cell a proven mine, and the game goes on:
            for cell in left:  # one that is won only with every mine flagged (ace-minesweeper)
                if self.still_wanted() and self.still_covered(board, cell):
                    self.actuator.flag(cell)
                    self.own_flags.add(cell)
                    self.clicked.append(cell)
            return 0
        raise VisionError("nothing to click on a board that is still being played")

    def play_game(self) -> GameLog:
        """One game to its end: a fresh board on the screen is played as it is (the user may just
        have started it), anything else restarted first. A game the user restarts, or whose level
        changes, mid-way is logged as abandoned; the next one follows the new board."""
        image, reading, board = self.look(None)
        in_progress = reading.face == "playing" and (board.cells != UNOPENED).any()
        # A game without a face asks before its key starts over (GNOME Mines' dialog hides the
        # board): one in progress is played on as it stands.
        if (reading.face != "playing" or in_progress) and not (in_progress and self.skin.new_game_key):
            self.still_wanted()
            self.actuator.restart()
            old = board
            for _ in range(RETRIES):  # wait until the new game is drawn: all covered, or (a game that
                time.sleep(SETTLE)  # opens a start area itself, xdemineur) one play could not lead to
                image, reading, board = self.look(None)
                if reading.face == "playing" and ((board.cells == UNOPENED).all() or not _follows(old, board)):
                    break
            else:
                raise Stop(f"stopped safely: the game did not restart; last screenshot: {self._save_stop(image)}")
        if self.options.fresh_layouts:  # two first clicks in one second would replay the same mines
            while int(time.time()) == getattr(self, "_last_second", None):
                time.sleep(0.02)
            self._last_second = int(time.time())
        start, guesses, clicks0 = time.monotonic(), 0, self.actuator.clicks
        self.own_flags = set()
        shape, started = board.shape, False
        failures = stale = 0
        while reading.face == "playing" and not board.solved():  # (a win some games show on the board alone)
            if board.shape != shape or (started and not (board.cells >= 0).any()):
                return GameLog("abandoned", time.monotonic() - start, self.actuator.clicks - clicks0, guesses, None)
            started = started or bool((board.cells >= 0).any())
            try:
                advice = self.decide(board)
                self.record(image, board)
                self.frames += 1
                guesses += self.act(board, advice)
                self.wait_for_change(image)
                image, reading, board = self.look(board)
                failures = stale = 0
                if self.replaced:
                    self.replaced = False
                    return GameLog("abandoned", time.monotonic() - start, self.actuator.clicks - clicks0, guesses, None)
            except Stale as err:
                stale += 1
                if stale >= STALE_BATCHES:
                    raise Stop(f"stopped safely: {err}, {stale} times in a row; "
                               f"last screenshot: {self._save_stop(image)}") from err
                image, reading, board = self.look(None)
            except VisionError as err:
                failures += 1
                if failures >= 3:
                    raise Stop(f"stopped safely: {err}; last screenshot: {self._save_stop(image)}") from err
                image, reading, board = self.look(None)
        self.record(image, board)
        result = "won" if board.solved() else reading.face
        return GameLog(result, time.monotonic() - start, self.actuator.clicks - clicks0, guesses, three_bv_of(board))

    def watch(self) -> int:
        """Dry run: never click; show the advice whenever the board changes: over the game when an
        overlay window can be shown, and always in the annotated PNG. Returns frames drawn."""
        overlay = self._open_overlay()
        try:
            return self._watch(overlay)
        finally:
            if overlay is not None:
                overlay.close()

    def _open_overlay(self) -> Overlay | None:
        if not self.options.overlay:
            return None
        try:
            return Overlay(current())
        except OverlayError as err:
            self.say(f"{err}; the advice goes to {self.options.annotated} only")
            return None

    def _watch(self, overlay: Overlay | None) -> int:
        from bot.annotate import annotate

        last, drawn, clean, ours = None, 0, None, None
        while self.options.max_frames is None or drawn < self.options.max_frames:
            if overlay is not None:
                overlay.pump()
                if overlay.shown is not None and clean is not None and not self._changed(clean, ours):
                    time.sleep(0.05)
                    continue
                if overlay.shown is not None:
                    overlay.hide()  # the read must see the game, not our marks
                    time.sleep(SETTLE)
            image, reading, board = self.look(None)
            key = (reading.codes.tobytes(), self.field.left, self.field.top)
            if key != last:
                advice = self.decide(board) if reading.face == "playing" else None
                write_image(str(self.options.annotated), annotate(image, self.shown, advice))
                self.advised.append((board, advice))
                last = key
                drawn += 1
            if overlay is None:
                time.sleep(0.05)
                continue
            clean = self.screen.grab(self.region)  # the game with nothing of ours over it
            if not np.array_equal(self._field_pixels(clean), self._field_pixels(image, self.shown)):
                continue  # the user moved while we thought: read again before showing anything
            f, r = self.field, self.region
            shown = drawing(replace(f, left=f.left + self.origin.left, top=f.top + self.origin.top),
                            self.advised[-1][1])
            overlay.show(shown)
            ours = shown.mask(r.left, r.top, r.width, r.height)  # the grab's pixels under our marks
        return drawn

    def _field_pixels(self, frame: np.ndarray, field: Field | None = None) -> np.ndarray:
        f = field or self.view
        return frame[round(f.top) : round(f.top + f.height), round(f.left) : round(f.left + f.width)]

    def _changed(self, clean: np.ndarray, ours: np.ndarray) -> bool:
        """Has anything in the field changed since the clean grab, outside the overlay's marks?"""
        try:
            now = self.screen.grab(self.region)
        except CaptureError:
            return True
        if now.shape != clean.shape:
            return True
        differs = (now != clean).any(axis=2) & ~ours
        return bool(self._field_pixels(differs).any())


def play(options: Options, screen: Screen | None = None,
         actuator_factory: Callable[[Target], Actuator] = Actuator, say: Callable[[str], None] = lambda _: None,
         logs: list[GameLog] | None = None) -> list[GameLog]:
    """Play options.games games; each finished game is appended to logs as it ends, so a caller
    that passes its own list still has the games played when the run stops or is interrupted."""
    own = screen is None
    logs = [] if logs is None else logs
    try:
        screen = screen or Screen()
        player = Player(screen, options, actuator_factory, say)
        if options.dry_run:
            player.watch()
            return logs
        for _ in range(options.games):
            logs.append(player.play_game())
    except ActuatorError as err:
        raise Stop(str(err)) from err
    finally:
        if own and screen is not None:
            screen.close()
    return logs


def summary(logs: list[GameLog]) -> str:
    lines = [f"{'game':>4s} {'result':8s} {'time s':>7s} {'clicks':>6s} {'guesses':>7s} {'3BV':>4s} {'3BV/s':>6s}"]
    for i, g in enumerate(logs, 1):
        bv = "" if g.three_bv is None else str(g.three_bv)
        rate = "" if g.three_bv is None or g.result != "won" else f"{g.three_bv / max(g.seconds, 1e-9):.1f}"
        lines.append(f"{i:4d} {g.result:8s} {g.seconds:7.2f} {g.clicks:6d} {g.guesses:7d} {bv:>4s} {rate:>6s}")
    won = [g for g in logs if g.result == "won"]
    if logs:
        median = f"{np.median([g.seconds for g in won]):.2f} s" if won else "n/a"
        lines.append(f"won {len(won)}/{len(logs)} ({len(won) / len(logs):.0%}), median time of won games {median}")
    return "\n".join(lines)
