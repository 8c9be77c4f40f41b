"""A number the skin has never seen, named from the board it appears on (bot.unseen), on the real
WineMine fixtures with one number sprite taken out of the skin: a name is given only when it is
the true one, and a look that is not an opened number never gets one."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from bot.skin import load_skins
from bot.unseen import unseen_number, with_number
from bot.vision import read
from tests.test_vision import NAMES, load, true_field

SKIN = load_skins(names=["winemine"])[0]


def without(code: int):
    keep = SKIN.cell_codes != code
    return dataclasses.replace(SKIN, cell_codes=SKIN.cell_codes[keep], cell_sprites=SKIN.cell_sprites[keep],
                               folder=None)


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_a_missing_number_is_named_right_or_not_at_all(number: int):
    skin = without(number)
    named = seen = shown = 0
    for name in NAMES:
        image, meta, truth = load(name)
        if not (truth == number).any():
            continue
        shown += 1
        field = true_field(meta, 1.0)
        reading = read(image, field, skin)
        assert reading.unknown.any()  # the cells of that number are not read without its sprite
        found = unseen_number(image, field, skin, reading)
        if found is None:  # something else is unknown too (a held button's pressed cell): no name
            continue
        seen += 1
        if found.number is None:
            continue
        assert found.number == number, name  # never a wrong name
        grown = with_number(skin, found.number, found.tile)
        again = read(image, field, grown)
        assert not again.unknown.any() and np.array_equal(again.codes, truth), name
        named += 1
    assert shown > 0 and seen >= 0.8 * shown and named >= shown // 2, (named, seen, shown)


def test_a_look_that_is_no_opened_number_is_never_named():
    """Without the covered cell's sprite, every covered cell is unknown: not one gets a name."""
    skin = without(-1)  # UNOPENED
    for name in NAMES[:12]:
        image, meta, _ = load(name)
        field = true_field(meta, 1.0)
        reading = read(image, field, skin)
        if reading.unknown.any():
            assert unseen_number(image, field, skin, reading) is None, name
