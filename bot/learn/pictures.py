"""Learn a Minesweeper look from saved screenshots alone: no clicks, no labels from the user.

The live learner (bot.learn.live) names what it sees by what it did; pictures have no history, so
every name here comes from the game's logic across all of them at once:

- the cells of every picture are grouped by look (bot.learn.looks), one vocabulary for all pictures;
- the roles that are not numbers are a small search, each hypothesis checked against the rules:
  a lost picture shows every mine (the mine look, the one exploded cell, the flags on mines), so
  each number look must show one and the same count of those around every cell of it (the
  "lost boards name the mines" of the live learner), and every picture must be a position some
  mine layout explains (the SAT core, bot.learn.labels);
- the numbers are named by the lost pictures' counts, then by consistency (bot.learn.labels.settle);
- the face's looks by the state of the board beside it (a shown mine: lost; nothing covered
  left but flags: won; else playing), the face's place by where the pictures differ above the
  field's middle;
- the counter's digits from pictures whose mine total is known (mines shown, or the board's
  standard total), the counter showing the total less the flags down.

Where the field is comes from the skins the bot has (any of them, read only for geometry) or,
for a look none of them knows, from a fresh game among the pictures (bot.vision.lattice).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise, product

import cv2
import numpy as np

from bot.errors import BotError, VisionError
from bot.learn.face import button_around
from bot.learn.labels import COVERED_CLASS, FLAGGED_CLASS, fits, settle
from bot.learn.learnt import STANDARD_MINES, Learnt, learnt_frame
from bot.learn.led import complete_digits, crops, place, text_of, units_box
from bot.learn.looks import Looks
from bot.vision.calibrate import calibrate
from bot.vision.lattice import Lattice, find_lattice
from bot.vision.skin import Skin

#: Hypotheses about the roles tried at most (each is a few numpy passes).
MAX_HYPOTHESES = 200_000


class PicturesError(BotError):
    """The pictures do not teach a look: no field in them, or no naming fits them all."""


@dataclass
class Picture:
    name: str
    image: np.ndarray
    lattice: Lattice
    ids: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), int))  # look of every cell


@dataclass(frozen=True)
class Roles:
    unopened: int
    flag: int | None
    exploded: int | None
    mine: int | None
    wrong_flag: int | None
    names: dict[int, int]  # number looks -> number
    could: dict[int, set[int]] = field(default_factory=dict)  # number looks not named: what they could be

    def of(self) -> dict[int, str]:
        out = {k: "number" for k in self.names}
        for role in ("unopened", "flag", "exploded", "mine", "wrong_flag"):
            k = getattr(self, role)
            if k is not None:
                out[k] = role
        return out


def _lattice_of(image: np.ndarray, skins: list[Skin]) -> Lattice:
    """The field: found by a skin the bot has (geometry only), else as a fresh game's lattice."""
    if skins:
        try:
            cal, skin = calibrate(image, skins)
        except VisionError:
            pass
        else:
            pitch = skin.cell * cal.scale
            whole = abs(pitch - round(pitch)) <= 0.02
            off = max(abs(cal.left - round(cal.left)), abs(cal.top - round(cal.top))) > 0.02
            if whole and off:  # a clone's own face placed the field a fraction of a pixel off
                # (Minesweeper Arbiter: 12.25, 98.5 for 12, 99): the cells' own lattice, where it agrees
                lat = _own_lattice(image)
                if lat is not None and (lat.rows, lat.cols, lat.pitch) == (cal.rows, cal.cols, round(pitch)) \
                        and abs(lat.left - cal.left) <= 1 and abs(lat.top - cal.top) <= 1:
                    return lat
            if not whole or off:
                raise VisionError("the picture is scaled (cells not a whole number of pixels): "
                                  "learn from pictures taken at 100 %")
            return Lattice(round(cal.left), round(cal.top), round(pitch), cal.rows, cal.cols)
    return find_lattice(image)


def _own_lattice(image: np.ndarray) -> Lattice | None:
    try:
        return find_lattice(image)
    except VisionError:
        return None


def locate(named: list[tuple[str, np.ndarray]], skins: list[Skin], say: Callable[[str], None]) -> list[Picture]:
    found: list[Picture] = []
    missed: list[tuple[str, np.ndarray, str]] = []
    for name, image in named:
        try:
            lat = _lattice_of(image, skins)
        except VisionError as err:
            missed.append((name, image, str(err)))
            continue
        found.append(Picture(name, image, lat))
        say(f"{name}: field {lat.rows}x{lat.cols} of {lat.pitch} px at ({lat.left}, {lat.top})")
    if not found:
        raise PicturesError("no Minesweeper field found in any of the pictures")
    found = _same_field(found, missed, [name for name, _ in named], say)
    pitches = {p.lattice.pitch for p in found}
    if len(pitches) > 1:
        raise PicturesError(f"the pictures show cells of different sizes ({sorted(pitches)} px): one game, one scaling")
    return found


def _same_field(found: list[Picture], missed: list[tuple[str, np.ndarray, str]], order: list[str],
                say: Callable[[str], None]) -> list[Picture]:
    """A game far on may show its field only in part by structure: an opening that takes whole
    rows or columns leaves bot.vision.lattice a smaller block of covered cells, or none. The largest
    field found is tried on each such picture, and taken where that picture shows the field's
    frame at the same place in the same colours (the same window, not a smaller game's)."""
    widest = max(found, key=lambda p: p.lattice.rows * p.lattice.cols)
    lat = widest.lattice
    frame = learnt_frame(widest.image, lat.field)
    if frame is None:
        for name, _, err in missed:
            say(f"{name}: skipped ({err})")
        return found

    def framed(image: np.ndarray) -> bool:
        return learnt_frame(image, lat.field) == frame

    out = {}
    for p in found:
        if p.lattice.rows * p.lattice.cols < lat.rows * lat.cols and framed(p.image):
            say(f"{p.name}: its field is {widest.name}'s, {lat.rows}x{lat.cols} (a part of it only was covered)")
            p = Picture(p.name, p.image, lat)
        out[p.name] = p
    for name, image, err in missed:
        if framed(image):
            say(f"{name}: its field is {widest.name}'s, {lat.rows}x{lat.cols} (too little of it covered to find)")
            out[name] = Picture(name, image, lat)
        else:
            say(f"{name}: skipped ({err})")
    return [out[name] for name in order if name in out]


def group(pictures: list[Picture]) -> Looks:
    """One vocabulary of looks over every picture's cells."""
    first = pictures[0]
    lat = first.lattice
    looks = None
    for p in pictures:
        lat = p.lattice
        tiles = lat.tiles(p.image)  # (a stretched field's cells each from its own start)
        looks = looks or Looks(tiles[0])
        p.ids = looks.classify(tiles).reshape(lat.rows, lat.cols)
    return looks


def _logic(ids: np.ndarray, covered: list[int], flags: list[int]) -> np.ndarray:
    out = ids.astype(np.int64).copy()
    out[np.isin(ids, covered)] = COVERED_CLASS
    out[np.isin(ids, flags)] = FLAGGED_CLASS
    return out


def _lost_names(pictures: list[Picture], roles: dict[str, int | None],
                memo: dict[tuple, tuple[dict[int, int], frozenset[int]]] | None = None) -> dict[int, int] | None:
    """Each number look's count of mines around it on the lost pictures; None where they disagree.
    What a look counts depends only on which looks are mines, so that is worked out once for
    every hypothesis sharing them (`memo`); the unopened looks only leave the count out."""
    if roles["exploded"] is None:
        return {}
    mine_looks = frozenset(k for k in (roles["exploded"], roles["mine"], roles["flag"]) if k is not None)
    memo = {} if memo is None else memo
    key = (roles["exploded"], mine_looks)
    if key not in memo:
        memo[key] = _counts_by_look(pictures, roles["exploded"], mine_looks)
    counts, clashing = memo[key]
    covered = {roles["unopened"], roles["wrong_flag"]}
    if clashing - covered:
        return None
    names = {k: v for k, v in counts.items() if k not in covered}
    if len(set(names.values())) != len(names):
        return None
    return names


def _counts_by_look(pictures: list[Picture], exploded: int, mine_looks: frozenset[int]
                    ) -> tuple[dict[int, int], frozenset[int]]:
    """On the pictures that show the exploded look, with `mine_looks` the mines: each other look's
    count of mines around its cells, where every cell of it agrees, and the looks whose cells
    disagree."""
    values: dict[int, set[int]] = {}
    for p in pictures:
        if not (p.ids == exploded).any():
            continue
        mines = np.isin(p.ids, list(mine_looks))
        padded = np.pad(mines.astype(np.int8), 1)
        rows, cols = mines.shape
        around = sum(padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
                     for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
        opened = ~mines
        for k, v in set(zip(p.ids[opened].tolist(), around[opened].tolist())):
            values.setdefault(int(k), set()).add(int(v))
    counts = {k: next(iter(v)) for k, v in values.items() if len(v) == 1}
    return counts, frozenset(k for k, v in values.items() if len(v) > 1)


def _hypotheses(pictures: list[Picture], count: int) -> Iterator[dict[str, int | None]]:
    """Role assignments worth checking. The exploded look shows once at most per picture; the
    mine and wrong-flag looks only in pictures that show it; the unopened look covers some
    picture's cells more than any other in at least one picture."""
    per = np.array([[int((p.ids == k).sum()) for k in range(count)] for p in pictures])
    exploded = [k for k in range(count) if per[:, k].max() == 1]
    unopened = sorted({int(np.argmax(row)) for row in per} | {k for k in range(count) if per[:, k].max() > 0},
                      key=lambda k: -per[:, k].sum())
    for x in [None, *exploded]:
        lost = per[:, x] > 0 if x is not None else np.zeros(len(pictures), bool)
        only_lost = [k for k in range(count) if k != x and per[~lost, k].sum() == 0 and per[lost, k].sum() > 0]
        for u, f in product(unopened, [None, *range(count)]):
            if f == u or (x is not None and f == x):
                continue
            for m, w in product([None, *only_lost], [None, *only_lost]):
                if x is None and (m is not None or w is not None):
                    continue
                if len({u, f, x, m, w} - {None}) != len([v for v in (u, f, x, m, w) if v is not None]):
                    continue
                yield {"unopened": u, "flag": f, "exploded": x, "mine": m, "wrong_flag": w}


def name_roles(pictures: list[Picture], count: int, say: Callable[[str], None]) -> Roles:
    """The one reading of the looks under which every picture is a real game."""
    fitting: list[Roles] = []
    tried = 0
    memo: dict[tuple, tuple[dict[int, int], frozenset[int]]] = {}
    for roles in _hypotheses(pictures, count):
        tried += 1
        if tried > MAX_HYPOTHESES:
            break
        names = _lost_names(pictures, roles, memo)
        if names is None:
            continue
        special = {v for v in roles.values() if v is not None}
        numbers = [k for k in range(count) if k not in special]
        if any(k in special for k in names):
            continue
        frames = [_logic(p.ids, [roles["unopened"]], [roles["flag"]] if roles["flag"] is not None else [])
                  for p in pictures if roles["exploded"] is None or not (p.ids == roles["exploded"]).any()]
        if not fits(frames, names):
            continue
        sure, possible, namings = settle(frames, numbers, names)
        if namings == 0:
            continue
        fitting.append(Roles(roles["unopened"], roles["flag"], roles["exploded"], roles["mine"],
                             roles["wrong_flag"], sure, {k: v for k, v in possible.items() if k not in sure}))
    if not fitting:
        raise PicturesError("no reading of the looks makes every picture a real game: "
                            "are they all of one game, and whole?")
    # Several readings can fit when a look is rare; the one naming the most looks as what they
    # show (a flag, a shown mine) over "a number never pinned down" is the informative one.
    fitting.sort(key=lambda r: (-len(r.of()), -len(r.names)))
    best = fitting[0]
    rivals = [r for r in fitting[1:] if len(r.of()) == len(best.of()) and r != best]
    if rivals:
        differ = sorted({role for r in rivals for k, role in r.of().items() if best.of().get(k) != role})
        say(f"the pictures fit {len(rivals) + 1} readings (differing on {', '.join(differ)}): "
            "add pictures of a lost game to settle them")
        raise PicturesError("the pictures do not tell the looks apart for certain: add a lost game's picture")
    return best


def state_of(p: Picture, roles: Roles) -> str:
    """The face a picture's board calls for: a shown mine is a loss; nothing covered left but
    flags is a win (the game flags the mines it ends on, or leaves them covered: both count)."""
    if roles.exploded is not None and (p.ids == roles.exploded).any():
        return "lost"
    if not (p.ids == roles.unopened).any():
        return "won"
    return "playing"


def _panel(p: Picture, anchor: str, dx: int, width: int, height: int) -> np.ndarray | None:
    """The strip above the field, placed from the field's left, centre or right edge."""
    lat = p.lattice
    x0 = {"left": lat.left, "centre": lat.left + lat.width // 2, "right": lat.left + lat.width}[anchor] + dx
    y0 = lat.top - height
    if x0 < 0 or y0 < 0 or x0 + width > p.image.shape[1]:
        return None
    return p.image[y0 : lat.top, x0 : x0 + width]


def learn_face(pictures: list[Picture], states: list[str], say: Callable[[str], None]) -> tuple[dict, tuple] | None:
    """The face's sprites by state, and its box in the first picture: where the pictures of
    different states differ, above the middle of the field."""
    pitch = pictures[0].lattice.pitch
    half, height = 3 * pitch, 5 * pitch
    panels = [_panel(p, "centre", -half, 2 * half, height) for p in pictures]
    by_state = {s: panels[i] for i, s in reversed(list(enumerate(states))) if panels[i] is not None}
    if len(by_state) < 2:
        say("face: every picture shows the same state (or no room above the field): the face is not learnt")
        return None
    changed = np.zeros(next(iter(by_state.values())).shape[:2], np.uint8)
    shown = list(by_state.values())
    for a, b in pairwise(shown):
        changed |= (np.abs(a.astype(np.int16) - b).max(axis=2) > 40).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(cv2.dilate(changed, np.ones((5, 5), np.uint8)))
    if count < 2:
        say("face: nothing above the field's middle differs between states: the face is not learnt")
        return None
    best = min(range(1, count), key=lambda i: abs(centroids[i][0] - half) + (height - centroids[i][1]))
    x, y, w, h, _ = (int(v) for v in stats[best])
    first = pictures[0]
    ox, oy = first.lattice.left + first.lattice.width // 2 - half, first.lattice.top - height
    bx, by, bw, bh = button_around(first.image, (ox + x, oy + y, w, h))
    side = max(bw, bh)
    box = (bx + bw // 2 - side // 2, by + bh // 2 - side // 2, side, side)
    rel = (box[0] - ox - half, box[1] - first.lattice.top)  # from the field's centre and top
    faces: dict[str, np.ndarray] = {}
    for p, state in zip(pictures, states):
        lat = p.lattice
        x0, y0 = lat.left + lat.width // 2 + rel[0], lat.top + rel[1]
        crop = p.image[y0 : y0 + side, x0 : x0 + side]
        if crop.shape[:2] != (side, side):
            continue
        if state in faces and float(np.abs(faces[state].astype(np.int16) - crop).mean()) > 8:
            say(f"face: {p.name} shows a {state} face unlike an earlier picture's; the first one is kept")
            continue
        faces.setdefault(state, crop.copy())
    say(f"face: {side} px square, faces {', '.join(sorted(faces))}")
    return faces, box


def counter_value(p: Picture, roles: Roles, state: str) -> int | None:
    """What the mine counter must show: the mine total less the flags down, where the total is known."""
    flags = sum(int((p.ids == k).sum()) for k in (roles.flag, roles.wrong_flag) if k is not None)
    covered = int((p.ids == roles.unopened).sum())
    if state == "lost":
        total = sum(int((p.ids == k).sum()) for k in (roles.mine, roles.exploded, roles.flag) if k is not None)
    elif state == "won":
        total = flags + covered
    else:
        total = STANDARD_MINES.get((p.lattice.rows, p.lattice.cols))
    return None if total is None else total - flags


def learn_counter(
    pictures: list[Picture], values: list[int | None], face: tuple, say: Callable[[str], None]
) -> tuple[list[tuple[int, int, int, int]], dict[str, np.ndarray]] | None:
    """The counter's digit boxes (in the first picture) and sprites: the counter is the part of
    the panel beside the face that changes with the flags down, on the left or on the right."""
    known = [(p, v) for p, v in zip(pictures, values) if v is not None]
    if len(known) < 3:
        say("counter: fewer than three pictures with a known mine count: the counter is not learnt")
        return None
    first = pictures[0]
    pitch = first.lattice.pitch
    height = 5 * pitch
    # A cell's width of frame either side, where every picture has it (a window at the screen's edge).
    out_left = min(pitch, *(p.lattice.left for p, _ in known))
    out_right = min(pitch, *(p.image.shape[1] - p.lattice.left - p.lattice.width for p, _ in known))
    inner = min(p.lattice.width // 2 - face[2] // 2 for p, _ in known)  # up to the face
    for anchor in ("left", "right"):
        width = out_left + inner if anchor == "left" else inner + out_right
        dx = -out_left if anchor == "left" else -inner
        panels = [_panel(p, anchor, dx, width, height) for p, _ in known]
        pairs = [(panel, v) for panel, (_, v) in zip(panels, known) if panel is not None]
        if len(pairs) < 3:
            continue
        pairs.sort(key=lambda pv: pv[1])
        frames, vals = [f for f, _ in pairs], [v for _, v in pairs]
        # Pictures apart in the last digit alone show where it is, whatever their order.
        pairs = [(i, j) for i in range(len(vals)) for j in range(i + 1, len(vals))
                 if vals[i] // 10 == vals[j] // 10 and vals[i] != vals[j]]
        units = units_box(frames, [], pairs if len(pairs) >= 2 else None)
        if units is None:
            continue
        try:
            sprites = crops(frames, vals, units)
        except ValueError:
            continue
        boxes = None
        for frame, value in zip(frames, vals):
            boxes = boxes or place(frame, value, sprites, units)
        if boxes is None:
            continue
        step = boxes[1][0] - boxes[0][0]
        ux, uy, uw, uh = units
        units = (ux + (uw - step) // 2, uy, step, uh)
        sprites = crops(frames, vals, units)
        base_x = {"left": first.lattice.left, "right": first.lattice.left + first.lattice.width}[anchor] + dx
        base_y = first.lattice.top - height
        start = units[0] - (len(boxes) - 1) * step
        for frame, value in zip(frames, vals):  # every digit shown, not only the last ones
            for k, ch in enumerate(text_of(value, len(boxes)) if value >= 0 else ""):
                crop = frame[uy : uy + uh, start + k * step : start + (k + 1) * step]
                if ch not in sprites and crop.shape[:2] == (uh, step):
                    sprites[ch] = crop.copy()
        boxes = [(base_x + start + k * step, base_y + uy, step, uh) for k in range(len(boxes))]
        seen = "".join(sorted(sprites))
        sprites = complete_digits(sprites)
        drawn = "".join(sorted(set(sprites) - set(seen)))
        say(f"counter: on the {anchor}, {len(boxes)} digits of {step} x {uh} px; digits seen {seen}"
            + (f", drawn from their segments {drawn}" if drawn else ""))
        return boxes, sprites
    say("counter: no part of the panel changes with the flags as a counter would: the counter is not learnt")
    return None


def learn_pictures(
    named: list[tuple[str, np.ndarray]], skins: list[Skin], say: Callable[[str], None] = lambda _: None
) -> Learnt:
    """A look learnt from screenshots of one game (several states of it: a lost one names the most)."""
    pictures = locate(named, skins, say)
    looks = group(pictures)
    say(f"{len(looks)} cell looks in {len(pictures)} pictures")
    roles = name_roles(pictures, len(looks), say)
    first = pictures[0]
    learnt = Learnt(first.lattice, games=len(pictures))
    for k, role in roles.of().items():
        if role == "number":
            learnt.cells[str(roles.names[k])] = looks.samples[k]
        else:
            learnt.cells[role] = looks.samples[k]
    special = {roles.unopened, roles.flag, roles.exploded, roles.mine, roles.wrong_flag}
    learnt.unnamed = [sorted(roles.could.get(k, set(range(9))) - set(roles.names.values()))
                      for k in range(len(looks)) if k not in special and k not in roles.names]
    states = [state_of(p, roles) for p in pictures]
    face = learn_face(pictures, states, say)
    if face is not None:
        learnt.faces, learnt.face_box = face
        counter = learn_counter(pictures, [counter_value(p, roles, s) for p, s in zip(pictures, states)],
                                learnt.face_box, say)
        if counter is not None:
            learnt.counter_boxes, learnt.digits = counter
    learnt.frame = learnt_frame(first.image, first.lattice.field)
    return learnt
