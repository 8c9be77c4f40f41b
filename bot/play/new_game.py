"""A new game, by the game's own means: its end dialog's "play again" where one is open, else its
face or key, pressed again where the game did not take the press; and the game's own windows over
it (an end dialog, Arbiter's records) answered and waited out."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from bot.board import UNOPENED, Board
from bot.play.click_guard import SETTLE
from bot.play.game_view import RETRIES, GameView, Stop, follows
from bot.play.game_windows import DIALOG_AGAIN, GameEnded
from bot.screen.actuator import Actuator, TargetMoved
from bot.screen.platform import CLOSE_AFTER
from bot.vision.reader import Reading

#: Presses refused, or batches dropped, in a row as the game's window moves before the bot gives up
#: (a window dragged about).
STALE_BATCHES = 20
DIALOG_GONE = 10.0  # seconds an answered end dialog may take to close
PRESSES = 3  # new-game presses before the bot says the game did not restart
#: Seconds a new-game press is given to show a fresh board before it is pressed again: Arbiter
#: takes no click for a second or two after its name entry closes (its records being written).
PRESS_WAIT = 3.0


class NewGame:
    """Starts the games a GameView sees, through the actuator of the moment (`actuator`: made
    anew wherever the game is found), until `still_wanted` says stop."""

    def __init__(self, view: GameView, actuator: Callable[[], Actuator | None], still_wanted: Callable[[], bool]):
        self.view = view
        self.actuator = actuator
        self.still_wanted = still_wanted

    def _mouse(self) -> Actuator:
        actuator = self.actuator()
        assert actuator is not None  # (a dry run starts no game)
        return actuator

    def restart(self) -> None:
        """A new game; a window that moves at that moment (the mouse refuses the press) is found
        again and pressed again, as a dropped batch is, up to STALE_BATCHES times in a row."""
        if self.view.windows.answer_open_dialog():  # its "play again" starts the new game
            return
        for _ in range(STALE_BATCHES):
            self.still_wanted()
            try:
                self._mouse().restart()
                return
            except TargetMoved as err:
                moved = err
                self.view.forget_place()
                image, _, _ = self.look_past_dialog()  # (its end dialog may show meanwhile: answered)
        raise Stop(f"stopped safely: {moved}, {STALE_BATCHES} times in a row; "
                   f"last screenshot: {self.view.save_stop(image)}")

    def look_past_dialog(self) -> tuple[np.ndarray, Reading, Board]:
        """A read of the game; where the last game's end dialog is still open, it is answered (a new
        game follows: its "play again") and the read waits until it has gone, DIALOG_GONE seconds
        at most, pressing again each second."""
        deadline, pressed = time.monotonic() + DIALOG_GONE, 0.0
        while True:
            try:
                return self.view.look(None)
            except GameEnded as end:
                if time.monotonic() > deadline:
                    raise Stop(f"stopped safely: {end}, and it stayed open when answered") from end
                if time.monotonic() - pressed >= 1.0:
                    if not self.view.windows.answer(end):
                        raise Stop(f"stopped safely: {end}, and it could not be answered") from end
                    pressed = time.monotonic()
                time.sleep(0.1)

    def start(self, old: Board) -> tuple[np.ndarray, Reading, Board]:
        """Start a new game and wait until it is drawn: all covered, or (a game that opens a start
        area itself, xdemineur) one that play from `old` could not lead to. A press the game did not
        take (its window moved under it at that moment; seen once in CI's moved-window test) is
        pressed again, PRESSES times in all, before the loop stops. A press made while the game's
        own windows came up after a win (Arbiter's name entry, then its Local High Scores: the
        game takes no click meanwhile) is not counted, once they were answered (4 x PRESSES at most)."""
        pressed = counted = 0
        if self.view.unread is not None or self._mouse().dialog_open():  # the game's own window?
            self.answer_game_windows()
            until = time.monotonic() + DIALOG_GONE  # (closing after its answer: the Java clone's take
            while self._mouse().dialog_open() and time.monotonic() < until:  # a moment, and a click
                time.sleep(SETTLE)  # made meanwhile is lost)
        while counted < PRESSES and pressed < 4 * PRESSES:
            answered = self.view.windows.dialogs_answered
            self.restart()
            pressed += 1
            until, looks = time.monotonic() + PRESS_WAIT, 0
            while looks < RETRIES or time.monotonic() < until:
                looks += 1
                time.sleep(SETTLE)
                image, reading, board = self.view.look(None)
                if reading.face == "playing" and ((board.cells == UNOPENED).all() or not follows(old, board)):
                    return image, reading, board
            self.answer_game_windows()  # a window that keeps the game from taking clicks, seen or not
            counted += self.view.windows.dialogs_answered == answered
        saved = self.view.save_stop(image)
        raise Stop(f"stopped safely: the game did not restart; last screenshot: {saved}")

    def answer_game_windows(self) -> None:
        """The game's own windows over it answered, then closed (bot.screen.xmouse: Return
        CLOSE_AFTER times, then a close request), one press each DIALOG_AGAIN seconds."""
        for _ in range(2 * CLOSE_AFTER):
            if not self.view.windows.answer_game_window():
                break
            time.sleep(DIALOG_AGAIN)
