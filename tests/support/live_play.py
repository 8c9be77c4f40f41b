"""Play a live game with what ships, every click judged by X's geometry of the game's window
(bot.games.witness): the body the live tests of third-party games share."""

from __future__ import annotations

from pathlib import Path

from bot.games.native_game import NativeGame
from bot.games.witness import Witness
from bot.play.game_log import GameLog
from bot.play.loop import Options, play
from bot.screen.capture import Screen
from bot.vision.skin import load_skins


def play_shipped(game: NativeGame, games: int, tmp_path: Path) -> tuple[list[GameLog], list[str], Witness]:
    """`games` games with the shipped skins, no profile, the game's own first-click rule: the
    logs, what the bot said (printed where play raised), and the witness of its clicks."""
    witness = Witness(game)
    logs: list[GameLog] = []
    said: list[str] = []
    options = Options(games=games, skins=load_skins(), rule=game.program.rule, profile=tmp_path / "p.json",
                      stop_dir=tmp_path, patience=15.0)
    with Screen() as screen:
        try:
            play(options, screen, actuator_factory=witness.factory, say=said.append, logs=logs)
        except Exception:
            print("\n".join(said))
            raise
    return logs, said, witness
