"""A long run's games, one JSON line each as it finishes, so that the run survives a crash.

The first line says which run the file holds (level, rule, seed, and the policy where it is not
the bot's own); every other line is one game: {"seed": 1, "game": 17, "won": true, "clicks": 30,
"guesses": 2, "three_bv": 41, "seconds": 0.05}. Each line is written whole and flushed as the
game ends (and the file synced every few seconds), so a run killed at any moment leaves every
game it reported, at worst a last line cut in two, which is dropped on reopening. Reopened for
the same run, the file gives the games already played: those are counted, not played again.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.errors import BotError
from bot.games.headless import GameRecord

#: Seconds between syncs to disk (a flush reaches the OS at once: a killed process loses
#: nothing; a machine that loses power loses at most this much, and plays it again).
SYNC_EVERY = 5.0


class ResultsFile:
    def __init__(self, path: Path, run: dict[str, Any]) -> None:
        self.path, self.run = Path(path), run
        self.stream: Any = None
        self.synced = time.monotonic()

    def games(self) -> Iterator[tuple[int, GameRecord]]:
        """The games the file already holds for this run, one by one as they are read (none for a
        new file; a game written twice comes twice: the caller counts it once). BotError when the
        file holds another run or is not a results file."""
        if self.path.exists() and self.path.stat().st_size:
            yield from self._read()

    def start(self) -> None:
        """Ready to append games: a new file gets the line naming its run first."""
        if not (self.path.exists() and self.path.stat().st_size):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "w", encoding="utf-8") as out:
                out.write(json.dumps({"run": self.run}) + "\n")
        self.stream = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close())

    def _read(self) -> Iterator[tuple[int, GameRecord]]:
        with open(self.path, "rb") as raw:
            raw.seek(0, os.SEEK_END)
            size = raw.tell()
            raw.seek(max(0, size - 1))
            if raw.read(1) != b"\n":  # a line cut short by a crash: that game is played again
                whole = _last_newline(raw, size) + 1
                with open(self.path, "r+b") as out:
                    out.truncate(whole)
        with open(self.path, encoding="utf-8", errors="replace") as lines:
            try:
                header = json.loads(next(lines, ""))
            except json.JSONDecodeError:
                header = None
            if not isinstance(header, dict) or "run" not in header:
                raise BotError(f"{self.path} is not a results file of bench (its first line names no run)")
            if header["run"] != self.run:
                raise BotError(f"{self.path} holds another run ({_describe(header['run'])}), not "
                               f"{_describe(self.run)}: give another file")
            for number, line in enumerate(lines, start=2):
                try:
                    game = json.loads(line)
                    record = GameRecord(bool(game["won"]), int(game["three_bv"]), int(game["clicks"]),
                                        int(game["guesses"]), float(game["seconds"]))
                    index = int(game["game"])
                except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                    raise BotError(f"{self.path}, line {number}: not a game's result") from None
                yield index, record

    def write(self, index: int, record: GameRecord) -> None:
        line = {"seed": self.run["seed"], "game": index, "won": record.won, "clicks": record.clicks,
                "guesses": record.guesses, "three_bv": record.three_bv, "seconds": round(record.seconds, 6)}
        self.stream.write(json.dumps(line) + "\n")
        self.stream.flush()
        if time.monotonic() - self.synced > SYNC_EVERY:
            os.fsync(self.stream.fileno())
            self.synced = time.monotonic()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            self.stream = None

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _last_newline(raw: Any, size: int) -> int:
    """Where the last newline of an open binary file lies (-1: none), read back from its end."""
    end = size
    while end > 0:
        start = max(0, end - 65536)
        raw.seek(start)
        found = raw.read(end - start).rfind(b"\n")
        if found >= 0:
            return start + found
        end = start
    return -1


def _describe(run: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in run.items())
