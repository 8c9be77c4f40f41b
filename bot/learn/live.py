"""Learn a Minesweeper look from a live game: no templates, no labels from the user.

1. The field is found from structure alone (bot.vision.lattice) on a fresh game.
2. The first click is made by holding the button down on the middle cell: whatever changes
   outside the field meanwhile is the face (its "pressed" state), and releasing opens the cell.
3. Opened cells are grouped by look (bot.learn.looks); each new look is a number whose value the
   game's logic decides (bot.learn.labels). Only cells the SAT core proves safe under *every* naming
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

from collections.abc import Callable

import numpy as np

from bot.errors import LearnError, VisionError
from bot.learn.counter import CounterProbe
from bot.learn.face import find_face
from bot.learn.hands import SPACED, Hands, Pace, Paced
from bot.learn.learnt import (
    FACES,
    NUMBERS,
    SPECIAL,
    Learnt,
    adopt,
    learnt_frame,
    write_skin,
)
from bot.learn.live_screen import LiveScreen
from bot.learn.marks import Marks
from bot.learn.rounds import Rounds, Seen
from bot.learn.sight import Sight
from bot.learn.start import NewGame, find_hover, undo_long_press, wait_for_field
from bot.screen.capture import Region
from bot.vision.lattice import Lattice
from bot.vision.skin import Skin

#: Clicks, counted in games, before the learner gives up on what it has not seen.
GAMES = 12
#: Seconds a held button may go without anything above the field changing before the game is
#: taken to have no face (GNOME Mines, which flags a cell held past half a second: undone after).
NO_FACE_AFTER = 0.6
#: Seconds a game just started may take to draw its field before the learner says there is none
#: (GNOME Mines on a loaded machine showed its window still empty after it held still; 10 s was
#: once not enough, with the full suite and two benchmark processes on the 2 cores).
BOARD_WAIT = 30.0


class Learner:
    """Plays games of an unknown look until every look is named: it finds the field, the face
    (by holding the first click) and how a new game starts, then plays Rounds (bot.learn.rounds)
    and puts together what they saw."""

    def __init__(
        self,
        grab: Callable[[], np.ndarray],
        hands_for: Callable[[Lattice, tuple[int, int, int, int] | None], Hands],
        games: int = GAMES,
        say: Callable[[str], None] = lambda _: None,
        seed: int = 0,
        known: Skin | None = None,
        board_wait: float = BOARD_WAIT,
        pace: Pace = SPACED,
    ) -> None:
        self.known = known
        self.board_wait = board_wait
        self.pace = pace
        self.grab = grab
        self.hands_for = hands_for
        self.games = games
        self.say = say
        self.rng = np.random.default_rng(seed)

    def run(self) -> Learnt:
        fresh, lat = wait_for_field(self.grab, self.board_wait, self.say)
        self.start_image = fresh  # (the frame round the field, as a game starts)
        hands = self.hands_for(lat, None)
        sight = Sight(self.grab, lat, fresh)
        if sight.frame(fresh).any():
            # A cell unlike the rest of a fresh field may be lit by the pointer resting on it
            # (GNOME Mines, the pointer where the user left it): it goes just below the field, and
            # the field is looked at again. What still differs the game opened itself (xdemineur).
            hands.move(lat.left + lat.width // 2, lat.top + lat.height + 3)
            fresh, lat = wait_for_field(self.grab, self.board_wait, self.say)
            self.start_image = fresh
            hands = self.hands_for(lat, None)
            sight = Sight(self.grab, lat, fresh)
        self.say(f"field: {lat.rows} x {lat.cols} cells of {lat.pitch} px at ({lat.left}, {lat.top})")
        self.sight = sight
        meanings = sight.meanings
        self.marks = Marks(sight)
        self.counter = CounterProbe(sight, self.marks, self.say)
        self.seen = seen = Seen()
        self.known_faces: dict[str, np.ndarray] = {}
        if self.known is not None:
            self._adopt(self.known)
        self.learnt = Learnt(lat)
        ids = sight.frame(fresh)
        for k in np.unique(ids):  # cells a game opened itself before any click (xdemineur): numbers
            meanings.role.setdefault(int(k), "number")  # (a loss names the looks it shows first as mines)
        covered = np.argwhere(ids == 0)
        middle = tuple(int(v) for v in covered[np.abs(covered - [lat.rows // 2, lat.cols // 2]).sum(axis=1).argmin()])
        self.new_game = NewGame(sight, bool(ids.any()), middle, self.say)
        sight.watch_ticking(fresh)
        self.park = find_hover(sight, hands, middle, self.say)
        hands = Paced(hands, self.park, self.pace)
        # The first click, held on the covered cell nearest the middle: the face shows a button is down.
        hands.hold(*sight.centre(middle))
        held = sight.grab_changed_above(fresh, quiet=NO_FACE_AFTER)
        hands.release(*sight.centre(middle))
        if held is not None:
            sight.face = find_face(fresh, held, lat, sight.ticking)
            seen.face_images.update(playing=fresh, pressed=held)
            x, y, side, _ = sight.face.box
            self.say(f"face: {side} px square at ({x}, {y})")
        else:
            self.say("no face: nothing above the field changed while a cell was held")
            undo_long_press(sight, hands, middle, self.say)
        hands = Paced(self.hands_for(lat, None if sight.face is None else sight.face.box), self.park, self.pace)
        rounds = Rounds(sight, self.marks, self.counter, seen, middle, self.rng, self.say)
        image = self.grab()
        for game in range(self.games):
            if game:
                image = self.new_game.start(hands, image)
            self.learnt.games = game + 1
            image = rounds.play(hands, image, game + 1)
            if not self._missing_now():
                break
        if sight.face is None:
            # A new game left on the screen: play finds a faceless game by its board, and the last
            # game's end may be drawn in looks no skin holds (XBomb's outlined cells).
            self.new_game.start(hands, image)
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
        have = {str(v) for v in meanings.names.values()} | set(meanings.role.values()) | set(self.seen.face_images)
        have |= set(self.known_faces)
        have |= {"counter"} if self.counter.counter else set()
        have |= {"won"} if self.seen.win_on_board else set()  # (a face it may never show: not waited for)
        have |= set(FACES) if self.sight.face is None else set()  # (a game without a face)
        want = [str(n) for n in NUMBERS] + list(SPECIAL) + list(FACES) + ["counter"]
        return [w for w in want if w not in have]

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
            for name, image in self.seen.face_images.items():
                out.faces[name] = image[y : y + h, x : x + w].copy()
        out.face_box = None if sight.face is None else sight.face.box
        out.new_game_key = self.new_game.key
        out.hover = self.park is not None
        out.mines = dict(self.known.mines) if self.known is not None else {}
        if len(self.seen.totals) == 1:  # (games of one size always hold one total)
            out.mines[(lat.rows, lat.cols)] = next(iter(self.seen.totals))
        out.frame = learnt_frame(self.start_image, lat.field)
        if self.counter.counter is not None:
            out.counter_boxes, out.digits = self.counter.counter
        unnamed = [k for k in meanings.number_classes() if k not in meanings.names and meanings.role.get(k) == "number"]
        out.unnamed = [sorted(meanings.possible.get(k, set(NUMBERS)) - set(meanings.names.values())) for k in unnamed]
        return out


def learn_live(
    screen, games: int = GAMES, say: Callable[[str], None] = lambda _: None, backend=None, known: Skin | None = None,
    region: Region | None = None,
) -> Learnt:
    """Learn from the game on the live screen, every click guarded by the field (and the face);
    only what lies in `region` (the game's window) is looked at, where one is given."""
    with LiveScreen(screen, region, backend) as live:
        def hands_for(lat: Lattice, face: tuple[int, int, int, int] | None) -> Hands:
            return live.hands(lat.field, lat.rows, lat.cols, face)

        learner = Learner(live.grab, hands_for, games=games, say=say, known=known)
        try:
            return learner.run()
        except LearnError as err:
            raise LearnError(str(err), fresh=getattr(learner, "start_image", None)) from err


__all__ = ["LearnError", "Learner", "Learnt", "VisionError", "learn_live", "write_skin"]
