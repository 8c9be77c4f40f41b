"""What the commands share: exit codes, where skins are read and written, images read."""

from __future__ import annotations

import argparse
from enum import IntEnum
from pathlib import Path


class Exit(IntEnum):
    OK = 0
    FAILED = 1  # the job ran but did not succeed (e.g. a game loop stopped safely)
    BAD_INPUT = 2  # the user's input cannot be used
    INTERRUPTED = 130


def templates_root(args: argparse.Namespace) -> Path | None:
    """--templates: the one folder skins are read from and learnt ones written to; None: the shipped
    skins and the user's learnt ones (bot.places)."""
    return Path(args.templates) if getattr(args, "templates", None) else None


def learnt_root_of(args: argparse.Namespace) -> Path:
    """Where a look learnt now is written: --templates, else the user's learnt skins."""
    from bot.places import learnt_root

    return templates_root(args) or learnt_root()


def load_image(path: str):
    """The screenshot at path as BGR, and whether its format is lossy (bot.vision.lossy)."""
    from bot.imagefile import load_screenshot
    from bot.vision.lossy import LOSSY_FORMATS

    image, fmt = load_screenshot(path)
    return image, fmt in LOSSY_FORMATS


def field_dict(field) -> dict:
    def num(v: float) -> float | int:
        return int(v) if float(v).is_integer() else round(float(v), 2)

    return {
        "left": num(field.left),
        "top": num(field.top),
        "cell_w": num(field.pitch),
        "cell_h": num(field.pitch),
        "rows": field.rows,
        "cols": field.cols,
    }
