"""The live benchmark's command line (benchmarks.games): a bad value is a usage error, not a traceback."""

from __future__ import annotations

import argparse

import pytest

from benchmarks.games import screen_size


def test_a_screen_size_is_read_as_width_by_height():
    assert screen_size("1920x1200") == (1920, 1200)
    assert screen_size("800X600") == (800, 600)


@pytest.mark.parametrize("text", ["1920", "19x", "axb", "1920x1200x3", "0x600", "-5x600"])
def test_a_malformed_screen_size_is_refused_by_argparse(text):
    with pytest.raises(argparse.ArgumentTypeError):
        screen_size(text)
