"""Strength and speed, measured: many simulated games played and summarised.

Every game is seeded from (seed, index) alone (bot.games.headless), so a run gives the same games
whatever plays them: one process, a pool (`jobs`) or a cluster (bot.games.engines). A long run
can stream its games to a file and resume from it (bot.games.results_file).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from time import monotonic
from typing import Any

import numpy as np

from bot.games.engines import Games, Processes
from bot.games.headless import GameRecord, game_seed, play_game
from bot.games.results_file import ResultsFile
from bot.games.simulator import Level
from bot.solver.policy import PLAY, Policy

__all__ = ["GameRecord", "Tally", "game_seed", "play_game", "play_many", "progress_bar", "run", "summarise", "wilson"]

#: Decision times kept for the percentiles: every one up to this many (about 40 000 Expert
#: games), past it a uniform sample of this size (reservoir sampling; a run of 10^7 games would need gigabytes).
KEPT_LATENCIES = 2_000_000


def play_many(level: Level, rule: str, games: int, seed: int = 0, jobs: int = 1,
              policy: Policy = PLAY) -> Iterator[GameRecord]:
    """The run's games in this machine's processes, in the order they finish."""
    with Processes(jobs) as engine:
        for _, record in engine.play(Games(level, rule, seed, policy), range(games)):
            yield record


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval: honest near 0 and 1, unlike the normal approximation."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """A run's figures, kept as games come in (in any order, from any engine, some perhaps read
    back from a results file without their decision times)."""

    games: int = 0
    wins: int = 0
    guesses: int = 0
    three_bv: int = 0
    busy: float = 0.0  # seconds the games took, summed: the speed per process
    decisions: int = 0  # of the games played here (a results file keeps no decision times)
    latencies: list[np.ndarray] = field(default_factory=list)
    _rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.wins += record.won
        self.guesses += record.guesses
        self.three_bv += record.three_bv
        self.busy += record.seconds
        if record.latencies_ms:
            self._keep(np.asarray(record.latencies_ms, np.float64))

    def _keep(self, times: np.ndarray) -> None:
        """Every decision time up to KEPT_LATENCIES; past that a reservoir sample (algorithm R):
        each time seen so far stays with the same chance."""
        room = max(0, KEPT_LATENCIES - self.decisions)
        if room:
            self.latencies.append(times[:room])
        rest = times[room:]
        if len(rest):
            if len(self.latencies) > 1:  # (exactly KEPT_LATENCIES now: one array to write into)
                self.latencies = [np.concatenate(self.latencies)]
            seen = np.arange(max(self.decisions, KEPT_LATENCIES), max(self.decisions, KEPT_LATENCIES) + len(rest))
            slot = self._rng.integers(0, seen + 1)
            kept = slot < KEPT_LATENCIES
            self.latencies[0][slot[kept]] = rest[kept]
        self.decisions += len(times)

    def summary(self) -> dict[str, float | int]:
        n, wins = self.games, self.wins
        low, high = wilson(wins, n)
        lat = np.concatenate(self.latencies) if self.latencies else np.zeros(1)
        return {
            "win_rate": wins / n if n else 0.0,
            "ci_low": low,
            "ci_high": high,
            "games": n,
            "wins": wins,
            "games_per_s": n / self.busy if self.busy else 0.0,
            "p50_ms": float(np.percentile(lat, 50)),
            "p99_ms": float(np.percentile(lat, 99)),
            "max_ms": float(lat.max()),
            "decisions": self.decisions,
            "guesses_per_game": self.guesses / n if n else 0.0,
            "mean_3bv": self.three_bv / n if n else 0.0,
        }


def repeated(layouts: Iterable[str | None]) -> int:
    """Games whose mine layout (a fingerprint, None where unknown) an earlier game had: a field
    played again (a game that replays its field after a loss) is no fresh game, and a rate over
    such games is no measure."""
    known = [layout for layout in layouts if layout is not None]
    return len(known) - len(set(known))


def summarise(records: Iterable[GameRecord]) -> dict[str, float | int]:
    tally = Tally()
    for record in records:
        tally.add(record)
    return tally.summary()


Progress = Callable[[int, int, int, float], None]


def run(
    level: Level,
    rule: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    policy: Policy = PLAY,
    engine: Any = None,
    results: Path | None = None,
) -> dict[str, float | int]:
    """Play games 0..games-1 of the run and summarise them. `engine`: where (by default
    Processes(jobs)); `results`: a file the games are streamed to, and, where it holds games of
    this run already, read back instead of played (a run resumed after a crash: no game played
    twice, none lost). `progress(done, total, wins, games a second this session)`."""
    engine = engine or Processes(jobs)
    tally = Tally()
    todo: Iterable[int] = range(games)
    out = None
    if results is not None:
        described: dict[str, Any] = {"level": f"{level.rows}x{level.cols}x{level.mines}", "rule": rule, "seed": seed}
        if policy != PLAY:
            described["policy"] = repr(policy)
        out = ResultsFile(results, described)
        seen = np.zeros(games, bool)  # (a bit a game: 10^7 games in 10 MB)
        for index, record in out.games():
            if 0 <= index < games and not seen[index]:
                seen[index] = True
                tally.add(record)
        out.start()
        todo = (i for i in range(games) if not seen[i])
    start, played = monotonic(), 0
    try:
        with engine:
            for index, record in engine.play(Games(level, rule, seed, policy), todo):
                tally.add(record)
                played += 1
                if out is not None:
                    out.write(index, record)
                if progress:
                    progress(tally.games, games, tally.wins, played / max(monotonic() - start, 1e-9))
    finally:
        if out is not None:
            out.close()
    return tally.summary()


def progress_bar(done: int, total: int, wins: int, rate: float = 0.0, stream=sys.stderr) -> None:
    """A one-line bar on a terminal; sparse plain lines in a log: the games so far, the win rate
    with its 95 % interval, and the games a second."""
    width = 30
    filled = width * done // total
    low, high = wilson(wins, done)
    text = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {wins / done:6.2%} won "
            f"({low:.2%}..{high:.2%}), {rate:.1f} games/s")
    if stream.isatty():
        stream.write("\r" + text + ("\n" if done == total else ""))
        stream.flush()
    elif done == total or done % max(1, total // 10) == 0:
        stream.write(text + "\n")
        stream.flush()
