"""Image files in and out by bytes, so that any path works.

OpenCV's imread and imwrite take a narrow-character path: on Windows one with characters outside
the system's code page (a user folder named "Zoë", a screenshot named "écran.png") is not found,
or not written, without an error. Reading and writing the bytes ourselves and letting OpenCV only
decode and encode works with every path Python can open.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from bot.errors import BotError, VisionError

#: Screenshots larger than this many pixels are refused before they are decoded (three 4K screens
#: side by side are 25 million): a huge image would take minutes and gigabytes to search.
MAX_PIXELS = 64_000_000


def read_image(path: str | Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """The image, or None when the file is missing or not an image (as cv2.imread)."""
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError:
        return None
    return cv2.imdecode(data, flags) if data.size else None


def write_image(path: str | Path, image: np.ndarray) -> bool:
    """Write in the format the suffix names; False when it cannot be encoded or written (as
    cv2.imwrite)."""
    suffix = Path(path).suffix
    if not suffix:
        return False
    ok, data = cv2.imencode(suffix, image)
    if not ok:
        return False
    try:
        Path(path).write_bytes(data.tobytes())
    except OSError:
        return False
    return True


def gif_frames(path: str | Path) -> list[np.ndarray]:
    """Every frame of an animated GIF, BGR (PIL decodes the palette and the frames' disposal); raises
    OSError or ValueError where the file is no GIF it can read."""
    from PIL import Image, ImageSequence

    with Image.open(path) as gif:
        return [cv2.cvtColor(np.array(f.convert("RGB")), cv2.COLOR_RGB2BGR) for f in ImageSequence.Iterator(gif)]


def load_screenshot(path: str) -> tuple[np.ndarray, str | None]:
    """The screenshot at path as BGR, with its format as Pillow names it ("PNG", "JPEG"; None where
    Pillow cannot tell), or a one-line error: no library's own warnings on the terminal."""
    from PIL import Image

    try:
        with Image.open(path) as header:  # reads the size only
            width, height = header.size
            fmt = header.format
    except FileNotFoundError as err:
        raise BotError(f"cannot read image {path!r}: {err.strerror}") from err
    except (OSError, ValueError, Image.DecompressionBombError):
        width = height = 0  # not an image PIL knows, or a broken header: let OpenCV decide below
        fmt = None
    if width * height > MAX_PIXELS:
        raise BotError(f"{path!r} is {width}x{height} pixels; screenshots up to {MAX_PIXELS // 1_000_000} million "
                       "pixels are read: crop it to the game's window")
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as err:
        raise BotError(f"cannot read image {path!r}: {err.strerror}") from err
    with quiet_stderr():  # libpng writes its own complaints about a corrupt file to the terminal
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise VisionError(f"{path!r} is not a readable image (corrupt, truncated or not an image)")
    return image, fmt


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """File descriptor 2 sent to /dev/null for the duration: C libraries print there directly."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            sys.stderr.flush()
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
