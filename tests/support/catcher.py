"""An X window that notes every click reaching it: under everything (a canary: a click that misses
the game lands there) or over part of the game (a window covering it: a click there went through
a cover the bot should have seen). Override-redirect, so no window manager places it.

python-xlib's display is not thread-safe unless `Xlib.threaded` is imported before any display is
opened: the watching thread reading events while a test syncs the same connection could take the
sync's reply, and the test then waits for it forever (seen once: a quick suite hung in `sync`).
Every use of the connection here holds one lock instead; a test changes the window through
`shape_input`, never through `d` itself."""

from __future__ import annotations

import threading


class Catcher:
    def __init__(self, box: tuple[int, int, int, int] | None = None, below: bool = False) -> None:
        from Xlib import X
        from Xlib import display as xdisplay

        self.d = xdisplay.Display()
        screen = self.d.screen()
        x, y, w, h = box or (0, 0, screen.width_in_pixels, screen.height_in_pixels)
        self.win = screen.root.create_window(x, y, w, h, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                                             background_pixel=screen.black_pixel if below else screen.white_pixel,
                                             event_mask=X.ButtonPressMask, override_redirect=True)
        self.win.map()
        self.win.configure(stack_mode=X.Below if below else X.Above)
        self.d.sync()
        self._lock = threading.Lock()
        self.clicks: list[tuple[int, int]] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        from Xlib import X

        while not self.done.wait(0.01):
            with self._lock:
                while self.d.pending_events():
                    event = self.d.next_event()
                    if event.type == X.ButtonPress:
                        self.clicks.append((event.root_x, event.root_y))

    def shape_input(self, rectangles: list[tuple[int, int, int, int]]) -> None:
        """Only these parts of the window take clicks (the X Shape extension's input region, kind 2
        of version 1.1: python-xlib names only the bounding and clip ones); elsewhere a press goes
        to the window under it."""
        from Xlib.ext import shape

        with self._lock:
            self.win.shape_rectangles(shape.ShapeSet, 2, 0, 0, 0, rectangles)
            self.d.sync()

    def close(self) -> None:
        self.done.set()
        self.thread.join(2)
        with self._lock:
            self.win.destroy()
            self.d.sync()
            self.d.close()

    def __enter__(self) -> Catcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
