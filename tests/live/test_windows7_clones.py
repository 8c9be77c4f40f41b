"""The Windows 7 stand-ins, live, with what ships (`templates/win7`): third-party clones built by hand
(docs/testing.md says how; never in the project), each skipped with the reason where it is not built.

The Java Swing clone says a game's end only by a dialog ("Info": "You lose!", "Congratulation!":
"You win!") centred on the screen, clear of an Expert board or over part of it: the mine clicked is
never drawn and the game takes no click while the dialog is up.
"""

from __future__ import annotations

import re
import subprocess
import threading
from pathlib import Path

import pytest

from bot.games.native_game import WIN7_JAVA, NativeGame
from bot.games.witness import Witness
from bot.places import SHIPPED
from bot.play.loop import Options, play
from bot.screen.capture import Screen
from bot.vision.skin import load_skins

pytestmark = pytest.mark.full

_WINDOW = re.compile(r'^\s*(0x[0-9a-f]+) "([^"]*)"')


class Dialogs:
    """The game's end dialogs as they open, each once, by title: what the game said, watched apart
    from the bot (X's list of windows, polled)."""

    def __init__(self, titles: dict[str, str]) -> None:
        self.titles, self.said, self.seen = titles, [], set()
        self.running = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Dialogs:
        self.running.set()
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.running.clear()
        self.thread.join(timeout=30)

    def _watch(self) -> None:
        while self.running.is_set():
            tree = subprocess.run(["xwininfo", "-root", "-children"], capture_output=True, text=True,
                                  timeout=30, check=False).stdout
            for line in tree.splitlines():
                match = _WINDOW.match(line)
                if match and match.group(2) in self.titles and match.group(1) not in self.seen:
                    self.seen.add(match.group(1))
                    self.said.append(self.titles[match.group(2)])
            self.running.wait(0.05)


def test_the_java_clone_s_games_are_logged_as_its_dialogs_say(display, tmp_path: Path):
    if WIN7_JAVA.needs is not None and not WIN7_JAVA.needs.exists():
        pytest.skip(f"the Java Windows 7 clone is not built ({WIN7_JAVA.needs}): docs/testing.md, the stand-ins")
    with NativeGame(WIN7_JAVA, "expert", x=100, y=100) as game, Dialogs(
            {"Info": "lost", "Congratulation!": "won"}) as dialogs:
        witness = Witness(game)
        logs: list = []
        said: list[str] = []
        options = Options(games=6, skins=load_skins(SHIPPED), rule=WIN7_JAVA.rule, profile=tmp_path / "profile.json",
                          stop_dir=tmp_path, patience=15.0)
        with Screen() as screen:
            play(options, screen, actuator_factory=witness.factory, say=said.append, logs=logs)
    results = [g.result for g in logs]
    assert len(logs) == 6 and results == dialogs.said[: len(logs)], \
        f"logged {results}, the dialogs said {dialogs.said}; the bot said:\n" + "\n".join(said)
    assert witness.outside == 0 and witness.dialogs >= 5, (witness.outside, witness.dialogs)
