"""The mine counter, learnt by watching it count down: flags are put on covered cells one by one,
the panel above the field kept after each, then taken off again; once a game's end has told how
many mines it held, the frames name the counter's digits (bot.learn.led)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bot.errors import LearnError
from bot.learn.hands import Hands
from bot.learn.labels import COVERED_CLASS
from bot.learn.learnt import CounterLook
from bot.learn.led import crops, place, units_box
from bot.learn.marks import Marks
from bot.learn.sight import Sight

#: Games in which the learner flags cells to watch the mine counter count down, at most.
PROBES = 3


class CounterProbe:
    def __init__(self, sight: Sight, marks: Marks, say: Callable[[str], None]) -> None:
        self.sight, self.marks, self.say = sight, marks, say
        self.pending: tuple[int, list[np.ndarray], list[int]] | None = None  # panel frames, flags down in each
        self.probes = 0
        #: Each digit's box, left to right, and the digits' sprites: learnt, or from a skin adopted.
        self.counter: CounterLook | None = None

    def wanted(self, logic: np.ndarray) -> bool:
        """Is this a game to probe in? Not once the counter is known or PROBES games have tried,
        nor on a board with too few covered cells left to flag."""
        fresh = self.counter is None and self.pending is None and self.probes < PROBES
        return fresh and int((logic == COVERED_CLASS).sum()) > 10

    def probe(self, hands: Hands, image: np.ndarray, logic: np.ndarray) -> np.ndarray:
        """Flag up to ten covered cells one by one, keeping the panel above the field after each
        (the counter counts down), then take the flags off again. Read once the mine count is known."""
        self.probes += 1
        lat = self.sight.lat
        top = max(0, lat.top - 6 * lat.pitch)
        cells = [(int(r), int(c)) for r, c in np.argwhere(logic == COVERED_CLASS)][:10]
        frames, flags = [image[top : lat.top].copy()], [0]
        flag = self.sight.meanings.having("flag")
        at = tuple(np.array(cells).T)
        for n, cell in enumerate(cells, 1):
            image = self.marks.right_click(hands, cell, lambda ids, n=n: int(np.isin(ids[at], flag).sum()) == n)
            if image is None:
                raise LearnError("a flag put down to watch the counter did not show")
            frames.append(image[top : lat.top].copy())
            flags.append(n)
        image = self.marks.uncover(hands, cells)
        if image is None:
            raise LearnError("the flags put down to watch the counter did not come off")
        self.pending = (top, frames, flags)
        return image

    def read(self, mines: int) -> None:
        """The counter showed `mines` minus the flags down at each probe frame: cut its digits."""
        if self.pending is None:
            return
        top, frames, flags = self.pending
        self.pending = None
        leave_out = []
        if self.sight.face is not None:
            x, y, w, h = self.sight.face.box
            leave_out.append((x - 2, y - top - 2, w + 4, h + 4))
        units = units_box(frames, leave_out)
        if units is None:
            self.say("counter: nothing outside the field changed as flags went down")
            self.probes = PROBES  # (no counter there: flagging again would only show that again)
            return
        values = [mines - f for f in flags]
        try:
            sprites = crops(frames, values, units)
        except ValueError as err:
            self.say(f"counter: {err}")
            return
        boxes = None
        for frame, value in zip(frames, values):
            boxes = boxes or place(frame, value, sprites, units)
        if len(sprites) < 10 or boxes is None:
            self.say(f"counter: saw digits {sorted(sprites)} only" if boxes else "counter: digits not in a row")
            return
        # One box per digit pitch, centred on the digit, so that digit k sits k widths from the
        # first (how skins describe a counter).
        pitch = boxes[1][0] - boxes[0][0]
        ux, uy, uw, uh = units
        units = (ux + (uw - pitch) // 2, uy, pitch, uh)
        sprites = crops(frames, values, units)
        first = (units[0] - (len(boxes) - 1) * pitch, uy + top, pitch, uh)
        self.counter = ([(first[0] + k * pitch, first[1], pitch, uh) for k in range(len(boxes))], sprites)
        self.say(f"learnt: counter digits ({len(boxes)} digits of {units[2]} x {units[3]} px)")
