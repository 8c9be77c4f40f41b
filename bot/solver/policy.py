"""How the guess is chosen when no cell is proven safe: the settings, passed explicitly.

One frozen value, given to `bot.solver.advice.advise` (and through it to the guess), so that a
benchmark can play two policies side by side with no module patched. The defaults are what the
bot plays; each was kept on paired evidence and every option tried and dropped has a line in
docs/experiments.md.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from bot.errors import BotError


@dataclass(frozen=True)
class Policy:
    #: Candidates are the cells with at least this share of the safest cell's safety (DavidNHill's
    #: cut-off); None: those within `slack` of it. 0.9 against the slack: +98 wins over 60 000
    #: paired Expert games (p = 0.023).
    cutoff: float | None = 0.9
    slack: float = 0.03
    #: At most this many candidates are scored two moves deep (the rest by safety alone).
    depth: int = 20
    #: Interior cells (no number next to them) are alike for safety: this many of them, the most
    #: open, are candidates.
    interior: int = 2
    #: An unavoidable 50/50 pair is guessed at once: nothing will make it better, and its coin is
    #: the same now as later.
    pairs: bool = True
    #: So is an unavoidable chain of 50/50s (bot.solver.chains), by its cell whose number teaches
    #: most: +99 of 20 000 paired Expert games (p = 0.0004).
    chains: bool = True
    #: Long-term risk (bot.solver.long_term): a cell a 50/50 may form on is worth more than its
    #: safety, by `long_term_weight` of that share; +104 over 40 000 paired Expert games (p = 0.01).
    long_term: bool = True
    long_term_weight: float = 0.9
    #: Among cells alike (score and openness), which is taken: "top" (the top row first) or
    #: "bottom"; then the left column.
    ties: str = "top"
    #: The exact endgame search (bot.solver.endgame) decides when at most this many layouts are
    #: left, giving up past `nodes` positions (0 layouts: never).
    max_layouts: int = 1_000
    nodes: int = 60_000

    def __post_init__(self) -> None:
        if self.ties not in ("top", "bottom"):
            raise BotError(f"ties must be top or bottom, not {self.ties!r}")
        if self.cutoff is not None and not 0.0 < self.cutoff <= 1.0:
            raise BotError(f"cutoff must lie in (0, 1], not {self.cutoff}")

    def with_settings(self, text: str) -> Policy:
        """This policy with `K=V,...` changed (the names of the fields; `none` for no cut-off;
        0/1 for yes/no): how benchmarks name a variant."""
        changes: dict[str, Any] = {}
        kinds = {f.name: f for f in fields(self)}
        for part in filter(None, text.split(",")):
            name, _, value = part.partition("=")
            if name not in kinds or not value:
                known = ", ".join(kinds)
                raise BotError(f"unknown setting {part!r}: the settings are {known} (options dropped "
                               f"from the solver: docs/experiments.md)")
            current = getattr(self, name)
            try:
                if name == "cutoff":
                    changes[name] = None if value == "none" else float(value)
                elif isinstance(current, bool):
                    changes[name] = bool(int(value))
                elif isinstance(current, int):
                    changes[name] = int(value)
                elif isinstance(current, float):
                    changes[name] = float(value)
                else:
                    changes[name] = value
            except ValueError:
                kind = {bool: "0 or 1", int: "a whole number"}.get(type(current), "a number")
                raise BotError(f"{name} takes {kind}, not {value!r}") from None
        return replace(self, **changes)


PLAY = Policy()
