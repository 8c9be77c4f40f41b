"""Where simulated games are played: here, in a pool of this machine's processes, or on a Dask
cluster of any size.

A game is a pure function of its run (level, rule, seed, policy) and its index (bot.games.headless:
every layout comes from (seed, index) alone), so every engine plays the same games and the
totals do not depend on the engine or the number of workers. Each engine takes the indices to
play and yields (index, record) as games finish, in any order.

Dask distributed rather than Ray (docs/design.md): pure Python, on PyPI and in Debian
(python3-distributed), the same `Client(address)` for a local cluster and a remote one, and a
lost worker's tasks are run again elsewhere by the scheduler. It is an optional extra
(`pip install .[cluster]`): the plain install stays light.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from multiprocessing import get_all_start_methods, get_context
from typing import Any

from bot.errors import BotError
from bot.games.headless import GameRecord, game_seed, play_game
from bot.games.simulator import Level
from bot.solver.policy import PLAY, Policy

#: Games a task plays: long enough (about a second of Expert games) that a cluster's few
#: milliseconds per task do not show, short enough that a lost worker costs little.
BLOCK = 32
#: Games handed to a pool of processes at a time: a pool queues every task it is given at once.
STRETCH = 100_000
#: Tasks kept in flight per worker: enough to keep each busy, few enough that a run of 10^7
#: games never holds its tasks all at once.
AHEAD = 4


@dataclass(frozen=True)
class Games:
    """What a run plays: every game of it is `play(index)`."""

    level: Level
    rule: str
    seed: int
    policy: Policy = PLAY
    mines_told: bool = True

    def play(self, index: int) -> GameRecord:
        return play_game(self.level, self.rule, game_seed(self.seed, index), policy=self.policy,
                         mines_told=self.mines_told)


def play_block(games: Games, indices: list[int]) -> list[tuple[int, GameRecord]]:
    """One task: a block of games, each with its index."""
    return [(i, games.play(i)) for i in indices]


def _blocks(indices: Iterable[int], size: int = BLOCK) -> Iterator[list[int]]:
    it = iter(indices)
    while block := list(islice(it, size)):
        yield block


def _play_task(task: tuple[Games, list[int]]) -> list[tuple[int, GameRecord]]:
    return play_block(*task)


class Processes:
    """This machine's processes: `jobs` of them (1: in this process)."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise BotError(f"--jobs must be at least 1, got {jobs}")
        self.jobs = jobs

    def __enter__(self) -> Processes:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def play(self, games: Games, indices: Iterable[int]) -> Iterator[tuple[int, GameRecord]]:
        if self.jobs == 1:
            for i in indices:
                yield i, games.play(i)
            return
        # fork where there is one (fast, nothing re-imported); Windows has only spawn, which
        # re-imports this module in each worker: the task function is module-level so it can.
        method = "fork" if "fork" in get_all_start_methods() else "spawn"
        with get_context(method).Pool(self.jobs) as pool:
            for stretch in _blocks(indices, STRETCH):  # (a pool takes in all of its tasks at once)
                tasks = [(games, block) for block in _blocks(stretch, max(1, BLOCK // 4))]
                for done in pool.imap_unordered(_play_task, tasks):
                    yield from done


class DaskCluster:
    """A Dask cluster: the scheduler at `address` ("tcp://host:8786"), or, with none, a local
    cluster of `workers` processes started here and closed afterwards. Remote workers need this
    project installed (`pip install minesweeper-bot[cluster]`) in the same version."""

    def __init__(self, address: str | None = None, workers: int = 2, timeout: float = 30.0) -> None:
        if address is None and workers < 1:
            raise BotError(f"a local cluster needs at least 1 worker, got {workers}")
        self.address, self.workers, self.timeout = address, workers, timeout
        self.client: Any = None
        self.cluster: Any = None

    def __enter__(self) -> DaskCluster:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise BotError("--cluster needs Dask's distributed scheduler: pip install 'minesweeper-bot[cluster]' "
                           "(Debian: apt-get install python3-distributed)") from None
        try:
            if self.address is None:
                self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                            dashboard_address=":0")  # (any free port: never a clash)
                self.client = Client(self.cluster)
            else:
                self.client = Client(self.address, timeout=self.timeout)
                self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        except OSError as err:
            self.__exit__()
            raise BotError(f"no Dask scheduler at {self.address}: {err}") from err
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.client = self.cluster = None

    def play(self, games: Games, indices: Iterable[int]) -> Iterator[tuple[int, GameRecord]]:
        from dask.distributed import as_completed

        assert self.client is not None, "use the cluster in a with block"
        blocks = _blocks(indices)
        try:
            first = [self.client.submit(play_block, games, block, pure=False)
                     for block in islice(blocks, self.workers * AHEAD)]
            running = as_completed(first)
            for future in running:
                done = future.result()  # (a lost worker's block was run again elsewhere by the scheduler)
                future.release()
                for block in islice(blocks, 1):
                    running.add(self.client.submit(play_block, games, block, pure=False))
                yield from done
        except (BotError, KeyboardInterrupt, GeneratorExit):
            raise
        except Exception as err:  # the cluster's, not a game's: say what and where to look
            said = " ".join(str(err).split())[:200]
            raise BotError(f"the cluster could not play the games ({type(err).__name__}: {said}); its scheduler "
                           "and every worker need this version of minesweeper-bot installed") from err
