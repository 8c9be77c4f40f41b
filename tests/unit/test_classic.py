"""The classic grey skin: boards from simulated games, drawn as a Winmine window, read back exactly."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bot.board import FLAG
from bot.games.simulator import Game, Level
from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import TEMPLATES, load_skins
from tests.support.classic_window import draw_window

SKINS = load_skins()


def boards(seed: int):
    """Start, middle and end of a game, with flags and question marks, as the player sees them."""
    rng = np.random.default_rng(seed)
    level = [Level(9, 9, 10), Level(16, 16, 40), Level(16, 30, 99)][seed % 3]
    game = Game(level, "safe", seed)
    yield game.board().cells, level.mines, "playing"
    game.open((0, 0))
    safe = np.argwhere(~game.mine)
    for cell in safe[rng.permutation(len(safe))][: len(safe) // 2]:
        game.open(tuple(cell))
    if game.status == "playing":
        mines = np.argwhere(game.mine & (game.shown == -1))
        for cell in mines[:3]:
            game.flag(tuple(cell))
        cells = game.board().cells
        for cell in mines[3:5]:
            cells[tuple(cell)] = -3
        yield cells, level.mines - int((cells == FLAG).sum()), "playing"
    boom = np.argwhere(game.mine & (game.shown == -1))
    if len(boom) and game.status == "playing":
        game.open(tuple(boom[0]))
    face = game.status if game.status != "playing" else "lost"
    yield game.board().cells, level.mines - int((game.shown == FLAG).sum()), face


@pytest.mark.parametrize("scale", (1.0, 1.25, 1.5, 2.0))
@pytest.mark.parametrize("seed", range(3))
def test_classic_boards_read_back_exactly(seed, scale):
    for i, (cells, counter, face) in enumerate(boards(seed)):
        at = (40 + 97 * i + 13 * seed, 30 + 61 * seed)
        image, (fx, fy) = draw_window(cells, counter, face, TEMPLATES / "classic", at=at)
        if scale != 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        cal, skin = calibrate(image, SKINS)
        assert skin.name == "classic" and cal.scale == scale
        assert (cal.rows, cal.cols) == cells.shape
        assert abs(cal.left - fx * scale) <= 0.5 and abs(cal.top - fy * scale) <= 0.5
        reading = read(image, cal.with_pitch(skin), skin)
        assert not reading.unknown.any()
        assert np.array_equal(reading.codes, cells)
        assert (reading.face, reading.counter) == (face, counter)


@pytest.mark.parametrize(("face", "tried"), [(1.08, [1.0, 1.25, 1.08]), (1.0, [1.0]), (1.45, [1.5, 1.25, 1.45]),
                                             (2.1, [2.0]), (0.92, [1.0, 0.8, 0.92]), (0.78, [0.8])])
def test_the_face_alone_never_sets_the_scale(face, tried):
    """The display's 25 % steps near the face's measure are tried first, the measure itself last;
    the field grown and read at each decides (a drawn face can match best a few per cent off).
    80 %, a shrunk screenshot's size, only for a face measured under 100 %."""
    from bot.vision.calibrate import _scales_to_try

    assert _scales_to_try(face) == tried


@pytest.mark.parametrize("factor", (2, 3))
def test_cells_bigger_than_the_face_says(factor):
    """ace-minesweeper draws 24, 36 and 48 px cells at its smaller levels and keeps its face and
    counter: a field only the cells of which are scaled is found and read, the face and counter at
    their own size, and the calibration keeps both scales through its saved form."""
    from bot.vision.calibrate import Calibration

    cells, counter, face = list(boards(0))[1]  # Beginner, mid-game, flags and question marks
    image, (fx, fy) = draw_window(cells, counter, face, TEMPLATES / "classic", screen=(1024, 768), at=(400, 80))
    rows, cols = cells.shape
    border = 6  # the field and the frame round it, drawn `factor` times bigger, under the same face
    part = image[fy - border : fy + rows * 16 + border, fx - border : fx + cols * 16 + border]
    big = cv2.resize(part, None, fx=factor, fy=factor, interpolation=cv2.INTER_NEAREST)
    left, top = fx + cols * 8 - cols * 8 * factor, fy
    skin = next(s for s in SKINS if s.name == "classic")  # the counter keeps its place from the field's left
    (dx, dy), (h, w) = skin.counter_offset, skin.digit_sprites.shape[1:3]
    led = image[fy + dy : fy + dy + h, fx + dx : fx + dx + 3 * w].copy()
    image[top - border * factor : top - border * factor + big.shape[0],
          left - border * factor : left - border * factor + big.shape[1]] = big
    image[fy + dy : fy + dy + h, left + dx : left + dx + 3 * w] = led
    cal, skin = calibrate(image, SKINS)
    assert (cal.scale, cal.cell_scale, cal.rows, cal.cols) == (1.0, factor, rows, cols)
    assert (round(cal.left), round(cal.top)) == (left, top)
    cal = Calibration.from_json(cal.to_json())
    reading = read(image, cal.with_pitch(skin), skin)
    assert not reading.unknown.any() and np.array_equal(reading.codes, cells)
    assert (reading.face, reading.counter) == (face, counter)


def test_the_board_is_looked_for_in_the_game_s_window_first(tmp_path):
    """Two boards on the screen (a picture of one in a browser, say): with the game's window known
    (EnumWindows, xdotool), the board found is the one inside it, in screen pixels."""
    from bot.vision.calibrate import locate

    cells, counter, face = list(boards(0))[1]
    first, (fx1, fy1) = draw_window(cells, counter, face, TEMPLATES / "classic", at=(20, 20))
    second, (fx2, fy2) = draw_window(cells, counter, face, TEMPLATES / "classic", at=(500, 300))
    screen = first.copy()
    screen[300:, 500:] = second[300:, 500:]
    window = (500, 300, cells.shape[1] * 16 + 24, cells.shape[0] * 16 + 67)
    cal, _, fresh = locate(screen, SKINS, tmp_path / "p.json", within=window)
    assert fresh and (round(cal.left), round(cal.top)) == (fx2, fy2)
    cal, _, _ = locate(screen, SKINS, None, within=(0, 0, 60, 60))  # nothing there: the whole screen
    assert (round(cal.left), round(cal.top)) in ((fx1, fy1), (fx2, fy2))


#: The segments each LED character lights (a-g: top, upper right, lower right, bottom, lower left,
#: upper left, middle), as the drawn clone fonts light them.
_LIT = {"0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg",
        "7": "abc", "8": "abcdefg", "9": "abcdfg", "minus": "g"}


def _clone_sprites(folder) -> None:
    """A classic clone's own face and LED font over the classic cells (Arbiter, Minesweeper X and
    the web clones each draw theirs): a bigger smiley with upright eyes and a wide grin on its
    button, square segments of even width, unlit ones plain dark red, no dither."""
    import shutil

    shutil.copytree(TEMPLATES / "classic", folder)
    for kind in ("playing", "pressed", "won", "lost"):
        img = np.full((24, 24, 3), 192, np.uint8)
        img[0, :], img[:, 0], img[-1, :], img[:, -1] = 255, 255, 96, 96
        cv2.circle(img, (12, 12), 10, (0, 0, 0), -1)
        cv2.circle(img, (12, 12), 9, (0, 255, 255), -1)
        if kind == "won":
            img[8:11, 5:19] = 0
        else:
            img[7:11, 8], img[7:11, 15] = 0, 0
        cv2.line(img, (7, 15), (17, 15), (0, 0, 0), 2)
        cv2.imwrite(str(folder / f"face_{kind}.png"), img)
    bars = {"a": (2, 1, 11, 3), "b": (9, 2, 11, 11), "c": (9, 12, 11, 21), "d": (2, 19, 11, 21),
            "e": (1, 12, 3, 21), "f": (1, 2, 3, 11), "g": (2, 10, 11, 12)}
    for name, lit in _LIT.items():
        img = np.zeros((23, 13, 3), np.uint8)
        for seg, (x0, y0, x1, y1) in bars.items():
            img[y0:y1, x0:x1] = (0, 0, 255) if seg in lit else (0, 0, 110)
        cv2.imwrite(str(folder / f"digit_{name}.png"), img)


@pytest.mark.parametrize("scale", (1.0, pytest.param(1.5, marks=pytest.mark.full), 2.0))  # (1.5: 8 s)
def test_a_clone_with_its_own_face_and_led_font_is_read_with_the_classic_skin(tmp_path, scale):
    """Every cell, the counter by its lit segments (bot.vision.led) and the face's state off the
    board where only its yellow disc is seen (bot.vision.reader.has_disc); its own face matches
    no drawn sprite, so the field is found by its cells where the face cannot place it."""
    clone = tmp_path / "clone"
    _clone_sprites(clone)
    classic = next(s for s in SKINS if s.name == "classic")
    for i, (cells, counter, face) in enumerate(boards(scale == 1.5)):
        image, _ = draw_window(cells, counter, face, clone, at=(40 + 50 * i, 30))
        if scale != 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        cal, skin = calibrate(image, SKINS)
        assert skin is classic and (cal.rows, cal.cols) == cells.shape
        field = cal.with_pitch(skin)
        reading = read(image, field, skin)
        assert not reading.unknown.any() and np.array_equal(reading.codes, cells)
        assert (reading.face, reading.counter) == (face, counter)


def _fresh_clone(folder, level: tuple[int, int, int], dx: int, dy: int) -> tuple[np.ndarray, int, int]:
    """A fresh board of the drawn clone, its field (frame and all below it) moved by (dx, dy)
    from where our face puts it; and the field's true top-left corner."""
    rows, cols, mines = level
    image, (fx, fy) = draw_window(np.full((rows, cols), -1, np.int8), mines, "playing", folder, at=(60, 40))
    top, left, h, w = fy - 3, fx - 3, image.shape[0], image.shape[1]
    moved = image[top : h - dy, max(left, left - dx) : w - max(dx, 0)].copy()
    image[top + dy :, left + dx : left + dx + moved.shape[1]] = moved
    return image, fx + dx, fy + dy


@pytest.mark.parametrize("level", ((8, 8, 10), (16, 30, 99)))
def test_a_clone_whose_field_lies_a_few_pixels_from_our_face_s_place_is_read_where_it_is(tmp_path, level):
    """A clone lays its window out its own way (Arbiter under Wine 8: its field 1 px right and 2 px
    (Beginner) or 3 px (Expert) lower than under winmine's face). Grown from where our face puts it,
    the field's covered tiles are 1-3 px off, near enough to the opened 0 to read as one: a fresh
    board of 0s, its face misread as won. The field is found where its cells are."""
    clone = tmp_path / "clone"
    _clone_sprites(clone)
    rows, cols, mines = level
    image, x, y = _fresh_clone(clone, level, 1, 2 if rows == 8 else 3)
    cal, skin = calibrate(image, SKINS)
    assert (cal.rows, cal.cols, cal.scale) == (rows, cols, 1.0)
    assert abs(cal.left - x) < 0.25 and abs(cal.top - y) < 0.25
    reading = read(image, cal.with_pitch(skin), skin)
    assert (reading.codes == -1).all() and (reading.face, reading.counter) == ("playing", mines)


def test_a_clone_whose_field_lies_further_off_is_refused_never_read_as_0s(tmp_path):
    """Further off than the cells are looked for round the face, covered tiles cut at another
    pitch (20 px cells over 16 px tiles, or four tiles as one 32 px cell) can read as opened 0s:
    a board whose counter shows more mines than it has covered cells is none the game shows
    (bot.vision.reader.Reading.counter_fits). Such a field, 6 px below our face's place, was taken
    as 13 x 13 opened 0s at 125 % with its face read as won; now no board is found."""
    from bot.errors import VisionError
    from bot.vision.reader import Reading

    zeros = np.zeros((9, 9), np.int8)
    unsure = np.zeros((9, 9), bool)
    assert not Reading(zeros, zeros.astype(float), unsure, "won", 1.0, 10, 1.0).counter_fits
    zeros[:2, :5] = -1
    assert Reading(zeros, zeros.astype(float), unsure, "playing", 1.0, 10, 1.0).counter_fits
    clone = tmp_path / "clone"
    _clone_sprites(clone)
    image, _, _ = _fresh_clone(clone, (16, 16, 40), 0, 6)
    try:
        cal, skin = calibrate(image, SKINS)
    except VisionError:
        return
    reading = read(image, cal.with_pitch(skin), skin)
    assert (cal.rows, cal.cols) == (16, 16) and (reading.codes == -1).all(), cal


#: A seven-segment font like Arbiter's: digits 11 x 21 px, 3 px strokes, 2 px apart (x0, y0, x1, y1).
_BARS = {"a": (1, 0, 10, 3), "b": (8, 1, 11, 10), "c": (8, 11, 11, 20), "d": (1, 18, 10, 21),
         "e": (0, 11, 3, 20), "f": (0, 1, 3, 10), "g": (1, 9, 10, 12)}


def _led_panel(text: str, cut: int) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """Three LED digits on their black panel in grey chrome, unlit segments dark red, the panel's
    last `cut` columns drawn over by the chrome; and where the panel is meant to be."""
    img = np.full((40, 64, 3), 192, np.uint8)
    img[8:31, 10:50] = 0  # (a pixel of panel round the digits)
    for k, ch in enumerate(text):
        for seg, (x0, y0, x1, y1) in _BARS.items():
            img[9 + y0 : 9 + y1, 11 + 13 * k + x0 : 11 + 13 * k + x1] = (0, 0, 255) if seg in _LIT[ch] else (0, 0, 110)
    img[:, 50 - cut : 50] = 192
    return img, (10.0, 8.0, 40.0, 23.0)


def test_an_led_panel_drawn_cut_short_is_read_while_each_segment_shows():
    """Arbiter under Wine 8 draws its counter's panel short: the last digit's right segments show
    one column of three. Equal slices of the shorter panel took a stroke of the neighbour into the
    last digit, and no counter was read (so no clone, so no board). The digits are cut apart where
    the panel is dark between them; a digit whose right segments are cut away entirely is read as
    nothing, never as another number."""
    from bot.vision.led import read_led

    values = ("010", "099", "123", "456", "789", "808", "111", "000", "940", "361")
    for text in values:
        for cut in (0, 1, 2, 3):
            image, around = _led_panel(text, cut)
            assert read_led(image, around, 3)[0] == int(text), (text, cut)
        for cut in (4, 5, 6):
            image, around = _led_panel(text, cut)
            assert read_led(image, around, 3)[0] in (None, int(text)), (text, cut)


def test_grey_cells_and_a_smiley_without_an_led_counter_are_not_taken_for_the_classic_game():
    """A look of grey raised cells with its own digits and a text counter (the toy game) is left to
    the learner: cells and a yellow disc alone would read its fresh board, then stop at its first
    number, where the learner would have learnt its digits."""
    from bot.errors import VisionError
    from bot.games.simulator import parse_level
    from tests.support.toy_game import ToyGame

    game = ToyGame(parse_level("9x9x10"), scale=1.0, at=(0, 0), seed=11, screen=(9 * 16 + 24, 9 * 16 + 67))
    with pytest.raises(VisionError):
        calibrate(game.grab(), SKINS)
