"""A game's end, read off the board: is it over though the face says nothing yet, and was it won
or lost? A lost board is the best teacher: it shows every mine, which names every number beside
them at once."""

from __future__ import annotations

import cv2
import numpy as np

from bot.board import Cell
from bot.errors import LearnError
from bot.learn.labels import COVERED_CLASS, from_mines
from bot.learn.sight import Meanings, Sight


def looks_over(sight: Sight, image: np.ndarray, ids: np.ndarray, before: np.ndarray | None,
               last_click: tuple[Cell, bool], win_on_board: bool) -> bool:
    """Does the board show an end the face does not show yet? No covered cell left (a win, its
    mines flagged), or a guess that changed cells no opening from it reaches (a loss showing
    its mines). A game whose face has stayed put at a win shown on the board is not waited for
    again."""
    if sight.face is None or sight.face.changed(image):
        return False
    if not sight.meanings.covered(ids).any():
        return not win_on_board
    cell, proven = last_click
    return not proven and before is not None and scattered(ids != before, cell)


def read_end(meanings: Meanings, ids: np.ndarray, before: np.ndarray | None, last_click: tuple[Cell, bool],
             baits: set[Cell], on_a_mine: bool = False) -> tuple[bool, int]:
    """Won or lost, and what the end shows. A loss: the last click was a guess, the clicked cell
    shows no number we know, cells elsewhere turned into something new (the mines), and either
    covered cells remain, one of our flags changed (a flag on a safe cell blocks a win) or the
    click was on a proven mine (XBomb's loss opens every cell). A loss names the looks it shows
    (the mines, the exploded one, a wrong flag) and every number beside a mine. Returns whether
    it was lost, and the mines the game held (at a win, what is not open)."""
    cell, proven = last_click
    flag = meanings.having("flag")
    remaining = on_a_mine or (ids == 0).any() or any(int(ids[b]) not in flag for b in baits)
    new_at_click = meanings.role.get(int(ids[cell])) in (None, "exploded")
    was_covered = np.ones(ids.shape, bool) if before is None else meanings.logic_frame(before) < 0
    turned = was_covered & np.isin(ids, [k for k in np.unique(ids) if meanings.role.get(int(k)) in (None, "mine")])
    turned[cell] = False
    lost = not proven and new_at_click and remaining and bool(turned.any())
    if not lost:
        return False, int((meanings.logic_frame(ids) < 0).sum())
    meanings.role[int(ids[cell])] = "exploded"
    flags = meanings.having("flag")
    shown = np.zeros(ids.shape, bool)
    for k in np.unique(ids):
        k = int(k)
        role = meanings.role.get(k)
        if k == ids[cell] or role in ("unopened", "question") or k in flags:
            continue
        at = ids == k
        if role is None and baits and all(tuple(int(v) for v in rc) in baits for rc in np.argwhere(at)):
            meanings.role[k] = "wrong_flag"  # only ever where we put a flag
            continue
        if role is None and meanings.knows("mine") and not _a_mine_drawn_apart(meanings, k):
            meanings.role[k] = "number"  # a number painted late: the mine look is known
            continue
        if role is None or role == "mine":
            meanings.role[k] = "mine"
            shown |= at
    mines = shown | (ids == ids[cell]) | np.isin(ids, flags)
    logic = meanings.logic_frame(ids)
    logic[mines] = COVERED_CLASS
    for bait in baits:  # a flag on a safe cell drawn as an opened cell at a loss (XBomb): say nothing
        if logic[bait] >= 0:
            logic[bait] = COVERED_CLASS
    try:
        names = from_mines(logic, mines)
    except ValueError as err:
        raise LearnError(f"the lost board does not add up: {err}") from err
    for k, v in names.items():
        if meanings.names.get(k, v) != v:
            raise LearnError(f"a look named {meanings.names[k]} shows {v} mines around it")
        meanings.names[k] = v
    if len(set(meanings.names.values())) != len(meanings.names):
        raise LearnError("two different looks show the same number of mines around them")
    return True, int(mines.sum())


#: A look this close to a mine's (RMS, as looks are compared) is that mine drawn apart: cells
#: stretched to the window draw GNOME Mines' mine 8-9 apart from cell to cell, blurred; a
#: number and a mine are 40 or more apart.
LIKE_A_MINE = 20.0


def _a_mine_drawn_apart(meanings: Meanings, k: int) -> bool:
    """Is look k (new on a lost board) the mine's look drawn a little apart, rather than a number?"""
    other, distance = meanings.looks.nearest_to(k)
    return meanings.role.get(other) == "mine" and distance <= LIKE_A_MINE


def opened_changed(meanings: Meanings, ids: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Cells open on the board `before` that now show a look with no role yet. An opened cell
    keeps its look while a game goes on; XBomb's game over outlines its opened cells in green."""
    fresh = [k for k in np.unique(ids) if int(k) not in meanings.role]
    return (meanings.logic_frame(before) >= 0) & (ids != before) & np.isin(ids, fresh)


def as_opened_before(meanings: Meanings, ids: np.ndarray, before: np.ndarray | None) -> np.ndarray:
    """The board at a game's end with each cell open before shown as it was: a look a game over
    draws on opened cells is neither a mine nor a number to name."""
    if before is None:
        return ids
    return np.where(opened_changed(meanings, ids, before), before, ids)


def scattered(changed: np.ndarray, cell: Cell) -> bool:
    """Did a click change cells that no opening from it reaches? An opened area is one connected
    patch round the clicked cell; a loss shows the mines wherever they are."""
    _, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
    return bool(changed[cell]) and bool((changed & (labels != labels[cell])).any())
