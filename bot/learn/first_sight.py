"""Learning a look the first time it is seen: the step between `play` finding no board any skin
knows and playing on. Shared by the CLI and the live benchmarks, so both learn the same way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.errors import BotError, VisionError
from bot.learn.described_live import learn_described_live
from bot.learn.learnt import Learnt
from bot.learn.live import GAMES, LearnError, learn_live, write_skin
from bot.learn.look_file import DescribedLearnt, write_described
from bot.screen.capture import Region, Screen
from bot.vision.calibrate import Calibration, save_profile
from bot.vision.skin import Skin, load_skin


def free_name(root: Path) -> str:
    """learnt, learnt-1, ...: the first not taken, so a new look never overwrites a kept one."""
    return next(n for n in (f"learnt-{k}" if k else "learnt" for k in range(1000)) if not (root / n).exists())


def learn_look(say: Callable[[str], None], games: int = GAMES, known: Skin | None = None,
               region: Region | None = None) -> Learnt | DescribedLearnt:
    """The look on the screen (in `region`, the game's window, where given), learnt by playing it:
    by its cells' pixels (identical tiles, bot.learn.live), else by their colours and shapes
    (shaded tiles, bot.learn.described_live)."""
    try:
        with Screen() as screen:
            return learn_live(screen, games=games, say=say, known=known, region=region)
    except (LearnError, VisionError) as by_pixels:
        say(f"cells by their pixels: {by_pixels}; now by their colours and shapes")
        try:
            with Screen() as screen:
                return learn_described_live(screen, say=say, region=region, fresh=getattr(by_pixels, "fresh", None))
        except (LearnError, VisionError) as by_colours:
            raise LearnError(f"{by_pixels} (by pixels); {by_colours} (by colours and shapes)") from by_colours


def learn_on_sight(root: Path, profile: Path | None, say: Callable[[str], None], region: Region | None = None) -> Skin:
    """Learn the look on the screen, in `region` (the game's window) where given (calibrate
    --learn's machinery: safe moves only), keep it as a new skin under root, point the profile at
    it; the skin, or BotError when there is no board."""
    name = free_name(root)
    try:
        learnt = learn_look(say, region=region)
    except LearnError as err:
        raise BotError(f"no Minesweeper board the bot knows, and none it could learn: {err}") from err
    if isinstance(learnt, DescribedLearnt):
        write_described(learnt, root / name, name)
        say(f"learnt skin {name!r} in {root / name}, a look described by its colours, from "
            f"{learnt.pictures} picture(s); missing: " + (", ".join(learnt.missing) or "nothing"))
        return load_skin(root / name)
    write_skin(learnt, root / name, name)
    lat = learnt.lattice
    if profile is not None:
        save_profile(profile, Calibration(name, 1.0, lat.left, lat.top, lat.rows, lat.cols, None, *lat.offsets))
    say(f"learnt skin {name!r} in {root / name} from {learnt.games} game(s); missing: "
        + (", ".join(learnt.missing) or "nothing"))
    return load_skin(root / name)
