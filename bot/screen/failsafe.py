"""Where the mouse's fail-safe is: the corners of every monitor. Shared by the actuator (pyautogui's
fail-safe points) and the X11 mouse (its own check before each press)."""

from __future__ import annotations


def failsafe_points(monitors: list[tuple[int, int, int, int]]) -> list[tuple[int, int]]:
    """The four corners of every monitor (left, top, width, height, in desktop pixels): the
    fail-safe works wherever the user throws the mouse, not only on the main screen (pyautogui's own
    points are the main screen's corners)."""
    return sorted({(x, y) for left, top, width, height in monitors
                   for x in (left, left + width - 1) for y in (top, top + height - 1)})


def monitor_boxes() -> list[tuple[int, int, int, int]]:
    """Every monitor's rectangle, as mss sees them (none if it cannot say)."""
    try:
        import mss

        with mss.MSS() as grabber:
            return [(m["left"], m["top"], m["width"], m["height"]) for m in grabber.monitors[1:]]
    except Exception:
        return []
