"""Advice as people and tools read it: the seeds' row=/col= lines, a grid, or one JSON object."""

from __future__ import annotations

import json

import numpy as np

from bot.board import FLAG, Board, Cell, format_grid
from bot.solver.advice import Advice


def _rc(cell: Cell) -> str:
    return f"row={cell[0] + 1} col={cell[1] + 1}"


def advice_text(board: Board, advice: Advice) -> str:
    """Human form: 1-based cells like the seeds, a marked grid, and the odds in percent."""
    lines = [f"board {board.rows}x{board.cols}, mines: {board.mines if board.mines is not None else 'not given'}"]
    for cell in sorted(advice.safe | advice.mines):
        lines.append(f"{_rc(cell)} -> {'MINE' if cell in advice.mines else 'safe'}")
    lines.append(f"{len(advice.safe)} safe, {len(advice.mines)} mines")
    for cell in sorted(advice.wrong_flags):
        lines.append(f"{_rc(cell)} -> WRONG FLAG (the numbers prove the cell safe: take the flag off)")
    if advice.flags_conflict:
        lines.append("the flags cannot all be mines (a number has more flags around it than it counts, or they "
                     "leave no layout): some are wrong")
    marked = _marked(board, advice)
    lines.append("")
    lines.append("grid (s = safe, m = mine" + (", w = wrong flag):" if advice.wrong_flags else "):"))
    lines.extend(marked)
    if advice.probability is not None:
        lines.append("")
        lines.append("mine probability, % (.. opened):")
        lines.extend(_percent_rows(advice.probability))
    lines.append("")
    lines.append("suggested move: " + suggested_move(advice))
    if advice.approximate:
        lines.append("(approximate: the exact count did not finish within the deadline; the odds are estimated, "
                     "and proven cells may be missing, never wrong)")
    return "\n".join(lines)


def _marked(board: Board, advice: Advice) -> list[str]:
    """The grid's rows with s, m and w over the cells proven safe, mines and wrong flags."""
    chars = np.array(format_grid(board).split("\n"), dtype=bytes).view("S1").reshape(board.shape).copy()
    for cells, mark in ((advice.mines, b"m"), (advice.wrong_flags, b"w"), (advice.safe, b"s")):
        if cells:
            rows, cols = zip(*cells)
            chars[list(rows), list(cols)] = mark
    return [row.tobytes().decode("ascii") for row in chars]


_PERCENT = np.array([b" .."] + [f"{p:3d}".encode() for p in range(101)], dtype="S3")


def _percent_rows(grid: np.ndarray) -> list[str]:
    """Each row of a probability grid as three-character percentages (" .." where opened)."""
    index = np.where(np.isnan(grid), 0, np.round(np.nan_to_num(grid) * 100).astype(np.int64) + 1)
    return [row.tobytes().decode("ascii") for row in _PERCENT[index]]


def suggested_move(advice: Advice) -> str:
    if advice.safe:
        return f"open {_rc(min(advice.safe))} (safe)"
    if advice.guess is not None:
        safety = advice.guess_safety if advice.guess_safety is not None else float("nan")
        return f"open {_rc(advice.guess)} (guess, {safety:.1%} safe)"
    return "none (nothing left to open)"


def advice_dict(board: Board, advice: Advice) -> dict:
    """The JSON contract: 0-based [row, col]; probability null for opened cells. A flag is a claim:
    its probability is what the numbers give (1 for a mine on show), and a flag they prove wrong
    is listed in `wrong_flags`."""
    grid = advice.probability
    known = board.known_mines() & (board.cells != FLAG)
    if grid is None:  # no odds were counted: a flag is then reported as the player's mine
        known = board.known_mines()
    prob = [
        [
            1.0 if known[r, c] else (None if grid is None or np.isnan(grid[r, c]) else float(grid[r, c]))
            for c in range(board.cols)
        ]
        for r in range(board.rows)
    ]
    return {
        "rows": board.rows,
        "cols": board.cols,
        "mines": board.mines,
        "safe": [list(c) for c in sorted(advice.safe)],
        "mine": [list(c) for c in sorted(advice.mines)],
        "probability": prob,
        "guess": [int(v) for v in advice.guess] if advice.guess is not None else None,
        "wrong_flags": [list(c) for c in sorted(advice.wrong_flags)],
        "approximate": advice.approximate,
        "flags_conflict": advice.flags_conflict,
    }


def to_json(obj: object) -> str:
    return json.dumps(obj, separators=(", ", ": "))
