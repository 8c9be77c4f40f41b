"""A read made complete where the skin falls short: a look it has never seen, named by the board
(the skin grows by it), and a game's end whose cells no longer matter.

Each naming needs the look to hold still in a second frame (a cell caught half drawn is never
named), which only the caller can grab: it is passed in as `holds_still`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, Board, Cell
from bot.errors import BotError, InconsistentBoardError
from bot.learn.unseen import unread, unseen_face, unseen_numbers, with_face, with_number
from bot.learn.unseen_digits import unseen_digits, with_digit
from bot.solver.advice import advise
from bot.vision.board_rules import board_face
from bot.vision.reader import Field, Reading, read
from bot.vision.skin import Skin


def finished(reading: Reading) -> Reading:
    """A game over, with cells still unread (a number the skin never saw, shown at the end): its
    cells no longer matter, only its result and a click on the face do. They count as covered."""
    return replace(reading, codes=np.where(reading.unknown, UNOPENED, reading.codes),
                   unknown=np.zeros_like(reading.unknown),
                   counter=0 if reading.counter is None else reading.counter)


def won_under(reading: Reading) -> bool:
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


def painted_over(reading: Reading, previous: Board | None) -> str | None:
    """A faceless game's end drawn over its opened cells, as "won" or "lost" (None: no such end).
    XBomb's game over outlines the cells opened before in green, looks no skin holds, and shows
    every mine: in its mine look at a loss, flagged at a win. An opened cell keeps
    its look while a game goes on, so unread cells where `previous` showed opened ones are such
    an end only where every cell still read agrees with `previous` (a moved window agrees with
    nothing) and the mines show where `previous` had covered cells."""
    if previous is None or previous.shape != reading.codes.shape or not reading.framed:
        return None
    opened, read_ = previous.cells >= 0, ~reading.unknown
    if not (reading.unknown & opened).any() or (reading.codes[opened & read_] != previous.cells[opened & read_]).any():
        return None
    was_covered = previous.covered() & read_
    if np.isin(reading.codes[was_covered], (MINE, EXPLODED)).any():
        return "lost"
    flags = int((reading.codes == FLAG).sum())
    if (reading.codes[read_] == UNOPENED).any() or not flags:
        return None
    return "won" if previous.mines is None or flags == previous.mines else None


def ended(reading: Reading, skin: Skin) -> Reading:
    """A game's end read with cells still unread counts as read (its result is what matters)."""
    if reading.complete or not reading.framed:
        return reading
    if reading.face in ("won", "lost"):
        return finished(reading)
    if skin.faceless and won_under(reading):
        return finished(replace(reading, face="won"))
    return reading


def name_numbers(image: np.ndarray, field: Field, skin: Skin, reading: Reading,
                 holds_still: Callable[[np.ndarray], bool], say: Callable[[str], None],
                 no_number: frozenset[Cell] = frozenset()) -> tuple[Skin, Reading]:
    """Unknown cells that are a number the skin has never seen (bot.learn.unseen): named when the board
    allows one number only and the look holds still; the skin grows by it and the frame is read
    again. A look the board does not name yet is played around (an opened cell, number unknown):
    ending the game instead threw away the games that had got far, and a third of the Expert wins
    with a skin learnt on sight. Nothing is named while a cell in `no_number` (the bot's flags,
    cells no click opened) is unknown: a flag the skin does not know (KMines learnt at Hard with
    none seen had the flags it puts on every mine at a win named a 6), nor, in a described look, on
    a board with no covered cell (a game over: read after it with no board before; a sprite skin
    may still name the number its last click showed on a board ace-minesweeper's flags fill)."""
    if any(reading.unknown[cell] for cell in no_number):
        return skin, reading
    if skin.look is not None and not ((reading.codes == UNOPENED) & ~reading.unknown).any():
        return skin, _over(image, field, skin, reading, holds_still)
    if skin.look is not None:  # (a look described by its colours: bot.learn.unseen_digits)
        find, what = unseen_digits, "a digit this look had no colour for"

        def grow(skin: Skin, look) -> Skin:
            return with_digit(skin, look.number, look.ink)
    else:
        find, what = unseen_numbers, "a number this skin had not seen yet"

        def grow(skin: Skin, look) -> Skin:
            return with_number(skin, look.number, look.tile)
    found = find(image, field, skin, reading)
    if found is None or not holds_still(image):
        return skin, reading
    for look in found:
        if look.number is not None:
            skin = grow(skin, look)
            say(f"{what}: named {look.number} from the board, and kept")
    if any(look.number is not None for look in found):
        reading = read(image, field, skin)
    return skin, unread(reading, found)  # looks not named yet: opened cells, number unknown, for now


def _over(image: np.ndarray, field: Field, skin: Skin, reading: Reading,
          holds_still: Callable[[np.ndarray], bool]) -> Reading:
    """A described look's board with no covered cell read: a game over (KMines' won board, every
    mine flagged by the game), nothing named from it. Its unknown cells that are plainly digits the
    look has no colour for, on opened tiles, are opened cells of unknown number (Simon Tatham's
    Mines won by opening a teal 6, the first it showed: the board is then whole, its win told)."""
    found = unseen_digits(image, field, skin, reading)
    if found is None or not holds_still(image):
        return reading
    over = unread(reading, [replace(look, number=None) for look in found])
    # (a game with no face: its face said by the board again, those cells now opened; read with them
    # covered it said "playing", and the next game began on this board, won again at once)
    return replace(over, face=board_face(over.codes)) if skin.faceless else over


def name_face(image: np.ndarray, field: Field, skin: Skin, reading: Reading,
              holds_still: Callable[[np.ndarray], bool], say: Callable[[str], None]) -> tuple[Skin, Reading]:
    """A face the skin has never seen, named by the board when it tells a game's end (bot.learn.unseen:
    a game won only with every mine flagged shows its won face, never seen while learning, only
    then), in a frame that holds still; the skin grows by it and the frame is read again."""
    found = unseen_face(image, field, skin, reading)
    if found is None or not holds_still(image):
        return skin, reading
    name, tile = found
    skin = with_face(skin, name, tile)
    say(f"a face this skin had not seen yet: named {name} from the board, and kept")
    return skin, read(image, field, skin)
