"""The seeds' example grids and their published answers (1-based rows and columns)."""

import pytest

from bot.board import parse_grid
from bot.solver.advice import advise

# Yurichev, "Cracking Minesweeper with Z3/SAT": four successive grids, cells proven safe.
YURICHEV = [
    (
        ["01?10001?", "01?100011", "011100000", "000000000", "111110011",
         "????1001?", "????3101?", "?????211?", "?????????"],
        [(1, 3), (6, 2), (6, 3), (7, 4), (7, 9), (8, 9)],
    ),
    (
        ["01110001?", "01?100011", "011100000", "000000000", "111110011",
         "?11?1001?", "???331011", "?????2110", "???????10"],
        [(7, 1), (7, 2), (7, 3), (8, 3), (9, 5), (9, 6)],
    ),
    (
        ["01110001?", "01?100011", "011100000", "000000000", "111110011",
         "?11?1001?", "222331011", "??2??2110", "????22?10"],
        [(8, 2), (9, 4)],
    ),
    (
        ["01110001?", "01?100011", "011100000", "000000000", "111110011",
         "?11?1001?", "222331011", "?22??2110", "???322?10"],
        [(9, 1), (9, 2)],
    ),
]  # fmt: skip

# Karakus, course notebook (Knowledge Representation and Learning 2023-24): 9x9 example.
KARAKUS_GRID = ["001??????", "001??????", "00112????", "00001????", "000011???",
                "000001???", "000012???", "12322????", "?????????"]  # fmt: skip
KARAKUS_OUTPUT = """\
row=1 col=4, -> No mine
row=2 col=4, -> MINE
row=2 col=5, -> No mine
row=2 col=6, -> No mine
row=3 col=6, -> No mine
row=4 col=6, -> MINE
row=4 col=7, -> No mine
row=5 col=7, -> No mine
row=6 col=7, -> No mine
row=7 col=7, -> MINE
row=8 col=6, -> MINE
row=8 col=7, -> No mine
row=9 col=1, -> No mine
row=9 col=2, -> MINE
row=9 col=3, -> MINE
row=9 col=4, -> MINE
row=9 col=5, -> No mine
row=9 col=6, -> No mine"""


def one_based(cells):
    return sorted((r + 1, c + 1) for r, c in cells)


@pytest.mark.parametrize(("grid", "safe"), YURICHEV)
def test_yurichev_safe_cells(grid, safe):
    advice = advise(parse_grid("\n".join(grid)))
    assert one_based(advice.safe) == safe


def test_karakus_safe_cells_and_mines_in_the_published_order():
    advice = advise(parse_grid("\n".join(KARAKUS_GRID)))
    lines = []
    for r, c in sorted(advice.safe | advice.mines):
        verdict = "MINE" if (r, c) in advice.mines else "No mine"
        lines.append(f"row={r + 1} col={c + 1}, -> {verdict}")
    assert "\n".join(lines) == KARAKUS_OUTPUT


def test_bizzaro_slide_example_one_mine_left():
    # Amato/Corrado slides: three covered cells over 1-1-1 with one mine left: the middle one.
    advice = advise(parse_grid("???\n111", mines=1))
    assert one_based(advice.mines) == [(1, 2)]
    assert one_based(advice.safe) == [(1, 1), (1, 3)]
