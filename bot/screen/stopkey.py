"""A key that stops the bot while the game has the focus.

Users of screen bots ask for this first: the mouse is busy and the terminal is behind the game,
so Ctrl-C and the fail-safe corner are hard to reach. The key is taken from the whole desktop
for the run (an X11 passive grab on the root window; a registered hotkey on Windows) and watched
by a thread; the play loop asks `pressed` before every click. Where the key cannot be had
(another program holds it, no display), `start` says why and the run goes on without it.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

#: The key a user presses to stop, by its X keysym name (Escape, Pause, F12, ...).
DEFAULT = "Escape"
#: Windows virtual-key codes of the keys offered there.
_VK = {"Escape": 0x1B, "Pause": 0x13, "F12": 0x7B, "F11": 0x7A, "F10": 0x79}


class StopKey:
    def __init__(self, key: str = DEFAULT) -> None:
        self.key = key
        self._pressed = threading.Event()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.problem: str | None = None

    @property
    def pressed(self) -> bool:
        return self._pressed.is_set()

    def start(self) -> str | None:
        """Take the key; None when it is taken, else why it could not be."""
        watch = self._watch_windows if sys.platform == "win32" else self._watch_x11
        self._thread = threading.Thread(target=watch, name="stop-key", daemon=True)
        self._thread.start()
        self._ready.wait(5.0)
        return self.problem if self._ready.is_set() else f"the stop key {self.key} could not be taken in time"

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join(2.0)

    def __enter__(self) -> StopKey:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- X11 ---------------------------------------------------------------------
    def _watch_x11(self) -> None:
        try:
            from Xlib import XK, X, error

            from bot.screen.xdisplay import connect
        except ImportError:
            self._fail("python-xlib is not installed")
            return
        try:
            d = connect()
        except Exception as err:  # no display, or no authority to it
            self._fail(f"no X display ({err})")
            return
        try:
            root = d.screen().root
            keycode = d.keysym_to_keycode(XK.string_to_keysym(self.key))
            if not keycode:
                self._fail(f"no key named {self.key!r} on this keyboard")
                return
            caught = error.CatchError(error.BadAccess)
            for mods in (0, X.Mod2Mask, X.LockMask, X.Mod2Mask | X.LockMask):  # with NumLock / CapsLock on too
                root.grab_key(keycode, mods, True, X.GrabModeAsync, X.GrabModeAsync, onerror=caught)
            d.sync()
            if caught.get_error():
                self._fail(f"another program holds the {self.key} key")
                return
            self._ready.set()
            while not self._closed.wait(0.02):
                while d.pending_events():
                    event = d.next_event()
                    if event.type == X.KeyPress and event.detail == keycode:
                        self._pressed.set()
            root.ungrab_key(keycode, X.AnyModifier)
            d.sync()
        finally:
            d.close()

    # -- Windows -------------------------------------------------------------------
    def _watch_windows(self, windll: Any = None) -> None:
        import ctypes
        from ctypes import wintypes

        windll = windll or ctypes.windll  # type: ignore[attr-defined]
        vk = _VK.get(self.key)
        if vk is None:
            self._fail(f"the stop key must be one of {', '.join(_VK)} on Windows")
            return
        hotkey_id, wm_hotkey, pm_remove = 1, 0x0312, 0x0001
        if not windll.user32.RegisterHotKey(None, hotkey_id, 0x4000, vk):  # MOD_NOREPEAT
            self._fail(f"another program holds the {self.key} key")
            return
        self._ready.set()
        msg = wintypes.MSG()
        try:
            while not self._closed.wait(0.02):  # the hotkey's message comes to this thread's queue
                while windll.user32.PeekMessageW(ctypes.byref(msg), None, 0, 0, pm_remove):
                    if msg.message == wm_hotkey:
                        self._pressed.set()
        finally:
            windll.user32.UnregisterHotKey(None, hotkey_id)

    def _fail(self, why: str) -> None:
        self.problem = f"no stop key: {why}; stop with Ctrl-C or the mouse in a screen corner"
        self._ready.set()
