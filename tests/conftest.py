"""One private Xvfb for every test that needs a display (pyautogui binds to the first display it
sees, so the whole session shares one), and a private Wine prefix for every test that starts a
Windows program: never the user's ~/.wine, whose WineMine settings a test would change."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

FULL_REASON = ("in the full suite only (a long live run: other games, the genuine program, fault injection, "
               "installing, more scalings): ./scripts/test --full")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="also run the long live suites (tests marked `full`); CI runs them")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "full: a long live test, run only with --full (" + FULL_REASON + ")")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `full` are skipped, with the reason printed (-rs), unless --full is given."""
    if config.getoption("--full"):
        return
    skip = pytest.mark.skip(reason=FULL_REASON)
    for item in items:
        if item.get_closest_marker("full") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def display():
    if shutil.which("Xvfb") is None or shutil.which("wine") is None:
        pytest.skip("Xvfb and Wine are needed: ./scripts/setup installs them")
    from bot.screen.xdisplay import VirtualDisplay

    with VirtualDisplay() as name:
        yield name


def _wine_env(prefix: Path) -> dict[str, str]:
    return {**os.environ, "WINEPREFIX": str(prefix), "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}


@pytest.fixture(scope="session")
def wine_template(tmp_path_factory, display) -> Path:
    """A new Wine prefix, made once per run (wineboot takes seconds; copying it is cheap)."""
    prefix = tmp_path_factory.mktemp("wine") / "template"
    done = subprocess.run(["wineboot", "--init"], env=_wine_env(prefix), capture_output=True, timeout=300, check=False)
    subprocess.run(["wineserver", "--wait"], env=_wine_env(prefix), capture_output=True, timeout=300, check=False)
    if done.returncode != 0 or not (prefix / "system.reg").exists():
        pytest.fail(f"wineboot could not make a Wine prefix: {done.stderr.decode(errors='replace')[-300:]}")
    return prefix


@pytest.fixture
def wineprefix(wine_template: Path, tmp_path: Path, monkeypatch) -> Path:
    """This test's own prefix: the template's files hard-linked (Wine never rewrites its DLLs), its
    registry, .ini files and user folders copied (those it does write). Its wineserver, and so every
    program the test left running in it, is ended afterwards."""
    prefix = tmp_path / "wineprefix"
    subprocess.run(["cp", "-al", str(wine_template), str(prefix)], check=True, timeout=120)
    for path in [*prefix.glob("*.reg"), *prefix.rglob("*.ini")]:
        data = path.read_bytes()
        path.unlink()
        path.write_bytes(data)
    users = prefix / "drive_c" / "users"
    if users.exists():
        shutil.rmtree(users)
        shutil.copytree(wine_template / "drive_c" / "users", users, symlinks=True)
    monkeypatch.setenv("WINEPREFIX", str(prefix))
    yield prefix
    subprocess.run(["wineserver", "-k"], env=_wine_env(prefix), capture_output=True, timeout=60, check=False)
