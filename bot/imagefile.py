"""Image files in and out by bytes, so that any path works.

OpenCV's imread and imwrite take a narrow-character path: on Windows one with characters outside
the system's code page (a user folder named "Zoë", a screenshot named "écran.png") is not found,
or not written, without an error. Reading and writing the bytes ourselves and letting OpenCV only
decode and encode works with every path Python can open.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


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
