"""Where the bot keeps what it writes: learnt skins and the saved calibration.

Run from a checkout, that is the repository itself (templates/ beside the shipped skins, and
calibration/ in the working directory), as the README's commands show. Installed as a package,
it is the user's data folder (the platform's convention, by platformdirs): a pip-installed
package is never written into, and the bot run from any directory finds what it learnt.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
#: The shipped skins: the copy an installed package carries, else the checkout's templates/.
INSTALLED = (_HERE / "_templates").is_dir()
SHIPPED = _HERE / "_templates" if INSTALLED else _HERE.parent / "templates"


def user_data() -> Path:
    from platformdirs import user_data_path

    return user_data_path("minesweeper-bot")


def learnt_root() -> Path:
    """Where a learnt skin is written (and read back from)."""
    return user_data() / "templates" if INSTALLED else SHIPPED


def writable_skin(folder: Path | None) -> bool:
    """Whether what play learns of a skin (a number's sprite, a digit's colour) may be written into
    its folder: any skin's in a checkout, never an installed package's shipped ones."""
    if folder is None or not folder.is_dir():
        return False
    return not (INSTALLED and folder.resolve().is_relative_to(SHIPPED.resolve()))


def default_profile() -> Path:
    """Where the calibration profile is kept unless --profile names another place."""
    return user_data() / "profile.json" if INSTALLED else Path("calibration/profile.json")


def cache_dir() -> Path:
    """What can be made again: the demo's own Wine prefix."""
    from platformdirs import user_cache_path

    return user_cache_path("minesweeper-bot")
