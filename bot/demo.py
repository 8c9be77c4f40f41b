"""The README's first command: WineMine in a virtual display, a few games on each level.

Uses the real display when one is set (and WineMine is started on it), else starts Xvfb.
Prints each level's summary and saves a picture of the last board the bot acted on: the game's
own region, as the bot grabbed it, with that move's advice drawn.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from bot.errors import BotError
from bot.games.simulator import parse_level
from bot.games.wine_game import WineGame, add_32bit_side
from bot.imagefile import read_image, write_image
from bot.places import cache_dir
from bot.play.annotate import annotate
from bot.play.game_log import summary
from bot.play.loop import Options, Stop, play
from bot.screen.capture import Screen
from bot.screen.xdisplay import VirtualDisplay
from bot.solver.advice import advise
from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import load_skins


def run_demo(games: int, levels: list[str], screenshot: str) -> bool:
    # A Wine prefix of the demo's own (kept, so Wine sets it up once): the demo rewrites WineMine's
    # settings, which are not the user's to lose, and a user's broken ~/.wine must not stop it.
    if "WINEPREFIX" not in os.environ:
        cache_dir().mkdir(parents=True, exist_ok=True)  # Wine makes the prefix, not its parents
        prefix = cache_dir() / "wine"
        os.environ["WINEPREFIX"] = str(prefix)
        if add_32bit_side(prefix):
            print("the demo's Wine prefix was made before wine32 was installed: its 32-bit side added", flush=True)
    display = None if os.environ.get("DISPLAY") else VirtualDisplay()
    if display is not None:
        display.start()
    ok = True
    try:
        skins = load_skins()
        with tempfile.TemporaryDirectory() as tmp:
            for name in levels:
                level = parse_level(name)
                print(f"== {level.name}: {games} game(s) of WineMine, rule safe ==", flush=True)
                with WineGame(level, x=120, y=80) as game, Screen() as screen:
                    game.drawn()
                    frames = Path(tmp) / level.name
                    options = Options(games=games, skins=skins, profile=Path(tmp) / "profile.json",
                                      stop_dir=Path("."), fresh_layouts=True, record=frames)
                    try:
                        logs = play(options, screen)
                        print(summary(logs), flush=True)
                    except Stop as err:
                        print(f"error: {err}", flush=True)
                        ok = False
                    picture = _last_decision(frames, skins)  # the game's own region, as the bot grabbed it
                    write_image(screenshot, picture if picture is not None else screen.grab())
                    game.close()
        print(f"last board: {screenshot}")
    finally:
        if display is not None:
            display.stop()
    return ok


def _last_decision(frames: Path, skins: list) -> np.ndarray | None:
    """The last frame the bot acted on, with its advice drawn (safe green, mines red, a guess
    blue with its odds): what the demo's picture shows at a glance."""
    shots = sorted(frames.glob("frame-*.png"))
    if not shots:
        return None
    image = read_image(str(shots[-1]))
    try:
        cal, skin = calibrate(image, skins)
        field = cal.with_pitch(skin)
        return annotate(image, field, advise(read(image, field, skin).game_board()))
    except BotError:
        return image
