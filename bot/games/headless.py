"""One simulated game played headless by the bot, as every benchmark plays it.

Every game is seeded from (seed, index) alone (`game_seed`), so a run gives the same games
whatever plays them (bot.games.engines), and two policies can be compared on identical boards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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
