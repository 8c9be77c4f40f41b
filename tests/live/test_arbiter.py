"""Minesweeper Arbiter 0.52.3, the competitive players' program, live under 32-bit Wine in the
test's own Xvfb and Wine prefix (bot.games.native_game.ARBITER). Third-party: never in the project;
docs/testing.md says where it comes from and where the tests look for it.

It opens a Counters window beside the game, and every record (a first win sets several) opens its
Local High Scores window over the board, which takes no key: the bot must play beside the one and
close the other, as a player would. Every click is judged by X's geometry of the game's field
and face (bot.games.witness), never by the bot's calibration.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.native_game import ARBITER, NativeGame
from tests.support.live_play import play_shipped
from tests.support.wine import wine32_installed

pytestmark = pytest.mark.full


@pytest.fixture
def arbiter(display, wineprefix):
    if ARBITER.needs is None or not ARBITER.needs.exists():
        pytest.skip(f"no Minesweeper Arbiter at {ARBITER.needs}: set MINESWEEPER_ARBITER (docs/testing.md)")
    if not wine32_installed():
        pytest.skip("Wine cannot run 32-bit programs here: apt-get install wine32:i386 (docs/windows.md)")
    with NativeGame(ARBITER, "beginner") as game:
        yield game


def test_arbiter_played_with_the_shipped_skin_its_record_window_closed(arbiter: NativeGame, tmp_path: Path):
    """No profile, no hint: the shipped classic skin finds Arbiter's board beside its Counters
    window and plays whole games; the records of its first win open Local High Scores over the
    board, which the bot closes, and play goes on."""
    logs, said, witness = play_shipped(arbiter, 8, tmp_path)
    assert len(logs) == 8 and all(g.result in ("won", "lost") for g in logs), (logs, said)
    assert witness.clicks > 8 and witness.outside == 0
    if any(g.result == "won" for g in logs[:-1]):  # (a record window follows a win, before the next game)
        assert any("own dialog" in line for line in said), said
