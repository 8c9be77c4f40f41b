"""`play`: the live loop on the game on the screen, or `--dry-run` hints over it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.errors import BotError, VisionError

if TYPE_CHECKING:
    from bot.games.simulator import Level
    from bot.play.options import Options

from bot.commands.common import Exit, learnt_root_of, templates_root


def cmd_play(args: argparse.Namespace) -> Exit:
    from dataclasses import replace

    from bot.play.game_log import summary
    from bot.play.game_view import NotFound, Stop, UserStop
    from bot.play.interrupt import SafeInterrupt
    from bot.play.loop import play
    from bot.screen.platform import current
    from bot.screen.stopkey import StopKey

    platform = current()
    platform.prepare()
    _check_pixels(platform)
    title = platform.bring_game_forward()
    if title:
        print(f"brought the {title} window to the front", file=sys.stderr)
    options = _play_options(args)
    box = platform.game_window()
    if box is not None:
        options = replace(options, window=(box.left, box.top, box.width, box.height))
    if args.level:
        level = _check_level(args.level, options)
        options = replace(options, mines=level.mines, shape=(level.rows, level.cols))
    if options.dry_run:
        where = f"over the game (and saved to {options.annotated})" if options.overlay else f"on {options.annotated}"
        print(f"dry run: the advice is drawn {where} as you play; Ctrl-C ends it", file=sys.stderr)
    logs: list = []
    key = StopKey(args.stop_key) if args.stop_key.lower() != "none" and not options.dry_run else None
    say = lambda line: print(line, file=sys.stderr)  # noqa: E731
    ctrl_c = SafeInterrupt()
    options.stopped = ctrl_c.check
    try:  # (the key taken inside: a Ctrl-C while it is being taken still gets the summary)
        if key is not None:
            problem = key.start()
            if problem:
                print(problem, file=sys.stderr)
            else:
                options.stopped = lambda: ctrl_c.check() or key.pressed
                print(f"press {args.stop_key} to stop (the key is the bot's while it plays)", file=sys.stderr)
        try:
            play(options, say=say, logs=logs)
        except NotFound as err:
            if not args.learn or options.dry_run:
                raise
            if err.unconfirmed:  # (its covered tiles were all that ever matched: another game's look)
                say(f"the game looked like skin {err.unconfirmed!r} until its cells opened: not that look ({err})")
                options.skins = [s for s in options.skins if s.name != err.unconfirmed]
            title, box = _window_to_learn(platform, args.learn_in, clicked=bool(err.unconfirmed))
            say(f"no look the bot knows is on the screen: learning this one, in the window {title!r}, "
                "from the game (safe moves only)")
            options.skins = [*options.skins, _learn_on_sight(args, options, say, box)]
            play(options, say=say, logs=logs)
    except UserStop as err:  # the user's own choice: no error
        print(str(err), file=sys.stderr)
    except Stop as err:
        print(f"error: {err}", file=sys.stderr)
        return Exit.FAILED
    finally:  # on every way out (a stop, the stop key, Ctrl-C, the fail-safe): what was played
        ctrl_c.close()
        if key is not None:
            key.close()
        if logs or not options.dry_run:
            print(summary(logs))
    if options.dry_run:
        print(f"dry run: advice drawn on {options.annotated}")
    return Exit.OK


def _play_options(args: argparse.Namespace):

    from bot.play.options import Options
    from bot.vision.skin import load_skins

    if args.games < 1:
        raise BotError(f"--games must be at least 1, got {args.games}")
    try:
        skins = load_skins(templates_root(args), names=args.skin)
    except VisionError:
        if not args.learn or args.dry_run:
            raise
        skins = []  # none kept yet: the look on the screen is learnt first
    return Options(
        games=args.games,
        flags=args.flags,
        dry_run=args.dry_run,
        rule=args.rules,
        profile=Path(args.profile),
        record=Path(args.record) if args.record else None,
        annotated=Path(args.annotated),
        max_frames=args.frames,
        overlay=args.overlay,
        patience=args.patience,
        answer_dialogs=not args.leave_dialogs,
        fresh_layouts=args.new_layouts,
        skins=skins,
    )


def _check_pixels(platform) -> None:
    """Refuse to click where the mouse's pixels are not the screen's (a scaled display)."""
    from bot.screen.capture import Screen

    def grab_size() -> tuple[int, int]:
        with Screen() as screen:
            whole = screen.monitors()[0]
        return whole.width, whole.height

    problem = platform.pixel_problem(grab_size)
    if problem:
        raise BotError(problem)


def _window_to_learn(platform, named: str | None, clicked: bool = False):
    """The window a look no skin knows may be learnt in, by evidence that needs no click (every
    probe of the learner is one): its title names a Minesweeper, or holds what the user named
    with --learn-in. Else a Stop that says so, before any click of the learner's (`clicked`: the
    bot's first move was made, under a skin the game then proved not to wear)."""
    from bot.play.game_view import Stop

    found = platform.minesweeper_window(named)
    if found is not None:
        return found
    done = "stopped after that first move" if clicked else "nothing was clicked"
    if named:
        raise Stop(f"no look the bot knows is on the screen, and no window on view is titled {named!r}: {done}")
    raise Stop("no look the bot knows is on the screen, and no window on view is titled as a Minesweeper to "
               f"learn one in: {done} (name the game's window: play --learn-in TITLE; or learn "
               "its look: calibrate --learn)")


def _learn_on_sight(args: argparse.Namespace, options, say, region):
    from bot.learn.first_sight import learn_on_sight

    return learn_on_sight(learnt_root_of(args), options.profile, say, region)


def _check_level(level_name: str, options: Options) -> Level:
    """--level names what the game must show; the bot reads it off the screen and refuses a mismatch.
    The level is returned: its mine total is the total for a game whose counter the bot cannot read,
    and every game is checked against its size."""
    from bot.games.simulator import parse_level
    from bot.screen.capture import Screen
    from bot.vision.calibrate import locate

    level = parse_level(level_name)
    with Screen() as screen:
        cal, _, _ = locate(screen.grab(), options.skins, options.profile)
    if (cal.rows, cal.cols) != (level.rows, level.cols):
        raise BotError(f"the game shows {cal.rows}x{cal.cols} cells, not {level.name}: change the level in the game")
    return level
