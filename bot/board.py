"""The board state every stage shares, and the text-grid notation the seeds use.

A board is a small int8 array: 0..8 for opened cells, negative codes for everything
else.  Keeping it a plain array lets vision produce it with numpy and the solver read
it without conversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bot.errors import GridError

Cell = tuple[int, int]

UNOPENED = -1
FLAG = -2
QUESTION = -3
MINE = -4  # shown after a loss
EXPLODED = -5  # the mine that was clicked
WRONG_FLAG = -6  # a flag on a cell that held no mine, shown after a loss
#: An opened cell whose number is not known: a look the skin has never seen, which the board
#: does not name yet (bot.learn.unseen). Safe, and no rule: the solver learns less from it, never wrong.
UNREAD = -7

#: Text-grid alphabet; `.` is read as an opened 0 (Yurichev's notation) but printed as `0`.
CHAR_TO_CODE: dict[str, int] = {
    "?": UNOPENED,
    "F": FLAG,
    "Q": QUESTION,
    "*": MINE,
    "X": EXPLODED,
    "W": WRONG_FLAG,
    "N": UNREAD,
    ".": 0,
    **{str(d): d for d in range(9)},
}
CODE_TO_CHAR: dict[int, str] = {
    UNOPENED: "?",
    FLAG: "F",
    QUESTION: "Q",
    MINE: "*",
    EXPLODED: "X",
    WRONG_FLAG: "W",
    UNREAD: "N",
    **{d: str(d) for d in range(9)},
}

#: Cells whose content is still unknown to the player (a question mark is only a note).
COVERED = (UNOPENED, QUESTION)
#: Cells taken to hold a mine: a flag is trusted, as a player trusts their own flags.
KNOWN_MINE = (FLAG, MINE, EXPLODED)


@dataclass(frozen=True, eq=False)
class Board:
    """What can be seen of one game: the cell codes and, when known, the total mine count."""

    cells: np.ndarray
    mines: int | None = None

    @property
    def rows(self) -> int:
        return int(self.cells.shape[0])

    @property
    def cols(self) -> int:
        return int(self.cells.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    def __getitem__(self, cell: Cell) -> int:
        return int(self.cells[cell])

    def covered(self) -> np.ndarray:
        """Boolean mask of cells that may still be opened."""
        return np.isin(self.cells, COVERED)

    def known_mines(self) -> np.ndarray:
        return np.isin(self.cells, KNOWN_MINE)

    def solved(self) -> bool:
        """Every safe cell opened, every other one flagged, and every number counting exactly its
        flags: a won game, whatever the face shows. Some games keep their playing face on a win
        (Minegauler, when the winning click's release repaints it) and flag the mines themselves,
        so the board is the one sign of the end that every Minesweeper shares."""
        cells = self.cells
        numbers = cells >= 0
        if not numbers.any() or not np.isin(cells[~numbers], (FLAG, UNREAD)).all():
            return False  # (an unread cell is opened: its number unknown, its flags not counted)
        flags = around_count(cells == FLAG)
        return bool((flags[numbers] == cells[numbers]).all())

    def with_mines(self, mines: int | None) -> Board:
        return Board(self.cells, mines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.mines == other.mines and np.array_equal(self.cells, other.cells)

    def __str__(self) -> str:
        return format_grid(self)


@lru_cache(maxsize=64)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[Cell, ...], ...]:
    """Neighbours of every cell, indexed by r * cols + c; cached because shapes repeat."""
    return tuple(_around(rows, cols, r, c) for r in range(rows) for c in range(cols))


def _around(rows: int, cols: int, r: int, c: int) -> tuple[Cell, ...]:
    """The neighbours of cell (r, c) on a rows x cols board, row by row."""
    return tuple((rr, cc) for rr in range(max(r - 1, 0), min(r + 2, rows))
                 for cc in range(max(c - 1, 0), min(c + 2, cols)) if (rr, cc) != (r, c))


def around_count(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its eight neighbours are set in mask (cells past the edge: 0).
    Eight shifted sums of a padded copy: the solver's one grid operation, without SciPy's import
    (175 ms of a 336 ms `solve`)."""
    padded = np.pad(mask.astype(np.int16), 1)
    rows, cols = mask.shape
    total = np.zeros((rows, cols), np.int16)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                total += padded[dr : dr + rows, dc : dc + cols]
    return total


MAX_CELLS = 1_000_000  # the largest text grid taken: 2 000 000 cells took 8 s to solve, linearly
TABLE_CELLS = 250_000  # boards up to this many cells get a cached table of every cell's neighbours


def neighbours(shape: tuple[int, int], cell: Cell) -> tuple[Cell, ...]:
    rows, cols = shape
    if rows * cols > TABLE_CELLS:  # (a table of a 2 000 000-cell board took 11 s to build)
        return _around(rows, cols, *cell)
    return neighbour_table(rows, cols)[cell[0] * cols + cell[1]]


def parse_grid(text: str, mines: int | None = None) -> Board:
    """Read a text grid; reject anything that cannot be a board, naming row and column (1-based)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    lines = [line.replace(" ", "") for line in lines if line and not line.startswith("#")]
    if not lines:
        raise GridError("the grid is empty")
    width = len(lines[0])
    if len(lines) * width > MAX_CELLS:
        raise GridError(f"the grid has {len(lines) * width:,} cells: boards of up to {MAX_CELLS:,} are taken "
                        "(about 4 s a million cells to lay out, past any deadline beyond that)")
    for r, line in enumerate(lines, 1):
        if len(line) != width:
            raise GridError(f"row {r} has {len(line)} cells but row 1 has {width}: the grid is ragged")
    chars = np.frombuffer("".join(lines).encode("utf-32-le"), dtype=np.uint32).reshape(len(lines), width)
    codes = _CODE_OF[np.minimum(chars, len(_CODE_OF) - 1)]  # one look-up for the whole grid
    bad = np.argwhere(codes == _NO_CODE)
    if len(bad):
        r, c = (int(v) for v in bad[0])
        raise GridError(f"row {r + 1}, column {c + 1}: unknown character {chr(int(chars[r, c]))!r}")
    cells = codes.astype(np.int8)
    if mines is not None and mines < 0:
        raise GridError(f"the mine count must not be negative, got {mines!r}")
    board = Board(cells, mines)
    check_numbers(board)
    return board


_NO_CODE = 127
_CODE_OF = np.full(max(ord(ch) for ch in CHAR_TO_CODE) + 2, _NO_CODE, np.int16)  # code point -> code
for _ch, _code in CHAR_TO_CODE.items():
    _CODE_OF[ord(_ch)] = _code
_LOWEST = min(CODE_TO_CHAR)
_CHAR_OF = np.zeros(max(CODE_TO_CHAR) - _LOWEST + 1, "S1")  # code - _LOWEST -> its character
for _code, _ch in CODE_TO_CHAR.items():
    _CHAR_OF[_code - _LOWEST] = _ch.encode("ascii")


def check_numbers(board: Board) -> None:
    """A number larger than the neighbours that could hold a mine is a misread, never a board."""
    rooms = around_count(np.isin(board.cells, COVERED + KNOWN_MINE))
    bad = np.argwhere((board.cells > 0) & (board.cells > rooms))
    if len(bad):
        r, c = (int(v) for v in bad[0])
        value, room = int(board.cells[r, c]), int(rooms[r, c])
        raise GridError(f"row {r + 1}, column {c + 1}: shows {value} but only {room} "
                        f"neighbour{'s' if room != 1 else ''} can hold a mine")


def format_grid(board: Board) -> str:
    chars = _CHAR_OF[board.cells.astype(np.int16) - _LOWEST]
    return "\n".join(row.tobytes().decode("ascii") for row in chars)
