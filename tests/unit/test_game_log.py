"""What a game played comes to, read off its final board (bot.play.game_log)."""

from __future__ import annotations

import pytest

from bot.board import parse_grid
from bot.play.game_log import GameLog, layout_of, result_said_by_window, summary, three_bv_of
from bot.solver.advice import Advice


def _advice(safe=(), mines=(), guess=None) -> Advice:
    return Advice(frozenset(safe), frozenset(mines), None, guess, None if guess is None else 0.5)


@pytest.mark.parametrize(("title", "result"), [("Congratulation!", "won"), ("Info", "lost"), (None, "lost")])
def test_a_last_fifty_fifty_ended_by_a_window_is_what_its_title_says(title, result):
    """The Java Windows 7 clone draws neither the mine a last guess met nor the win: its window's
    title is all that tells them apart, and it is asked only then."""
    board = parse_grid("??", mines=1)  # two covered cells, one mine: the guess met it or won
    asked = []
    said = result_said_by_window(board, _advice(guess=(0, 0)), lambda: asked.append(1) or title)
    assert said == result and asked == [1]


def test_a_window_after_proven_safe_clicks_or_a_guess_with_more_left_is_read_off_the_advice():
    board = parse_grid("????", mines=2)
    never = lambda: pytest.fail("the title is asked only after a last 50/50")  # noqa: E731
    assert result_said_by_window(board, _advice(safe={(0, 1)}), never) == "won"
    last = parse_grid("???", mines=2)  # a guess beside proven mines only: it was the last safe cell
    assert result_said_by_window(last, _advice(mines={(0, 1), (0, 2)}, guess=(0, 0)), never) == "won"
    assert result_said_by_window(board, _advice(guess=(0, 0)), never) == "lost"  # three left for two mines


def test_a_lost_board_gives_its_3bv_and_layout_and_an_unfinished_one_neither():
    lost = parse_grid("1X1\n111\n000")
    assert three_bv_of(lost) == 3 and layout_of(lost) is not None
    under_way = parse_grid("1?1\n111\n000")
    assert three_bv_of(under_way) is None and layout_of(under_way) is None
    assert layout_of(parse_grid("1*1\n111\n000")) == layout_of(lost)  # the same field, shown twice


def test_the_summary_counts_wins_a_level():
    logs = [GameLog("won", 2.0, 10, 0, 20, (9, 9)), GameLog("lost", 1.0, 3, 1, None, (9, 9)),
            GameLog("won", 9.0, 90, 2, 150, (16, 30))]
    text = summary(logs)
    assert "won 1/2 at 9x9 (50%)" in text and "won 1/1 at 16x30 (100%)" in text
