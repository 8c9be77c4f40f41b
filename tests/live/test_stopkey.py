"""The stop key on a real X server (our Xvfb): taken from the whole desktop, pressed with xdotool
as a user would while the game has the focus, and refused with a reason where another program
holds it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from bot.screen.stopkey import StopKey
from tests.support.waiting import wait_for


@pytest.fixture
def xdotool(display):
    if shutil.which("xdotool") is None:
        pytest.skip("xdotool is needed to press keys: ./scripts/setup installs it")
    return display


def test_the_stop_key_is_seen_when_pressed_anywhere(xdotool):
    with StopKey("Escape") as key:
        assert key.start() is None
        assert not key.pressed
        subprocess.run(["xdotool", "key", "Escape"], check=True, timeout=30)
        assert wait_for(lambda: key.pressed)


def test_a_key_another_program_holds_is_refused_with_a_reason(xdotool):
    with StopKey("F12") as first, StopKey("F12") as second:
        assert first.start() is None
        problem = second.start()
        assert problem is not None and "F12" in problem and "Ctrl-C" in problem


def test_an_unknown_key_is_refused_with_a_reason(xdotool):
    with StopKey("NoSuchKey") as key:
        assert "NoSuchKey" in (key.start() or "")


def test_ctrl_c_waits_for_the_loop_to_ask_then_stops_it():
    """The first Ctrl-C only sets a flag; the loop's next `check` (before a click) raises it; the
    handler it replaced is back once closed (bot.play.interrupt)."""
    import signal

    from bot.play.interrupt import SafeInterrupt

    before = signal.getsignal(signal.SIGINT)
    ctrl_c = SafeInterrupt()
    try:
        assert ctrl_c.check() is False
        signal.raise_signal(signal.SIGINT)  # (delivered at once, to this thread: no KeyboardInterrupt here)
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.check()
    finally:
        ctrl_c.close()
    assert signal.getsignal(signal.SIGINT) is before
