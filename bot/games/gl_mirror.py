"""Copy a Wine game's offscreen Direct3D picture onto its window, as a compositor would.

Wine 8 renders OpenGL (and so wined3d's Direct3D 9) for a *child* window into an offscreen X
window (a child of a 1 x 1 window at -1, -1, redirected by Composite) and then copies it into the
top-level window with an X11DRV escape. On Xvfb with Mesa's llvmpipe that last copy never shows:
the genuine Windows 7 Minesweeper draws its whole field into the offscreen window (read back with
GetImage: every tile, the counter, the timer) while its window on the screen stays as plain as
Wine's GDI painted it. This thread makes that copy, about 30 times a second, so the screen shows
what Windows would: the game's own pixels, unchanged. Clicks need nothing: X delivers them to
the top-level window, and Wine passes them to the child under the pointer.

For the harness only (bot.games.native_game: the `mirror` of a program). The bot never uses it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from Xlib import error

from bot.screen.xdisplay import connect

#: Seconds between copies: a frame of a 30 Hz screen.
INTERVAL = 1 / 30
#: The offscreen window is the child's size, give or take this (Wine made it 1 px larger).
SLACK = 2


def offscreen_windows(conn: Any) -> list[Any]:
    """Wine's offscreen GL windows on the display: children of a 1 x 1 window placed at -1, -1."""
    found = []
    for top in conn.screen().root.query_tree().children:
        try:
            g = top.get_geometry()
            if (g.width, g.height, g.x, g.y) != (1, 1, -1, -1):
                continue
            found.extend(top.query_tree().children)
        except error.XError:  # (a window gone between the two requests)
            continue
    return found


class GlMirror:
    """`with GlMirror(lambda: window_id_or_None):` copies, while the block runs, the offscreen GL
    window whose size is the game window's onto it (from its top-left corner: Windows 7's field
    is a child filling the client area)."""

    def __init__(self, target: Callable[[], int | None], interval: float = INTERVAL) -> None:
        self.target, self.interval = target, interval
        self.copies = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gl-mirror", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def __enter__(self) -> GlMirror:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        conn = connect()
        try:
            while not self._stop.wait(self.interval):
                try:
                    self._copy(conn)
                except error.XError:  # (windows come and go: a level change, the game closing)
                    continue
        finally:
            conn.close()

    def _copy(self, conn: Any) -> None:
        wid = self.target()
        if wid is None:
            return
        window = conn.create_resource_object("window", wid)
        size = window.get_geometry()
        for source in offscreen_windows(conn):
            g = source.get_geometry()
            if 0 <= g.width - size.width <= SLACK and 0 <= g.height - size.height <= SLACK:
                gc = window.create_gc()
                window.copy_area(gc, source, 0, 0, size.width, size.height, 0, 0)
                gc.free()
                conn.flush()
                self.copies += 1
                return
