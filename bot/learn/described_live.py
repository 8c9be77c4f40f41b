"""Learn a described look (bot.learn.described) from a live game: for a game whose tiles are not
pixel-identical, where the live learner's grouping of cells by their pixels (bot.learn.live)
finds a look per cell.

The field is found from the tiles' outlines (bot.vision.tiles). The learner plays a few games and
keeps pictures of them: a first click in the field's middle; then, with the look described from
the pictures so far, every cell the SAT core proves safe, or its best guess where none is; a lost
game is the best teacher (its mines name every number round them), so where none was lost the last
game ends on a cell the board proves a mine. A box the game draws over its field (a cell read
opened before no longer reads the same) is waited out, never kept. A new game starts with the
first of the usual keys that covers the field again. The pictures are then learnt from, as
`calibrate --learn --from` does, and the look checked on every one of them. Every click is on a
cell's centre, and the hands given are guarded by the field (bot.screen.actuator).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from bot.board import EXPLODED, FLAG, MINE, UNOPENED, Board
from bot.errors import BotError, DescribedError, LearnError
from bot.learn.described import consistent, describe, learn_described, picture_cells
from bot.learn.field_hands import Field, FieldHands
from bot.learn.hands import Hands
from bot.learn.live_screen import LiveScreen
from bot.learn.look_file import DescribedLearnt
from bot.learn.start import NEW_GAME_KEYS
from bot.screen.capture import Region
from bot.solver.advice import advise
from bot.vision.look import Look
from bot.vision.tiles import Tiles, find_tiles

#: Games played (a lost one teaches the mines; most are lost within a few guesses).
GAMES = 4
#: Moves a game at most, and pictures kept a game at most (the first, then every few, and its end).
MOVES, KEPT = 80, 6
#: Moves between two descriptions of the look from the pictures so far (a cell the look does not
#: read yet is left alone meanwhile: the solver counts it covered, which proves nothing wrong).
REFRESH = 4
#: Other cells clicked where the first changes nothing.
TRIES = 5
#: A new game: at least this share of the tiles on the covered ground.
FRESH = 0.98
#: Seconds a box the game draws over its field may stay (KMines' end message: 4 s, then a fade).
OVERLAY_WAIT = 6.0


class DescribedLearner:
    """Plays a few games of a shaded look and learns it from the pictures they leave."""

    def __init__(self, grab: Callable[[], np.ndarray], hands_for: Callable[[Tiles], Hands], games: int = GAMES,
                 say: Callable[[str], None] = lambda _: None, seed: int = 0, fresh: np.ndarray | None = None) -> None:
        """`fresh`: a picture of the field fresh, taken a moment ago (by the learner of identical
        tiles, which may leave a game under way whose few covered tiles show no field)."""
        self.grab, self.hands_for, self.games, self.say, self.fresh = grab, hands_for, games, say, fresh
        self.rng = np.random.default_rng(seed)
        self.pictures: list[np.ndarray] = []
        self._cells: dict[int, tuple[np.ndarray, list]] = {}
        self.key: str | None = None
        #: Each game's last picture kept, with the titles of the game's windows answered in it.
        self.ends: list[tuple[np.ndarray, list[str]]] = []
        self.flagged = False  # a flag placed (once: its picture teaches the look its flags)
        self._flags: set[tuple[int, int]] = set()  # ... in the game under way

    def run(self) -> DescribedLearnt:
        image = self.grab()
        # The field where it was seen fresh, and a new game first (a game under way may show a part
        # of it as a field of its own: the covered tiles left of a large opening).
        restart = self.fresh is not None
        tiles = find_tiles(self.fresh if restart else image)
        if tiles is None or min(tiles.rows, tiles.cols) < 5:
            raise LearnError("no field of separate tiles on the screen")
        self.tiles, self.field = tiles, Field(tiles)
        self.reach = FieldHands(self.grab, self.field, self.hands_for(tiles))
        self.say(f"field {tiles.rows}x{tiles.cols} of {tiles.field.pitch:.1f} px tiles")
        for game in range(self.games):
            if game or restart:
                image = self._new_game(image)
            # (the last game lost on purpose where none was: a lost game names the mines, and its
            # numbers by them; a game the learner started itself, nobody's record)
            lose = game == self.games - 1 and (look := self._look()) is not None and look.mine_ink is None
            image = self._play(image, first=game == 0, lose=lose)
        try:
            learnt = learn_described([(f"game picture {k + 1}", p) for k, p in enumerate(self.pictures)], self.say,
                                     self.tiles)
        except DescribedError as err:
            raise LearnError(str(err)) from err
        lost_window = self.reach.lost_window or self._lost_window(learnt.look)
        if lost_window:
            self.say(f"a lost game opens the game's window {lost_window!r}: declined with Escape")
        return replace(learnt, new_game_key=self.key, lost_window=lost_window)

    def _lost_window(self, look: Look) -> str | None:
        """The title of the last window answered in a game whose last picture shows it lost, where no
        game that ended otherwise answered it (a box the game draws over its lost field first, KMines'
        "You have lost.", has the lost picture taken after its window was answered)."""
        ended: dict[str, bool] = {}
        for picture, titles in self.ends:
            codes, known = self.field.read(picture, look)
            lost = bool(np.isin(codes[known], (MINE, EXPLODED)).any())
            for title in titles:
                ended[title] = ended.get(title, True) and lost
        return next((titles[-1] for _, titles in self.ends if titles and ended[titles[-1]]), None)

    def _look(self, more: list[np.ndarray] = ()) -> Look | None:
        """The look described from the pictures so far (each one's cells judged once: an entry holds
        its picture, so no other picture can take its id while it is kept)."""
        pictures = [*self.pictures, *more]
        self._cells = {id(p): self._cells.get(id(p)) or (p, picture_cells(p, self.tiles)) for p in pictures}
        try:
            return describe(pictures, field=self.tiles, cells=[self._cells[id(p)][1] for p in pictures]).look
        except DescribedError:
            return None  # (no number shown yet)

    def _play(self, image: np.ndarray, first: bool, lose: bool = False) -> np.ndarray:
        """One game, its pictures kept; with `lose`, a mine the board proves is clicked once one
        is (the lost board kept, once any box the game draws over it has gone)."""
        rows, cols = self.field.rows, self.field.cols
        start = (rows // 2, cols // 2)
        if not first:  # (a game seeded by the clock repeats its layout for the same first cell)
            start = (int(self.rng.integers(1, rows - 1)), int(self.rng.integers(1, cols - 1)))
        answered = len(self.reach.titled)  # (the game's windows answered from here are this game's)
        shown = self.reach.click(image, [start])
        for _ in range(TRIES):  # (a cell opened already, by a learner that gave up before this one)
            if shown is not None:
                break
            shown = self.reach.click(image, [(int(self.rng.integers(rows)), int(self.rng.integers(cols)))])
        if shown is None:
            raise LearnError("clicking cells of the field changed nothing")
        image, kept, look, blind, doomed, self._flags = shown, [shown], None, 0, False, set()
        before: tuple[np.ndarray, np.ndarray] | None = None  # the last read: its opened cells stay
        for move in range(MOVES):
            if look is None or move % REFRESH == 0:  # (describing is the slow part: now and then)
                look = self._look([kept[0], kept[-1]])
            if look is None:
                # No numbers yet. A Minesweeper shows some within a few clicks; a grid of some other
                # program's buttons never does: the learner stops before clicking it further.
                blind += 1
                if blind > TRIES and not self.pictures:
                    raise LearnError(f"no numbers after {blind} clicks: this grid is no Minesweeper the bot "
                                     "can learn")
                cells, how = [(int(self.rng.integers(rows)), int(self.rng.integers(cols)))], "open"
            else:
                codes, known = self._read(image, look)
                if before is not None and known.all() and (codes == UNOPENED).all():
                    kept.pop()  # (covered again: the game's end question, answered, began another)
                    break
                if _hidden(before, codes, known):  # (a box over the field: waited out, not kept)
                    image, codes, known = self._past_overlay(image, look, before)
                    kept[-1] = image
                if not consistent(codes, ~known):  # (a look described before this picture showed
                    look = self._look([kept[0], image])  # the tiles it misreads: described again)
                    codes, known = self._read(image, look) if look is not None else (codes, known)
                if look is not None and not consistent(codes, ~known):
                    image, codes, known = self._past_overlay(image, look, before)
                    kept[-1] = image
                if look is None or not consistent(codes, ~known):
                    raise LearnError("the board read with the look learnt so far is no game's: the learner stops")
                if _hidden(before, codes, known):
                    if len(kept) > 1:
                        kept.pop()  # (a box that stays over the field: its picture teaches nothing true)
                    break
                before = codes, known
                if doomed:
                    break  # (the mine clicked on purpose: the lost board is kept)
                if np.isin(codes[known], (MINE, EXPLODED)).any():
                    kept[-1] = self._past_lost(image, look)
                    break  # lost: the best picture of all
                if known.all() and not (codes == UNOPENED).any():
                    break  # won
                cells, how = self._next(codes, known, lose, flag=look.flag_ink is None and look.flag_tile is None)
                doomed = how == "doom"
                if not cells:
                    break
            if how == "flag":  # (once: a lost or won game may show no flag, and the look must know it)
                shown, self.flagged = self.reach.click(image, cells, button="right"), True
                self._flags = set(cells)
                if shown is not None:
                    image = shown
                    kept.append(image)
                continue
            # (a game lost on purpose keeps its board: its question of a new game is declined)
            shown = self.reach.click(image, cells, losing=doomed)
            if shown is None:
                break  # nothing opened (a cell already open, or the game over)
            image = shown
            kept.append(image)
        self.pictures += [*kept[:: max(1, len(kept) // KEPT)][: KEPT - 1], kept[-1]]
        self.ends.append((kept[-1], self.reach.titled[answered:]))
        self.say(f"game played: {len(kept)} pictures, {len(self.pictures)} kept")
        return image

    def _past_overlay(self, image: np.ndarray, look: Look, before: tuple[np.ndarray, np.ndarray] | None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The field read again once it has changed, OVERLAY_WAIT seconds at most, until it reads as a
        game showing every opened cell of the read `before` again: a game draws a box over its field
        at a game's end (KMines' won box: gone after 4 s), which no look reads, or misreads. A box
        still there is clicked once, as a player would (KMines' lost box stays until then, and its
        "Reset?" window comes after it), on the middle of the cells it hides, the game's windows
        declined: whichever click lost, the lost board is seen and its window noted."""
        deadline = time.monotonic() + OVERLAY_WAIT
        codes, known = self._read(image, look)
        while True:
            if consistent(codes, ~known) and not _hidden(before, codes, known):
                return image, codes, known
            if time.monotonic() >= deadline:
                break
            time.sleep(0.5)
            now = self.grab()
            if not np.array_equal(self.field.cells(now), self.field.cells(image)):
                image = now
                codes, known = self._read(image, look)
        if before is not None:
            hidden = np.argwhere(_hidden_cells(before, codes, known))
            if len(hidden):
                middle = tuple(int(v) for v in np.median(hidden, axis=0).round())
                shown = self.reach.click(image, [middle])
                if shown is not None:
                    image = shown
                    codes, known = self._read(image, look)
        return image, codes, known

    def _past_lost(self, image: np.ndarray, look: Look) -> np.ndarray:
        """The lost board once the field's middle is clicked, as a player clicks a box the game
        leaves over it (KMines' "You have lost.", whose "Reset?" window comes after the click and is
        declined, its title noted), where it still shows the lost game; else `image`. A window of
        the game's open already is declined and noted instead: the hands answer one with Return
        before a click, and Return in KMines' "Reset?" replays the same field."""
        shown = None
        if self.reach.open_window() is None:  # (a window open already is declined, never answered by a click)
            shown = self.reach.click(image, [(self.field.rows // 2, self.field.cols // 2)])
        if shown is None:  # (a window, the field unchanged)
            shown = self.reach.decline_open_window()
        if shown is None:
            return image
        codes, known = self._read(shown, look)
        return shown if np.isin(codes[known], (MINE, EXPLODED)).any() else image

    def _read(self, image: np.ndarray, look: Look) -> tuple[np.ndarray, np.ndarray]:
        """The field read, the cell this game flagged a flag unless it reads covered (a look learnt
        before the flag was seen may read it as nothing, or as the number of the flag's colour)."""
        codes, known = self.field.read(image, look)
        for cell in self._flags:
            if not (known[cell] and codes[cell] == UNOPENED):
                codes[cell], known[cell] = FLAG, True
        return codes, known

    def _next(self, codes: np.ndarray, known: np.ndarray, lose: bool = False,
              flag: bool = False) -> tuple[list[tuple[int, int]], str]:
        """Cells to open ("open"): proved safe (covered, read), else the best guess; unknown cells
        are left alone. With `lose`, a cell proved a mine where there is one ("doom": the game ends
        with it); with `flag`, once, a cell proved a mine to flag ("flag")."""
        cells = np.where(known, codes, UNOPENED).astype(np.int8)
        try:
            advice = advise(Board(cells), odds=True, deadline=5.0)
        except BotError:
            covered = np.argwhere(known & (codes == UNOPENED))
            return ([tuple(int(v) for v in covered[self.rng.integers(len(covered))])] if len(covered) else []), "open"
        mines = [c for c in sorted(advice.mines) if known[c] and codes[c] == UNOPENED]
        if lose and mines:
            return mines[:1], "doom"
        if flag and not self.flagged and mines:
            return mines[:1], "flag"
        safe = [c for c in sorted(advice.safe) if known[c]]
        if safe:
            return safe, "open"
        return ([advice.guess] if advice.guess is not None and known[advice.guess] else []), "open"

    def _all_covered(self, image: np.ndarray, look: Look) -> bool:
        """Every cell read, and read covered: a game not begun (no lost board's shown mines)."""
        codes, known = self.field.read(image, look)
        return bool(known.all() and (codes == UNOPENED).all())

    def _new_game(self, image: np.ndarray) -> np.ndarray:
        look = self._look()

        def fresh(shown: np.ndarray | None) -> bool:
            """Every tile's ground the covered one's (its marks and shading aside: a look learnt from
            a game or two may not read them all yet)."""
            if shown is None or look is None:
                return shown is not None
            return self.field.covered_share(shown, look) >= FRESH

        if look is not None and self.key is not None and self._all_covered(image, look):
            return image  # (one began already: a lost game's question of a new one, answered)
        # (the key that worked before first; others after it: one seen to work while a window of the
        # game's was answered on the way, Return in KMines' "Reset?", does nothing of itself)
        for combo in dict.fromkeys([self.key, *NEW_GAME_KEYS] if self.key else NEW_GAME_KEYS):
            shown = self.reach.key(image, combo)
            if fresh(shown):
                if combo != self.key:
                    self.say(f"a new game starts with {combo}")
                self.key = combo
                return shown
        if look is not None and self._all_covered(image, look):
            return image  # (a new game already, which no key changes: the key is found another time)
        raise LearnError(f"none of {', '.join(NEW_GAME_KEYS)} started a new game")


def _hidden_cells(before: tuple[np.ndarray, np.ndarray], codes: np.ndarray, known: np.ndarray) -> np.ndarray:
    """The cells read opened before that no longer read the same: opened cells never change, so
    something lies over them (KMines' box at a game's end)."""
    was, was_known = before
    return was_known & (was >= 0) & ~(known & (codes == was))


def _hidden(before: tuple[np.ndarray, np.ndarray] | None, codes: np.ndarray, known: np.ndarray) -> bool:
    """Whether something lies over the field (_hidden_cells), where there was a read before."""
    return before is not None and bool(_hidden_cells(before, codes, known).any())


def learn_described_live(screen, games: int = GAMES, say: Callable[[str], None] = lambda _: None,
                         backend=None, region: Region | None = None, fresh: np.ndarray | None = None
                         ) -> DescribedLearnt:
    """Learn the shaded look on the live screen, every click guarded by the field; only what lies
    in `region` (the game's window) is looked at, where one is given; `fresh`, the field as a
    learner before found it (DescribedLearner)."""
    with LiveScreen(screen, region, backend) as live:
        return DescribedLearner(live.grab, lambda tiles: live.hands(tiles.field, tiles.rows, tiles.cols),
                                games=games, say=say, fresh=fresh).run()
