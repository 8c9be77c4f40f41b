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

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bot.board import Cell, neighbour_table, neighbours
from bot.errors import LearnError, VisionError
from bot.labels import COVERED_CLASS, forced_under_every_naming
from bot.lattice import Lattice
from bot.learn_counter import CounterProbe
from bot.learn_end import looks_over, read_end, scattered
from bot.learn_face import find_face
from bot.learn_hands import Hands, Paced, Shifted
from bot.learn_marks import Marks
from bot.learn_sight import Sight
from bot.learn_start import NewGame, find_hover, undo_long_press, wait_for_field
from bot.learnt import (
    FACES,
    LEARNT_FRAME_DEPTH,
    LEARNT_FRAME_SKIP,
    NUMBERS,
    SPECIAL,
    Learnt,
    adopt,
    write_skin,
)
from bot.skin import Skin
from bot.vision import frame_of

#: Clicks, counted in games, before the learner gives up on what it has not seen.
GAMES = 12
#: Seconds a held button may go without anything above the field changing before the game is
#: taken to have no face (GNOME Mines, which flags a cell held past half a second: undone after).
NO_FACE_AFTER = 0.6
#: Games won before the learner loses one on purpose to see the mines (the looks only a loss shows).
LOSE_AFTER = 2
#: Seconds a game just started may take to draw its field before the learner says there is none
#: (GNOME Mines on a loaded machine showed its window still empty after it held still; 10 s was
#: once not enough, with the full suite and two benchmark processes on the 2 cores).
BOARD_WAIT = 30.0


@dataclass
class _Round:
    """One game as the learner plays it: the screen after the last action, the board before the
    last click (what a click changed tells a loss from an opening), that click and whether it
    was proven safe, and the cells flagged as baits."""

    image: np.ndarray
    last_click: tuple[Cell, bool]
    before: np.ndarray | None = None
    baits: set[Cell] = field(default_factory=set)


class Learner:
    """Plays games of an unknown look until every look is named: its eyes are a Sight, its
    right-clicks Marks, the counter a CounterProbe, and a game's end is read by bot.learn_end."""

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

    def run(self) -> Learnt:
        fresh, lat = wait_for_field(self.grab, self.board_wait, self.say)
        self.start_image = fresh  # (the frame round the field, as a game starts)
        self.say(f"field: {lat.rows} x {lat.cols} cells of {lat.pitch} px at ({lat.left}, {lat.top})")
        self.sight = sight = Sight(self.grab, lat, fresh)
        meanings = sight.meanings
        self.marks = Marks(sight)
        self.counter = CounterProbe(sight, self.marks, self.say)
        self.face_images: dict[str, np.ndarray] = {}
        self.win_on_board = False  # has a win been seen on the board alone, the face unchanged?
        self.totals: set[int] = set()  # mines seen at each game's end
        self.known_faces: dict[str, np.ndarray] = {}
        if self.known is not None:
            self._adopt(self.known)
        self.learnt = Learnt(lat)
        hands = self.hands_for(lat, None)
        ids = sight.frame(fresh)
        for k in np.unique(ids):  # cells a game opened itself before any click (xdemineur): numbers
            meanings.role.setdefault(int(k), "number")  # (a loss names the looks it shows first as mines)
        covered = np.argwhere(ids == 0)
        middle = tuple(int(v) for v in covered[np.abs(covered - [lat.rows // 2, lat.cols // 2]).sum(axis=1).argmin()])
        self.first_cell = middle
        self.new_game = NewGame(sight, bool(ids.any()), middle, self.say)
        sight.watch_ticking(fresh)
        self.park = find_hover(sight, hands, middle, self.say)
        hands = Paced(hands, self.park)
        # The first click, held on the covered cell nearest the middle: the face shows a button is down.
        hands.hold(*sight.centre(middle))
        held = sight.grab_changed_above(fresh, quiet=NO_FACE_AFTER)
        hands.release(*sight.centre(middle))
        if held is not None:
            sight.face = find_face(fresh, held, lat, sight.ticking)
            self.face_images = {"playing": fresh, "pressed": held}
            x, y, side, _ = sight.face.box
            self.say(f"face: {side} px square at ({x}, {y})")
        else:
            self.say("no face: nothing above the field changed while a cell was held")
            undo_long_press(sight, hands, middle, self.say)
        hands = Paced(self.hands_for(lat, None if sight.face is None else sight.face.box), self.park)
        image = self.grab()
        for game in range(self.games):
            self.learnt.games = game + 1
            image = self._play(hands, image, first_done=(game == 0))
            if not self._missing_now():
                break
            image = self.new_game.start(hands, image)
        return self._result()

    def _adopt(self, skin: Skin) -> None:
        """Start from a skin learnt before (another run, another level): only what it lacks is new."""
        lat = self.sight.lat
        if skin.cell != lat.pitch:
            self.say(f"skin {skin.name} has {skin.cell} px cells, this game {lat.pitch} px: starting afresh")
            return
        self.known_faces, self.counter.counter = adopt(skin, lat, self.sight.meanings)
        self.say(f"starting from skin {skin.name}: {len(skin.cell_codes)} cell sprites, {len(skin.face_names)} faces")

    def _missing_now(self) -> list[str]:
        meanings = self.sight.meanings
        have = {str(v) for v in meanings.names.values()} | set(meanings.role.values()) | set(self.face_images)
        have |= set(self.known_faces)
        have |= {"counter"} if self.counter.counter else set()
        have |= {"won"} if self.win_on_board else set()  # (a face it may never show: not waited for)
        have |= set(FACES) if self.sight.face is None else set()  # (a game without a face)
        want = [str(n) for n in NUMBERS] + list(SPECIAL) + list(FACES) + ["counter"]
        return [w for w in want if w not in have]

    def _play(self, hands: Hands, image: np.ndarray, first_done: bool) -> np.ndarray:
        """One game, to its end. Returns the screen showing the next game's start."""
        sight, meanings = self.sight, self.sight.meanings
        lat = sight.lat
        cell = self.first_cell  # (the first game's first click was the held one)
        if not first_done and not sight.frame(image).any():
            # A different first cell each game: some clones seed their layouts with the clock, so
            # games begun close together look alike, and one cell would keep showing one number.
            cell = tuple(int(1 + self.rng.integers(n - 2)) if n > 2 else 0 for n in (lat.rows, lat.cols))
            hands.click(*sight.centre(cell))
            image = sight.opened(cell)
        game = _Round(image, (cell, False))
        while True:
            ids = sight.frame(game.image)  # (every click above was waited for: the frame shows it)
            if looks_over(sight, game.image, ids, game.before, game.last_click, self.win_on_board):
                game.image = sight.face_caught_up(game.image)
                ids = sight.frame(game.image)
            if sight.face_changed(game.image) or (sight.face is None and game.before is not None
                                                  and not game.last_click[1]
                                                  and scattered(ids != game.before, game.last_click[0])):
                image, ids = sight.still(ids)
                self._game_over(image, ids, game)
                return image
            game.before = ids
            for k in np.unique(ids):
                meanings.role.setdefault(int(k), "number")
            logic = meanings.logic_frame(ids)
            sure, possible = meanings.settle([logic])
            meanings.names.update(sure)
            if not meanings.knows("flag"):
                # Any covered cell will do: right-clicks only cycle its marks.
                game.image = self._learn_marks(hands, tuple(int(v) for v in np.argwhere(logic == COVERED_CLASS)[0]))
                game.before = None
                continue
            if self.counter.wanted(logic):
                game.image = self.counter.probe(hands, game.image, logic)
                game.before = None
                continue
            safe, proven = forced_under_every_naming(logic, sure, possible)
            safe = {c for c in safe if logic[c] == COVERED_CLASS}  # never one of our flags
            mines = {c for c in proven if logic[c] == COVERED_CLASS}
            if mines and self.learnt.games >= LOSE_AFTER and not meanings.knows("exploded"):
                # Games all won teach no mine: lose this one on purpose, a proven mine clicked (a
                # game without a face shows its end by these looks alone), a flag on a safe cell first.
                if safe and not meanings.knows("wrong_flag"):
                    game.before = self.marks.bait(hands, min(safe), game.baits)
                self._open(hands, game, [min(mines)], proven=False)
                continue
            if safe:
                self._open(hands, game, sorted(safe), proven=True)
                continue
            covered = [(int(r), int(c)) for r, c in np.argwhere(logic == COVERED_CLASS)]
            if not covered or set(covered) <= mines:
                # A bait is wrong unless proven a mine (under its flag: not in `mines`, which are to
                # click; taken for wrong, a bait on the last mine of a won GNOME game was
                # right-clicked in vain).
                wrong = sorted(b for b in game.baits if b not in proven)
                over = self._end_by_hand(hands, game, ids, covered, wrong)
                if over is not None:
                    return over
                continue
            # Nothing is certain: guess, with a flag on another covered cell first, so that a
            # loss shows what a flag without a mine under it looks like.
            cell = far_from_numbers(logic, self.rng)
            if not meanings.knows("wrong_flag"):  # (the flag look is known by now)
                others = [(int(r), int(c)) for r, c in np.argwhere(logic == COVERED_CLASS)]
                others = [c for c in others if c != cell and c not in mines]
                if others:  # (the bait's flag is no change the click made: `before` shows it)
                    game.before = self.marks.bait(hands, others[int(self.rng.integers(len(others)))], game.baits)
            self._open(hands, game, [cell], proven=False)

    def _open(self, hands: Hands, game: _Round, cells: list[Cell], proven: bool) -> None:
        """Click cells and wait until they show open; the last is the click a game's end is
        judged by (a guess may lose, a proven cell never does)."""
        for cell in cells:
            hands.click(*self.sight.centre(cell))
        game.last_click = (cells[-1], proven)
        game.image = self.sight.opened(*cells)

    def _end_by_hand(self, hands: Hands, game: _Round, ids: np.ndarray, covered: list[Cell],
                     wrong: list[Cell]) -> np.ndarray | None:
        """Nothing left to open but the game goes on. With no cell covered, a bait on a safe cell
        blocks the win: it comes off and is opened at once (a zero beside a covered cell fits no
        naming). With only mines covered, the game is won by flagging them (ace, xdemineur), but
        first any bait on a safe cell comes off: a game may allow no more flags than mines
        (xdemineur), and play goes on there. The screen when the game turns out over without a
        face to say so, else None (play goes on)."""
        sight, meanings = self.sight, self.sight.meanings
        if not covered:
            if not wrong:
                # Every safe cell open, every flag on a mine: won, though the face says nothing
                # (Minegauler keeps its playing face and flags the mines itself).
                return self._won_quietly(ids, game)
            cell = wrong[0]
            if self.marks.uncover(hands, [cell]) is None:
                return self._won_quietly(sight.frame(sight.grab()), game)
            game.baits.discard(cell)
            self._open(hands, game, [cell], proven=len(wrong) == 1)  # (the one cell left that is not a mine)
            return None
        if wrong:
            for bait in wrong:
                image = self.marks.uncover(hands, [bait])
                if image is None:
                    return self._won_quietly(sight.frame(sight.grab()), game)
                game.image = image
                game.baits.discard(bait)
                if any(meanings.names.get(int(ids[n])) == 0 for n in neighbours(ids.shape, bait)):
                    # a 0's neighbour: safe, and covered (beside a 0 it would fit no naming)
                    self._open(hands, game, [bait], proven=True)
            game.before = None
            return None
        for cell in covered:
            hands.click(*sight.centre(cell), button="right")
        game.last_click = (covered[-1], True)
        at = tuple(np.array(covered).T)
        flagged = sight.grab_until(lambda ids, at=at: bool((ids[at] != 0).all()), timeout=max(5.0, 0.5 * len(covered)))
        if flagged is None and sight.face is None:
            # No flag shows: a game over takes no clicks. Won, its mines left covered (GNOME
            # Mines), and with no face to say so.
            return self._won_quietly(sight.frame(sight.grab()), game)
        if flagged is None:
            raise LearnError("the game did not respond to the last clicks")
        game.image = flagged
        return None

    def _won_quietly(self, ids: np.ndarray, game: _Round) -> np.ndarray:
        """The game is over though no face says so, and no mine showed: won. Returns the screen."""
        image, ids = self.sight.still(ids)
        self.win_on_board = True
        self._game_over(image, ids, game)
        return image

    def _learn_marks(self, hands: Hands, cell: Cell) -> np.ndarray:
        image, question = self.marks.learn(hands, cell)
        self.say("learnt: flag" + (" and question mark" if question else " (no question marks)"))
        return image

    def _game_over(self, image: np.ndarray, ids: np.ndarray, game: _Round) -> None:
        """Won or lost (bot.learn_end), and what the end shows: a face, the game's mine total, and
        with it the counter's digits where flags were put down to watch it."""
        lost, total = read_end(self.sight.meanings, ids, game.before, game.last_click, game.baits)
        if lost:
            self.face_images.setdefault("lost", image)
            self.say(f"game {self.learnt.games}: lost; numbers known: {sorted(self.sight.meanings.names.values())}")
        else:
            if self.sight.face_changed(image):  # (a win shown on the board alone shows no won face)
                self.face_images.setdefault("won", image)
            self.say(f"game {self.learnt.games}: won")
        self.totals.add(total)
        self.counter.read(total)

    def _result(self) -> Learnt:
        out, sight = self.learnt, self.sight
        meanings, lat = sight.meanings, sight.lat
        for k, sample in enumerate(meanings.looks.samples):
            role = meanings.role.get(k)
            if role == "number" and k in meanings.names:
                out.cells[str(meanings.names[k])] = sample
            elif role not in (None, "number"):
                out.cells[role] = sample
        if sight.face is not None:
            x, y, w, h = sight.face.box
            for name, face in self.known_faces.items():
                if face.shape[:2] == (h, w):
                    out.faces[name] = face
            for name, image in self.face_images.items():
                out.faces[name] = image[y : y + h, x : x + w].copy()
        out.face_box = None if sight.face is None else sight.face.box
        out.new_game_key = self.new_game.key
        out.hover = self.park is not None
        out.mines = dict(self.known.mines) if self.known is not None else {}
        if len(self.totals) == 1:  # (games of one size always hold one total)
            out.mines[(lat.rows, lat.cols)] = next(iter(self.totals))
        out.frame = frame_of(self.start_image, lat.field, depth=LEARNT_FRAME_DEPTH, skip=LEARNT_FRAME_SKIP)
        if self.counter.counter is not None:
            out.counter_boxes, out.digits = self.counter.counter
        unnamed = [k for k in meanings.number_classes() if k not in meanings.names and meanings.role.get(k) == "number"]
        out.unnamed = [sorted(meanings.possible.get(k, set(NUMBERS)) - set(meanings.names.values())) for k in unnamed]
        return out


def far_from_numbers(logic: np.ndarray, rng: np.random.Generator) -> Cell:
    """The learner's guess: a covered cell with the fewest opened neighbours, ties broken at
    random. It need not be good, only safe from misreading: an untouched cell is about as safe
    as any, and a loss teaches the most (it shows every mine)."""
    covered = logic == COVERED_CLASS
    rows, cols = logic.shape
    table = neighbour_table(rows, cols)
    opened = ~covered
    options = [(sum(1 for n in table[r * cols + c] if opened[n]), float(rng.random()), (int(r), int(c)))
               for r, c in zip(*np.nonzero(covered))]
    return min(options)[2]


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
        field = lat.field
        target = Target(field.left + origin.left, field.top + origin.top, field.pitch, lat.rows, lat.cols, box,
                        xs=field.xs, ys=field.ys)
        return Shifted(Actuator(target, backend), origin.left, origin.top)

    return Learner(grab, hands_for, games=games, say=say, known=known).run()


__all__ = ["LearnError", "Learner", "Learnt", "VisionError", "learn_live", "write_skin"]
