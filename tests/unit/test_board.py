import numpy as np
import pytest

from bot.board import FLAG, QUESTION, UNOPENED, Board, format_grid, parse_grid
from bot.errors import GridError


def test_round_trip_of_every_symbol():
    text = "01?F\nQ*XW\n0000"
    board = parse_grid(text)
    assert format_grid(board) == text
    assert board[0, 2] == UNOPENED and board[0, 3] == FLAG and board[1, 0] == QUESTION
    for n in range(2, 9):
        text = "???\n?" + str(n) + "?\n???"
        assert format_grid(parse_grid(text)) == text


def test_dot_reads_as_opened_zero():
    assert parse_grid("..?\n.1?").cells[0, 0] == 0


def test_blank_lines_comments_and_spaces_are_ignored():
    board = parse_grid("# a board\n\n0 1 ?\n0 1 ?\n")
    assert board.shape == (2, 3)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("01?\n01", "row 2 has 2 cells"),
        ("01?\n0x?", "row 2, column 2: unknown character 'x'"),
        ("0f?\n01?", "row 1, column 2: unknown character 'f'"),
        ("4?\n??", "row 1, column 1: shows 4 but only 3"),
        ("??\n?4", "row 2, column 2: shows 4 but only 3"),
        ("00\n01", "row 2, column 2: shows 1 but only 0"),
    ],
)
def test_malformed_grids_name_row_and_column(text, where):
    with pytest.raises(GridError, match=where.replace("(", r"\(")):
        parse_grid(text)


def test_empty_grid_is_rejected():
    with pytest.raises(GridError, match="empty"):
        parse_grid("\n\n")


def test_negative_mine_count_is_rejected():
    with pytest.raises(GridError):
        parse_grid("??", mines=-1)


def test_equality_compares_cells_and_count():
    a = Board(np.zeros((2, 2), dtype=np.int8), 1)
    assert a == Board(np.zeros((2, 2), dtype=np.int8), 1)
    assert a != Board(np.zeros((2, 2), dtype=np.int8), 2)


@pytest.mark.parametrize(("text", "solved"), [
    ("1F\n11", True),             # every safe cell open, the mine flagged, the numbers agree
    ("1?\n11", False),            # a covered cell left
    ("2F\n1F", False),            # a number that counts more flags than it sees: a misread or a flag short
    ("1F\nFF", False),            # more flags than the numbers say: one sits on a safe cell... never a win
    ("00\n00", True),             # no mine at all
    ("??\n??", False),            # nothing opened
    ("1X\n11", False),            # a loss
    ("1F\nN1", True),             # a cell opened, its number unread (a digit the look had no colour for)
])
def test_a_board_tells_a_win_by_itself(text, solved):
    assert parse_grid(text).solved() is solved
