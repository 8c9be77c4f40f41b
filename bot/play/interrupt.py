"""Ctrl-C during `play`, taken where the loop is ready for it."""

from __future__ import annotations

import _thread
import signal
import threading


class SafeInterrupt:
    """Ctrl-C during `play`, taken where the loop is ready for it: before the next click.

    Python raises KeyboardInterrupt wherever the main thread happens to be. A run under load once
    hung past 60 s after one Ctrl-C, with no summary (1 of about 30 tries; the likeliest place, not
    proven: inside python-xlib's request code, leaving its display lock held for the clean-up to
    wait on). So the first Ctrl-C only sets a flag that the loop asks before every click (`check`
    raises KeyboardInterrupt there). If the loop does not ask within GRACE seconds (a wait for a
    new game), or the user presses Ctrl-C again, the interrupt is raised the usual way."""

    GRACE = 5.0

    def __init__(self) -> None:
        self._flag = threading.Event()
        self._timer: threading.Timer | None = None
        self._before = None
        if threading.current_thread() is threading.main_thread():
            self._before = signal.signal(signal.SIGINT, self._on_signal)

    def _on_signal(self, signum: int, frame: object) -> None:
        self._flag.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C: at once
        self._timer = threading.Timer(self.GRACE, _thread.interrupt_main)
        self._timer.daemon = True
        self._timer.start()

    def check(self) -> bool:
        if self._flag.is_set():
            self.close()
            raise KeyboardInterrupt
        return False

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._before is not None:
            signal.signal(signal.SIGINT, self._before)
            self._before = None
