"""The README's main job (`./scripts/demo`, i.e. `python -m bot demo`) in the test's own display
and Wine prefix: it plays, and its picture is the game with the advice drawn, not the screen."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.demo import run_demo


def test_the_demo_plays_and_saves_the_game_with_its_advice(display, wineprefix, tmp_path: Path, capsys):
    picture = tmp_path / "last.png"
    assert run_demo(1, ["beginner"], str(picture))
    out = capsys.readouterr().out
    assert "game result" in out and f"last board: {picture}" in out
    image = cv2.imread(str(picture))
    # The game's region as the bot grabbed it: the 144 px field, the face and counter above it.
    assert image is not None and 144 < image.shape[0] < 260 and 144 < image.shape[1] < 220, image.shape
    outline = np.all(image == (255, 0, 255), axis=2)  # annotate's field outline: the advice was drawn
    assert outline.sum() > 4 * 140  # round the whole field
