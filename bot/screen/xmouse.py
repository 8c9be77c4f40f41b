"""Clicks on X11 that cannot land outside the game, even when its window moves at that moment.

A check before a click leaves a gap: the window can move between the check and the click, and
the click lands where the window was. Here both happen inside one X server grab: while we hold
it, the server serves no other program, so no window can move, appear or close between the
check (the game's top-level window is still the one under the point, where it was) and the
XTest click. The gap is gone, not just short. pyautogui's interface (click, mouseDown, mouseUp)
and its fail-safe corner are kept, so the Actuator uses this like pyautogui.

One window still closes inside the grab: a game whose process died. The server drops a client
whose connection hung up whenever it waits for requests, a grab or not (the server answering the
pointer check and reading the press is such a wait), and its windows go with it. So a net lies
under the game's window while the grab lasts: an input-only window of ours over the game's place,
which takes a press the closing window let through and passes it to nothing (measured: a client
killed between the check and the press, its window's press went to the window beneath, 2 of 2).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

from bot.errors import BotError
from bot.screen.platform import CLOSE_AFTER

BUTTONS = {"left": 1, "middle": 2, "right": 3}


class WindowMoved(BotError):
    """The game's window is no longer under the point, where it was: nothing was clicked."""


class FailSafe(BotError):
    """The user threw the mouse into a screen corner."""


class X11Mouse:
    def __init__(self, inside: tuple[int, int]) -> None:
        """`inside`: a point of the game (the field's centre) as it is now, in screen pixels."""
        from Xlib import X
        from Xlib.error import CatchError
        from Xlib.ext import xtest

        from bot.screen.xdisplay import connect

        self.display = connect()
        if not self.display.has_extension("XTEST"):
            self.display.close()
            raise BotError("the X server has no XTEST extension")
        self.X, self.xtest = X, xtest
        self.root = self.display.screen().root
        self.size = (self.display.screen().width_in_pixels, self.display.screen().height_in_pixels)
        from bot.screen.failsafe import failsafe_points, monitor_boxes  # the root's corners, and every monitor's

        self.corners = set(failsafe_points([(0, 0, *self.size), *monitor_boxes()]))
        # No window there (it moved off the point since the screen was grabbed): every press is
        # refused (WindowMoved) and the game looked for again, never pyautogui's unchecked clicks.
        self.window = self._top_at(*inside)
        if self.window is not None and self._desktop(self.window):
            self.window = None  # (the game closed or moved off the point meanwhile: a desktop is no game)
        self._answered: dict[int, int] = {}  # dialog window: how many times a key was pressed in it
        self.answered_title: str | None = None  # the title of the last dialog a key was pressed in
        # The game's windows on view now (Arbiter's Counters beside it): a dialog is one over the
        # game, or one that came later anywhere on the screen (Java's JOptionPane with no parent
        # opens centred on the screen, clear of the game, and takes its clicks).
        self._beside = {top for top, _, _ in self._own_windows()}
        # Never mapped outside a grab; input-only, so nothing is drawn and no window below is exposed.
        self.net = self.root.create_window(0, 0, 1, 1, 0, 0, X.InputOnly, X.CopyFromParent, override_redirect=True,
                                           do_not_propagate_mask=X.ButtonPressMask | X.ButtonReleaseMask
                                           | X.KeyPressMask | X.KeyReleaseMask)
        self._caught = CatchError()  # (the net's requests where the game's window is gone meanwhile)

    def _top_at(self, x: int, y: int) -> tuple[int, int, int, int, int] | None:
        """The topmost mapped top-level window holding the point: (id, left, top, width, height)."""
        for child in reversed(self.root.query_tree().children):  # top of the stack first
            try:
                if child.get_attributes().map_state != self.X.IsViewable:
                    continue
                g = child.get_geometry()
            except Exception:  # gone meanwhile (before our grab)
                continue
            if g.x <= x < g.x + g.width and g.y <= y < g.y + g.height:
                return child.id, g.x, g.y, g.width, g.height
        return None

    def _desktop(self, window: tuple[int, int, int, int, int]) -> bool:
        """A desktop's window: typed so, or covering the whole screen under every other window (a
        file manager's desktop; the live tests' canary). A mouse made where only that is holds no game."""
        wid, x, y, width, height = window
        kind = self._property(wid, "_NET_WM_WINDOW_TYPE")
        if kind is not None and self.display.intern_atom("_NET_WM_WINDOW_TYPE_DESKTOP") in kind.value:
            return True
        if (x, y, width, height) != (0, 0, *self.size):
            return False
        for child in self.root.query_tree().children:  # bottom of the stack first
            try:
                if child.get_attributes().map_state == self.X.IsViewable:
                    return child.id == wid
            except Exception:  # gone meanwhile
                continue
        return False

    def _fail_safe(self) -> None:
        pointer = self.root.query_pointer()
        if (pointer.root_x, pointer.root_y) in self.corners:
            raise FailSafe("stopped: the mouse was thrown into a screen corner (fail-safe)")

    def _atomic(self, x: int, y: int, events: list[tuple[int, int]], focus: bool = False) -> None:
        with _ctrl_c_after():  # (the pointer query too: a reply cut half-way leaves the connection unusable)
            self._fail_safe()
            self._grabbed(x, y, events, focus)

    def _grabbed(self, x: int, y: int, events: list[tuple[int, int]], focus: bool = False) -> None:
        self.display.grab_server()
        try:
            if self.window is None or self._top_at(x, y) != self.window:
                raise WindowMoved("the game's window moved, closed or was covered: the click was not made")
            wid, left, top, width, height = self.window
            self.net.configure(x=left, y=top, width=width, height=height, sibling=wid, stack_mode=self.X.Below,
                               onerror=self._caught)
            self.net.map(onerror=self._caught)  # (where the game's window was gone: over it all, refused below)
            # The server's own answer too: the top-level window its pointer is in, input shapes
            # counted. A window whose input region has a hole at the point (a click-through part)
            # is the game's by its geometry, yet the press would reach the window under it.
            if not self._pointer_on_game(x, y):
                raise WindowMoved("the game's window does not take clicks at that point: the click was not made")
            if focus:  # (keys go to the focused window: the game's, as a click on it would make it)
                self.display.set_input_focus(self.window[0], self.X.RevertToParent, self.X.CurrentTime)
            for kind, detail in events:
                self.xtest.fake_input(self.display, kind, detail)
            self.display.sync()
        finally:
            self.net.unmap(onerror=self._caught)
            self.display.ungrab_server()
            self.display.flush()

    def _pointer_on_game(self, x: int, y: int) -> bool:
        """The pointer moved to the point, and the server's top-level window there the game's."""
        self.xtest.fake_input(self.display, self.X.MotionNotify, x=x, y=y)
        return getattr(self.root.query_pointer().child, "id", 0) == self.window[0]

    def click(self, x: int, y: int, button: str = "left") -> None:
        b = BUTTONS[button]
        self._atomic(x, y, [(self.X.ButtonPress, b), (self.X.ButtonRelease, b)])

    def mouseDown(self, x: int, y: int, button: str = "left") -> None:  # pyautogui's names
        self._atomic(x, y, [(self.X.ButtonPress, BUTTONS[button])])

    def mouseUp(self, x: int, y: int, button: str = "left") -> None:
        self._atomic(x, y, [(self.X.ButtonRelease, BUTTONS[button])])

    def moveTo(self, x: int, y: int) -> None:  # (pyautogui's name)
        """The pointer to a point, nothing pressed: off a game's cells, which some light up under it."""
        with _ctrl_c_after():
            self._fail_safe()
            self.xtest.fake_input(self.display, self.X.MotionNotify, x=x, y=y)
            self.display.sync()

    def key(self, x: int, y: int, combo: str) -> None:
        """Keys pressed together ("ctrl+r") for the game's window, the pointer at a point of it: in
        the same grab, the window is checked under the point and given the input focus (as a click
        there would), so the keys can reach no other program."""
        self._atomic(x, y, self._presses(combo), focus=True)

    def answer_dialog(self, combo: str = "Return") -> bool:
        """Press `combo` in the game's own dialog, as a player would: a window of the game's
        process (_NET_WM_PID) or one transient for the game, shown over it (WineMine's and
        winmine's best-time name entry, then their best times). In one server grab, the dialog
        is found and given the focus and the key sent, so the key reaches no other program.
        A window the key has not closed after CLOSE_AFTER presses (Minesweeper Arbiter's Local
        High Scores, over the board after a record) is closed as its title bar's close button
        would (WM_DELETE_WINDOW, where it takes it). Whether a dialog was there to answer."""
        if self.window is None:
            return False
        with _ctrl_c_after():
            self.display.grab_server()
            try:
                dialog = self._dialog()
                if dialog is None:
                    self._answered.clear()  # (a game reuses its dialog windows: the next time is a new one)
                    return False
                self.answered_title = self._title(dialog)
                self._answered[dialog] = self._answered.get(dialog, 0) + 1
                if self._answered[dialog] > CLOSE_AFTER and self._ask_to_close(dialog):
                    self.display.sync()
                    return True
                presses = self._presses(combo)
                if not self._holds_focus(dialog):  # (Java's dialogs keep it on a child of their own:
                    # set on the dialog itself, their keys go nowhere)
                    self.display.set_input_focus(dialog, self.X.RevertToParent, self.X.CurrentTime)
                for kind, code in presses:
                    self.xtest.fake_input(self.display, kind, code)
                self.display.sync()
                return True
            except Exception:  # (a dialog closed between the listing and the focus: BadMatch)
                return False
            finally:
                self.display.ungrab_server()
                self.display.flush()

    def _holds_focus(self, wid: int) -> bool:
        """Whether X's input focus is on the window or one inside it."""
        focus = self.display.get_input_focus().focus
        for _ in range(8):  # (a few levels: the focus proxy of a toolkit lies just under its window)
            if not hasattr(focus, "id") or focus.id in (0, self.root.id):
                return False
            if focus.id == wid:
                return True
            focus = focus.query_tree().parent
        return False

    def _ask_to_close(self, wid: int) -> bool:
        return ask_to_close(self.display, wid)

    def _dialog(self) -> int | None:
        """The client window of the game's topmost dialog (above or under it), or None: a window of
        the game's over it, or one it opened anywhere since the mouse was made. A window of the
        game's beside it from the start (Arbiter's Counters) is left alone."""
        return next((client for top, client, over in self._own_windows() if over or top not in self._beside), None)

    def known_since(self, earlier: X11Mouse) -> None:
        """The game's windows beside it are only those beside it for `earlier`, the run's mouse
        before this one on the same game window: a window of the game's opened since (the Java
        clone's "Congratulation!", centred on the screen and open when the game was found again
        after its board repainted) is a dialog, not one beside it."""
        if earlier.window is not None and self.window is not None and earlier.window[0] == self.window[0]:
            self._beside &= earlier._beside

    def dialog_open(self) -> bool:
        """Whether the game has a dialog of its own open (its end of game, where the board shows
        none: a modal window that takes the game's clicks meanwhile)."""
        return self._dialog() is not None

    def dialog_title(self) -> str | None:
        """The title of the game's dialog open now, else of the last one answered, else None."""
        dialog = self._dialog()
        return self._title(dialog) if dialog is not None else self.answered_title

    def _title(self, wid: int) -> str | None:
        try:
            name = self.display.create_resource_object("window", wid).get_wm_name()
        except Exception:  # (gone meanwhile)
            return None
        return name if isinstance(name, str) else None

    def _own_windows(self) -> list[tuple[int, int, bool]]:
        """The game's other windows on view, topmost first: those of its process or transient for
        it, as (top-level window, its client window, whether it lies over the game's)."""
        found: list[tuple[int, int, bool]] = []
        game = self._client(self.window[0]) if self.window is not None else None
        if game is None:
            return found
        pid = self._pid(game)
        _, left, top, width, height = self.window
        for child in reversed(self.root.query_tree().children):  # top of the stack first
            if child.id == self.window[0]:
                continue  # (one under it too: Arbiter's Local High Scores, once a click raised the game
                # over it, still keeps the game from taking clicks)
            try:
                if child.get_attributes().map_state != self.X.IsViewable:
                    continue
                g = child.get_geometry()
            except Exception:
                continue
            client = self._client(child.id) if g.width > 20 else None
            if client is None or client == game:
                continue
            window = self.display.create_resource_object("window", client)
            try:
                owner = window.get_wm_transient_for()
            except Exception:
                owner = None
            if (pid is not None and self._pid(client) == pid) or (owner is not None and owner.id == game):
                over = not (g.x >= left + width or g.x + g.width <= left or g.y >= top + height
                            or g.y + g.height <= top)
                found.append((child.id, client, over))
        return found

    def _client(self, wid: int, depth: int = 2) -> int | None:
        """The application's window in a top-level one: itself, or under a window manager's frame
        the child that carries WM_STATE or _NET_WM_PID."""
        if self._property(wid, "WM_STATE") is not None or self._property(wid, "_NET_WM_PID") is not None:
            return wid
        try:
            children = self.display.create_resource_object("window", wid).query_tree().children if depth else []
        except Exception:
            return None
        for child in children:
            found = self._client(child.id, depth - 1)
            if found is not None:
                return found
        return None

    def _property(self, wid: int, name: str) -> Any | None:
        """A window's property, or None (none set, or the window gone meanwhile)."""
        try:
            return self.display.create_resource_object("window", wid).get_full_property(
                self.display.intern_atom(name), self.X.AnyPropertyType)
        except Exception:
            return None

    def _pid(self, wid: int) -> int | None:
        prop = self._property(wid, "_NET_WM_PID")
        return int(prop.value[0]) if prop is not None and len(prop.value) else None

    def _presses(self, combo: str) -> list[tuple[int, int]]:
        """XTest events of keys pressed together ("ctrl+r", "Return"), released in reverse."""
        codes = self._codes(combo)
        return [(self.X.KeyPress, c) for c in codes] + [(self.X.KeyRelease, c) for c in reversed(codes)]

    def _codes(self, combo: str) -> list[int]:
        """Keycodes of keys pressed together ("ctrl+r", "Return")."""
        from Xlib import XK

        codes = []
        for name in combo.split("+"):
            name = {"ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L", "return": "Return"}.get(name, name)
            keysym = XK.string_to_keysym(name.upper() if name[:1] == "f" and name[1:].isdigit() else name)
            code = self.display.keysym_to_keycode(keysym) if keysym else 0
            if not code:
                raise BotError(f"no key {name!r} on this keyboard (in {combo!r})")
            codes.append(code)
        return codes

    def gone(self) -> bool:
        """True once the game's window no longer exists (closed, killed); a window hidden, covered
        or minimised still exists."""
        if self.window is None:
            return False
        try:
            self.display.create_resource_object("window", self.window[0]).get_geometry()
        except Exception:  # BadWindow / BadDrawable: destroyed
            return True
        return False

    def close(self) -> None:
        self.display.close()


@contextlib.contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Ctrl-C waits until the server grab is let go: a request cut half-way through would leave
    the X server grabbed, and every program on the desktop (the bot's own grabs too) frozen.
    Signals reach only the main thread; elsewhere there is nothing to hold back."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[object] = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


def for_target(inside: tuple[int, int]) -> Any | None:
    """An X11Mouse on X11; None on Windows and macOS (the caller uses pyautogui there). On X11 a
    mouse that cannot be made is an error, never pyautogui's clicks in its place: those check
    nothing, and pyautogui needs the same display and XTEST anyway."""
    if sys.platform == "win32" or sys.platform == "darwin":
        return None
    try:
        return X11Mouse(inside)
    except BotError:
        raise
    except Exception as err:  # no python-xlib, no display, a connection refused
        raise BotError(f"no mouse on this X display ({type(err).__name__}: {err})") from err


def ask_to_close(display, wid: int) -> bool:
    """Ask a window's program to close it (WM_DELETE_WINDOW, as its close button would), if the
    window says it takes that: whether it was asked."""
    from Xlib import X
    from Xlib.protocol import event

    window = display.create_resource_object("window", wid)
    delete = display.intern_atom("WM_DELETE_WINDOW")
    try:
        if delete not in (window.get_wm_protocols() or []):
            return False
        message = event.ClientMessage(window=window, client_type=display.intern_atom("WM_PROTOCOLS"),
                                      data=(32, [delete, X.CurrentTime, 0, 0, 0]))
        window.send_event(message, event_mask=0)
        display.flush()
    except Exception:  # (gone meanwhile)
        return False
    return True
