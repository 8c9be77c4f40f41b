"""One game as the learner plays it, to its end: only cells proven safe under every naming still
possible are opened; proven mines are flagged to learn the marks, or clicked to lose on purpose
once games won have taught what they can; a guess goes far from the numbers, with a flag on
another cell first (a bait: a loss shows what a flag without a mine looks like).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bot.board import Cell, neighbour_table, neighbours
from bot.errors import LearnError
from bot.learn.counter import CounterProbe
from bot.learn.end import as_opened_before, looks_over, opened_changed, read_end, scattered
from bot.learn.hands import Hands
from bot.learn.labels import COVERED_CLASS, forced_under_every_naming
from bot.learn.marks import Marks
from bot.learn.sight import Sight

#: Games won before the learner loses one on purpose to see the mines (the looks only a loss shows).
LOSE_AFTER = 2


@dataclass
class Seen:
    """What games' ends have shown so far: each face's screen, whether a win showed on the board
    alone (the face unchanged), and the mines seen at each end."""

    face_images: dict[str, np.ndarray] = field(default_factory=dict)
    win_on_board: bool = False
    totals: set[int] = field(default_factory=set)


@dataclass
class _Round:
    """One game as the learner plays it: the screen after the last action, the board before the
    last click (what a click changed tells a loss from an opening), that click and whether it
    was proven safe (or a proven mine, clicked to lose), the cells flagged as baits, and the board
    as last read in play (its opened cells keep their looks until the game ends, whatever was
    clicked since)."""

    image: np.ndarray
    last_click: tuple[Cell, bool]
    before: np.ndarray | None = None
    read: np.ndarray | None = None
    on_a_mine: bool = False
    baits: set[Cell] = field(default_factory=set)


class Rounds:
    """Plays the learner's games one at a time (its eyes a Sight, its right-clicks Marks, the
    counter a CounterProbe; a game's end read by bot.learn.end), and keeps what the ends show."""

    def __init__(self, sight: Sight, marks: Marks, counter: CounterProbe, seen: Seen, first_cell: Cell,
                 rng: np.random.Generator, say: Callable[[str], None]) -> None:
        self.sight = sight
        self.marks = marks
        self.counter = counter
        self.seen = seen
        self.first_cell = first_cell  # (the first game's first click: the held one)
        self.rng = rng
        self.say = say
        self.number = 0

    def play(self, hands: Hands, image: np.ndarray, number: int) -> np.ndarray:
        """Game `number` (from 1), to its end. Returns the screen showing the next game's start."""
        self.number = number
        sight, meanings = self.sight, self.sight.meanings
        lat = sight.lat
        cell = self.first_cell  # (the first game's first click was the held one)
        if number > 1 and not sight.frame(image).any():
            # A different first cell each game: some clones seed their layouts with the clock, so
            # games begun close together look alike, and one cell would keep showing one number.
            cell = tuple(int(1 + self.rng.integers(n - 2)) if n > 2 else 0 for n in (lat.rows, lat.cols))
            hands.click(*sight.centre(cell))
            image = sight.opened(cell)
        game = _Round(image, (cell, False))
        while True:
            ids = sight.frame(game.image)  # (every click above was waited for: the frame shows it)
            if looks_over(sight, game.image, ids, game.before, game.last_click, self.seen.win_on_board):
                game.image = sight.face_caught_up(game.image)
                ids = sight.frame(game.image)
            if sight.face_changed(game.image) or (sight.face is None and game.before is not None
                                                  and not game.last_click[1]
                                                  and scattered(ids != game.before, game.last_click[0])):
                image, ids = sight.still(ids)
                self._game_over(image, ids, game)
                return image
            if sight.face is None and game.read is not None and opened_changed(meanings, ids, game.read).any():
                image, ids = sight.still(ids)  # (a game over painted: opened cells outlined, XBomb)
                if opened_changed(meanings, ids, game.read).any():
                    self._game_over(image, ids, game)
                    return image
                game.image = image
                continue
            for k in np.unique(ids):
                meanings.role.setdefault(int(k), "number")
            logic = meanings.logic_frame(ids)
            try:
                sure, possible = meanings.settle([logic])
            except LearnError:
                # A grab made while the game painted a tile shows it torn, a look no naming fits
                # (WineMine on a loaded machine, once in a full suite): read again once the board
                # holds still; the same board twice, and the looks were split wrongly.
                image, again = sight.still(ids)
                if np.array_equal(again, ids):
                    raise
                game.image = image
                continue
            game.before = game.read = ids
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
            if mines and self.number >= LOSE_AFTER and not meanings.knows("exploded"):
                # Games all won teach no mine: lose this one on purpose, a proven mine clicked (a
                # game without a face shows its end by these looks alone), a flag on a safe cell first.
                if safe and not meanings.knows("wrong_flag"):
                    game.before = self.marks.bait(hands, min(safe), game.baits)
                self._open(hands, game, [min(mines)], proven=False)
                game.on_a_mine = True
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
            raise LearnError(f"the game did not respond to the last clicks ({sight.showing(tuple(covered))})")
        game.image = flagged
        return None

    def _won_quietly(self, ids: np.ndarray, game: _Round) -> np.ndarray:
        """The game is over though no face says so, and no mine showed: won. Returns the screen."""
        image, ids = self.sight.still(ids)
        self.seen.win_on_board = True
        self._game_over(image, ids, game)
        return image

    def _learn_marks(self, hands: Hands, cell: Cell) -> np.ndarray:
        image, question = self.marks.learn(hands, cell)
        self.say("learnt: flag" + (" and question mark" if question else " (no question marks)"))
        return image

    def _game_over(self, image: np.ndarray, ids: np.ndarray, game: _Round) -> None:
        """Won or lost (bot.learn.end), and what the end shows: a face, the game's mine total, and
        with it the counter's digits where flags were put down to watch it."""
        meanings = self.sight.meanings
        ids = as_opened_before(meanings, ids, game.read)
        lost, total = read_end(meanings, ids, game.before, game.last_click, game.baits, game.on_a_mine)
        if lost:
            self.seen.face_images.setdefault("lost", image)
            self.say(f"game {self.number}: lost; numbers known: {sorted(meanings.names.values())}")
        else:
            if self.sight.face_changed(image):  # (a win shown on the board alone shows no won face)
                self.seen.face_images.setdefault("won", image)
            self.say(f"game {self.number}: won")
        self.seen.totals.add(total)
        self.counter.read(total)


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
