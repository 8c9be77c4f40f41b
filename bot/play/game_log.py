"""What a game played comes to: its log (result, time, clicks, guesses, 3BV, its mines' layout)
and the summary of a run, read off the final board each game leaves."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bot.board import EXPLODED, FLAG, MINE, UNOPENED, WRONG_FLAG, Board, Cell
from bot.games.simulator import Game
from bot.solver.advice import Advice

#: Words of a game's end window that say a win, where the board cannot (the Java Windows 7 clone's
#: "Congratulation!" after a last guess; its loss is titled "Info").
WON_WORDS = ("congrat", "you win", "won", "victory", "gewonnen", "gagné", "ganado", "vinto")


@dataclass
class GameLog:
    result: str  # won, lost, abandoned, stopped (cut short by a stop once it had clicks)
    seconds: float
    clicks: int
    guesses: int
    three_bv: int | None
    shape: tuple[int, int] | None = None  # the board's rows and columns (a run may change level)
    layout: str | None = None  # the mines' places, where the final board shows them all (layout_of)


def unopened(board: Board) -> set[Cell]:
    """The cells shown covered (no flag, no question mark on them)."""
    return {(int(r), int(c)) for r, c in np.argwhere(board.cells == UNOPENED)}


def result_said_by_window(board: Board, advice: Advice, title: Callable[[], str | None]) -> str:
    """The result of a game that said its end by a window of its own after the batch decided on
    `board` (`advice`), its board showing none: proven safe cells end a game only by a win; a
    guess ends it by a loss unless every other covered cell was a proven mine. Where the guess was
    the last cell that could be safe (a last 50/50), a mine lost the game and a safe cell won it:
    the window's title (`title`, asked only then) may say which."""
    others = unopened(board) - {advice.guess}
    result = "won" if advice.safe or others <= advice.mines else "lost"
    left = None if board.mines is None else board.mines - int((board.cells == FLAG).sum())
    if result == "lost" and len(others) == left:
        said = (title() or "").casefold()
        result = "won" if any(word in said for word in WON_WORDS) else "lost"
    return result


def _mines_shown(board: Board) -> np.ndarray | None:
    """Where a finished game's mines are, when its final board shows every one (a loss shows
    them; a win leaves only mines covered or flagged)."""
    mines = np.isin(board.cells, (FLAG, MINE, EXPLODED))
    lost = (board.cells == EXPLODED).any()
    if not mines.any() or (not lost and (board.cells == UNOPENED).any()):
        return None
    return mines & (board.cells != WRONG_FLAG)


def three_bv_of(board: Board) -> int | None:
    """3BV of a finished game, from the final board (a win or a loss shows every mine)."""
    mines = _mines_shown(board)
    return None if mines is None else Game.from_layout(mines).three_bv()


def layout_of(board: Board) -> str | None:
    """A finished game's mine layout as a short fingerprint, where its final board shows every
    mine: two games with one fingerprint were one field played twice (a game that replays its
    field after a loss, as KMines' "Reset?" answered yes, is no fresh game for a benchmark)."""
    mines = _mines_shown(board)
    if mines is None:
        return None
    return hashlib.blake2b(np.packbits(mines).tobytes() + str(mines.shape).encode(), digest_size=8).hexdigest()


def summary(logs: list[GameLog]) -> str:
    lines = [f"{'game':>4s} {'result':8s} {'time s':>7s} {'clicks':>6s} {'guesses':>7s} {'3BV':>4s} {'3BV/s':>6s}"]
    for i, g in enumerate(logs, 1):
        bv = "" if g.three_bv is None else str(g.three_bv)
        rate = "" if g.three_bv is None or g.result != "won" else f"{g.three_bv / max(g.seconds, 1e-9):.1f}"
        lines.append(f"{i:4d} {g.result:8s} {g.seconds:7.2f} {g.clicks:6d} {g.guesses:7d} {bv:>4s} {rate:>6s}")
    shapes = list(dict.fromkeys(g.shape for g in logs))
    for shape in shapes:  # one line a level where the run changed level (a rate mixing them says nothing)
        games = [g for g in logs if g.shape == shape]
        won = [g for g in games if g.result == "won"]
        median = f"{np.median([g.seconds for g in won]):.2f} s" if won else "n/a"
        at = f" at {shape[0]}x{shape[1]}" if len(shapes) > 1 and shape is not None else ""
        rate = f"{len(won) / len(games):.0%}"
        lines.append(f"won {len(won)}/{len(games)}{at} ({rate}), median time of won games {median}")
    return "\n".join(lines)
