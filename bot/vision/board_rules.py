"""What the rules of the game say about a read board: a 0 no game would show, the face a faceless
game would show, and the one cell a lost game leaves unread that can only be its exploded mine."""

from __future__ import annotations

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, WRONG_FLAG, Board

_EIGHT = np.ones((3, 3), np.uint8)


def impossible_zeros(codes: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Cells read as 0 beside a covered cell: the game would have opened it, so the read is wrong.

    This is what a held mouse button looks like (WineMine draws the pressed cell as an opened 0),
    and what a cell half-covered by another window often looks like. Only cells read (`known`)
    count as covered: an unread one (its code a placeholder) may be a number, and a plain 0 beside
    it is no sign of a misread (a digit a learnt look never saw then took its 0s down with it, and
    play, finding an unread 0 no board names, stopped).
    """
    covered = (((codes == UNOPENED) | (codes == QUESTION)) & known).astype(np.uint8)
    near = cv2.dilate(covered, _EIGHT, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return (codes == 0) & (near > 0)


def board_face(codes: np.ndarray) -> str:
    """What a face would show, said by the board alone (a game without one: GNOME Mines): lost once
    a mine shows, won once every safe cell is open and every number counts its flags."""
    if np.isin(codes, (MINE, EXPLODED, WRONG_FLAG)).any():
        return "lost"
    return "won" if Board(codes).solved() else "playing"


def _mines_round(codes: np.ndarray) -> np.ndarray:
    """How many mines (shown, exploded or flagged) touch each cell."""
    mines = np.isin(codes, (MINE, EXPLODED, FLAG)).astype(np.float32)
    return cv2.filter2D(mines, -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT) - mines


def exploded_by_count(codes: np.ndarray, unknown: np.ndarray, total: int | None) -> tuple[np.ndarray, np.ndarray]:
    """A lost game's board with its one unread cell named the exploded mine, where the count proves
    it: the level's `total` is known, every other mine shows (shown and flagged mines are one short
    of it), none reads as exploded, and every number then counts exactly its mines. The mine that
    was clicked is the one still animating when every other has settled (Windows 7 plays its glow
    for a second and more: a pale tile, its mine a faint red, of neither look). Otherwise the board
    is returned as it was."""
    if total is None or int(unknown.sum()) != 1:
        return codes, unknown
    known = codes[~unknown]
    if not (known == MINE).any() or (known == EXPLODED).any() or int(np.isin(known, (MINE, FLAG)).sum()) != total - 1:
        return codes, unknown
    named = np.where(unknown, EXPLODED, codes)
    numbers = (named >= 1) & (named <= 8)
    if (_mines_round(named)[numbers] != named[numbers]).any():
        return codes, unknown
    return named, np.zeros_like(unknown)
