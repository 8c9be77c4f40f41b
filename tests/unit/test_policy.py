"""The guess's settings (bot.solver.policy.Policy): one frozen value, read from K=V text by the
benchmarks, with a one-line error for a name or value it does not know."""

from __future__ import annotations

import dataclasses

import pytest

from bot.errors import BotError
from bot.solver.policy import PLAY, Policy


def test_settings_are_read_by_their_kind() -> None:
    policy = PLAY.with_settings("cutoff=none,depth=5,chains=0,long_term_weight=1.5,ties=bottom")
    assert policy == Policy(cutoff=None, depth=5, chains=False, long_term_weight=1.5, ties="bottom")
    assert PLAY.with_settings("") == PLAY and Policy() == PLAY


@pytest.mark.parametrize("text, said", [("pockets=1", "unknown setting 'pockets=1'"), ("depth", "unknown setting"),
                                        ("depth=many", "depth takes a whole number, not 'many'"),
                                        ("ties=left", "ties must be top or bottom"),
                                        ("cutoff=1.5", "cutoff must lie in (0, 1]")])
def test_a_wrong_setting_is_a_one_line_error(text: str, said: str) -> None:
    with pytest.raises(BotError) as caught:
        PLAY.with_settings(text)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_policy_cannot_be_changed_in_place() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PLAY.depth = 3  # type: ignore[misc]
