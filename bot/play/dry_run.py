"""The dry run: never click; show the advice whenever the board changes, over the game when an
overlay window can be shown (see-through and click-through), and always in the annotated PNG.

The read must see the game, not our marks: the overlay is hidden before each read, and shown
again only where the game has not changed meanwhile (the user may move while the bot thinks).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from bot.board import Board
from bot.imagefile import write_image
from bot.play.click_guard import SETTLE
from bot.play.game_view import GameView
from bot.play.game_windows import GameEnded
from bot.play.options import Options
from bot.play.overlay import Overlay, drawing
from bot.screen.platform import OverlayError, current
from bot.solver.advice import Advice


class DryRun:
    """Shows the advice for the game a GameView sees; `decide` gives it for a board."""

    def __init__(self, view: GameView, options: Options, decide: Callable[[Board], Advice],
                 advised: list[tuple[Board, Advice | None]], say: Callable[[str], None]) -> None:
        self.game_view = view
        self.options = options
        self.decide = decide
        self.advised = advised  # each board shown, and its advice (None: the game is over)
        self.say = say

    def run(self) -> int:
        """Frames drawn, up to the options' max_frames (or until stopped)."""
        overlay = self._open_overlay()
        try:
            return self._watch(overlay)
        finally:
            if overlay is not None:
                overlay.close()

    def _open_overlay(self) -> Overlay | None:
        if not self.options.overlay:
            return None
        try:
            return Overlay(current())
        except OverlayError as err:
            self.say(f"{err}; the advice goes to {self.options.annotated} only")
            return None

    def _watch(self, overlay: Overlay | None) -> int:
        from bot.play.annotate import annotate

        view = self.game_view
        last, drawn, clean, ours = None, 0, None, None
        while self.options.max_frames is None or drawn < self.options.max_frames:
            if overlay is not None:
                overlay.pump()
                if overlay.shown is not None and clean is not None and not view.guard.changed(clean, ours):
                    time.sleep(0.05)
                    continue
                if overlay.shown is not None:
                    overlay.hide()  # the read must see the game, not our marks
                    time.sleep(SETTLE)
            try:
                image, reading, board = view.look(None)
            except GameEnded:  # the game's end dialog is up: the user answers it, we wait
                time.sleep(0.2)
                continue
            key = (reading.codes.tobytes(), view.field.left, view.field.top)
            if key != last:
                advice = self.decide(board) if reading.face == "playing" else None
                write_image(str(self.options.annotated), annotate(image, view.shown, advice))
                self.advised.append((board, advice))
                last = key
                drawn += 1
            if overlay is None:
                time.sleep(0.05)
                continue
            clean = view.screen.grab(view.region)  # the game with nothing of ours over it
            if not np.array_equal(view.guard.field_pixels(clean), view.guard.field_pixels(image, view.shown)):
                continue  # the user moved while we thought: read again before showing anything
            f, r, o = view.field, view.region, view.origin
            shown = drawing(replace(f, left=f.left + o.left, top=f.top + o.top),
                            self.advised[-1][1])
            overlay.show(shown)
            ours = shown.mask(r.left, r.top, r.width, r.height)  # the grab's pixels under our marks
        return drawn
