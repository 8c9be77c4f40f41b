"""`calibrate`: where the board is and which skin draws it; `--learn`, live or from pictures."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.commands.common import Exit, field_dict, learnt_root_of, load_image, templates_root
from bot.errors import BotError, VisionError


def cmd_calibrate(args: argparse.Namespace) -> Exit:

    from bot.report import to_json
    from bot.screen.capture import Screen
    from bot.vision.calibrate import locate
    from bot.vision.skin import load_skins

    if args.pictures is not None and not args.learn:
        raise BotError("--from DIR goes with --learn: calibrate --learn --from DIR")
    if args.learn and args.pictures is not None:
        return _learn_pictures(args)
    if args.learn:
        return _learn(args)
    with Screen() as screen:
        monitor = screen.monitors()[0]
        image = screen.grab()
    skins = load_skins(templates_root(args), names=args.skin)
    cal, skin, fresh = locate(image, skins, Path(args.profile))
    field = cal.with_pitch(skin)
    found = {"skin": skin.name, "scale": cal.scale, "field": field_dict(field), "profile": args.profile,
             "reused": not fresh, "screen_origin": [monitor.left, monitor.top]}
    if args.json:
        print(to_json(found))
    else:
        f = found["field"]
        print(f"{'reused' if not fresh else 'found'} {skin.name} board, {f['rows']} rows x {f['cols']} cols, "
              f"scale {cal.scale:g}, field at ({f['left']}, {f['top']}) cell {f['cell_w']} px; profile {args.profile}")
    return Exit.OK


def _learn(args: argparse.Namespace) -> Exit:

    from bot.learn.first_sight import learn_look
    from bot.learn.live import write_skin
    from bot.learn.look_file import DescribedLearnt, write_described
    from bot.screen.platform import current
    from bot.vision.calibrate import Calibration, save_profile
    from bot.vision.skin import load_skin

    names, say = _learn_target(args)
    current().prepare()
    folder = learnt_root_of(args) / names[0]
    known = load_skin(folder) if (folder / "skin.json").exists() else None  # learn on from an earlier run
    learnt = learn_look(say, games=args.games, known=known)
    if isinstance(learnt, DescribedLearnt):
        write_described(learnt, folder, names[0])
        _report_described(args.json, names[0], folder, learnt)
        return Exit.OK
    write_skin(learnt, folder, names[0])
    lat = learnt.lattice
    save_profile(Path(args.profile),
                 Calibration(names[0], 1.0, lat.left, lat.top, lat.rows, lat.cols, None, *lat.offsets))
    found = {"skin": names[0], "folder": str(folder), "profile": args.profile, "games": learnt.games,
             "learnt": sorted(learnt.cells) + [f"face {f}" for f in sorted(learnt.faces)]}
    _report_learnt(args.json, found, learnt,
                   f"wrote skin {names[0]!r} to {folder} after {learnt.games} game(s); profile {args.profile}")
    return Exit.OK


def _learn_pictures(args: argparse.Namespace) -> Exit:
    """calibrate --learn --from DIR: a skin from saved screenshots alone (bot.learn.pictures)."""

    from bot.errors import DescribedError
    from bot.learn.described import learn_described
    from bot.learn.live import write_skin
    from bot.learn.look_file import write_described
    from bot.learn.pictures import PicturesError, learn_pictures
    from bot.vision.skin import load_skins

    names, say = _learn_target(args)
    where = Path(args.pictures)
    if not where.is_dir():
        raise BotError(f"--from {args.pictures!r}: not a folder of screenshots")
    paths = sorted(p for p in where.iterdir() if p.suffix.lower() in PICTURE_SUFFIXES)
    named, lossless = [], []
    for path in paths:
        if path.suffix.lower() == ".gif":  # a recorded game: some of its frames, palette noise and all
            named += _gif_frames(path, say)
            continue
        try:
            image, lossy = load_image(str(path))
        except BotError as err:
            say(f"{path.name}: skipped ({err})")
            continue
        named.append((path.name, image))
        if not lossy:  # compression noise would split one look of cells by pixels into many, or join two
            lossless.append((path.name, image))
    if not named:
        raise BotError(f"no screenshots in {args.pictures!r}")
    folder = learnt_root_of(args) / names[0]
    try:  # the skins known, for where the field is (never the one being written)
        skins = [s for s in load_skins() if s.folder is None or s.folder.resolve() != folder.resolve()]
    except VisionError:
        skins = []
    try:
        if not lossless:
            raise PicturesError("no PNG or BMP screenshots to learn cells by their pixels")
        learnt = learn_pictures(lossless, skins, say)
    except (PicturesError, VisionError) as by_pixels:
        say(f"cells by their pixels: {by_pixels}; now by their colours and shapes")
        try:
            described = learn_described(named, say)
        except (DescribedError, VisionError) as by_colours:
            raise PicturesError(f"{by_pixels} (by pixels); {by_colours} (by colours and shapes)") from by_colours
        write_described(described, folder, names[0])
        _report_described(args.json, names[0], folder, described)
        return Exit.OK
    if len(lossless) < len(named):
        say(f"{len(named) - len(lossless)} lossy picture(s) left out (learn from PNG or BMP screenshots)")
    write_skin(learnt, folder, names[0])
    found = {"skin": names[0], "folder": str(folder), "pictures": learnt.games,
             "learnt": sorted(learnt.cells) + [f"face {f}" for f in sorted(learnt.faces)]
             + [f"digit {d}" for d in sorted(learnt.digits)]}
    _report_learnt(args.json, found, learnt, f"wrote skin {names[0]!r} to {folder} from {learnt.games} picture(s)")
    return Exit.OK


def _report_described(as_json: bool, name: str, folder, described) -> None:
    """What the described learner (bot.learn.described) wrote, as JSON or text."""
    from bot.report import to_json

    found = {"skin": name, "folder": str(folder), "pictures": described.pictures,
             "learnt": described.names, "missing": described.missing, "by_shape": described.by_shape,
             "unnamed": [],
             "field": {"cell_w": round(described.pitch, 2), "cell_h": round(described.pitch, 2),
                       "rows": described.rows, "cols": described.cols},
             "unread": described.unread}
    if as_json:
        print(to_json(found))
        return
    print(f"wrote skin {name!r} to {folder} from {described.pictures} picture(s): a look described by its "
          "colours and digit shapes")
    print("missing: " + (", ".join(described.missing) or "nothing"))
    if described.by_shape:
        print(f"digits never shown, read by their shape alone: {', '.join(described.by_shape)}")


def _learn_target(args: argparse.Namespace):
    """The one skin name --learn writes, and where its progress goes (nowhere with --json)."""
    names = args.skin or ["learnt"]
    if len(names) != 1:
        raise BotError("--learn takes one --skin NAME: the skin to write")
    return names, (lambda _: None) if args.json else (lambda line: print(line, flush=True))


def _report_learnt(as_json: bool, found: dict, learnt, headline: str) -> None:
    """What a learner wrote, as JSON (`found` plus what is missing, unnamed, and the field) or text."""
    from bot.report import to_json

    lat = learnt.lattice
    found = {**found, "missing": learnt.missing, "unnamed": learnt.unnamed,
             "field": {"left": lat.left, "top": lat.top, "cell_w": lat.pitch, "cell_h": lat.pitch,
                       "rows": lat.rows, "cols": lat.cols}}
    if as_json:
        print(to_json(found))
        return
    print(headline)
    print("missing: " + (", ".join(learnt.missing) or "nothing"))
    for could in learnt.unnamed:  # seen, but the game never showed which number it is
        print("a number look seen but not named for sure: it could be " + " or ".join(map(str, could)))


#: What `--from DIR` reads (lossy formats, a GIF's frames among them, go to the described learner only).
PICTURE_SUFFIXES = (".png", ".bmp", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".gif")
#: Frames taken from a GIF, evenly spread, its last among them (a recorded game ends lost or won).
GIF_FRAMES = 6


def _gif_frames(path, say) -> list:
    """Some frames of an animated GIF as (name, BGR image); none, said, where it cannot be read."""
    from PIL import Image

    from bot.imagefile import gif_frames

    try:
        frames = gif_frames(path)
    except (OSError, ValueError, Image.DecompressionBombError) as err:
        say(f"{path.name}: skipped ({err})")
        return []
    picks = sorted({round(k * (len(frames) - 1) / max(1, GIF_FRAMES - 1)) for k in range(GIF_FRAMES)})
    return [(f"{path.name}#{k}", frames[k]) for k in picks]
