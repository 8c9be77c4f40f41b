"""One private Xvfb for every test that needs a display: pyautogui binds to the first display it
sees, so the whole session shares one."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def display():
    if shutil.which("Xvfb") is None or shutil.which("wine") is None:
        pytest.skip("Xvfb and Wine are needed: ./scripts/setup installs them")
    from bot.xdisplay import VirtualDisplay

    with VirtualDisplay() as name:
        yield name
