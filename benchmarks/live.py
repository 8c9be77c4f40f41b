"""Live WineMine benchmark: N games per preset on the real game in a private Xvfb.

Prints, per level: win rate with its 95 % Wilson interval, games that replayed an earlier
game's field (a rate over them is no measure), safe stops (a click the guard refuses
ends the run as a stop, so 0 stops means no refused click) and crashes, clicks that landed outside
the field and the face as X's own window geometry places them (not the bot's calibration), and the
median wall time of won games. Every game starts in a new clock second, so WineMine never replays
a layout. benchmarks/genuine.py runs the same loop on a genuine winmine.exe.

    python3 -m benchmarks.live --games 200
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bot.errors import BotError
from bot.games.bench import repeated, wilson
from bot.games.simulator import Level
from bot.games.wine_game import WINEMINE, Program, WineGame
from bot.games.witness import Witness
from bot.learn.first_sight import learn_on_sight
from bot.play.game_log import GameLog
from bot.play.game_view import NotFound, Stop
from bot.play.loop import Options, play
from bot.screen.capture import Screen
from bot.screen.xdisplay import VirtualDisplay
from bot.vision.skin import Skin, load_skins


@dataclass
class Tally:
    logs: list[GameLog] = field(default_factory=list)
    stops: int = 0
    crashes: int = 0
    dialogs: int = 0
    witness: Witness | None = None


def _answer_while(game: WineGame, running: threading.Event, tally: Tally) -> None:
    """A player at the keyboard: a best-time name dialog is answered with Enter when it shows."""
    while running.is_set():
        try:
            tally.dialogs += game.answer_dialogs()
        except Exception as err:
            print("dialog:", err, file=sys.stderr)
        time.sleep(0.3)


def bench_level(game: WineGame, games: int, skins: list[Skin], profile: Path, rule: str, stops_dir: Path,
                label: str, learn_into: Path | None = None, leave_dialogs: bool = False) -> Tally:
    """Play `games` games in batches of ten, a new Player each (as a user restarting the bot).
    With learn_into, a look no skin knows is learnt there on the spot, as `play` does. The bot
    answers a best-time dialog itself; with leave_dialogs, a player (a thread) does, and the bot
    waits for it."""
    tally = Tally()
    witness = tally.witness = Witness(game)
    running = threading.Event()
    running.set()
    answerer = threading.Thread(target=_answer_while, args=(game, running, tally), daemon=True)
    if leave_dialogs:
        answerer.start()
    try:
        with Screen() as screen:
            while len(tally.logs) < games and tally.stops + tally.crashes < 10:
                if tally.logs and hasattr(game, "clear_windows_over"):
                    tally.dialogs += game.clear_windows_over()  # (a player restarting the bot)
                options = Options(games=min(10, games - len(tally.logs)), skins=skins, rule=rule, profile=profile,
                                  stop_dir=stops_dir, fresh_layouts=True, patience=15.0,
                                  answer_dialogs=not leave_dialogs)
                batch: list[GameLog] = []
                try:
                    play(options, screen, actuator_factory=witness.factory, logs=batch)
                except NotFound as err:
                    if learn_into is None:  # (no game in sight: the shipped skins read none)
                        tally.stops += 1
                        print("\nstop:", err, flush=True)
                    else:
                        print(f"\n{err}: learning the look", flush=True)
                        try:
                            skins.append(learn_on_sight(learn_into, profile, lambda line: print(line, flush=True)))
                        except BotError as learn_err:
                            tally.stops += 1
                            print("\nstop:", learn_err, flush=True)
                except Stop as err:
                    tally.stops += 1
                    print("\nstop:", err, flush=True)
                except Exception:
                    tally.crashes += 1
                    traceback.print_exc()
                tally.logs += batch  # the games a stop ended early count too
                print(f"\r{label}: {len(tally.logs)}/{games}", end="", file=sys.stderr, flush=True)
    finally:
        running.clear()
        if leave_dialogs:
            answerer.join(timeout=15)
    tally.dialogs += witness.dialogs
    return tally


def report(label: str, tally: Tally, seconds: float) -> str:
    won = [g for g in tally.logs if g.result == "won"]
    # (a game cut short by a stop, or one a number no skin knows yet ended, is no result)
    logs = [g for g in tally.logs if g.result not in ("abandoned", "stopped")]
    low, high = wilson(len(won), len(logs))
    median = np.median([g.seconds for g in won]) if won else float("nan")
    return (f"{label:12s} games {len(logs):4d}  won {len(won) / max(len(logs), 1):6.1%} "
            f"(95% CI {low:.1%}..{high:.1%})  abandoned {len(tally.logs) - len(logs)}  "
            f"stops {tally.stops}  crashes {tally.crashes}  repeated fields {repeated(g.layout for g in tally.logs)}  "
            f"clicks {tally.witness.clicks} outside {tally.witness.outside}  dialogs {tally.dialogs}  "
            f"median won game {median:.2f} s  wall {seconds:.0f} s")


def run(program: Program, levels: list[str], games: int, rule: str, stops_dir: Path, skins: list[Skin],
        best_time: int = 0, one_profile: bool = False, learn_into: Path | None = None,
        leave_dialogs: bool = False) -> list[str]:
    """Each level in its own start of the game; with one_profile, every level shares one saved
    calibration, so the bot meets each new level with a profile of the last one."""
    lines = []
    with VirtualDisplay(), tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("WINEPREFIX", str(Path(tmp) / "wine"))  # never the user's ~/.wine
        for name in levels:
            level: Level = program.preset(name)
            profile = Path(tmp) / ("profile.json" if one_profile else f"{name}.json")
            start = time.time()
            with WineGame(level, x=100, y=100, program=program, best_time=best_time) as game:
                game.drawn()
                tally = bench_level(game, games, skins, profile, rule, stops_dir, name, learn_into, leave_dialogs)
            lines.append(report(name, tally, time.time() - start))
            print("\n" + lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--levels", default="beginner,intermediate,expert")
    parser.add_argument("--stops", default=".", help="where screenshots of safe stops go")
    parser.add_argument("--best-time", type=int, default=0, help="best times written before start (999: records, "
                                                                  "so a won game opens the name dialog)")
    parser.add_argument("--leave-dialogs", action="store_true", help="a player answers the dialogs, not the bot")
    args = parser.parse_args()
    run(WINEMINE, args.levels.split(","), args.games, "safe", Path(args.stops), load_skins(),
        best_time=args.best_time, leave_dialogs=args.leave_dialogs)


if __name__ == "__main__":
    main()
