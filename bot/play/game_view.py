"""The game on the screen: where it is, and a checked read of it.

A read is handed on only when it is complete (no unknown cell, face and counter read), consistent
with the board before it (opened cells stay opened, numbers never change) and, for a game over,
its result known. Anything else is grabbed again; a window that moved is found again (and whoever
clicks hears of the new place: on_calibrated); after a few failures it stops with a message and
the offending screenshot saved. Right before each click the region is read again, so that no
click is made on a game that moved, closed or restarted (bot.play.click_guard).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from bot.board import EXPLODED, MINE, UNOPENED, Board, Cell
from bot.errors import BotError, CaptureError, VisionError
from bot.imagefile import write_image
from bot.play.click_guard import SETTLE, Guard
from bot.play.complete_read import ended, name_face, name_numbers, painted_over
from bot.play.game_windows import GameWindows
from bot.play.options import Options
from bot.screen.actuator import Actuator, Target, TargetMoved
from bot.screen.capture import Region, Screen
from bot.vision.calibrate import Calibration, load_profile, locate, second_board
from bot.vision.growth import best_offset
from bot.vision.reader import Field, Reading, face_box, read
from bot.vision.skin import Skin

RETRIES = 25  # bad frames in a row before giving up (about 2.5 s: a window covered for a second)
NEW_GAME_READS = 3  # reads alike of a board that cannot follow the last: another game, not a misread
DIALOG_READS = 3  # bad frames after the bot's clicks before the game's own dialog is looked for
DIALOG_WAIT = 5.0  # seconds a game's dialog, once answered, may take to close (pressed again meanwhile)


class Stop(BotError):
    """The loop cannot go on safely; the message says why and where the screenshot is."""


class UserStop(Stop):
    """The user pressed the stop key: the run ends by their choice, not by a fault."""


class NotFound(Stop):
    """No board the skins know was ever found on the screen (a look to learn, or no game at all).
    `unconfirmed`: the skin that claimed the game by its covered tiles alone (a described look's
    colours), whose first move then opened cells it does not read: not this game's look after all,
    and a move was made."""

    def __init__(self, message: str, unconfirmed: str | None = None) -> None:
        super().__init__(message)
        self.unconfirmed = unconfirmed


def follows(before: Board, after: Board, unread: np.ndarray | None = None) -> bool:
    """Could `after` come from `before` by play? Opened cells stay opened and keep their number;
    `unread` cells (a game's end read under its own dialog, bot.play.complete_read.ended) say
    nothing either way."""
    opened = before.cells >= 0
    if unread is not None:
        opened &= ~unread
    return bool(np.array_equal(before.cells[opened], after.cells[opened]))


def _where(cal: Calibration) -> str:
    return f"{cal.rows}x{cal.cols} cells at ({cal.left:.0f}, {cal.top:.0f})"


class GameView:
    """The game's place on the screen, its skin, and reads of it (of the play loop's options it
    reads skins, profile, window, patience, mines, dry_run and stop_dir)."""

    def __init__(self, screen: Screen, options: Options, on_calibrated: Callable[[Target], None],
                 actuator_factory: Callable[[Target], Actuator] = Actuator,
                 still_wanted: Callable[[], bool] = lambda: True, say: Callable[[str], None] = lambda _: None,
                 mouse: Callable[[], Actuator | None] = lambda: None):
        self.screen = screen
        #: The game's dialogs and windows, as `mouse` (the actuator clicking the game now, None in a
        #: dry run or before the game is found) sees them; the game's skin names its end dialogs.
        self.windows = GameWindows(options, mouse, lambda: [self.skin] if self.skin is not None else options.skins,
                                   say)
        self.options = options
        self.on_calibrated = on_calibrated
        self.make_actuator = actuator_factory  # (only to start a new game where the profile has one)
        self.still_wanted = still_wanted  # asked during a long wait: the user's stop key ends it
        self.say = say
        self.origin = screen.monitors()[0]
        self.cal: Calibration | None = None
        self.read_here = False  # a look read the game whole since it was last calibrated
        #: ... and showed more than covered tiles, or its skin is one of pixels (a described look's
        #: covered colours alone can be another game's: a green shaded game is Windows 7's green
        #: look until its first opened cell says otherwise)
        self.confirmed = False
        self.skin: Skin | None = None
        self.field: Field | None = None
        self.region: Region | None = None
        self.view: Field | None = None
        self.shown: Field | None = None  # the field in the last frame looked at (region or screen)
        self.replaced = False  # look() saw the game replaced by another one (the user restarted)
        #: The cells the last look could not read and took for covered, the game being over (None:
        #: every cell read): Arbiter's record dialog over a won board hid a third of it.
        self.unread: np.ndarray | None = None
        #: The board a faceless game's end was painted over (bot.play.complete_read.painted_over),
        #: while that end stays on the screen: a look with no board of its own (the next game's
        #: start) still reads that end for what it is.
        self.over_from: Board | None = None

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

    def forget_place(self) -> None:
        """The mouse saw the game's window move: the next look searches the whole screen, as a
        region grabbed where the window was can still show a game that is no longer there."""
        self.region = self.view = None

    def calibrate(self, image: np.ndarray) -> None:
        """Where the game is (the profile's place, the window's, or anywhere on the screen), and
        which skin it wears; on_calibrated hears of the new target."""
        window = self.options.window  # (desktop pixels: the grab's are from the virtual screen's origin)
        within = None if window is None else (window[0] - self.origin.left, window[1] - self.origin.top, *window[2:])
        try:
            cal, skin, fresh = locate(image, self.options.skins, self.options.profile, within)
            if fresh and within is None and (other := second_board(image, self.options.skins, cal, skin)):
                raise Stop(f"stopped safely: two games on the screen ({_where(cal)} and {_where(other)}): "
                           "close or cover the one not to play")
        except VisionError:
            if not self._new_game_where_it_was(image):
                raise
            image = self.screen.grab_stable(timeout=2.0, interval=0.01)
            cal, skin, _ = locate(image, self.options.skins, self.options.profile, within)
        self.cal, self.skin, self.field = cal, skin, cal.with_pitch(skin)
        self.read_here = self.confirmed = False
        self._set_region(image.shape[1], image.shape[0])
        self.on_calibrated(self.target(self.field, skin))

    def target(self, field: Field, skin: Skin) -> Target:
        """The field on the screen, as the actuator guards and clicks it."""
        fx, fy, fw, fh = face_box(field, skin)
        face = (fx + self.origin.left, fy + self.origin.top, fw, fh) if not skin.faceless else (0, 0, 0, 0)
        left, top = field.left + self.origin.left, field.top + self.origin.top
        # Off the cells after each action where the pointer changes what they show: a hover light
        # (GNOME Mines), and in a described look's game the glow of the tile under it (Windows 7)
        # or a box at a game's end that stays while the pointer is over it (KMines' "You have won").
        park = (left + field.width / 2, max(self.origin.top, top - 4)) if skin.hover or skin.look else None
        return Target(left, top, field.pitch, field.rows, field.cols, face, skin.new_game_key, park, field.xs, field.ys,
                      skin.click_dwell)

    def _new_game_where_it_was(self, image: np.ndarray) -> bool:
        """A game without a face is found by its field, which needs a covered cell in every row and
        column (bot.vision.calibrate); a finished one may have none, or show mines its skin, learnt at
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
        # (an end in looks no skin holds is taken only when this run has not found the game yet: a
        # won board of Simon Tatham's Mines read in passing, its flags alone, was restarted mid-run)
        lost_here = self.cal is None and _a_loss_shows(reading, skin)
        if not reading.framed or (reading.unknown.mean() > 0.5 and not lost_here):
            return False
        actuator = self.make_actuator(self.target(field, skin))
        try:
            actuator.restart()
        except TargetMoved:  # (not pressed: the game is looked for again)
            return False
        finally:
            actuator.close()
        self.say(f"a finished game of skin {skin.name!r} where the profile has it: "
                 f"a new one started ({skin.new_game_key})")
        return True

    def look(self, previous: Board | None, flagged: frozenset[Cell] = frozenset(),
             clicked: frozenset[Cell] = frozenset()) -> tuple[np.ndarray, Reading, Board]:
        """A complete, consistent, satisfiable read, or Stop after RETRIES bad frames and the
        options' patience (a game hidden by a dialog the player answers comes back). `flagged`:
        the cells the bot flagged in this game; `clicked`: those it clicked in this game. Where
        either is given, no number is named on a cell that cannot show one (bot.play.complete_read)."""
        problem = "no frame"
        image = None
        deadline = time.monotonic() + (self.options.patience if self.cal is not None else 0.0)
        tries = 0
        changed_reads: list[bytes] = []
        dialog_since: float | None = None  # when a dialog of the game's was first answered in this look
        while tries < RETRIES or time.monotonic() < deadline:
            tries += 1
            if tries > RETRIES and self.windows.game_gone():
                raise Stop("stopped safely: the game's window was closed")
            if tries == RETRIES + 1:
                self.say(f"the game is hidden ({problem}): waiting up to {self.options.patience:.0f} s for it")
            if tries > RETRIES:
                self.still_wanted()  # a long wait: the stop key still ends it
            answering = dialog_since is None or time.monotonic() - dialog_since < self.options.dialog_longest
            # (pressed again while it stays)
            if tries > DIALOG_READS and answering and self.windows.answer_after_clicks():
                dialog_since = dialog_since or time.monotonic()
                deadline = max(deadline, time.monotonic() + DIALOG_WAIT)
            try:
                end = self.windows.end_dialog()
                if end is not None:
                    raise end
                image, field = self.grab()
                if field is None:
                    self.calibrate(image)
                    field = self.field
                reading = read(image, field, self.skin)
                base = previous if previous is not None else self.over_from
                over = painted_over(reading, base) if self.skin.faceless else None
                if over is not None:
                    reading = replace(reading, face=over)  # (its unread cells no longer matter)
                if reading.face is None and not reading.unknown.any():
                    self.skin, reading = name_face(image, field, self.skin, reading, self._holds_still, self.say)
                # (a described look's field not seen whole where it was: found again, as a fresh
                # board may place it a pixel or two off that a game under way then shows: KMines'
                # raised tiles' shadows)
                if over is None and (reading.face is None or reading.unknown.mean() > 0.5
                                     or (self.skin.look is not None and not reading.framed)):
                    if self.windows.dialog_open():  # found again under it, the field would be the part in sight
                        problem = "a window of the game's is over the board"
                        raise VisionError(problem)
                    image = self.screen.grab_stable(timeout=2.0, interval=0.01)  # moved? find it again
                    self.calibrate(image)
                    previous = None
                    field = self.field
                    reading = read(image, field, self.skin)
                if reading.unknown.any() and field.pitch != self.skin.cell:
                    field, reading = self._realign(image, field, reading)
                self.shown = field
                if over is None and not reading.complete and reading.unknown.any():
                    self.skin, reading = name_numbers(image, field, self.skin, reading, self._holds_still, self.say,
                                                      flagged | _unopenable(previous, reading, clicked))
                unread = reading.unknown.copy() if reading.unknown.any() else None
                reading = ended(reading, self.skin)
                if not reading.complete:
                    cells = ", ".join(str((int(r), int(c))) for r, c in np.argwhere(reading.unknown)[:4])
                    problem = (f"{int(reading.unknown.sum())} cell(s) unreadable (covered or half drawn?)"
                               + (f", e.g. (row, col) {cells}" if cells else "")
                               if reading.unknown.any() or reading.framed else
                               "the field's edge is not seen on every side (covered, or found only in part?)")
                    raise VisionError(problem)
                if reading.face == "pressed":  # a button is down: the cell under it is drawn opened
                    problem = "a mouse button is held on the board"
                    raise VisionError(problem)
                board = self._with_total(reading.game_board(), reading)
                self.unread = unread
                changed = (previous is not None and previous.shape == board.shape
                           and not follows(previous, board, unread))
                if changed and (board.cells >= 0).any():  # all covered again: the user restarted
                    changed_reads.append(board.cells.tobytes())
                    if len(changed_reads) < NEW_GAME_READS or len(set(changed_reads[-NEW_GAME_READS:])) != 1:
                        problem = "the board changed in a way the game cannot (a misread?)"
                        raise VisionError(problem)
                    if self.windows.after_clicks and self.windows.dialog_open():  # (the Java clone's "You lose!" mapped
                        # over the field, not drawn yet: its cells read as covered ones)
                        problem = "a window of the game's is over the board"
                        raise VisionError(problem)
                    # The same board read again and again: not a misread but another game (a user
                    # restart that a click of ours then opened): the game played is over.
                    self.replaced = True
                self.read_here = True
                self.over_from = base if over is not None else None
                self.confirmed = self.confirmed or self.skin.look is None or bool((board.cells >= 0).any())
                return image, reading, board
            except (VisionError, CaptureError) as err:
                problem = str(err)
                if dialog_since is not None and not self.windows.dialog_open():
                    self.windows.stir_pointer()  # (the game's box that stays while pointed at, after its window)
                time.sleep(0.1)
        saved = self.save_stop(image)
        if dialog_since is not None:
            problem = f"a window of the game's stayed over the board though answered and asked to close ({problem})"
        # A skin that found the game but never read it whole (one learnt at another size, scaled:
        # GNOME Mines' 48 px look on its 24 px cells) knows this look no better than none.
        message = f"stopped safely: {problem}; last screenshot: {saved}"
        if self.cal is None or not self.read_here:
            raise NotFound(message)
        if not self.confirmed:
            raise NotFound(message, unconfirmed=self.skin.name)
        raise Stop(message)

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

    def _with_total(self, board: Board, reading: Reading) -> Board:
        """The board with its mine total where no counter shows it: the solver plays a game's end
        far better knowing it (docs/results.md: `python3 -m benchmarks.paired --variant no-total`)."""
        if board.mines is not None or reading.counted or reading.face != "playing":
            return board
        total = self.options.mines if self.options.mines is not None else self.skin.mines.get(board.cells.shape)
        return board if total is None else board.with_mines(total)

    def _holds_still(self, image: np.ndarray) -> bool:
        """The same picture a moment later: a look caught half drawn is never named."""
        time.sleep(SETTLE)
        again, again_field = self.grab()
        return again_field is not None and again.shape == image.shape and np.array_equal(again, image)

    @property
    def guard(self) -> Guard:
        """The checks around a click, on the game's place as it stands now."""
        return Guard(self.screen, self.region, self.view, self.skin)

    def save_stop(self, image: np.ndarray | None) -> str:
        if image is None:
            return "none (the screen could not be grabbed)"
        path = self.options.stop_dir / f"stopped-{time.strftime('%Y%m%d-%H%M%S')}.png"
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
        if not write_image(str(path), image):
            return f"none (it could not be written to {path})"
        return str(path)


def _a_loss_shows(reading: Reading, skin: Skin) -> bool:
    """A faceless game's loss in looks its pixel skin does not hold (XBomb opens every cell and
    outlines those opened before): no cell read covered, and a mine shows. Mines read at the
    profile's place say the game is there, however little else reads."""
    known = reading.codes[~reading.unknown]
    return skin.look is None and not (known == UNOPENED).any() and bool(np.isin(known, (MINE, EXPLODED)).any())


def _unopenable(previous: Board | None, reading: Reading, clicked: frozenset[Cell]) -> frozenset[Cell]:
    """Unread cells that were covered on the board before the bot's last clicks, were never
    clicked in this game, and lie beside no opened 0 now: no click opened them, so they show no
    number (a game's own flags at a win, KMines': named a 6 from the board, every flag then read
    as one). A cell an earlier batch clicked may be drawn only now (GNOME Mines at 76 px on a
    loaded machine: read covered, skipped by the next batch as opened, its 6 then never named and
    the run stopped). None known without a board before, or where no click was made (a user's own
    moves)."""
    if previous is None or not clicked or previous.cells.shape != reading.codes.shape:
        return frozenset()
    zero = ((reading.codes == 0) & ~reading.unknown).astype(np.uint8)
    near_zero = cv2.dilate(zero, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    cells = reading.unknown & (previous.cells == UNOPENED) & ~near_zero
    return frozenset((int(r), int(c)) for r, c in np.argwhere(cells)) - clicked
