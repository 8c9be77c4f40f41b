"""What the play loop is asked to do: how many games, clicks or only advice, where to look."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.vision.skin import Skin


@dataclass
class Options:
    games: int = 1
    flags: bool = False
    dry_run: bool = False
    rule: str = "safe"
    profile: Path | None = Path("calibration/profile.json")
    record: Path | None = None
    annotated: Path = Path("dry-run.png")
    stop_dir: Path = Path(".")
    max_frames: int | None = None  # dry run: stop after this many frames (tests)
    overlay: bool = True  # dry run: draw over the game (else, or where it cannot, only the PNG)
    fresh_layouts: bool = False  # WineMine seeds from the clock's second: start each game in a new one
    stopped: Callable[[], bool] | None = None  # the user's stop key: asked before every click
    patience: float = 0.0  # seconds a game seen before, then hidden (a dialog over it), is waited for
    #: Answer the game's own dialog over the board right after a win (a best-time name entry: the
    #: name it proposes, Return; the best times that follow), as a player would; False: leave it
    #: to the user, and wait for it (patience).
    answer_dialogs: bool = True
    #: Seconds the game's own windows may keep the board hidden while they are answered (Return,
    #: then asked to close): past it, a window that stays is the user's, and the patience runs out
    #: to a safe stop.
    dialog_longest: float = 20.0
    skins: list[Skin] = field(default_factory=list)
    #: The game's window (left, top, width, height, desktop pixels) where the window system knows
    #: it: the board is looked for there first.
    window: tuple[int, int, int, int] | None = None
    #: Mines in the game, for a game whose counter the skin cannot read (or that has none); else
    #: what the skin learnt for the board's size, if anything.
    mines: int | None = None
    #: The level asked for (--level): rows and columns every game must show, or the run stops.
    shape: tuple[int, int] | None = None
