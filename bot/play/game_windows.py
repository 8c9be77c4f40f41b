"""The game's own windows beside its board, as the play loop meets them: its dialogs (a win's
best-time entry, Windows 7's "Game Won", KMines' "Reset?"), answered as a player would, and
whether its main window is gone. What the mouse sees of them (bot.screen.actuator) and what the
system's window list says (bot.screen.platform)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.errors import BotError
from bot.play.options import Options
from bot.screen import platform
from bot.screen.actuator import Actuator
from bot.vision.skin import Skin

DIALOG_AGAIN = 0.5  # seconds between presses: one that came before the dialog took the focus, or the next dialog


class GameEnded(BotError):
    """The game's own end-of-game dialog is open (Windows 7's "Game Lost" over the board): the game
    is over with this result, and the dialog is to be answered before the next one."""

    def __init__(self, result: str, title: str, key: str = "return") -> None:
        super().__init__(f"the game's {title!r} dialog is open: the game is {result}")
        self.result, self.title, self.key = result, title, key


class GameWindows:
    """The game's dialogs and windows: `mouse`, the actuator clicking the game now (None in a dry
    run, or before the game is found); `skins`, the skins whose end dialogs may be open (the
    game's once found, else every one: a finished game left on the screen)."""

    def __init__(self, options: Options, mouse: Callable[[], Actuator | None],
                 skins: Callable[[], list[Skin]], say: Callable[[str], None] = lambda _: None) -> None:
        self.options, self.mouse, self.skins, self.say = options, mouse, skins, say
        #: The bot has clicked in the game being played: a dialog of the game's own over the board
        #: now came of those clicks (a win's best-time entry), and is answered (answer_after_clicks).
        self.after_clicks = False
        self._answered = 0.0  # when the last dialog was answered (one press each DIALOG_AGAIN at most)
        self.dialogs_answered = 0  # presses in the game's dialogs so far (a new game waits past them)

    def game_gone(self) -> bool:
        """The game's window closed (where the mouse can tell): no wait for it."""
        mouse = self.mouse()
        return mouse is not None and mouse.game_gone()

    def answer_dialog(self, key: str = "Return") -> bool:
        """`key` in the game's own dialog over it: whether one was there."""
        mouse = self.mouse()
        return mouse is not None and mouse.answer_dialog(key)

    def dialog_open(self) -> bool:
        """A window of the game's is open, wherever it is."""
        mouse = self.mouse()
        return mouse is not None and mouse.dialog_open()

    def own_window(self) -> str | None:
        """The title of a window of the game's open now, as the mouse sees it (a learnt skin names its
        end windows so: KMines' "Reset?", which the system's own title search, seeing "Reset? —
        KMines", misses)."""
        mouse = self.mouse()
        return mouse.open_dialog_title() if mouse is not None else None

    def stir_pointer(self) -> None:
        """The pointer moved off its resting point and back."""
        mouse = self.mouse()
        if mouse is not None:
            mouse.stir()

    def answer_after_clicks(self) -> bool:
        """A game hidden by its own dialog right after the bot's clicks (the game's process, or
        transient for its window) has it answered with Return, as a player would: in the games
        played that is a win's best-time name entry (the name proposed kept), then the best times
        (WineMine, winmine), and the board shows again, the win counted. Dialogs known by title
        (Windows 7's "Game Won") are end_dialog's. Never in a dry run, nor with answer_dialogs
        off (the user answers; patience waits for it). Whether one was there (answered now, or a
        moment ago: a Return that came before the dialog took the focus is pressed again)."""
        if not self.after_clicks:
            return False
        if time.monotonic() - self._answered < DIALOG_AGAIN:
            return True
        return self.answer_game_window()

    def answer_game_window(self) -> bool:
        """Answer a window of the game's on its window (Return; closed once Return has not taken it
        away), unless this is a dry run or the dialogs are the user's: whether there was one."""
        if self.options.dry_run or not self.options.answer_dialogs or not self.answer_dialog():
            return False
        self._answered = time.monotonic()
        self.dialogs_answered += 1
        self.say("the game's own dialog over the board after our clicks (a best time?): answered with Return")
        return True

    def end_dialog(self) -> GameEnded | None:
        """The game's end-of-game dialog where one is open (its skin names them), else None. Asked
        before every read: the dialog may be over the board, and what shows of the board beside
        it must not be read as a smaller board."""
        known = {title: (result, skin.dialog_key)
                 for skin in self.skins() for title, result in skin.end_dialogs.items()}
        if not known:
            return None
        title = platform.current().open_title(list(known))
        if title is None and (own := self.own_window()) in known:
            title = own
        return None if title is None else GameEnded(known[title][0], title, known[title][1])

    def answer(self, end: GameEnded) -> bool:
        """Answer the game's end-of-game dialog with its key (Windows 7: Return, "Play again"), as a
        user would: whether it was answered. Never in a dry run, where nothing is pressed."""
        if self.options.dry_run:
            return False
        return platform.current().answer_dialog(end.title, end.key) or (
            self.own_window() == end.title and self.answer_dialog(end.key))

    def answer_open_dialog(self) -> bool:
        """Answer the game's end-of-game dialog if one is open: whether one was (a new game then)."""
        end = self.end_dialog()
        return end is not None and self.answer(end)
