"""Strength and speed, measured: play many simulated games and summarise them.

Every game is seeded from (seed, index) alone, so a run gives the same games whatever
the number of processes, and two solvers can be compared on identical boards.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from time import perf_counter

import numpy as np

from bot.board import FLAG, Cell
from bot.games.simulator import Game, Level
from bot.solver.advice import Advice, advise
from bot.solver.policy import PLAY, Policy


@dataclass
class GameRecord:
    won: bool
    three_bv: int
    clicks: int
    guesses: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)


def game_seed(seed: int, index: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([seed, index])


def play_game(
    level: Level,
    rule: str,
    seed: np.random.SeedSequence | int,
    before_guess: Callable[[Game, Advice], Cell | None] | None = None,
    policy: Policy = PLAY,
    mines_told: bool = True,
) -> GameRecord:
    """One headless game by the bot: open every proven-safe cell, flag proven mines, else guess.
    `before_guess` sees each guessing position first and may name another cell to open
    (benchmarks that study the guess, or take a coin toss out of a comparison); `policy`: how it
    guesses; `mines_told` False: the mine total is never given (a game with no counter to read)."""
    game = Game(level, rule, seed)
    latencies: list[float] = []
    guesses = 0
    start = perf_counter()
    own: set[Cell] = set()  # our flags, each on a proven mine: facts, unlike a player's claims
    while game.status == "playing":
        board = game.board() if mines_told else game.board().with_mines(None)
        t0 = perf_counter()
        advice = advise(board, rule, odds=False, trusted=frozenset(own), policy=policy)
        latencies.append((perf_counter() - t0) * 1000)
        for cell in advice.mines:
            if board.cells[cell] != FLAG:
                game.flag(cell)
                own.add(cell)
        if advice.safe:
            for cell in sorted(advice.safe):
                game.open(cell)
        elif advice.guess is not None:
            guesses += 1
            target = advice.guess
            if before_guess is not None:
                target = before_guess(game, advice) or target
            game.open(target)
        else:  # every covered cell is a proven mine: the game is already won
            break
    seconds = perf_counter() - start
    return GameRecord(game.status == "won", game.three_bv(), game.clicks, guesses, seconds, latencies)


def _play_indexed(args: tuple[Level, str, int, int, Policy]) -> GameRecord:
    level, rule, seed, index, policy = args
    return play_game(level, rule, game_seed(seed, index), policy=policy)


def play_many(level: Level, rule: str, games: int, seed: int = 0, jobs: int = 1,
              policy: Policy = PLAY) -> Iterator[GameRecord]:
    tasks = [(level, rule, seed, i, policy) for i in range(games)]
    if jobs <= 1:
        yield from map(_play_indexed, tasks)
        return
    # fork where there is one (fast, nothing re-imported); Windows has only spawn, which re-imports
    # this module in each worker: _play_indexed is module-level so it can.
    method = "fork" if "fork" in get_all_start_methods() else "spawn"
    with get_context(method).Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_indexed, tasks, chunksize=max(1, min(50, games // (jobs * 20) or 1)))


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval: honest near 0 and 1, unlike the normal approximation."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(records: list[GameRecord]) -> dict[str, float | int]:
    n = len(records)
    wins = sum(r.won for r in records)
    low, high = wilson(wins, n)
    lat = np.concatenate([np.asarray(r.latencies_ms) for r in records]) if records else np.zeros(1)
    busy = sum(r.seconds for r in records)
    return {
        "win_rate": wins / n if n else 0.0,
        "ci_low": low,
        "ci_high": high,
        "games": n,
        "wins": wins,
        "games_per_s": n / busy if busy else 0.0,
        "p50_ms": float(np.percentile(lat, 50)),
        "p99_ms": float(np.percentile(lat, 99)),
        "max_ms": float(lat.max()),
        "decisions": int(lat.size),
        "guesses_per_game": sum(r.guesses for r in records) / n if n else 0.0,
        "mean_3bv": sum(r.three_bv for r in records) / n if n else 0.0,
    }


def run(
    level: Level,
    rule: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int, int], None] | None = None,
    policy: Policy = PLAY,
) -> dict[str, float | int]:
    records: list[GameRecord] = []
    wins = 0  # kept as it goes: summing the records each time is quadratic in the games
    for record in play_many(level, rule, games, seed, jobs, policy):
        records.append(record)
        wins += record.won
        if progress:
            progress(len(records), games, wins)
    return summarise(records)


def progress_bar(done: int, total: int, wins: int, stream=sys.stderr) -> None:
    """A one-line bar on a terminal; sparse plain lines in a log."""
    width = 30
    filled = width * done // total
    text = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {wins / done:6.2%} won"
    if stream.isatty():
        stream.write("\r" + text + ("\n" if done == total else ""))
        stream.flush()
    elif done == total or done % max(1, total // 10) == 0:
        stream.write(text + "\n")
        stream.flush()
