"""One error hierarchy, so the CLI can map every failure the user can cause to a clear message."""

from __future__ import annotations


class BotError(Exception):
    """Base of every error the bot raises on purpose; never shown with a traceback."""


class GridError(BotError, ValueError):
    """A text grid that cannot be a Minesweeper board (ragged, unknown character, impossible number)."""


class InconsistentBoardError(BotError):
    """A well-formed board that no mine layout satisfies: a misread or a wrong flag."""


class CaptureError(BotError):
    """The screen could not be grabbed, or never settled."""


class VisionError(BotError):
    """No board in the image, or a board that cannot be read with confidence."""


class LearnError(BotError):
    """Learning a look cannot go on: no board, a board that changed under us, an impossible naming.
    `fresh`: the picture of the fresh field the learner had found, where it got that far (another
    learner finds the field there, whatever game the first one left on the screen)."""

    def __init__(self, message: str, fresh: object = None) -> None:
        super().__init__(message)
        self.fresh = fresh


class DescribedError(BotError):
    """Screenshots that do not teach a described look (bot.learn.described)."""
