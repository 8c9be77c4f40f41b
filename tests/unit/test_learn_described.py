"""calibrate --learn --from DIR on looks whose tiles are not pixel-identical (bot.learn.described):
shaded by their place, glossy, rounded, with gaps, at any pitch.

A look no shipped skin describes ("meadow", drawn by tests/modern_look.py: green covered tiles,
sand-coloured opened ones darkened under the header, digits in a palette of its own) is learnt
from four pictures of one game at one size and must then read other games, at other sizes,
with no cell wrong. The real Windows 7 GIF and Microsoft-app screenshots (third-party, read from
../shared/real-windows-modern) are learnt from some pictures and must read the others with no
cell wrong, the labelled ones exactly where docs/results.md says so.
"""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from bot.board import EXPLODED, FLAG, MINE, UNOPENED, UNREAD
from bot.cli import main
from bot.errors import DescribedError, VisionError
from bot.games.simulator import Game, Level
from bot.imagefile import gif_frames
from bot.learn.described import consistent, learn_described
from bot.learn.look_file import look_json
from bot.vision.calibrate import Calibration, calibrate
from bot.vision.described import DIGITS, CellLook, classify, number_of, read_described
from bot.vision.glyphs import shape_scores
from bot.vision.look import Look
from bot.vision.reader import read
from bot.vision.skin import load_skin, load_skins
from bot.vision.tiles import find_tiles
from tests.support.classic_window import draw_window
from tests.support.modern_look import TEMPLATES, draw_modern, draw_pointer
from tests.unit.test_modern_looks import midgame
from tests.unit.test_real_windows_modern import REAL, truth

EXPERT = Level(16, 30, 99)


def lost(level: Level, seed: int) -> np.ndarray:
    """A board some safe clicks in, then a mine clicked: every mine shown, one exploded."""
    rng = np.random.default_rng(seed)
    game = Game(level, "safe", seed)
    for _ in range(8):
        safe = np.argwhere(~game.mine & (game.board().cells == UNOPENED))
        game.open(tuple(int(v) for v in safe[rng.integers(len(safe))]))
    game.open(tuple(int(v) for v in np.argwhere(game.mine & (game.board().cells == UNOPENED))[0]))
    assert game.status == "lost"
    return game.board().cells.copy()


def meadow(board: np.ndarray, pitch: float) -> np.ndarray:
    rows, cols = board.shape
    screen = (int(cols * pitch + 150), int(rows * pitch + 150))
    return draw_modern(board, "meadow", pitch, at=(40, 40), screen=screen)[0]


@pytest.fixture(scope="module")
def meadow_skin(tmp_path_factory):
    """The meadow look learnt by the command a user types, from three games under way and a lost one."""
    root = tmp_path_factory.mktemp("meadow")
    pictures = root / "pictures"
    pictures.mkdir()
    for i, board in enumerate([midgame(EXPERT, s) for s in (1, 2, 3)] + [lost(EXPERT, 4)]):
        cv2.imwrite(str(pictures / f"p{i}.png"), meadow(board, 27.3))
    code = main(["calibrate", "--learn", "--from", str(pictures), "--skin", "meadow",
                 "--templates", str(root / "templates"), "--json"])
    assert code == 0
    return load_skin(root / "templates" / "meadow")


def test_the_shipped_skins_take_no_board_from_a_look_they_do_not_describe():
    with pytest.raises(VisionError):
        calibrate(meadow(midgame(EXPERT, 1), 27.3), load_skins())


def test_the_mouse_pointer_over_a_picture_learnt_from_teaches_nothing():
    """A recorded game draws the pointer. Over a 2 of one picture (our meadow look), its black and
    white joined the 2's green as a new ink, whose shape named a 6: the look took that ink for
    a 6's colour. Cells under the pointer are now left out of learning, as the reader leaves them."""
    pitch, boards = 27.3, [midgame(EXPERT, s) for s in (1, 2, 3)] + [lost(EXPERT, 4)]
    pictures = [meadow(board, pitch) for board in boards]
    assert boards[2][0, 17] == 2
    corner = 40 + 1.2 * pitch  # (the meadow field's top-left corner, as drawn)
    draw_pointer(pictures[2], corner + 17.45 * pitch, corner + 0.22 * pitch)
    learnt = learn_described([(f"p{i}", p) for i, p in enumerate(pictures)])
    assert "6" not in learnt.names and {"1", "2", "3", "mine", "exploded"} <= set(learnt.names)
    for board, picture in zip(boards, pictures, strict=True):
        tiles = find_tiles(picture)
        codes, known = read_described(picture, *tiles.field.centres(), tiles.tile, learnt.look)
        same = np.where(board == EXPLODED, np.isin(codes, (MINE, EXPLODED)), codes == board)
        assert (same | ~known).all()


def test_a_learnt_look_names_what_the_pictures_show(meadow_skin):
    look = meadow_skin.look
    assert look is not None and meadow_skin.faceless
    assert {1, 2, 3} <= set(look.digits)
    assert look.flag_ink is not None and look.mine_ink is not None and look.exploded is not None
    assert look.unseen_by_shape  # digits the pictures never showed are read by a plain shape alone


@pytest.mark.parametrize(("level", "seed", "pitch"), [(Level(9, 9, 10), 11, 22.0), (Level(16, 16, 40), 12, 33.5),
                                                      (EXPERT, 13, 41.0), (EXPERT, 14, 27.3)])
def test_a_learnt_look_reads_other_games_at_other_sizes(meadow_skin, level, seed, pitch):
    for board in (midgame(level, seed), lost(level, seed)):
        image = meadow(board, pitch)
        cal, skin = calibrate(image, [meadow_skin])
        reading = read(image, cal.with_pitch(skin), skin)
        assert reading.codes.shape == board.shape and reading.framed
        same = np.where(board == EXPLODED, np.isin(reading.codes, (MINE, EXPLODED)), reading.codes == board)
        assert (same | reading.unknown).all()  # never a cell read as what it is not
        if not (board == EXPLODED).any():
            assert not reading.unknown.any()  # a game under way: every cell


def test_pictures_that_teach_no_look_are_refused_in_one_line(tmp_path, capsys):
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    cv2.imwrite(str(fresh / "new.png"), meadow(np.full((16, 30), UNOPENED, np.int8), 27.3))
    assert main(["calibrate", "--learn", "--from", str(fresh), "--templates", str(tmp_path / "t")]) == 2
    err = capsys.readouterr().err
    assert "no opened cell with a number" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    with pytest.raises(DescribedError):
        learn_described([("desk", np.full((400, 600, 3), 90, np.uint8))])


def test_a_look_may_give_a_digit_several_colours_and_read_unseen_digits_by_shape():
    look = Look.from_json({"covered": {"hue": [190, 245], "saturation": [0.3, 1]}, "opened": {"saturation": [0, 0.2]},
                           "digits": {"1": "#4451c3", "3": ["#8a0d10", "#640d13"]}, "unseen_digits": "shape"})
    assert look.digits[3].shape == (2, 3) and look.unseen_by_shape
    assert look_json(look)["digits"]["3"] == ["#8a0d10", "#640d13"]


def test_consistent_tells_a_possible_board_from_an_impossible_one():
    board = np.full((3, 3), UNOPENED, np.int8)
    board[0, 0] = 1
    assert consistent(board)
    board[0, 1] = 0  # a 0 beside a covered cell: the game would have opened it
    assert not consistent(board)
    assert consistent(board, unknown=np.isin(np.arange(9).reshape(3, 3), (1,)))  # unknown: anything
    board[0, 1] = FLAG
    assert consistent(board)


# Real screenshots (third-party pixels, read where they lie).
GIF = REAL / "win7_p1387h_de_30x16_anim.gif"
APP = ["msmodern_andvisk_full_expert_late", "msmodern_andvisk_board_expert_mid"]


def _gif_frames(which: list[int]) -> list[np.ndarray]:
    frames = gif_frames(GIF)
    return [frames[k] for k in which]


def _wrong(name: str, look_skin, scale: float = 1.0) -> tuple[int, int]:
    board, _ = truth(name)
    image = cv2.imread(str(REAL / f"{name}.png"))
    if scale != 1:
        smooth = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=smooth)
    cal, skin = calibrate(image, [look_skin])
    reading = read(image, cal.with_pitch(skin), skin)
    assert reading.codes.shape == board.shape
    codes = np.where((board == EXPLODED) & (reading.codes == MINE), EXPLODED, reading.codes)
    return int(((codes != board) & ~reading.unknown).sum()), int(reading.unknown.sum())


@pytest.mark.skipif(not GIF.exists(), reason=f"no Windows 7 GIF at {GIF} (the shared folder is absent)")
def test_a_look_learnt_from_some_windows7_frames_reads_the_labelled_others(tmp_path):
    pictures = tmp_path / "frames"
    pictures.mkdir()
    for k, image in zip((30, 70, 110, 150, 166), _gif_frames([30, 70, 110, 150, 166])):
        cv2.imwrite(str(pictures / f"f{k:03d}.png"), image)
    assert main(["calibrate", "--learn", "--from", str(pictures), "--skin", "w7", "--templates",
                 str(tmp_path / "t"), "--json"]) == 0
    skin = load_skin(tmp_path / "t" / "w7")
    assert _wrong("win7_p1387h_f000", skin) == (0, 0)
    assert _wrong("win7_p1387h_f082", skin) == (0, 0)
    wrong, unknown = _wrong("win7_p1387h_f167", skin)
    assert wrong == 0 and unknown <= 1  # (its exploded mine, mid-glow)


@pytest.mark.skipif(not all((REAL / f"{n}.png").exists() for n in APP), reason=f"no app screenshots at {REAL}")
def test_a_look_learnt_from_two_app_screenshots_reads_the_others_never_wrong(tmp_path, capsys):
    pictures = tmp_path / "shots"
    pictures.mkdir()
    for name in APP:
        (pictures / f"{name}.png").symlink_to(REAL / f"{name}.png")
    assert main(["calibrate", "--learn", "--from", str(pictures), "--skin", "app", "--templates",
                 str(tmp_path / "t"), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert {"unopened", "0", "1", "2", "3", "4", "flag"} <= set(said["learnt"])
    skin = load_skin(tmp_path / "t" / "app")
    for name in ("msmodern_andvisk_ms2_expert_mid_annotated", "msmodern_andvisk_src5_expert_mid",
                 "msmodern_robinarthur_de_easy9x9_fresh_window"):
        for scale in (0.8, 1.5):
            wrong, unknown = _wrong(name, skin, scale)
            assert wrong == 0 and unknown <= 3


@pytest.mark.skipif(not GIF.exists(), reason=f"no Windows 7 GIF at {GIF} (the shared folder is absent)")
def test_a_gif_of_a_game_is_learnt_from_some_of_its_frames(tmp_path):
    """A recorded game given as it is: six of its frames, spread over it, its lost end among them."""
    pictures = tmp_path / "gif"
    pictures.mkdir()
    (pictures / GIF.name).symlink_to(GIF)
    assert main(["calibrate", "--learn", "--from", str(pictures), "--skin", "g", "--templates",
                 str(tmp_path / "t"), "--json"]) == 0
    skin = load_skin(tmp_path / "t" / "g")
    assert _wrong("win7_p1387h_f082", skin) == (0, 0)  # (frame 82 is not among those learnt from)


def test_a_look_with_no_digit_colours_yet_reads_numbers_by_plain_shape_only():
    """A look being learnt live knows no digit's colour until its first game opens one: ink on an
    opened tile is then a number only by a plain shape, never a crash (CI, GNOME Mines learnt live)."""
    look = Look.from_json({"covered": {"hue": [190, 245], "saturation": [0.3, 1]}, "opened": {"saturation": [0, 0.2]},
                           "digits": {}, "unseen_digits": "shape"})
    ground = np.array([230, 230, 230], np.float64)
    speck = np.zeros((40, 40), bool)
    speck[15:25, 12:30] = True  # a bar: no digit's plain shape
    assert number_of(CellLook(ground, speck, np.array([40, 40, 160.0])), look) is None
    two = np.zeros((80, 120), np.uint8)
    cv2.putText(two, "2", (30, 65), cv2.FONT_HERSHEY_SIMPLEX, 2, 255, 6, cv2.LINE_AA)
    assert number_of(CellLook(ground, two > 127, np.array([40, 120, 40.0])), look) == 2


@pytest.fixture(scope="module")
def sheet_skin(tmp_path_factory):
    """The sheet look (grey on grey, KMines' kind) learnt by `calibrate --learn --from` from three
    games under way and a lost one at 27.3 px."""
    root = tmp_path_factory.mktemp("sheet")
    pictures = root / "pictures"
    pictures.mkdir()
    for i, board in enumerate([midgame(EXPERT, s) for s in (1, 2, 3)] + [lost(EXPERT, 4)]):
        cv2.imwrite(str(pictures / f"p{i}.png"), _sheet(board, 27.3))
    assert main(["calibrate", "--learn", "--from", str(pictures), "--skin", "sheet",
                 "--templates", str(root / "templates"), "--json"]) == 0
    return load_skin(root / "templates" / "sheet")


def test_a_grey_look_s_small_mines_are_learnt_as_mines_not_as_a_digit(sheet_skin):
    """Grey on grey (the sheet look, KMines' kind) whose mines cover 0.29-0.32 of the judged box,
    about a bold digit's share: taken by size alone, 30 of a lost picture's mines were a grey 4,
    no picture was lost, and the look's 4 was grey. A mine is grey ink of a mine's size in no
    digit's plain shape."""
    skin = sheet_skin
    assert skin.look.mine_ink is not None
    for digit, inks in skin.look.digits.items():  # (every drawn digit is of a colour, none grey)
        assert all(np.ptp(ink) > 40 for ink in inks), (digit, inks)
    for level, seed, pitch in ((Level(9, 9, 10), 7, 26.0), (Level(9, 9, 10), 7, 27.3), (EXPERT, 11, 27.3)):
        board = lost(level, seed)
        image = _sheet(board, pitch)
        cal, found = calibrate(image, [skin])
        reading = read(image, cal.with_pitch(found), found)
        same = np.where(board == EXPLODED, np.isin(reading.codes, (MINE, EXPLODED)), reading.codes == board)
        assert (same | reading.unknown).all()  # never a cell read as what it is not
        assert not reading.unknown[board == MINE].any()  # every mine shown read as one


@pytest.mark.parametrize("pitch", [16.0, 20.0, 33.5])
def test_a_raised_grey_look_is_read_at_sizes_it_was_not_learnt_at(sheet_skin, pitch):
    """Grey on grey (the sheet look): the covered tiles are told from the opened cells by their
    bevel, 0.08 of the pitch deep. Measured inside the judged box (0.9 of the tile as found) the
    bevel was out of sight at most sizes and every tile flat: learnt at 27.3 px, a board at 33.5 px
    was no board. Measured in a frame of the pitch, top and left against bottom and right."""
    skin = sheet_skin
    for board in (midgame(Level(9, 9, 10), 7), lost(Level(9, 9, 10), 7)):
        image = _sheet(board, pitch)
        cal, found = calibrate(image, [skin])
        reading = read(image, cal.with_pitch(found), found)
        assert reading.codes.shape == board.shape and reading.framed
        same = np.where(board == EXPLODED, np.isin(reading.codes, (MINE, EXPLODED)), reading.codes == board)
        assert same.all() and not reading.unknown.any()


@pytest.fixture(scope="module")
def sunken_skin(tmp_path_factory):
    """The sunken look (Simon Tatham's Mines' kind) learnt by `calibrate --learn --from` from three
    Intermediate games under way and a lost one at 20.6 px (at 20 px its tiles are pixel-identical:
    learnt as sprites)."""
    root = tmp_path_factory.mktemp("sunken")
    pictures = root / "pictures"
    pictures.mkdir()
    level = Level(16, 16, 40)
    for i, board in enumerate([midgame(level, s) for s in (1, 2, 3)] + [lost(level, 4)]):
        cv2.imwrite(str(pictures / f"p{i}.png"), _sheet(board, 20.6, "sunken"))
    assert main(["calibrate", "--learn", "--from", str(pictures), "--skin", "sunken",
                 "--templates", str(root / "templates"), "--json"]) == 0
    return load_skin(root / "templates" / "sunken")


@pytest.mark.parametrize("pitch", [16.0, 20.0, 25.0, 30.0])
def test_a_sunken_field_of_raised_tiles_is_read_to_its_edges(sunken_skin, pitch):
    """A field sunk into its window, lit from the top left (its frame white below and right of the
    last row and column), raised covered tiles with no gap, a dark line along each opened cell's top
    and left only. The opened 0s of the last row and column have no darker line beside their outer
    side, and were taken for a window's plain ground: unread, the board refused (Simon Tatham's
    Mines, live: its 0s along the last row and column). A side on the field's edge may show the
    frame lighter than the cell instead."""
    for board in (midgame(Level(9, 9, 10), 5), midgame(Level(16, 30, 99), 6), lost(Level(9, 9, 10), 7)):
        image = _sheet(board, pitch, "sunken")
        cal, found = calibrate(image, [sunken_skin])
        reading = read(image, cal.with_pitch(found), found)
        assert reading.codes.shape == board.shape and reading.framed
        same = np.where(board == EXPLODED, np.isin(reading.codes, (MINE, EXPLODED)), reading.codes == board)
        assert same.all() and not reading.unknown.any()


def _sheet(board: np.ndarray, pitch: float, style: str = "sheet") -> np.ndarray:
    rows, cols = board.shape
    return draw_modern(board, style, pitch, at=(40, 40), screen=(int(cols * pitch + 150), int(rows * pitch + 150)))[0]


def _classic_recoloured(board: np.ndarray, scale: float) -> np.ndarray:
    """The classic skin's own window drawing, its digits' colours turned round (B, G, R -> G, R,
    B), its panel blank, scaled smoothly: a look no skin describes whose covered and opened tiles
    are one grey (192), told apart by the covered tiles' bevel alone."""
    image, (fx, fy) = draw_window(board, 99, "playing", TEMPLATES / "classic", screen=(560, 380), at=(20, 20))
    rows, cols = board.shape
    image[30:64, 30:cols * 16 + 34] = (192, 192, 192)
    field = image[fy:fy + rows * 16, fx:fx + cols * 16]
    wide = field.astype(np.int16)
    coloured = wide.max(axis=2) - wide.min(axis=2) > 60
    field[coloured] = field[coloured][:, [1, 2, 0]]
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)


def test_a_grey_look_whose_covered_and_opened_tiles_share_their_grey_is_learnt(tmp_path, capsys):
    """A classic look at 150 % with digits of its own colours: its covered and opened tiles are
    one grey, the covered raised. The learner split its opened cells off as "beyond the covered
    tiles' lightness" (a box over the field) and set a boundary of value between the two: it wrote
    a skin that left 377-476 of 480 cells unread, and said nothing was missing. The two are one
    shade where their medians lie within SAME_SHADE: relief alone tells them apart. A look that
    leaves most cells unread is refused."""
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    for i, board in enumerate([midgame(EXPERT, s) for s in (1, 2, 3)] + [lost(EXPERT, 4)]):
        cv2.imwrite(str(pictures / f"p{i}.png"), _classic_recoloured(board, 1.5))
    capsys.readouterr()
    assert main(["calibrate", "--learn", "--from", str(pictures), "--skin", "grey",
                 "--templates", str(tmp_path / "templates"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"1", "2", "3", "flag", "mine"} <= set(report["learnt"])
    assert max(report["unread"]) <= 0.1 * 480
    skin = load_skin(tmp_path / "templates" / "grey")
    board = lost(EXPERT, 11)
    image = _classic_recoloured(board, 1.25)
    cal, found = calibrate(image, [skin])
    reading = read(image, cal.with_pitch(found), found)
    same = np.where(board == EXPLODED, np.isin(reading.codes, (MINE, EXPLODED)), reading.codes == board)
    assert (same | reading.unknown).all() and reading.unknown.mean() < 0.01


def test_a_raised_looks_flag_is_read_on_a_darkened_tile_and_a_flat_cell_of_its_colour_is_none():
    """Grey tiles on grey told by relief (Look.raised; KMines at 29 px: covered 19-32, flags 14-23,
    flat cells -6 to 4): a flag's ink on a tile in relief is a flag whatever the ground's shade
    (KMines' flag darkens its tile to its opened cells'), unless the ink is a digit's colour and
    shape and the tile barely raised (a digit where a shaded background shows through); a flat cell in the
    covered tiles' colour is no tile (a box laid over the field at a game's end); a raised plain
    tile is covered."""
    look = Look.from_json({"covered": {"saturation": [0, 0.1], "value": [0.76, 0.9]},
                           "opened": {"saturation": [0, 0.1], "value": [0.44, 0.757]},
                           "digits": {"1": "#0c0c86", "5": "#c01212"},
                           "flag_ink": {"hue": [340, 20], "saturation": [0.6, 1]}, "raised": 32.0})
    ink = np.zeros((25, 25), bool)
    ink[6:12, 8:16] = True
    darkened = np.array([191, 191, 191.0])  # value 0.75: the opened cells' shade
    flag, five = np.array([27, 27, 99.0]), np.array([18, 18, 191.0])
    assert classify(CellLook(darkened, ink, flag, relief=14.0), look) == FLAG
    one = np.zeros((25, 25), np.uint8)
    cv2.putText(one, "1", (6, 21), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 3)
    assert classify(CellLook(darkened, one > 0, flag, relief=8.0), look) != FLAG  # (in a digit's shape)
    # (in no digit's shape: a flag on a tile too small for its relief to show round it, KMines' at
    # 16 px, whatever digit's colour its ink is near: its flag's dark red lies 36 from its 6's)
    assert classify(CellLook(darkened, ink, flag, relief=8.0), look) == FLAG
    assert classify(CellLook(darkened, ink, five, relief=8.0), look) == FLAG
    digit = np.zeros((25, 25), np.uint8)
    cv2.putText(digit, "5", (5, 21), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 3)
    assert classify(CellLook(darkened, digit > 0, five, relief=14.0), look) != FLAG
    assert classify(CellLook(darkened, ink, five, relief=25.0), look) == FLAG
    light = np.array([207, 207, 207.0])
    assert classify(CellLook(light, np.zeros_like(ink), None, relief=29.0), look) == UNOPENED
    assert classify(CellLook(light, np.zeros_like(ink), None, relief=1.0), look) is None
    assert look_json(look)["raised"] == 32.0


def test_a_near_black_mine_counts_as_grey_whatever_its_saturation():
    """KMines' exploded mine on its orange tile: ink (9, 11, 12), saturation 0.25 but near black."""
    from bot.learn.described import _is_mine

    ink = np.zeros((25, 25), bool)
    ink[5:20, 5:20] = True
    assert _is_mine(CellLook(np.array([40, 150, 235.0]), ink, np.array([9, 11, 12.0])), 0.3)
    assert not _is_mine(CellLook(np.array([40, 150, 235.0]), ink, np.array([20, 40, 160.0])), 0.3)


def _drawn(text: str) -> np.ndarray:
    """A digit drawn bold, white on black, 56 px square, as 0-1 floats (blends of two make glyphs
    between digits)."""
    big = np.zeros((56, 56), np.uint8)
    cv2.putText(big, text, (12, 46), cv2.FONT_HERSHEY_DUPLEX, 1.4, 255, 7, cv2.LINE_AA)
    return big.astype(np.float32) / 255


def test_a_glyph_more_like_a_digit_the_look_has_no_colour_for_is_not_its_colours_digit():
    """KMines' 6, never shown while its look was learnt, is a darker red than its 5 (43 apart, one
    candidate by colour), and at 16 px its shape scored 0.71 as a 6 and 0.62 as a 5: it was read
    as a 5 and Hard games stopped on boards no mine layout fits. A glyph between the two, more
    like the 6 the look has no colour for, is now no number (the board names it, or nothing)."""
    look = Look.from_json({"covered": {"saturation": [0, 0.1], "value": [0.76, 0.9]},
                           "opened": {"saturation": [0, 0.1], "value": [0.44, 0.757]},
                           "digits": {"1": "#0c0c86", "5": "#c01212"}, "unseen_digits": "shape"})

    between = cv2.resize(0.4 * _drawn("6") + 0.6 * _drawn("5"), (14, 14), interpolation=cv2.INTER_AREA) > 0.3
    scores = shape_scores(between, DIGITS)
    assert scores[5] > scores[4] == scores[[0, 1, 2, 3, 4, 6, 7]].max()  # (a 6 first, then the 5)
    assert number_of(CellLook(np.array([191, 191, 191.0]), between, np.array([23, 23, 149.0])), look) is None
    five = cv2.resize(_drawn("5"), (14, 14), interpolation=cv2.INTER_AREA) > 0.3
    assert number_of(CellLook(np.array([191, 191, 191.0]), five, np.array([23, 23, 149.0])), look) == 5


def test_a_digit_in_a_colour_far_from_every_known_one_is_the_unseen_digit_of_its_shape():
    """Simon Tatham's Mines learnt with 1-5, then its teal 6 (127 from every known digit's colour):
    its bold 6 scored 0.80 as a 6, 0.84 as the 5 and 0.62 as an 8, no shape plainly ahead of all,
    and Expert games stopped on it. Ink far from every colour the look knows is none of those
    digits: of those it has no colour for, the one plainly of its shape, else nothing."""
    look = Look.from_json({"covered": {"saturation": [0, 0.08], "value": [0.88, 0.98]},
                           "opened": {"saturation": [0, 0.08], "value": [0.55, 0.878]},
                           "digits": {"1": "#0808fe", "2": "#058205", "3": "#fe0909", "4": "#020281",
                                      "5": "#830707"}, "unseen_digits": "shape"})
    ground, teal, maroon = np.array([218, 218, 218.0]), np.array([132, 132, 9.0]), np.array([7, 7, 131.0])

    def glyph(a: str, b: str) -> np.ndarray:  # (half one digit, half another)
        return cv2.resize(0.5 * _drawn(a) + 0.5 * _drawn(b), (17, 17), interpolation=cv2.INTER_AREA) > 0.3

    scores = shape_scores(glyph("6", "5"), DIGITS)
    assert 0 < scores[5] - scores[4] < 0.25  # (a 6 first, the 5 near: no shape plain)
    assert number_of(CellLook(ground, glyph("6", "5"), teal), look) == 6
    assert number_of(CellLook(ground, glyph("6", "5"), maroon), look) is None  # (the 5's colour)
    between = cv2.resize(0.4 * _drawn("6") + 0.6 * _drawn("8"), (17, 17), interpolation=cv2.INTER_AREA) > 0.3
    assert number_of(CellLook(ground, between, teal), look) is None  # (6 or 8: neither plain)


def test_a_flag_the_look_has_not_learnt_is_never_named_a_digit(sheet_skin):
    """A raised grey look learnt with no flag (KMines at Hard: four games won, none flagged) read
    the bot's flags as unknown, and the board named their dark red ink a digit it had no colour
    for (a 6): every later flag then read as a 6 and games stopped. Ink on a raised tile is a
    mark on a covered one, never a digit unseen. (The sheet look, its flag and its 3 taken out:
    two of these boards named the flags a 3 before.)"""
    from bot.learn.unseen_digits import unseen_digits
    from bot.vision.tiles import find_tiles

    learnt = sheet_skin
    digits = {d: v for d, v in learnt.look.digits.items() if d != 3}
    skin = dataclasses.replace(learnt, look=dataclasses.replace(learnt.look, flag_ink=None, digits=digits), folder=None)
    for seed in (8, 10):
        board = midgame(EXPERT, seed)
        image = _sheet(board, 27.3)
        found = find_tiles(image).field
        cal = Calibration(skin.name, found.pitch / skin.cell, found.left, found.top, found.rows, found.cols,
                          xs=found.xs, ys=found.ys, tile=find_tiles(image).tile)
        field = cal.with_pitch(skin)
        reading = read(image, field, skin)
        assert reading.unknown[board == FLAG].all()  # (the flags: no colour of the look's holds them)
        assert unseen_digits(image, field, skin, reading) is None


def test_a_digit_the_look_has_no_colour_for_is_named_by_the_board(meadow_skin):
    """A look learnt in a few games lacks the rare digits, and a bold font's may be no plain shape
    (KMines' red 5, first seen in play): its cells are named by the board (bot.learn.unseen_digits)
    where one digit the look lacks fits, and the look keeps its colour; never while a cell the bot
    flagged is among them."""

    from bot.play.complete_read import name_numbers

    look = dataclasses.replace(meadow_skin.look, digits={d: c for d, c in meadow_skin.look.digits.items() if d != 2},
                               unseen_by_shape=False)
    skin = dataclasses.replace(meadow_skin, look=look, folder=None)
    board = midgame(Level(16, 16, 40), 3)
    assert (board == 2).any()
    image = meadow(board, 27.3)
    cal, _ = calibrate(meadow(np.full(board.shape, UNOPENED, np.int8), 27.3), [skin])
    field = cal.with_pitch(skin)
    reading = read(image, field, skin)
    # Only those: a 0 beside one is read (it was taken for a misread, a 0 beside a covered cell; in
    # play the 2s, beside no 0 read, were then cells no click could have opened, never named).
    assert np.array_equal(reading.unknown, board == 2)
    named, again = name_numbers(image, field, skin, reading, lambda _: True, lambda _: None)
    assert 2 in named.look.digits and not again.unknown.any() and np.array_equal(again.codes, board)
    # One of those cells flagged by the bot (a flag the look does not know, KMines' at Hard, whose
    # ink was named a 6): nothing is named while it is unknown.
    ours = tuple(int(v) for v in np.argwhere(board == 2)[0])
    kept, same = name_numbers(image, field, skin, reading, lambda _: True, lambda _: None, frozenset({ours}))
    assert kept is skin and same is reading


def test_no_digit_is_named_from_a_board_with_a_0_beside_a_covered_cell(meadow_skin):
    """A 0 beside a cell read as covered is a frame mid-flood or a misread, and is read as unknown.
    The colour a board names is kept in the look for good, so such a board names nothing (as a
    plain 0 beside a covered cell, no mine layout explains it)."""
    from bot.learn.unseen_digits import unseen_digits
    from bot.play.complete_read import name_numbers

    look = dataclasses.replace(meadow_skin.look, digits={d: c for d, c in meadow_skin.look.digits.items() if d != 2},
                               unseen_by_shape=False)
    skin = dataclasses.replace(meadow_skin, look=look, folder=None)
    board = midgame(Level(16, 16, 40), 3).copy()
    zero = next((r, c) for r, c in np.argwhere(board == 0)
                if (board[max(0, r - 1):r + 2, max(0, c - 1):c + 2] == 1).any())
    r, c = zero
    one = next((y, x) for y, x in np.argwhere(board == 1) if abs(y - r) <= 1 and abs(x - c) <= 1)
    board[tuple(one)] = UNOPENED  # (still covered as the flood opens round the 0)
    image = meadow(board, 27.3)
    cal, _ = calibrate(meadow(np.full(board.shape, UNOPENED, np.int8), 27.3), [skin])
    field = cal.with_pitch(skin)
    reading = read(image, field, skin)
    assert reading.unknown[zero] and reading.unknown[board == 2].all()
    assert unseen_digits(image, field, skin, reading) is None
    kept, again = name_numbers(image, field, skin, reading, lambda _: True, lambda _: None)
    assert kept is skin and 2 not in kept.look.digits and again.unknown[zero]



def test_no_number_is_named_on_a_board_with_no_covered_cell(monkeypatch):
    """KMines' won board, every mine flagged by the game, read with no board before (the next
    game's first look) in a look learnt with no flag: the flags' ink was named a 6. A board with no
    covered cell read is a game over: nothing is named from it. Cells on it that are plainly digits
    the look has no colour for are opened cells of unknown number (Simon Tatham's Mines won by
    opening the first teal 6 it showed stopped instead of ending as a win)."""
    from bot.learn.unseen_digits import UnseenInk
    from bot.play import complete_read
    from bot.vision.reader import Reading

    found: list = []
    monkeypatch.setattr(complete_read, "unseen_digits", lambda *_: found or None)
    codes = np.ones((3, 3), np.int8)
    codes[1, 1] = FLAG  # (a won board: its one mine flagged)
    unknown = np.zeros((3, 3), bool)
    unknown[0, 0] = unknown[2, 2] = True  # (no colour of the look's holds them: flags, or digits)
    skin = dataclasses.replace(load_skins()[0], look=Look.from_json({"covered": {"value": [0.8, 0.9]},
                                                                     "opened": {"value": [0.4, 0.75]},
                                                                     "digits": {"1": "#0c0c86"}}),
                               folder=None, face_names=())
    reading = Reading(codes, np.ones((3, 3)), unknown, "playing", 1.0, None, 0.0)
    kept, same = complete_read.name_numbers(np.zeros((64, 64, 3), np.uint8), None, skin, reading,
                                            lambda _: True, lambda _: None)
    assert kept is skin and same is reading  # (not plainly digits: left unknown, the board refused)
    found.append(UnseenInk([(0, 0), (2, 2)], np.array([132, 132, 9.0]), 6))
    kept, opened = complete_read.name_numbers(np.zeros((64, 64, 3), np.uint8), None, skin, reading,
                                              lambda _: True, lambda _: None)
    assert kept is skin and 6 not in kept.look.digits  # (nothing named from a game over)
    assert not opened.unknown.any() and opened.codes[0, 0] == opened.codes[2, 2] == UNREAD
    # (no face: the board says the game is won, and the next game starts anew; said "playing", the
    # next game began on this board and was won again at once, 18 times in 20)
    assert opened.face == "won"


def test_the_live_learner_flags_one_proved_mine_where_its_look_knows_no_flag():
    """KMines Hard learnt live: no learning game was won (KMines flags every mine at a win) and none
    placed a flag, so the look knew none, and the flags of a won board read as 6s: play stopped on
    3 boards in 20. The learner flags one mine the board proves, once (a mine clicked on purpose
    comes first in the game lost on purpose)."""
    from bot.learn.described_live import DescribedLearner

    learner = DescribedLearner(lambda: np.zeros((4, 4, 3), np.uint8), lambda tiles: None)
    codes = np.array([[1, UNOPENED, 1], [1, 1, 1], [0, 0, 0]], np.int8)  # (0, 1) is a mine
    known = np.ones_like(codes, bool)
    assert learner._next(codes, known, flag=True) == ([(0, 1)], "flag")
    assert learner._next(codes, known, flag=False)[1] == "open"
    assert learner._next(codes, known, lose=True, flag=True) == ([(0, 1)], "doom")
    learner.flagged = True
    assert learner._next(codes, known, flag=True)[1] == "open"


def test_a_raised_looks_cell_lit_between_its_two_shades_is_told_by_its_relief():
    """KMines at 16 px: its opened cells are a sheet its background shows through, lighter in a
    stripe across the board (0.761-0.765 against the look's opened cells up to 0.757 and covered
    tiles from 0.762, as learnt): opened 0s and 1s there were unread, and a game stopped on each.
    Near the two shades' border a plain cell is opened where plainly flat, covered where raised; a
    digit's ink on it is a number unless the tile stands RAISED_CLEAR high."""
    look = Look.from_json({"covered": {"saturation": [0, 0.1], "value": [0.762, 0.868]},
                           "opened": {"saturation": [0, 0.1], "value": [0.438, 0.757]},
                           "digits": {"1": "#101088"}, "raised": 19.0})
    lit = np.array([195, 195, 195.0])  # (value 0.765)
    plain = np.zeros((12, 12), bool)
    assert classify(CellLook(lit, plain, None, relief=2.3), look) == 0
    assert classify(CellLook(lit, plain, None, relief=17.0), look) == UNOPENED
    assert classify(CellLook(lit, plain, None, relief=5.5), look) is None  # (neither flat nor raised)
    one = np.zeros((14, 14), bool)
    one[2:11, 6:8], one[3:5, 4:6], one[10:12, 4:10] = True, True, True  # (a bold 1, centred)
    blue = np.array([136, 16, 16.0])
    assert classify(CellLook(np.array([194, 194, 194.0]), one, blue, relief=7.9), look) == 1
    assert classify(CellLook(np.array([194, 194, 194.0]), one, blue, relief=17.0), look) is None
    box = np.array([207, 207, 207.0])  # (well inside the covered shades: a box over the field)
    assert classify(CellLook(box, plain, None, relief=1.0), look) is None


def test_the_live_learner_takes_the_window_a_lost_game_answered_last_for_the_lost_window():
    """KMines asks "Reset?" when a game is lost, and Return replays the same field: a look learnt
    with no game lost on purpose (lost by a guess) knew no such window, `play` answered it with
    Return, and 20 "games" of KMines Hard were one field lost 16 times over. The window a game whose
    last picture shows it lost answered last is the lost window, unless a game that ended otherwise
    answered it too; the lost picture may be taken after it (KMines' "You have lost." box waited out)."""
    from bot.learn.described_live import DescribedLearner

    learner = DescribedLearner(lambda: np.zeros((4, 4, 3), np.uint8), lambda tiles: None)
    won, lost_board = np.zeros((4, 4, 3), np.uint8), np.ones((4, 4, 3), np.uint8)
    boards = {id(won): np.array([[1, FLAG]], np.int8), id(lost_board): np.array([[1, MINE]], np.int8)}
    learner.field = SimpleNamespace(read=lambda image, look: (boards[id(image)], np.ones((1, 2), bool)))
    learner.ends = [(won, ["High Scores"]), (lost_board, ["Reset?"])]
    assert learner._lost_window(look=None) == "Reset?"
    learner.ends = [(won, ["High Scores"]), (lost_board, [])]  # (no window in the lost game)
    assert learner._lost_window(look=None) is None
    learner.ends = [(won, ["Note"]), (lost_board, ["Note"])]  # (a window a won game opened too)
    assert learner._lost_window(look=None) is None


def test_a_grey_look_s_place_is_kept_where_the_ground_round_its_frame_reads_as_its_0s(sheet_skin):
    """KMines' field lies in a grey its opened 0s' shade: a row or column past the field read as 0s,
    so the place kept from the last game was never found to fit again (`still_matches`' check that
    a faceless field ends at its edges), each batch looked for the field afresh, and a won board
    (few covered tiles to find a lattice by) gave a 4 x 21 part of it: 4 stops in 50 games. A
    described look's field ends where its frame is seen whole."""
    from bot.vision.calibrate import still_matches

    for board in (midgame(EXPERT, 5), lost(EXPERT, 6)):
        image = _sheet(board, 27.3)
        cal, skin = calibrate(image, [sheet_skin])
        assert (cal.rows, cal.cols) == board.shape
        assert still_matches(image, cal, skin)
        moved = np.roll(image, 9, axis=1)  # (the window moved: the place kept no longer fits)
        assert not still_matches(moved, cal, skin)


def test_digits_tied_in_colour_are_told_apart_by_shape_though_one_is_far_from_the_ink():
    """A GIF's palette turned Windows 7's red 3s (f082 of the shared GIF) so dark a red that its 5's
    colour lay 41 from their ink and its 3's 66: the 5 alone was a candidate, its shape far from
    theirs, and the cells went unread; a glyph as like a 5 as a 3 was named a 5. Digits within
    COLOUR_TIE of the nearest are all candidates: the shape decides, by SHAPE_MARGIN, or none."""
    look = Look.from_json({"covered": {"hue": [190, 245], "saturation": [0.3, 1]}, "opened": {"saturation": [0, 0.2]},
                           "digits": {"1": "#0000ff", "3": "#8c0c0c", "5": "#700000"}, "unseen_digits": "shape"})

    def glyph(eight: float) -> np.ndarray:  # a 3 drawn a little like an 8
        blend = (1 - eight) * _drawn("3") + eight * _drawn("8")
        return cv2.resize(blend, (14, 14), interpolation=cv2.INTER_AREA) > 0.3

    ground, ink = np.array([230, 220, 220.0]), np.array([3, 6, 74.0])  # (BGR: 41 from the 5, 66 from the 3)
    scores = shape_scores(glyph(0.2), DIGITS)
    assert scores[2] - np.delete(scores, 2).max() < 0.25  # (not plain enough to be a 3 in any colour)
    assert number_of(CellLook(ground, glyph(0.2), ink), look) == 3
    assert number_of(CellLook(ground, glyph(0.3), ink), look) is None  # (0.61 as a 3, 0.60 as a 5)


@pytest.mark.parametrize("name", ["win7", "msapp"])
def test_a_look_written_back_reads_as_it_did(name):
    """A digit named from the board in play is written into the skin's skin.json with the whole
    look (bot.learn.unseen_digits.with_digit): the look written must be the look read, its own
    digit drawings too (Windows 7's flat-topped 3 was dropped, and its 3s read worse after)."""
    from bot.vision.look import Look
    from bot.vision.skin import load_skins

    look = next(s for s in load_skins() if s.name == name).look
    again = Look.from_json(look_json(look))
    assert again.shapes == look.shapes and again.unseen_by_shape == look.unseen_by_shape
    assert look_json(again) == look_json(look)


def _flat_topped_three(width: int, height: int, thickness: int) -> np.ndarray:
    """A 3 with a flat top bar over a round upper bowl (Windows 7's kind), drawn here."""
    big = np.zeros((60, 40), np.uint8)
    cv2.line(big, (8, 6), (26, 6), 255, thickness, cv2.LINE_AA)
    cv2.ellipse(big, (25, 16), (8, 10), 0, -90, 90, 255, thickness, cv2.LINE_AA)
    cv2.line(big, (16, 26), (25, 26), 255, thickness, cv2.LINE_AA)
    cv2.ellipse(big, (24, 40), (11, 14), 0, -90, 140, 255, thickness, cv2.LINE_AA)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA) > 100


def test_a_learnt_look_takes_the_extra_drawing_its_digits_are_read_with_and_no_other():
    """A palette moved some 3s' red 60 or more from the colour learnt for them, and not towards
    their tile (bot.vision.described.BLENDED), so only a plain shape names them, and the bank's
    common 3s are round-topped: flat-topped 3s were left unread. The learner takes the bank's
    flat-topped 3 where it names such numbers; round 3s, read without it, take nothing."""
    from bot.learn.described import with_drawings
    from bot.learn.tile_groups import Seen

    look = Look.from_json({"covered": {"hue": [190, 245], "saturation": [0.3, 1]}, "opened": {"saturation": [0, 0.2]},
                           "digits": {"1": "#4451c3", "3": "#8a0d10"}, "unseen_digits": "shape"})
    ground, ink = np.array([220, 220, 230.0]), np.array([60, 20, 95.0])
    flat = [_flat_topped_three(w, h, t) for w, h, t in [(9, 13, 5), (10, 14, 6), (11, 15, 7), (8, 12, 5)]]
    sizes = [(9, 13), (12, 16), (13, 18)]
    round_ = [cv2.resize(_drawn("3"), size, interpolation=cv2.INTER_AREA) > 0.4 for size in sizes]
    assert all(number_of(CellLook(ground, m, ink), look) is None for m in flat)
    assert all(number_of(CellLook(ground, m, ink), look) == 3 for m in round_)
    said: list[str] = []
    learnt = with_drawings(look, [Seen(0, 0, k, CellLook(ground, m, ink)) for k, m in enumerate(flat)], said.append)
    assert learnt.shapes == ("flat-top 3",) and "flat-top 3" in said[0]
    assert all(number_of(CellLook(ground, m, ink), learnt) == 3 for m in flat)
    assert with_drawings(look, [Seen(0, 0, k, CellLook(ground, m, ink)) for k, m in enumerate(round_)],
                         said.append).shapes == ()


def test_opened_tiles_darkened_under_the_top_edge_are_the_opened_tile_not_a_flag_s():
    """The meadow look darkens its top rows. A game opened from its corner leaves that row mostly
    0s: its darker opened tiles made a colour group with few numbers, which was taken for a flag's
    own tile, and the look then read those 0s as flags. Its colour, the opened one's in another
    light, now makes it the opened tile."""
    game, rng = Game(Level(9, 9, 10), "safe", 6), np.random.default_rng(6)
    game.open((0, 0))
    boards = [game.board().cells.copy()]
    for _ in range(4):
        safe = np.argwhere(~game.mine & (game.board().cells == UNOPENED))
        game.open(tuple(int(v) for v in safe[rng.integers(len(safe))]))
        boards.append(game.board().cells.copy())
    mine = tuple(int(v) for v in np.argwhere(game.mine)[0])
    game.flag(mine)
    boards.append(game.board().cells.copy())
    game.flag(mine)
    game.open(mine)
    boards.append(game.board().cells.copy())
    assert (boards[0][0] == 0).sum() >= 7 and (boards[-2] == FLAG).sum() == 1
    learnt = learn_described([(f"p{i}", meadow(board, 29.3)) for i, board in enumerate(boards)])
    assert learnt.look.flag_tile is None and learnt.look.flag_ink is not None
    assert {"0", "1", "flag", "mine"} <= set(learnt.names)


def _chequer(board: np.ndarray, pitch: float) -> np.ndarray:
    return _chequer_at(board, pitch)[0]


def _chequer_at(board: np.ndarray, pitch: float) -> tuple[np.ndarray, tuple[float, float]]:
    rows, cols = board.shape
    return draw_modern(board, "chequer", pitch, at=(40, 40), screen=(int(cols * pitch + 150), int(rows * pitch + 150)))


@pytest.mark.parametrize(("level", "pitch"), [(Level(8, 10, 10), 45.0), (Level(14, 18, 40), 30.3),
                                              (Level(20, 24, 99), 14.4)])
def test_flat_gapless_tiles_parted_by_their_shades_alone_are_found(level, pitch):
    """A field of flat square tiles with no gap or outline, two shades alternating like a
    chessboard: the shade steps between neighbours are the only lines, and they give the field."""
    board = midgame(level, 7)
    image, corner = _chequer_at(board, pitch)
    tiles = find_tiles(image)
    assert tiles is not None and (tiles.rows, tiles.cols) == board.shape
    assert abs(tiles.left - corner[0]) < 0.1 * pitch and abs(tiles.pitch_x - pitch) < 0.01 * pitch


def test_a_chequered_look_is_learnt_and_reads_other_games_at_other_sizes():
    """The chequer look (nothing but alternating shades between its tiles) learnt from three
    pictures, as Google's kind of Minesweeper would be, then other games read with it."""
    boards = [midgame(Level(14, 18, 40), 1), midgame(Level(14, 18, 40), 2), lost(Level(14, 18, 40), 3)]
    pictures = [_chequer(board, 30.0) for board in boards]
    learnt = learn_described([(f"p{i}", p) for i, p in enumerate(pictures)])
    assert {"unopened", "0", "1", "2", "mine"} <= set(learnt.names)
    for board, pitch in ((midgame(Level(8, 10, 10), 11), 45.0), (midgame(Level(20, 24, 99), 12), 24.6),
                         (lost(Level(8, 10, 10), 4), 37.5)):
        image = _chequer(board, pitch)
        tiles = find_tiles(image)
        codes, known = read_described(image, *tiles.field.centres(), tiles.tile, learnt.look)
        assert codes.shape == board.shape
        same = np.where(board == EXPLODED, np.isin(codes, (MINE, EXPLODED)), codes == board)
        assert (same | ~known).all()  # never a cell read as what it is not
        # (a lost game's mines on covered tiles too, their white highlight farther from the tile
        # than their dark body: bot.vision.described._dark_mine; unread before, play then found no board)
        assert known[board != EXPLODED].all(), np.argwhere(~known)
