"""calibrate --learn --from DIR: a look learnt from screenshots alone, named by the game's logic.

The real Windows XP screenshots (../shared/real-windows, third-party: linked from there into a
temporary folder, never copied into the project) are split: a skin learnt from some must read the
others exactly with nothing else loaded, cells, face and counter. Their truth was established
without this code (test_real_windows).
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from bot.board import UNOPENED
from bot.cli import main
from bot.errors import VisionError
from bot.games.simulator import Level
from bot.learn.led import SEGMENTS, VARIANTS, complete_digits, text_of
from bot.learn.pictures import locate
from bot.vision.calibrate import calibrate
from bot.vision.lattice import find_lattice
from bot.vision.reader import frame_seen, read
from bot.vision.skin import TEMPLATES, load_skin
from tests.support.toy_game import ToyGame
from tests.unit.test_real_windows import NAMES, REAL, truth

XP = [n for n in NAMES if n.startswith("xp_")]
#: Every counter digit the held-out pictures show is among these pictures' (7 only in "007") or
#: drawn from its segments (1, in "013"); all three kinds of board (won, lost, playing) are here.
TAUGHT = ["xp_sorearu_90b2a93_lost", "xp_sorearu_b6e42ae_lost", "xp_sorearu_c44f8ad_lost",
          "xp_sorearu_740e7d0_playing", "xp_sorearu_e77fb12_playing", "xp_sorearu_3f95880_won"]

needs_shots = pytest.mark.skipif(len(XP) < 9, reason=f"no real Windows XP screenshots at {REAL} (shared folder absent)")


def _teach(tmp_path, names: list[str], skin: str = "xp") -> int:
    pictures = tmp_path / f"pictures-{skin}"
    pictures.mkdir()
    for name in names:
        (pictures / f"{name}.png").symlink_to(REAL / f"{name}.png")
    return main(["calibrate", "--learn", "--from", str(pictures), "--skin", skin,
                 "--templates", str(tmp_path / "templates"), "--json"])


def _read_with(tmp_path, skin_name: str, name: str):
    skin = load_skin(tmp_path / "templates" / skin_name)
    image = cv2.imread(str(REAL / f"{name}.png"))
    cal, found = calibrate(image, [skin])  # the learnt skin alone finds the board
    return cal, read(image, cal.with_pitch(found), found)


@needs_shots
def test_a_skin_learnt_from_pictures_reads_the_others_exactly(tmp_path, capsys):
    assert _teach(tmp_path, TAUGHT) == 0
    said = json.loads(capsys.readouterr().out)
    assert {"unopened", "flag", "mine", "exploded", "face lost", "face won", "face playing"} <= set(said["learnt"])
    assert said["unnamed"] == []
    held = [n for n in XP if n not in TAUGHT]
    assert len(held) == 3
    for name in held:
        cells, face, counter = truth(name)
        cal, reading = _read_with(tmp_path, "xp", name)
        assert (cal.scale, (cal.rows, cal.cols)) == (1.0, cells.shape), name
        assert not reading.unknown.any(), (name, np.argwhere(reading.unknown))
        assert np.array_equal(reading.codes, cells), (name, np.argwhere(reading.codes != cells))
        assert (reading.face, reading.counter) == (face, counter), name


@needs_shots
@pytest.mark.parametrize("held", ["xp_sorearu_90b2a93_lost", "xp_sorearu_e47ecd2_playing", "xp_sorearu_8970f9f_won"])
def test_learnt_from_the_rest_never_misreads_the_one_left_out(tmp_path, capsys, held):
    """Whatever is left out, the skin from the rest reads its every cell, face and counter: a digit
    no taught picture showed is read by its lit segments (bot.vision.led), never guessed."""
    assert _teach(tmp_path, [n for n in XP if n != held]) == 0
    digits = {k.removeprefix("digit ") for k in json.loads(capsys.readouterr().out)["learnt"] if k.startswith("digit ")}
    cells, face, counter = truth(held)
    _, reading = _read_with(tmp_path, "xp", held)
    assert not reading.unknown.any() and np.array_equal(reading.codes, cells)
    assert reading.face == face
    assert reading.counter == counter, (sorted(digits), text_of(counter))


@needs_shots
def test_pictures_of_no_board_or_a_bad_folder_are_refused_cleanly(tmp_path, capsys):
    empty = tmp_path / "nothing"
    empty.mkdir()
    cv2.imwrite(str(empty / "desk.png"), np.full((300, 400, 3), 90, np.uint8))
    assert main(["calibrate", "--learn", "--from", str(empty), "--templates", str(tmp_path)]) == 2
    assert "no Minesweeper field found" in capsys.readouterr().err
    assert main(["calibrate", "--learn", "--from", str(tmp_path / "absent")]) == 2
    assert main(["calibrate", "--from", str(empty)]) == 2  # --from only with --learn
    err = capsys.readouterr().err
    assert "not a folder" in err and "--from DIR goes with --learn" in err


def _stretched_pictures(folder, games: int, seed: int) -> None:
    """Screenshots of a game whose field is stretched to its window, without a face (as GNOME
    Mines): per game, one click, a flag on a mine and one on a safe cell, then a mine clicked."""
    folder.mkdir()
    toy = ToyGame(Level(16, 16, 40), stretch=(5, 7), seed=seed, new_game_key="ctrl+r")
    for g in range(games):
        game = toy.game
        game.open((8, 8))
        cv2.imwrite(str(folder / f"g{g}_open.png"), toy.grab())
        mines = np.argwhere(game.mine & (game.shown == UNOPENED))
        safe = np.argwhere(~game.mine & (game.shown == UNOPENED))
        game.flag(tuple(mines[0]))
        game.flag(tuple(safe[0]))
        cv2.imwrite(str(folder / f"g{g}_flags.png"), toy.grab())
        game.open(tuple(mines[1]))
        cv2.imwrite(str(folder / f"g{g}_lost.png"), toy.grab())
        toy.new_game()


def test_a_field_stretched_to_its_window_is_learnt_from_pictures(tmp_path, capsys):
    """Its cells are cut each from its own start, and its frame found where the stretched field
    ends: the learnt skin reads another such game exactly, and refuses it cut short."""
    _stretched_pictures(tmp_path / "pictures", games=3, seed=3)
    assert main(["calibrate", "--learn", "--from", str(tmp_path / "pictures"), "--skin", "toy",
                 "--templates", str(tmp_path / "templates"), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert {"unopened", "flag", "mine", "exploded", "wrong_flag", "1", "2"} <= set(said["learnt"])
    skin = load_skin(tmp_path / "templates" / "toy")
    assert skin.frame is not None  # (measured on the field as one pitch, it missed the stretched edge)
    toy = ToyGame(Level(16, 16, 40), stretch=(5, 7), seed=50, new_game_key="ctrl+r")
    toy.game.open((0, 0))
    image = toy.grab()
    cal, found = calibrate(image, [skin])
    field = cal.with_pitch(found)
    assert (cal.rows, cal.cols) == (16, 16)
    reading = read(image, field, found)
    assert not reading.unknown.any() and np.array_equal(reading.codes, toy.game.shown)
    assert frame_seen(image, field, found)
    hidden = image.copy()
    bottom = int(toy.starts[1][-1])
    hidden[bottom:] = 90  # the last row under another window
    assert not frame_seen(hidden, field, found)


def test_a_game_far_on_is_placed_on_the_field_the_others_show(tmp_path):
    """A big opening leaves rows or columns with no covered cell: structure alone finds a smaller
    block, or nothing. Such a picture takes the largest field found where it shows that field's
    frame; a smaller game in the same place keeps its own field."""
    _stretched_pictures(tmp_path / "pictures", games=5, seed=3)
    named = [(path.stem, cv2.imread(str(path))) for path in sorted((tmp_path / "pictures").glob("*.png"))]
    alone = {name: find_lattice(image) for name, image in named if name != "g3_lost"}
    assert (alone["g3_open"].rows, alone["g3_open"].cols) == (16, 8)  # (this game's opening takes 8 columns)
    with pytest.raises(VisionError):
        find_lattice(dict(named)["g3_lost"])
    small = ToyGame(Level(9, 9, 10), stretch=(5, 7), seed=1, new_game_key="ctrl+r")
    small.game.open((0, 0))  # (a small opening: every row and column keeps a covered cell)
    named.append(("small", small.grab()))
    said: list[str] = []
    pictures = {p.name: p for p in locate(named, [], said.append)}
    assert set(pictures) == {name for name, _ in named}
    whole = pictures["g0_open"].lattice
    assert (whole.rows, whole.cols) == (16, 16)
    for name, p in pictures.items():
        expected = (9, 9) if name == "small" else (16, 16)
        assert (p.lattice.rows, p.lattice.cols) == expected, name
        if name != "small":
            assert (p.lattice.left, p.lattice.top, p.lattice.xs) == (whole.left, whole.top, whole.xs), name
    assert any(line.startswith("g3_lost: its field is") for line in said)


def _classic_digits() -> dict[str, np.ndarray]:
    folder = TEMPLATES / "classic"
    return {p.stem.removeprefix("digit_"): cv2.imread(str(p)) for p in sorted(folder.glob("digit_?.png"))}


def test_digits_not_seen_are_drawn_from_their_segments_exactly():
    digits = _classic_digits()
    assert sorted(digits) == list("0123456789")
    for d in "013458":
        drawn = complete_digits({k: v for k, v in digits.items() if k != d})
        assert np.array_equal(drawn[d], digits[d]), d
    # 2 is the only digit without the bottom-right segment: without it that segment's unlit look is unknown.
    assert "2" not in complete_digits({k: v for k, v in digits.items() if k != "2"})
    for d in VARIANTS:  # drawn two ways by different games: never guessed
        assert d not in complete_digits({k: v for k, v in digits.items() if k != d})
    assert set(SEGMENTS) == set("0123456789")


def test_digits_that_are_not_seven_segments_are_left_alone():
    rng = np.random.default_rng(3)
    noise = {str(d): rng.integers(0, 256, (23, 13, 3), dtype=np.uint8) for d in range(9)}
    assert sorted(complete_digits(noise)) == sorted(noise)
