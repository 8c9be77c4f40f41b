"""Learn a Minesweeper look from a live game: no templates, no labels from the user.

1. The field is found from structure alone (bot.lattice) on a fresh game.
2. The first click is made by holding the button down on the middle cell: whatever changes
   outside the field meanwhile is the face (its "pressed" state), and releasing opens the cell.
3. Opened cells are grouped by look (bot.looks); each new look is a number whose value the
   game's logic decides (bot.labels). Only cells the SAT core proves safe under *every* naming
   still possible are opened, so a wrong guess about a name can never cost a click.
4. A proven mine is right-clicked (flag), again (question mark, if the game has them) and again
   (back to covered): those looks are named by what we did.
5. When nothing is provably safe the learner guesses, having first put a flag on another cell.
   A lost game is the best teacher: it shows the mines (naming every number around them at
   once), the exploded mine, and the flag on a cell without a mine. The face is clicked for the
   next game, until every look is known or the game budget runs out.

The result is written as a skin folder like the shipped ones, plus a calibration profile.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from bot.board import UNOPENED, Cell, neighbour_table, neighbours
from bot.errors import BotError, VisionError
from bot.imagefile import write_image
from bot.labels import COVERED_CLASS, FLAGGED_CLASS, MAX_NAMINGS, _problem, from_mines, namings, settle
from bot.lattice import Lattice, find_lattice
from bot.led import crops, place, units_box
from bot.looks import Looks
from bot.sat import SatCore
from bot.skin import CELL_CODES, Skin
from bot.vision import Field, frame_of

NUMBERS = tuple(range(9))
SPECIAL = ("flag", "question", "mine", "exploded", "wrong_flag")
FACES = ("playing", "pressed", "won", "lost")
#: The frame learnt: the third pixel out from the field. A learnt skin is in the display's pixels,
#: whatever its scaling, and on a scaled display the two pixels next to the field blend with the
#: cells' edges; one pixel of frame is enough to refuse a cut board.
LEARNT_FRAME_DEPTH, LEARNT_FRAME_SKIP = 3, 2

#: A face differs from another state by at least this many pixels' worth of change.
FACE_CHANGE = 12
#: Clicks, counted in games, before the learner gives up on what it has not seen.
GAMES = 12
#: Seconds a held button may go without anything above the field changing before the game is
#: taken to have no face (GNOME Mines, which flags a cell held past half a second: undone after).
NO_FACE_AFTER = 0.6
#: Seconds a board that shows an end waits for the face to show it too (WineMine on a loaded
#: machine painted a won board, its mines flagged, well before its won face).
FACE_LAG = 2.0
#: Seconds a right-click may take to show before it is taken as lost on the way and sent again.
RIGHT_CLICK_SHOWS = 3.0
#: Games in which the learner flags cells to watch the mine counter count down, at most.
PROBES = 3
#: Seconds between two clicks on one cell, longer than any desktop's double-click time.
DOUBLE_CLICK = 0.55
#: Games won before the learner loses one on purpose to see the mines (the looks only a loss shows).
LOSE_AFTER = 2
#: What starts a new game in a game without a face, tried in this order: Winmine's key, then
#: GNOME Mines' "start over" (its Ctrl+N shows a screen of levels, not a board).
NEW_GAME_KEYS = ("f2", "ctrl+r", "ctrl+n")
#: Seconds a game just started may take to draw its field before the learner says there is none
#: (GNOME Mines on a loaded machine showed its window still empty after it held still; 10 s was
#: once not enough, with the full suite and two benchmark processes on the 2 cores).
BOARD_WAIT = 30.0


class LearnError(BotError):
    """Learning cannot go on: no board, a board that changed under us, an impossible naming."""


class Hands(Protocol):
    """The mouse, as the learner needs it (the live one is guarded by the field and face)."""

    def click(self, x: int, y: int, button: str = "left") -> None: ...
    def hold(self, x: int, y: int) -> None: ...
    def release(self, x: int, y: int) -> None: ...
    def key(self, x: int, y: int, combo: str) -> None: ...
    def move(self, x: int, y: int) -> None: ...


@dataclass
class Learnt:
    lattice: Lattice
    cells: dict[str, np.ndarray] = field(default_factory=dict)  # sprite name -> tile
    faces: dict[str, np.ndarray] = field(default_factory=dict)
    face_box: tuple[int, int, int, int] | None = None  # left, top, width, height, screen pixels
    games: int = 0
    unnamed: list[list[int]] = field(default_factory=list)  # per number look never named: what it could be
    digits: dict[str, np.ndarray] = field(default_factory=dict)  # counter digit -> sprite
    counter_boxes: list[tuple[int, int, int, int]] = field(default_factory=list)  # each digit, left to right
    frame: dict[str, tuple[int, int, int]] | None = None  # the frame's colour round the field, per side
    new_game_key: str | None = None  # what starts a new game where there is no face ("ctrl+r")
    hover: bool = False  # a covered cell lights up under the pointer
    #: Mines in a game of each size (rows, cols) seen end: a game with no counter to read (GNOME
    #: Mines shows its total beside the field as text) is still played knowing its total.
    mines: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def missing(self) -> list[str]:
        want = [str(n) for n in NUMBERS] + ["unopened", *SPECIAL]
        faces = FACES if self.face_box is not None else ()  # (a game without a face misses none)
        return ([w for w in want if w not in self.cells] + [f"face {f}" for f in faces if f not in self.faces]
                + ([f"digit {d}" for d in range(10) if str(d) not in self.digits] if self.digits
                   else ["counter digits"]))


class Learner:
    def __init__(
        self,
        grab: Callable[[], np.ndarray],
        hands_for: Callable[[Lattice, tuple[int, int, int, int] | None], Hands],
        games: int = GAMES,
        say: Callable[[str], None] = lambda _: None,
        seed: int = 0,
        known: Skin | None = None,
        board_wait: float = BOARD_WAIT,
    ) -> None:
        self.known = known
        self.board_wait = board_wait
        self.grab = grab
        self.hands_for = hands_for
        self.games = games
        self.say = say
        self.rng = np.random.default_rng(seed)

    # -- seeing ------------------------------------------------------------
    def tiles(self, image: np.ndarray) -> np.ndarray:
        try:
            return self.lat.tiles(image)
        except VisionError as err:
            raise LearnError("the board is no longer where it was (window moved or closed)") from err

    def _surround(self, image: np.ndarray) -> np.ndarray:
        """The strip of window frame just outside the field: it never changes while the game runs."""
        lat, m, gap = self.lat, 5, 2  # (the pixels next to the field blend with its cells when scaled)
        x0, y0 = max(0, lat.left - m), max(0, lat.top - m)
        box = image[y0 : lat.top + lat.height + m, x0 : lat.left + lat.width + m].astype(np.int16)
        band = np.ones(box.shape[:2], bool)
        top, left = max(0, lat.top - y0 - gap), max(0, lat.left - x0 - gap)
        band[top : lat.top - y0 + lat.height + gap, left : lat.left - x0 + lat.width + gap] = False
        return box[band]

    def frame(self, image: np.ndarray) -> np.ndarray:
        tiles = self.tiles(image)
        ring = self._surround(image)
        if ring.shape != self.ring.shape or float(np.abs(ring - self.ring).mean()) > 8:
            raise LearnError("the board is no longer where it was (window moved, covered or closed)")
        return self.looks.classify(tiles).reshape(self.lat.rows, self.lat.cols)

    def centre(self, cell: Cell) -> tuple[int, int]:
        return self.lat.centre(*cell)

    def covered(self, ids: np.ndarray) -> np.ndarray:
        return np.isin(ids, [k for k, role in self.role.items() if role in ("unopened", "question")])

    def logic_frame(self, ids: np.ndarray) -> np.ndarray:
        """Class ids of the numbers; everything else covered (flags: FLAGGED_CLASS), for bot.labels."""
        out = ids.astype(np.int64).copy()
        flagged = np.isin(ids, [k for k, role in self.role.items() if role in ("flag", "wrong_flag")])
        shown = np.isin(ids, [k for k, role in self.role.items() if role in ("mine", "exploded")])
        out[self.covered(ids) | shown] = COVERED_CLASS
        out[flagged] = FLAGGED_CLASS
        return out

    def number_classes(self) -> list[int]:
        return [k for k in range(len(self.looks)) if self.role.get(k) is None or self.role[k] == "number"]

    def face_changed(self, image: np.ndarray) -> bool:
        if self.face_box is None:
            return False
        x, y, w, h = self.face_box
        now = image[y : y + h, x : x + w].astype(np.int16)
        was = self.face_playing[y - self.face_origin[1] : y - self.face_origin[1] + h,
                                x - self.face_origin[0] : x - self.face_origin[0] + w].astype(np.int16)
        return int((np.abs(now - was).max(axis=2) > 40).sum()) >= FACE_CHANGE

    # -- learning ----------------------------------------------------------
    def run(self) -> Learnt:
        fresh, lat = self._first_sight()
        self.start_image = fresh  # (the frame round the field, as a game starts)
        self.lat = lat
        self.say(f"field: {lat.rows} x {lat.cols} cells of {lat.pitch} px at ({lat.left}, {lat.top})")
        first = self.tiles(fresh)
        self.ring = self._surround(fresh)
        self.looks = Looks(first[_commonest(first)])  # the covered cell: a game may open some itself
        self.role: dict[int, str] = {0: "unopened"}
        self.names: dict[int, int] = {}
        self.possible: dict[int, set[int]] = {}
        self.face_box = None
        self.face_images: dict[str, np.ndarray] = {}
        self.marks = False  # does the game have question marks?
        self.win_on_board = False  # has a win been seen on the board alone, the face unchanged?
        self.probe: tuple[int, list[np.ndarray], list[int]] | None = None  # counter frames, flags shown
        self.probes = 0
        self.totals: set[int] = set()  # mines seen at each game's end
        self.known_faces: dict[str, np.ndarray] = {}
        self.counter: tuple[list[tuple[int, int, int, int]], dict[str, np.ndarray]] | None = None
        if self.known is not None:
            self._adopt(self.known)
        self.learnt = Learnt(lat)
        hands = self.hands_for(lat, None)
        ids = self.looks.classify(first).reshape(lat.rows, lat.cols)
        for k in np.unique(ids):  # cells a game opened itself before any click (xdemineur): numbers
            self.role.setdefault(int(k), "number")  # (a loss names the looks it shows first as mines)
        self.opens_itself = bool(ids.any())
        covered = np.argwhere(ids == 0)
        middle = tuple(int(v) for v in covered[np.abs(covered - [lat.rows // 2, lat.cols // 2]).sum(axis=1).argmin()])
        self.first_cell = middle
        self.ticking = self._ticking(fresh)
        self.park = self._hover(hands, middle)
        hands = _Paced(hands, self.park)
        # The first click, held on the covered cell nearest the middle: the face shows a button is down.
        self.new_game_key: str | None = None
        hands.hold(*self.centre(middle))
        held = self._grab_changed_above(fresh, quiet=NO_FACE_AFTER)
        hands.release(*self.centre(middle))
        if held is not None:
            self._find_face(fresh, held)
        else:
            self.say("no face: nothing above the field changed while a cell was held")
            self._undo_long_press(hands, middle)
        hands = _Paced(self.hands_for(lat, self.face_box), self.park)
        image = self.grab()
        for game in range(self.games):
            self.learnt.games = game + 1
            image = self._play(hands, image, first_done=(game == 0))
            if not self._wants_more():
                break
            image = self._new_game(hands, image)
        return self._result()

    def _first_sight(self) -> tuple[np.ndarray, Lattice]:
        """The fresh field, looked for again for a while: a game just started may still be drawing
        it. Nothing is clicked before it is found."""
        deadline = time.monotonic() + self.board_wait
        told = False
        while True:
            fresh = self.grab()
            try:
                return fresh, find_lattice(fresh)
            except VisionError:
                if time.monotonic() >= deadline:
                    raise
                if not told:
                    self.say(f"no fresh board on the screen yet: looking again for up to {self.board_wait:.0f} s")
                    told = True
                time.sleep(0.25)

    def _undo_long_press(self, hands: Hands, cell: Cell) -> None:
        """GNOME Mines flags a cell held for half a second, as the face's probe holds one: if the
        held cell alone changed, a right-click tells a mark (it moves on) from a number (nothing
        happens); a mark is cycled back to covered and the cell clicked as it should have been."""
        image = self._grab_until(lambda ids: int(ids[cell]) != 0)
        if image is None or int((self.frame(image) != 0).sum()) != 1:
            return  # (an area opened: the hold was a click)
        mark = int(self.frame(image)[cell])
        hands.click(*self.centre(cell), button="right")
        if self._grab_until(lambda ids: int(ids[cell]) != mark, timeout=1.5) is None:
            return  # a number: a right-click does nothing to an opened cell
        for _ in range(3):
            if self._grab_until(lambda ids: int(ids[cell]) == 0, timeout=1.0) is not None:
                break
            hands.click(*self.centre(cell), button="right")
        else:
            raise LearnError("a cell the first click marked did not come back to covered")
        self.say("the held cell was marked, not opened (a long press): unmarked and clicked")
        hands.click(*self.centre(cell))
        self._opened(cell)

    def _hover(self, hands: Hands, cell: Cell) -> tuple[int, int] | None:
        """Does a covered cell light up under the pointer (GNOME Mines)? Then the pointer rests off
        the cells, just above the field, after every action: a lit cell is a look of no meaning."""
        was = int(self.frame(self.grab())[cell])
        hands.move(*self.centre(cell))
        if self._grab_until(lambda ids: int(ids[cell]) != was, timeout=0.5) is None:
            return None
        park = (self.lat.left + self.lat.width // 2, max(0, self.lat.top - 4))
        hands.move(*park)
        if self._grab_until(lambda ids: int(ids[cell]) == was) is None:
            raise LearnError("a cell lit up under the pointer and stayed lit once it left")
        self.say("cells light up under the pointer: it rests above the field after each action")
        return park

    def _new_game(self, hands: Hands, image: np.ndarray) -> np.ndarray:
        """A click on the face, or in a game without one the first key that starts a new game (kept
        for the next games). A new game: every cell covered again or, in a game that opens a start
        area itself (xdemineur), some cell that showed anything but covered shows something else.
        In any other game only a field all covered is a new game: GNOME Mines, asked for one while
        a game went on, put a dialog over the field, and its pixels were taken for a new board."""
        old = self.frame(image)
        shown = old != 0

        def started(ids: np.ndarray) -> bool:
            return not ids.any() or (self.opens_itself and bool((ids[shown] != old[shown]).any()))

        if self.face_box is not None:
            x, y, w, h = self.face_box
            hands.click(x + w // 2, y + h // 2)
            image = self._grab_until(started)
            if image is None:
                raise LearnError("clicking the face did not start a new game")
            return image
        for combo in [self.new_game_key] if self.new_game_key else NEW_GAME_KEYS:
            hands.key(*self.centre(self.first_cell), combo)  # (the pointer on the field: the game's keys)
            image = self._grab_until(started, timeout=3.0)
            if image is not None:
                if self.new_game_key is None:
                    self.say(f"a new game starts with {combo}")
                self.new_game_key = combo
                return image
        raise LearnError(f"no face, and none of {', '.join(NEW_GAME_KEYS)} started a new game")

    def _adopt(self, skin: Skin) -> None:
        """Start from a skin learnt before (another run, another level): only what it lacks is new."""
        lat = self.lat
        if skin.cell != lat.pitch:
            self.say(f"skin {skin.name} has {skin.cell} px cells, this game {lat.pitch} px: starting afresh")
            return
        role_of = {code: name for name, code in CELL_CODES.items()}
        for code, sprite in zip(skin.cell_codes, skin.cell_sprites):
            code = int(code)
            if code == UNOPENED:
                continue
            k = self.looks.add(sprite)
            if code >= 0:
                self.role[k], self.names[k] = "number", code
            else:
                self.role[k] = role_of[code]
        self.known_faces = dict(zip(skin.face_names, skin.face_sprites))
        self.marks = "question" in self.role.values()
        if len(skin.digit_sprites):
            h, w = skin.digit_sprites.shape[1:3]
            dx, dy = skin.counter_offset
            side = lat.left + (lat.width if skin.counter_anchor == "right" else 0)
            boxes = [(int(side + dx + k * w), int(lat.top + dy), w, h) for k in range(skin.digits)]
            self.counter = (boxes, dict(zip(skin.digit_names, skin.digit_sprites)))
        self.say(f"starting from skin {skin.name}: {len(skin.cell_codes)} cell sprites, {len(skin.face_names)} faces")

    def _find_face(self, fresh: np.ndarray, held: np.ndarray) -> None:
        """The face: what changed outside the field while the button was held down."""
        lat = self.lat
        changed = (np.abs(fresh.astype(np.int16) - held).max(axis=2) > 40).astype(np.uint8)
        changed[lat.top - 2 : lat.top + lat.height + 2, lat.left - 2 : lat.left + lat.width + 2] = 0
        changed[: self.ticking.shape[0]][self.ticking] = 0  # a running clock is not the face
        count, _, stats, centroids = cv2.connectedComponentsWithStats(cv2.dilate(changed, np.ones((5, 5), np.uint8)))
        boxes = []
        for i in range(1, count):
            x, y, w, h, _ = stats[i]
            cx, cy = centroids[i]
            if y + h > lat.top or w > 8 * lat.pitch or h > 8 * lat.pitch:
                continue  # the face is above the field and about a cell or two wide
            boxes.append((abs(cx - (lat.left + lat.width / 2)) + (lat.top - cy), int(x), int(y), int(w), int(h)))
        if not boxes:
            raise LearnError("no face found: nothing above the field changed while a cell was held down")
        _, x, y, w, h = min(boxes)
        # With the parts that changed beside it (a pressed button's bevel and the face's mouth
        # change apart): the whole of what changed there.
        for _, bx, by, bw, bh in boxes:
            near = bx < x + w + lat.pitch and x < bx + bw + lat.pitch
            if near and by < y + h + lat.pitch and y < by + bh + lat.pitch:
                x, y, w, h = min(x, bx), min(y, by), max(x + w, bx + bw) - min(x, bx), max(y + h, by + bh) - min(y, by)
        x, y, w, h = _button_around(fresh, (x, y, w, h))
        side = max(w, h)  # a square round the button, kept on the screen (a window at its edge)
        x = min(max(0, x + w // 2 - side // 2), fresh.shape[1] - side)
        y = min(max(0, y + h // 2 - side // 2), fresh.shape[0] - side)
        self.face_box = (x, y, side, side)
        margin = side
        x0, y0 = max(0, x - margin), max(0, y - margin)
        self.face_origin = (x0, y0)
        self.face_playing = fresh[y0 : y + side + margin, x0 : x + side + margin].copy()
        self.face_images = {"playing": fresh, "pressed": held}
        self.say(f"face: {side} px square at ({x}, {y})")

    def _wants_more(self) -> bool:
        return bool(self._missing_now())

    def _missing_now(self) -> list[str]:
        have = {str(v) for v in self.names.values()} | set(self.role.values()) | set(self.face_images)
        have |= set(self.known_faces)
        have |= {"counter"} if self.counter else set()
        have |= {"won"} if self.win_on_board else set()  # (a face it may never show: not waited for)
        have |= set(FACES) if self.face_box is None else set()  # (a game without a face)
        want = [str(n) for n in NUMBERS] + list(SPECIAL) + list(FACES) + ["counter"]
        return [w for w in want if w not in have]

    def _settle(self, frames: list[np.ndarray]) -> tuple[dict[int, int], dict[int, set[int]]]:
        classes = [k for k in self.number_classes() if any((f == k).any() for f in frames)]
        sure, possible, count = settle(frames, classes, {k: v for k, v in self.names.items() if k in classes})
        self.possible.update(possible)
        if count == 0:
            raise LearnError("no naming of the numbers fits what the game showed: the looks were split wrongly")
        return sure, possible

    def _safe_and_mines(
        self, logic: np.ndarray, sure: dict[int, int], possible: dict[int, set[int]]
    ) -> tuple[set[Cell], set[Cell]]:
        """Cells safe (and mined) under every naming still possible."""
        problem = _problem(logic, sure)
        if problem is None:
            return set(), set()
        with SatCore(problem) as core:
            safe, mines = core.forced()
        safe, mines = set(safe), set(mines)
        if safe or all(len(v) == 1 for v in possible.values()):
            return safe, mines
        # Names not yet certain: a cell is safe only if every naming makes it so.
        first = True
        for naming in islice(namings([logic], list(possible), sure), MAX_NAMINGS):
            problem = _problem(logic, naming)
            with SatCore(problem) as core:
                s, m = core.forced()
            safe, mines = (set(s), set(m)) if first else (safe & set(s), mines & set(m))
            first = False
            if not safe and not mines:
                break
        return safe, mines

    def _guess(self, logic: np.ndarray) -> Cell:
        covered = logic == COVERED_CLASS
        rows, cols = logic.shape
        table = neighbour_table(rows, cols)
        opened = ~covered
        options = [(sum(1 for n in table[r * cols + c] if opened[n]), float(self.rng.random()), (int(r), int(c)))
                   for r, c in zip(*np.nonzero(covered))]
        return min(options)[2]  # away from the numbers: an untouched cell is about as safe as any

    def _play(self, hands: Hands, image: np.ndarray, first_done: bool) -> np.ndarray:
        """One game, to its end. Returns the screen showing the next game's start."""
        lat = self.lat
        cell = self.first_cell  # (the first game's first click was the held one)
        if not first_done and not self.frame(image).any():
            # A different first cell each game: some clones seed their layouts with the clock, so
            # games begun close together look alike, and one cell would keep showing one number.
            cell = tuple(int(1 + self.rng.integers(n - 2)) if n > 2 else 0 for n in (lat.rows, lat.cols))
            hands.click(*self.centre(cell))
            image = self._opened(cell)
        baits: set[Cell] = set()
        last_click: tuple[Cell, bool] = (cell, False)
        before = None
        while True:
            ids = self.frame(image)  # (every click above was waited for: the frame shows it)
            if self._looks_over(image, ids, before, last_click):
                image = self._face_caught_up(image)
                ids = self.frame(image)
            if self.face_changed(image) or (self.face_box is None and before is not None and not last_click[1]
                                            and _scattered(ids != before, last_click[0])):
                image, ids = self._still(ids)
                self._game_over(image, ids, before, last_click, baits)
                return image
            before = ids
            for k in np.unique(ids):
                self.role.setdefault(int(k), "number")
            logic = self.logic_frame(ids)
            sure, possible = self._settle([logic])
            self.names.update(sure)
            if "flag" not in self.role.values():
                # Any covered cell will do: right-clicks only cycle its marks.
                image = self._learn_marks(hands, tuple(int(v) for v in np.argwhere(logic == COVERED_CLASS)[0]))
                before = None
                continue
            probing = self.counter is None and self.probe is None and self.probes < PROBES
            if probing and (logic == COVERED_CLASS).sum() > 10:
                self.probes += 1
                image = self._probe_counter(hands, image, logic)
                before = None
                continue
            safe, proven = self._safe_and_mines(logic, sure, possible)
            safe = {c for c in safe if logic[c] == COVERED_CLASS}  # never one of our flags
            mines = {c for c in proven if logic[c] == COVERED_CLASS}
            # A bait is wrong unless proven a mine (under its flag: not in `mines`, which are to click;
            # taken for wrong, a bait on the last mine of a won GNOME game was right-clicked in vain).
            wrong = sorted(b for b in baits if b not in proven)
            if mines and self.learnt.games >= LOSE_AFTER and "exploded" not in self.role.values():
                # Games all won teach no mine: lose this one on purpose, a proven mine clicked (a
                # game without a face shows its end by these looks alone), a flag on a safe cell first.
                if safe and "wrong_flag" not in self.role.values():
                    before = self._bait(hands, min(safe), baits)
                cell = min(mines)
                hands.click(*self.centre(cell))
                last_click = (cell, False)
                image = self._opened(cell)
                continue
            if safe:
                for cell in sorted(safe):
                    hands.click(*self.centre(cell))
                last_click = (max(safe), True)
                image = self._opened(*safe)
                continue
            covered = [(int(r), int(c)) for r, c in np.argwhere(logic == COVERED_CLASS)]
            if not covered:  # nothing left to open, yet the face goes on: a bait on a safe cell
                if not wrong:  # blocks the win: take it off (and open it at once: a zero beside a
                    # covered cell fits no naming)
                    # Every safe cell open, every flag on a mine: won, though the face says nothing
                    # (Minegauler keeps its playing face and flags the mines itself).
                    return self._won_quietly(ids, before, last_click, baits)
                cell = wrong[0]
                if self._uncover(hands, [cell]) is None:
                    return self._won_quietly(self.frame(self.grab()), before, last_click, baits)
                baits.discard(cell)
                hands.click(*self.centre(cell))
                last_click = (cell, len(wrong) == 1)  # the one cell left that is not a mine
                image = self._opened(cell)
                continue
            if set(covered) <= mines:  # only mines left, and the game goes on: it is won by flagging
                if wrong:  # them (ace, xdemineur); but first a bait on a safe cell comes off: a game may
                    for bait in wrong:  # allow no more flags than mines (xdemineur), and play goes on there
                        image = self._uncover(hands, [bait])
                        if image is None:
                            return self._won_quietly(self.frame(self.grab()), before, last_click, baits)
                        baits.discard(bait)
                        if any(self.names.get(int(ids[n])) == 0 for n in neighbours(logic.shape, bait)):
                            hands.click(*self.centre(bait))  # a 0's neighbour: safe, and covered
                            last_click = (bait, True)  # beside a 0 it would fit no naming
                            image = self._opened(bait)
                    before = None
                    continue
                for cell in covered:
                    hands.click(*self.centre(cell), button="right")
                last_click = (covered[-1], True)
                at = tuple(np.array(covered).T)
                flagged = self._grab_until(lambda ids, at=at: bool((ids[at] != 0).all()),
                                           timeout=max(5.0, 0.5 * len(covered)))
                if flagged is None and self.face_box is None:
                    # No flag shows: a game over takes no clicks. Won, its mines left covered
                    # (GNOME Mines), and with no face to say so.
                    return self._won_quietly(self.frame(self.grab()), before, last_click, baits)
                if flagged is None:
                    raise LearnError("the game did not respond to the last clicks")
                image = flagged
                continue
            # Nothing is certain: guess, with a flag on another covered cell first, so that a
            # loss shows what a flag without a mine under it looks like.
            cell = self._guess(logic)
            if "wrong_flag" not in self.role.values():  # (the flag look is known by now)
                others = [(int(r), int(c)) for r, c in np.argwhere(logic == COVERED_CLASS)]
                others = [c for c in others if c != cell and c not in mines]
                if others:  # (the bait's flag is no change the click made: `before` shows it)
                    before = self._bait(hands, others[int(self.rng.integers(len(others)))], baits)
            hands.click(*self.centre(cell))
            last_click = (cell, False)
            image = self._opened(cell)

    def _bait(self, hands: Hands, cell: Cell, baits: set[Cell]) -> np.ndarray:
        """A flag on a covered cell, kept as a bait once it shows (a loss then shows a flag without
        a mine under it); one that never shows is no bait (a game at its flag limit refuses it).
        Returns the board as it is then: the click that follows is judged against it (a game
        without a face once took the bait's flag, far from the guess, for a loss showing its mines,
        called the game over and asked for a new one, which GNOME Mines answered with a dialog
        over the field)."""
        flag = self._flag_looks()
        image = self._right_click(hands, cell, lambda ids: int(ids[cell]) in flag)
        if image is None:
            return self.frame(self.grab())
        baits.add(cell)
        return self.frame(image)

    def _right_click(self, hands: Hands, cell: Cell, shows: Callable[[np.ndarray], bool]) -> np.ndarray | None:
        """Right-click a cell, and the screen once it `shows` what the click does; a click that
        shows nothing is sent once more (lost on the way on a loaded machine). None: never shown."""
        for _ in range(2):
            hands.click(*self.centre(cell), button="right")
            image = self._grab_until(shows, timeout=RIGHT_CLICK_SHOWS)
            if image is not None:
                return image
        return None

    def _won_quietly(self, ids: np.ndarray, before: np.ndarray | None, last_click: tuple[Cell, bool],
                     baits: set[Cell]) -> np.ndarray:
        """The game is over though no face says so, and no mine showed: won. Returns the screen."""
        image, ids = self._still(ids)
        self.win_on_board = True
        self._game_over(image, ids, before, last_click, baits)
        return image

    def _uncover(self, hands: Hands, cells: list[Cell]) -> np.ndarray | None:
        """Right-click marked cells, round by round (a question mark may follow a flag), until each
        shows covered; a cell that shows no mark (a bait whose flag never came, opened by play
        since) is left as it is. No cell is clicked twice before the last click on it has shown.
        None: in a game without a face, a mark that never moved (a game over takes no clicks: GNOME
        Mines won with a bait on its last mine, unproven)."""
        image = self.grab()
        for _ in range(4):
            ids = self.frame(image)
            marked = [c for c in cells if self.role.get(int(ids[c])) in ("flag", "question")]
            if not marked:
                return image
            was = {c: int(ids[c]) for c in marked}
            for _ in range(2):  # (a click that shows nothing is sent once more)
                for c in marked:
                    hands.click(*self.centre(c), button="right")
                image = self._grab_until(lambda ids, was=was, marked=marked: all(int(ids[c]) != was[c] for c in marked),
                                         timeout=max(RIGHT_CLICK_SHOWS, 0.5 * len(marked)))
                if image is not None:
                    break
                ids = self.frame(self.last_grab)
                marked = [c for c in marked if int(ids[c]) == was[c]]
            else:
                if self.face_box is None and all(int(ids[c]) == was[c] for c in was):  # (ids: the last grab)
                    return None
                break
        raise LearnError(f"the marks at {cells} did not come off")

    def _flag_looks(self) -> list[int]:
        return [k for k, r in self.role.items() if r == "flag"]

    def _learn_marks(self, hands: Hands, cell: Cell) -> np.ndarray:
        """Right-click a covered cell until it is covered again: flag, maybe question mark, covered."""
        seen = []
        image = self.grab()
        before = int(self.frame(image)[cell])
        index = cell[0] * self.lat.cols + cell[1]
        for _ in range(3):
            was = self.tiles(image)[index].astype(np.int16)
            # (waited for: a game under load paints late, and a grab at once saw no change at all;
            # a mark can differ from the last by a few pixels only, as GNOME Mines' question mark
            # from its flag at 23 px: alike enough to be one look, but the pixels did change)
            changed = self._right_click(hands, cell, lambda ids, b=before, was=was: int(ids[cell]) != b or int(
                (np.abs(self.tiles(self.last_grab)[index] - was).max(axis=2) > 25).sum()) >= 3)
            if changed is None:
                break
            image = changed
            k = int(self.frame(image)[cell])
            if k == before:  # (changed, but taken for the same look)
                k = self.looks.add(self.tiles(image)[index])
            if self.role.get(k) == "unopened":
                break
            seen.append(k)
            before = k
        if not seen:
            raise LearnError("right-clicking a covered cell changed nothing: no flags in this game?")
        for k, role in zip(seen, ("flag", "question")):
            self.role[k] = role
        self.marks = len(seen) > 1
        if self.role.get(int(self.frame(image)[cell])) != "unopened":
            raise LearnError("right-clicking a flagged cell three times did not cover it again")
        self.say("learnt: flag" + (" and question mark" if len(seen) > 1 else " (no question marks)"))
        return image

    def _probe_counter(self, hands: Hands, image: np.ndarray, logic: np.ndarray) -> np.ndarray:
        """Flag up to ten covered cells one by one, keeping the panel above the field after each
        (the counter counts down), then take the flags off again. Read once the mine count is known."""
        lat = self.lat
        top = max(0, lat.top - 6 * lat.pitch)
        cells = [(int(r), int(c)) for r, c in np.argwhere(logic == COVERED_CLASS)][:10]
        frames, flags = [image[top : lat.top].copy()], [0]
        flag = [k for k, r in self.role.items() if r == "flag"]
        at = tuple(np.array(cells).T)
        for n, cell in enumerate(cells, 1):
            image = self._right_click(hands, cell, lambda ids, n=n: int(np.isin(ids[at], flag).sum()) == n)
            if image is None:
                raise LearnError("a flag put down to watch the counter did not show")
            frames.append(image[top : lat.top].copy())
            flags.append(n)
        image = self._uncover(hands, cells)
        if image is None:
            raise LearnError("the flags put down to watch the counter did not come off")
        self.probe = (top, frames, flags)
        return image

    def _looks_over(self, image: np.ndarray, ids: np.ndarray, before: np.ndarray | None,
                    last_click: tuple[Cell, bool]) -> bool:
        """Does the board show an end the face does not show yet? No covered cell left (a win, its
        mines flagged), or a guess that changed cells no opening from it reaches (a loss showing
        its mines). A game whose face has stayed put at a win shown on the board is not waited for
        again."""
        if self.face_box is None or self.face_changed(image):
            return False
        if not self.covered(ids).any():
            return not self.win_on_board
        cell, proven = last_click
        return not proven and before is not None and _scattered(ids != before, cell)

    def _face_caught_up(self, image: np.ndarray) -> np.ndarray:
        """The screen once the face has changed and holds still (a face caught half painted is a
        wrong sprite), or as it is after FACE_LAG seconds: WineMine on a loaded machine painted
        its won board well before its won face, and the learner acted on a game already over."""
        x, y, w, h = self.face_box
        deadline = time.monotonic() + FACE_LAG
        last = None
        while time.monotonic() < deadline:
            now = self.grab()
            if self.face_changed(now):
                face = now[y : y + h, x : x + w]
                if last is not None and np.array_equal(face, last):
                    return now
                last = face.copy()
            image = now
        return image

    def _still(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The end of a game, once it has all been painted: the mines a loss shows name the numbers."""
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            time.sleep(0.1)
            again = self.grab()
            now = self.frame(again)
            if np.array_equal(now, ids):
                return again, now
            ids = now
        raise LearnError("the board kept changing after the game ended")

    def _opened(self, *cells: Cell) -> np.ndarray:
        """The screen once every clicked cell shows open (or the end of the game): reasoning on a
        frame painted only in part would name looks wrongly."""
        at = tuple(np.array(cells).T)  # (a batch of 40 flags took over 5 s to show on a loaded machine)
        image = self._grab_until(lambda ids: bool((ids[at] != 0).all()), timeout=max(5.0, 0.5 * len(cells)))
        if image is None:
            raise LearnError("the game did not respond to the last clicks")
        return image

    def _ticking(self, fresh: np.ndarray, seconds: float = 1.2) -> np.ndarray:
        """Pixels above the field that change by themselves (a game that starts its clock with the
        game, having opened a start area itself: xdemineur), grown by a few pixels: never the face."""
        top = max(0, self.lat.top - 2)
        deadline = time.monotonic() + seconds
        ticking = np.zeros((top, fresh.shape[1]), bool)
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = self.grab()
            self.frame(now)  # (the board itself must hold still: a window moved stops here)
            ticking |= np.abs(now[:top].astype(np.int16) - fresh[:top]).max(axis=2) > 40
        if not ticking.any():
            return ticking
        return cv2.dilate(ticking.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0

    def _grab_changed_above(self, before: np.ndarray, timeout: float = 5.0, quiet: float | None = None
                            ) -> np.ndarray | None:
        """The screen once something above the field differs from `before` (the face, with a button
        held) and has stopped changing (a face caught half painted is a wrong sprite), or as it is
        after `timeout`: the face is then looked for in what did change. None when nothing above
        has changed after `quiet` seconds: a game without a face."""
        top = max(0, self.lat.top - 2)
        start = time.monotonic()
        last = None
        while True:
            image = self.grab()
            above = image[:top]
            moved = np.abs(above.astype(np.int16) - before[:top]).max(axis=2, initial=0) > 40
            changed = bool((moved & ~self.ticking[:top]).any())
            if (changed and last is not None and np.array_equal(above, last)) or time.monotonic() > start + timeout:
                return image
            if quiet is not None and not changed and time.monotonic() > start + quiet:
                return None
            last = above if changed else None

    def _grab_until(self, done: Callable[[np.ndarray], bool], timeout: float = 5.0) -> np.ndarray | None:
        """Grab until the board shows what the clicks must have done (a game may paint late)."""
        deadline = time.monotonic() + timeout
        while True:
            image = self.last_grab = self.grab()
            if done(self.frame(image)):
                return image
            if time.monotonic() > deadline:
                return None

    def _read_probe(self, mines: int) -> None:
        """The counter showed `mines` minus the flags down at each probe frame: cut its digits."""
        top, frames, flags = self.probe
        self.probe = None
        leave_out = []
        if self.face_box is not None:
            x, y, w, h = self.face_box
            leave_out.append((x - 2, y - top - 2, w + 4, h + 4))
        units = units_box(frames, leave_out)
        if units is None:
            self.say("counter: nothing outside the field changed as flags went down")
            self.probes = PROBES  # (no counter there: flagging again would only show that again)
            return
        values = [mines - f for f in flags]
        try:
            sprites = crops(frames, values, units)
        except ValueError as err:
            self.say(f"counter: {err}")
            return
        boxes = None
        for frame, value in zip(frames, values):
            boxes = boxes or place(frame, value, sprites, units)
        if len(sprites) < 10 or boxes is None:
            self.say(f"counter: saw digits {sorted(sprites)} only" if boxes else "counter: digits not in a row")
            return
        # One box per digit pitch, centred on the digit, so that digit k sits k widths from the
        # first (how skins describe a counter).
        pitch = boxes[1][0] - boxes[0][0]
        ux, uy, uw, uh = units
        units = (ux + (uw - pitch) // 2, uy, pitch, uh)
        sprites = crops(frames, values, units)
        first = (units[0] - (len(boxes) - 1) * pitch, uy + top, pitch, uh)
        self.counter = ([(first[0] + k * pitch, first[1], pitch, uh) for k in range(len(boxes))], sprites)
        self.say(f"learnt: counter digits ({len(boxes)} digits of {units[2]} x {units[3]} px)")

    def _game_over(
        self, image: np.ndarray, ids: np.ndarray, before: np.ndarray | None, last_click: tuple[Cell, bool],
        baits: set[Cell],
    ) -> None:
        """Won or lost, and what the end shows. A loss: the last click was a guess, the clicked cell
        shows no number we know, cells elsewhere turned into something new (the mines), and either
        covered cells remain or one of our flags changed (a flag on a safe cell blocks a win)."""
        cell, proven = last_click
        flag = [k for k, r in self.role.items() if r == "flag"]
        remaining = (ids == 0).any() or any(int(ids[b]) not in flag for b in baits)
        new_at_click = self.role.get(int(ids[cell])) in (None, "exploded")
        was_covered = np.ones(ids.shape, bool) if before is None else self.logic_frame(before) < 0
        turned = was_covered & np.isin(ids, [k for k in np.unique(ids) if self.role.get(int(k)) in (None, "mine")])
        turned[cell] = False
        lost = not proven and new_at_click and remaining and bool(turned.any())
        if lost:
            self.role[int(ids[cell])] = "exploded"
            flags = [k for k, r in self.role.items() if r == "flag"]
            shown = np.zeros(ids.shape, bool)
            for k in np.unique(ids):
                k = int(k)
                role = self.role.get(k)
                if k == ids[cell] or role in ("unopened", "question") or k in flags:
                    continue
                at = ids == k
                if role is None and baits and all(tuple(int(v) for v in rc) in baits for rc in np.argwhere(at)):
                    self.role[k] = "wrong_flag"  # only ever where we put a flag
                    continue
                if role is None and "mine" in self.role.values():
                    self.role[k] = "number"  # a number painted late: the mine look is known
                    continue
                if role is None or role == "mine":
                    self.role[k] = "mine"
                    shown |= at
            mines = shown | (ids == ids[cell]) | np.isin(ids, flags)
            logic = self.logic_frame(ids)
            logic[mines] = COVERED_CLASS
            try:
                names = from_mines(logic, mines)
            except ValueError as err:
                raise LearnError(f"the lost board does not add up: {err}") from err
            for k, v in names.items():
                if self.names.get(k, v) != v:
                    raise LearnError(f"a look named {self.names[k]} shows {v} mines around it")
                self.names[k] = v
            if len(set(self.names.values())) != len(self.names):
                raise LearnError("two different looks show the same number of mines around them")
            self.face_images.setdefault("lost", image)
            self.say(f"game {self.learnt.games}: lost; numbers known: {sorted(self.names.values())}")
            total = int(mines.sum())
        else:
            if self.face_changed(image):  # (a win shown on the board alone shows no won face)
                self.face_images.setdefault("won", image)
            self.say(f"game {self.learnt.games}: won")
            total = int((self.logic_frame(ids) < 0).sum())  # what is not opened at a win is a mine
        self.totals.add(total)
        if self.probe is not None:
            self._read_probe(total)

    def _result(self) -> Learnt:
        out = self.learnt
        for k, sample in enumerate(self.looks.samples):
            role = self.role.get(k)
            if role == "number" and k in self.names:
                out.cells[str(self.names[k])] = sample
            elif role not in (None, "number"):
                out.cells[role] = sample
        if self.face_box is not None:
            x, y, w, h = self.face_box
            for name, face in self.known_faces.items():
                if face.shape[:2] == (h, w):
                    out.faces[name] = face
            for name, image in self.face_images.items():
                out.faces[name] = image[y : y + h, x : x + w].copy()
        out.face_box = self.face_box
        out.new_game_key = self.new_game_key
        out.hover = self.park is not None
        out.mines = dict(self.known.mines) if self.known is not None else {}
        if len(self.totals) == 1:  # (games of one size always hold one total)
            out.mines[(self.lat.rows, self.lat.cols)] = next(iter(self.totals))
        out.frame = frame_of(self.start_image, _field(self.lat), depth=LEARNT_FRAME_DEPTH, skip=LEARNT_FRAME_SKIP)
        if self.counter is not None:
            out.counter_boxes, out.digits = self.counter
        out.unnamed = [sorted(self.possible.get(k, set(NUMBERS)) - set(self.names.values()))
                       for k in self.number_classes() if k not in self.names and self.role.get(k) == "number"]
        return out


def _commonest(tiles: np.ndarray, most: int = 600) -> int:
    """Index of the tile most others look like (on any board, the covered cells); on a big board,
    among every k-th tile (the distances between every two of 10 000 tiles would take 400 MB)."""
    step = max(1, -(-len(tiles) // most))
    picked = tiles[::step]
    small = np.stack([cv2.resize(t, (8, 8), interpolation=cv2.INTER_AREA) for t in picked]).reshape(len(picked), -1)
    small = small.astype(np.float32)
    square = (small * small).sum(axis=1)
    distance = square[:, None] + square[None, :] - 2 * small @ small.T  # squared, between every two tiles
    return step * int((distance <= (8.0 ** 2) * small.shape[1]).sum(axis=1).argmax())


def _button_around(image: np.ndarray, change: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The whole face button around the pixels that changed: the blob of not-background pixels
    (background: the commonest colour round a window several times the change's size) holding the change."""
    x, y, w, h = change
    pad = 3 * max(w, h)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    window = image[y0 : y + h + pad, x0 : x + w + pad]
    ring = np.concatenate([window[0], window[-1], window[:, 0], window[:, -1]])
    colours, counts = np.unique(ring, axis=0, return_counts=True)
    background = colours[np.argmax(counts)].astype(np.int16)
    mask = (np.abs(window.astype(np.int16) - background).max(axis=2) > 24).astype(np.uint8)
    mask[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    bx, by, bw, bh, _ = stats[labels[y - y0 + h // 2, x - x0 + w // 2]]
    if bx == 0 or by == 0 or bx + bw >= window.shape[1] or by + bh >= window.shape[0]:
        return x - 1, y - 1, w + 2, h + 2  # no clear button: the change itself, with a pixel to spare
    return x0 + int(bx), y0 + int(by), int(bw), int(bh)


def _scattered(changed: np.ndarray, cell: Cell) -> bool:
    """Did a click change cells that no opening from it reaches? An opened area is one connected
    patch round the clicked cell; a loss shows the mines wherever they are."""
    _, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
    return bool(changed[cell]) and bool((changed & (labels != labels[cell])).any())


def _field(lat: Lattice) -> Field:
    """The lattice as one pitch over its whole width: exact for a lattice of one pitch, and for a
    stretched one what spans the same pixels (the frame round it, the guard of a click)."""
    return Field(lat.left, lat.top, lat.pitch, lat.rows, lat.cols, xs=lat.offsets[0], ys=lat.offsets[1])


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def write_skin(learnt: Learnt, folder: Path, name: str) -> None:
    """The learnt look as a skin folder, in the shipped skins' format."""
    lat = learnt.lattice
    folder.mkdir(parents=True, exist_ok=True)
    for stale in [*folder.glob("cell_*.png"), *folder.glob("face_*.png"), *folder.glob("digit_*.png")]:
        stale.unlink()  # what an earlier skin here knew and this one does not (an adopted skin's is in learnt)
    for what, tile in learnt.cells.items():
        write_image(str(folder / f"cell_{what}.png"), tile)
    for what, face in learnt.faces.items():
        write_image(str(folder / f"face_{what}.png"), face)
    for what, digit in learnt.digits.items():
        write_image(str(folder / f"digit_{what}.png"), digit)
    counter: dict = {"digit": [0, 0], "digits": 0, "from_field_left_top": [0, 0]}
    if learnt.counter_boxes:
        cx, cy, cw, ch = learnt.counter_boxes[0]
        right = cx > lat.left + lat.width / 2  # measured from the nearer side, as boards grow from the left
        side = lat.left + lat.width if right else lat.left
        counter = {"digit": [cw, ch], "digits": len(learnt.counter_boxes),
                   "from_field_right_top" if right else "from_field_left_top": [cx - side, cy - lat.top]}
    face = None  # (a game without one: GNOME Mines)
    if learnt.face_box is not None:
        x, y, w, h = learnt.face_box
        face = {"size": [w, h], "from_field_centre_top": [_num(x - (lat.left + lat.width / 2)), y - lat.top]}
    meta = {
        "name": name,
        "about": f"Learnt by `calibrate --learn` on {time.strftime('%Y-%m-%d')} from a live game.",
        "cell": lat.pitch,
        "face": face,
        "counter": counter,
    }
    if learnt.new_game_key is not None:
        meta["new_game"] = {"key": learnt.new_game_key}
    if learnt.hover:
        meta["hover"] = True
    if learnt.mines:
        meta["mines"] = {f"{rows}x{cols}": total for (rows, cols), total in sorted(learnt.mines.items())}
    if learnt.frame is not None:
        meta["frame_bgr"] = {side: list(bgr) for side, bgr in learnt.frame.items()}
        meta["frame_depth"], meta["frame_skip"] = LEARNT_FRAME_DEPTH, LEARNT_FRAME_SKIP
    (folder / "skin.json").write_text(json.dumps(meta, indent=1) + "\n")


class _Shifted:
    """Hands that take image points and click screen points (the virtual screen may not start at 0)."""

    def __init__(self, hands: Hands, dx: int, dy: int) -> None:
        self.hands, self.dx, self.dy = hands, dx, dy

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.hands.click(x + self.dx, y + self.dy, button)

    def hold(self, x: int, y: int) -> None:
        self.hands.hold(x + self.dx, y + self.dy)

    def release(self, x: int, y: int) -> None:
        self.hands.release(x + self.dx, y + self.dy)

    def key(self, x: int, y: int, combo: str) -> None:
        self.hands.key(x + self.dx, y + self.dy, combo)

    def move(self, x: int, y: int) -> None:
        self.hands.move(x + self.dx, y + self.dy)


class _Paced:
    """Hands that rest the pointer at `park` after every action (where there is one), and never
    click one point twice within a double-click's time: GNOME Mines ignores the second press of a
    double click, so a flag right-clicked at once again stayed a flag."""

    def __init__(self, hands: Hands, park: tuple[int, int] | None) -> None:
        self.hands, self.park = hands, park
        self.last: dict[tuple[int, int], float] = {}

    def _rest(self) -> None:
        if self.park is not None:
            self.hands.move(*self.park)

    def click(self, x: int, y: int, button: str = "left") -> None:
        wait = self.last.get((x, y), -DOUBLE_CLICK) + DOUBLE_CLICK - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.hands.click(x, y, button)
        self.last[(x, y)] = time.monotonic()
        self._rest()

    def hold(self, x: int, y: int) -> None:
        self.hands.hold(x, y)

    def release(self, x: int, y: int) -> None:
        self.hands.release(x, y)
        self._rest()

    def key(self, x: int, y: int, combo: str) -> None:
        self.hands.key(x, y, combo)
        self._rest()

    def move(self, x: int, y: int) -> None:
        self.hands.move(x, y)


def learn_live(
    screen, games: int = GAMES, say: Callable[[str], None] = lambda _: None, backend=None, known: Skin | None = None
) -> Learnt:
    """Learn from the game on the live screen, every click guarded by the field (and the face)."""
    from bot.actuator import Actuator, Target

    origin = screen.monitors()[0]

    def grab() -> np.ndarray:
        time.sleep(0.06)  # the game redraws a little after the event
        return screen.grab_stable(timeout=2.0)

    def hands_for(lat: Lattice, face: tuple[int, int, int, int] | None) -> Hands:
        box = (face[0] + origin.left, face[1] + origin.top, face[2], face[3]) if face else (0, 0, 0, 0)
        field = _field(lat)
        target = Target(field.left + origin.left, field.top + origin.top, field.pitch, lat.rows, lat.cols, box,
                        xs=field.xs, ys=field.ys)
        return _Shifted(Actuator(target, backend), origin.left, origin.top)

    return Learner(grab, hands_for, games=games, say=say, known=known).run()


__all__ = ["LearnError", "Learner", "Learnt", "VisionError", "learn_live", "write_skin"]
