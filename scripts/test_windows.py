#!/usr/bin/env python3
"""The bot as a Windows program: its Windows code path run on every change (scripts/test-windows).

The Windows CPython that scripts/winpy/setup.sh builds runs under Wine, in an Xvfb of its own;
the Linux side only starts the game and watches. Each step prints what it checked and fails the run
(exit 1) when it does not hold:

1. the Windows Python, and the backends the bot picks there (mss's GDI capture, pyautogui's
   SendInput module);
2. `--version`, `solve` and `replay` give the same output as on Linux (bar CRLF line ends);
3. `bench --jobs 2` (spawned workers: Windows has no fork) gives the Linux results;
4. the unit tests that need no X display, under pytest on the Windows side;
5. live `play` on WineMine, Beginner and Expert, with a canary window under everything: no click
   may reach it;
6. `play --dry-run`: its marks over the field in what the Windows capture sees, and a click on a
   safe mark (or the guess's) reaching the game through the click-through overlay.

    scripts/test-windows                  # set up (cached), then all of the above
    python3 scripts/test_windows.py --games 50 --expert-games 20
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games.simulator import LEVELS, Level  # noqa: E402
from bot.games.wine_game import WineGame  # noqa: E402
from bot.screen.xdisplay import VirtualDisplay  # noqa: E402

WINPY_DIR = Path(os.environ.get("WINPY_DIR", Path.home() / ".cache/minesweeper-bot/winpy"))
FIXTURES = ["beginner1-middle.png", "intermediate1-middle.png", "expert1-middle.png"]
GRIDS = ["01?10001?\n", "1?1\n???\n1?1\n"]
UNIT_TESTS = ["tests/unit/test_board.py", "tests/unit/test_solver.py", "tests/unit/test_endgame.py",
              "tests/unit/test_big_boards.py", "tests/unit/test_seeds.py"]


def wine() -> str:
    for name in ("wine64", "/usr/lib/wine/wine64", "wine"):
        found = shutil.which(name) or (name if Path(name).exists() else None)
        if found:
            return found
    sys.exit("test-windows: Wine is not installed")


def winpath(path: Path | str) -> str:
    """An absolute Unix path as the Windows side sees it, on Wine's Z: drive."""
    return f"Z:{path}".replace("/", "\\")


def windows_command(args: list[str]) -> tuple[list[str], dict[str, str]]:
    """`python.exe ARGS` and its environment: the Windows Python's prefix, none of this side's
    Python variables."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    environ.update(WINEPREFIX=str(WINPY_DIR / "prefix"), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=",
                   PYTHONUNBUFFERED="1")
    return [wine(), str(WINPY_DIR / "cp312" / "python.exe"), *args], environ


def windows(args: list[str], stdin: str = "", timeout: float = 600) -> subprocess.CompletedProcess:
    """`python.exe ARGS` on the Windows side, in this checkout; output with Linux line ends.
    (Wine gives a Windows program an invalid handle for a file as stdout: pipes only.)"""
    command, environ = windows_command(args)
    done = subprocess.run(command, input=stdin, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=environ)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.replace("\r\n", "\n"),
                                       done.stderr.replace("\r\n", "\n"))


def linux(args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], input=stdin, cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})


failures: list[str] = []


def check(ok: bool, what: str, detail: str = "") -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail and not ok else ""), flush=True)
    if not ok:
        failures.append(what)


def step_backends() -> None:
    probe = ("import sys, mss, pyautogui; m = mss.MSS() if hasattr(mss, 'MSS') else mss.mss(); "
             "print(sys.version.split()[0], sys.platform, type(getattr(m, '_impl', m)).__name__, "
             "pyautogui.platformModule.__name__)")
    done = windows(["-c", probe])
    words = done.stdout.split()
    print(f"Windows Python {words[0] if words else '?'} ({words[1] if len(words) > 1 else '?'}); capture "
          f"{words[2] if len(words) > 2 else '?'}; clicks {words[3] if len(words) > 3 else '?'}", flush=True)
    check(done.returncode == 0 and len(words) == 4 and words[1] == "win32", "the Windows Python starts", done.stderr)
    check(len(words) == 4 and "Gdi" in words[2], "capture through GDI (mss)", done.stdout)
    check(len(words) == 4 and words[3].endswith("_pyautogui_win"), "clicks through SendInput (pyautogui)", done.stdout)


def step_same_output() -> None:
    for args, stdin in [(["-m", "bot", "--version"], ""),
                        *((["-m", "bot", "solve", "-", "--json"], grid) for grid in GRIDS),
                        *((["-m", "bot", "solve", "-"], grid) for grid in GRIDS),
                        *((["-m", "bot", "replay", "--json", f"fixtures/winemine/{f}"], "") for f in FIXTURES)]:
        mine, theirs = windows(args, stdin), linux(args, stdin)
        same = mine.returncode == theirs.returncode and _same(mine.stdout, theirs.stdout)
        check(same, f"same output as Linux: {' '.join(args[2:])}", f"{mine.stderr[-300:]}\n{mine.stdout[:300]}")


def step_unicode_paths() -> None:
    """replay on a screenshot whose folder and name are not ASCII, its annotated copy written beside
    it: OpenCV's own file functions take narrow paths, which Windows cannot give for such names."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "Zoë écran 画面"
        folder.mkdir()
        shot = folder / "démineur.png"
        shutil.copy(ROOT / "fixtures" / "winemine" / FIXTURES[0], shot)
        out = folder / "annoté.png"
        done = windows(["-m", "bot", "replay", "--json", winpath(shot), "--out", winpath(out)])
        ref = linux(["-m", "bot", "replay", "--json", str(ROOT / "fixtures" / "winemine" / FIXTURES[0])])
        check(done.returncode == 0 and _same(done.stdout, ref.stdout) and out.exists(),
              "replay reads and writes paths outside ASCII (Zoë écran 画面/démineur.png)", done.stderr[-500:])


def _same(a: str, b: str) -> bool:
    """Equal text, or equal JSON up to 1e-12 in the floats (numpy 1.26 there and 2.x here sum in
    different orders: the odds differ in the 17th digit)."""
    if a == b:
        return True
    try:
        return _close(json.loads(a), json.loads(b))
    except json.JSONDecodeError:
        return False


def _close(a: object, b: object) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-12
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def step_bench() -> None:
    args = ["-m", "bot", "bench", "--level", "beginner", "--games", "40", "--seed", "3", "--json"]
    mine = windows([*args, "--jobs", "2"])
    theirs = linux(args)
    try:
        ours, ref = json.loads(mine.stdout), json.loads(theirs.stdout)
    except json.JSONDecodeError:
        check(False, "bench --jobs 2", mine.stderr[-500:])
        return
    check((ours["wins"], ours["decisions"]) == (ref["wins"], ref["decisions"]),
          f"bench --jobs 2 in spawned workers: {ours['wins']} of 40 won, {ours['decisions']} decisions "
          f"(Linux, one process: {ref['wins']}, {ref['decisions']})")


def step_unit_tests() -> None:
    done = windows(["-m", "pytest", "-p", "no:cacheprovider", *UNIT_TESTS], timeout=1800)
    last = next((line for line in reversed(done.stdout.splitlines()) if " passed" in line or " failed" in line),
                "(no summary)")
    check(done.returncode == 0, f"unit tests on Windows: {last}", done.stdout[-1500:] + done.stderr[-500:])


def _text(data: bytes | str | None) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


def step_play(name: str, games: int) -> None:
    from tests.support.catcher import Catcher

    level = Level(*LEVELS[name])
    with tempfile.TemporaryDirectory() as tmp, WineGame(level, x=60, y=60) as game:
        game.drawn()
        canary = Catcher(below=True)
        try:
            start = time.monotonic()
            profile = winpath(f"{tmp}/p.json")
            try:
                done = windows(["-m", "bot", "play", "--games", str(games), "--profile", profile, "--stop-key", "none"],
                               timeout=120 + 30 * games)
            except subprocess.TimeoutExpired as err:
                done = subprocess.CompletedProcess(err.cmd, -1, _text(err.stdout), _text(err.stderr) + "\n(timed out)")
            took = time.monotonic() - start
        finally:
            canary.close()
    rows = [line.split() for line in done.stdout.splitlines() if line.split() and line.split()[0].isdigit()]
    results = [r[1] for r in rows]
    won = results.count("won")
    check(done.returncode == 0 and len(results) == games,
          f"play {games} {name} game(s) as a Windows process: {won} won, {len(results)} played, {took:.0f} s",
          done.stdout[-800:] + done.stderr[-800:])
    check(not canary.clicks, f"no click outside the game ({name}): {len(canary.clicks)} on the canary",
          str(canary.clicks[:5]))
    check("brought the WineMine window to the front" in done.stderr,
          "the game's window found by its class and raised (FindWindowW, SetForegroundWindow)", done.stderr[-300:])


def _xclick(x: int, y: int) -> None:
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], check=True, timeout=30)


def _windows_grab(path: Path) -> np.ndarray | None:
    """The screen as the Windows side sees it (mss, GDI), as a BGR array."""
    target = winpath(path)
    done = windows(["-c", "import mss, mss.tools, sys; m = mss.MSS() if hasattr(mss, 'MSS') else mss.mss(); "
                    f"s = m.grab(m.monitors[1]); mss.tools.to_png(s.rgb, s.size, output=r'{target}')"])
    return cv2.imread(str(path)) if done.returncode == 0 and path.exists() else None


def step_overlay() -> None:
    """play --dry-run as a Windows process: its marks seen through the Windows capture over the
    field, and a click on a safe (green) mark, or the guess's (blue) when nothing is proven safe,
    reaching the game through the overlay."""
    from bot.play.overlay import BLUE, GREEN, RED
    from bot.screen.capture import Screen

    level = Level(*LEVELS["beginner"])
    bgr = {name: np.array([int(hex_[5:7], 16), int(hex_[3:5], 16), int(hex_[1:3], 16)])
           for name, hex_ in (("safe", GREEN), ("mine", RED), ("guess", BLUE))}
    with tempfile.TemporaryDirectory() as tmp, WineGame(level, x=80, y=80) as game, Screen() as screen:
        game.drawn()
        left, top = game.field_origin()
        area = (slice(top, top + 16 * level.rows), slice(left, left + 16 * level.cols))
        untouched = screen.grab()[area].copy()
        _xclick(left + 8, top + 8)  # the first click ourselves: numbers to advise on
        deadline = time.monotonic() + 30  # until the game has painted what it opened
        while time.monotonic() < deadline and np.array_equal(screen.grab()[area], untouched):
            time.sleep(0.1)

        def marks_in_field(image: np.ndarray) -> dict[str, np.ndarray]:
            """Field pixels in each mark colour, by what the mark says."""
            field = image[area].astype(int)
            found = {name: np.argwhere(np.abs(field - colour).max(axis=2) < 30) for name, colour in bgr.items()}
            return {name: where for name, where in found.items() if len(where)}

        baseline = _windows_grab(Path(tmp) / "b.png")
        check(baseline is not None and not marks_in_field(baseline),
              "no mark colour in the field before the dry run (so the marks below are the overlay's)")
        command, environ = windows_command(["-m", "bot", "play", "--dry-run", "--annotated", winpath(f"{tmp}/a.png"),
                                            "--profile", winpath(f"{tmp}/p.json")])
        dry = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environ)
        try:
            marks, seen = None, None
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and marks is None and dry.poll() is None:
                seen = _windows_grab(Path(tmp) / "w.png")
                marks = (marks_in_field(seen) if seen is not None else None) or None
            check(marks is not None, "dry-run marks seen over the field through the Windows capture",
                  "none within 120 s" if dry.poll() is None else _text(dry.stderr.read())[-500:])
            if marks is None:
                return
            if (ROOT / "out").is_dir():  # (kept for a look when there is a place for it)
                cv2.imwrite(str(ROOT / "out" / "windows-dry-run.png"), seen)
            what = "safe" if "safe" in marks else "guess"
            check(what in marks, f"the marks include a safe or a guess ring: {sorted(marks)}")
            if what not in marks:
                return
            row, col = (int(v) // 16 for v in marks[what][0])
            cell = (left + col * 16, top + row * 16)
            before = screen.grab()[cell[1] + 2 : cell[1] + 14, cell[0] + 2 : cell[0] + 14].copy()
            _xclick(cell[0] + 8, cell[1] + 8)
            opened = False
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not opened:
                now = screen.grab()[cell[1] + 2 : cell[1] + 14, cell[0] + 2 : cell[0] + 14]
                opened = not np.array_equal(now, before)
                time.sleep(0.2)
            check(opened, f"a click on the {what} mark at row {row + 1}, column {col + 1} reached the game")
        finally:
            dry.terminate()
            try:
                dry.wait(timeout=30)
            except subprocess.TimeoutExpired:
                dry.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description="the bot as a Windows program under Wine: checks")
    parser.add_argument("--games", type=int, default=5, help="Beginner games to play live (default 5)")
    parser.add_argument("--expert-games", type=int, default=2, help="Expert games to play live (default 2)")
    args = parser.parse_args()
    if not (WINPY_DIR / "cp312" / "python.exe").exists():
        print(f"test-windows: no Windows Python in {WINPY_DIR}: run scripts/winpy/setup.sh (scripts/test-windows does)")
        return 2
    # The game runs in the Windows Python's own prefix: Wine's GDI capture and SendInput reach only
    # the windows of their own wineserver (a game in another prefix was never seen nor clicked).
    os.environ["WINEPREFIX"] = str(WINPY_DIR / "prefix")
    with VirtualDisplay() as display:
        os.environ["DISPLAY"] = display
        step_backends()
        step_same_output()
        step_unicode_paths()
        step_bench()
        step_unit_tests()
        step_play("beginner", args.games)
        if args.expert_games:
            step_play("expert", args.expert_games)
        step_overlay()
    print(f"test-windows: {'all passed' if not failures else str(len(failures)) + ' failed: ' + '; '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
