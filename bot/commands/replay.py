"""`replay`: the board found and read in a saved screenshot, and advised."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from bot.commands.common import Exit, field_dict, load_image
from bot.errors import BotError, VisionError


def cmd_replay(args: argparse.Namespace) -> Exit:
    import cv2

    from bot.errors import InconsistentBoardError
    from bot.report import advice_dict, advice_text, to_json
    from bot.solver.advice import advise
    from bot.solver.deadline import DEFAULT_SECONDS
    from bot.vision.calibrate import calibrate, parts_of_one, second_board
    from bot.vision.reader import read, with_panel_counter
    from bot.vision.skin import load_skins

    with contextlib.suppress(AttributeError):  # a truncated PNG is our error message, not OpenCV's warning
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    image, lossy = load_image(args.image)
    if args.out and Path(args.out).is_dir():
        raise BotError(f"--out {args.out!r} is a folder: name the PNG file to write")
    skins = load_skins(names=args.skin)
    if lossy:
        from bot.vision.lossy import soften_skin

        skins = [soften_skin(s) for s in skins]
    cal, skin = calibrate(image, skins)
    other = second_board(image, skins, cal, skin)
    if other is not None and parts_of_one(cal, other, skin):
        raise VisionError(f"something lies across the board: parts of it in sight at ({cal.left:.0f}, {cal.top:.0f}) "
                          f"and ({other.left:.0f}, {other.top:.0f})")
    if other is not None:
        raise VisionError(f"two boards in the picture ({cal.rows}x{cal.cols} at ({cal.left:.0f}, {cal.top:.0f}) and "
                          f"{other.rows}x{other.cols} at ({other.left:.0f}, {other.top:.0f})): crop it to one")
    field = cal.with_pitch(skin)
    reading = with_panel_counter(image, field, skin, read(image, field, skin))
    if reading.face is None:
        raise VisionError("the face could not be read: the board is covered or only half drawn")
    if reading.counter is None and reading.counted:
        raise VisionError("the mine counter could not be read: the board is covered or only half drawn")
    board = reading.game_board()  # refuses when any cell is unknown
    advice, note = None, None
    if reading.face == "playing":
        try:
            advice = advise(board, deadline=DEFAULT_SECONDS)
        except InconsistentBoardError as err:
            note = f"no advice: {err}"
    if args.out:
        from bot.imagefile import write_image
        from bot.play.annotate import annotate

        try:
            written = write_image(args.out, annotate(image, field, advice))
        except cv2.error:  # e.g. a name with no image extension
            written = False
        if not written:
            raise BotError(f"cannot write {args.out!r}: give a writable path ending in .png, .jpg or .bmp")
    grid = reading.grid().splitlines()
    if args.json:
        obj = {"grid": grid, "face": reading.face, "counter": reading.counter, "field": field_dict(field)}
        obj["skin"] = skin.name
        obj["advice"] = advice_dict(board, advice) if advice else None
        print(to_json(obj))
        return Exit.OK
    f = field_dict(field)
    print(f"skin {skin.name}, scale {cal.scale:g}, field {f['cols']}x{f['rows']} cells at ({f['left']}, {f['top']}), "
          f"cell {f['cell_w']} px")
    timer = "" if reading.timer is None else f", timer {reading.timer}"
    print(f"face {reading.face}, counter {reading.counter}{timer}")
    print("\n".join(grid))
    if advice is not None:
        print()
        print(advice_text(board, advice))
    elif note:
        print(note)
    return Exit.OK
