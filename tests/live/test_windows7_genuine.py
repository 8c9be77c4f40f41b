"""The genuine Windows 7 Minesweeper (6.1.7600, x64), live under 64-bit Wine in the test's own Xvfb
and Wine prefix, with what ships (`templates/win7`). Third-party: never in the project;
docs/testing.md says where it comes from and where the test looks for it.

Wine 8 draws its Direct3D field offscreen; the harness copies it onto the window
(bot.games.gl_mirror), so the screen shows the game's own pixels. Every click is judged by X's
geometry of the game's window (bot.games.witness), never by the bot's calibration.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.native_game import WINDOWS7, NativeGame
from tests.support.live_play import play_shipped

pytestmark = pytest.mark.full


@pytest.fixture
def windows7(display, wineprefix):
    if WINDOWS7.needs is None or not WINDOWS7.needs.exists():
        pytest.skip(f"no genuine Windows 7 Minesweeper at {WINDOWS7.needs}: set MINESWEEPER_WINDOWS7 (docs/testing.md)")
    with NativeGame(WINDOWS7, "beginner") as game:
        yield game


def test_genuine_windows7_played_with_the_shipped_skin(windows7: NativeGame, tmp_path: Path):
    """No profile, no hint: the shipped win7 skin finds the genuine game's field and plays whole
    games, its clicks held on their cells until the game has taken them (`click_dwell`)."""
    logs, said, witness = play_shipped(windows7, 5, tmp_path)
    assert len(logs) == 5 and all(g.result in ("won", "lost") for g in logs), (logs, said)
    assert witness.clicks > 5 and witness.outside == 0
