"""minesweeper-bot: reads a Minesweeper board, decides with a SAT solver, and plays."""

__version__ = "0.1.0"


def solve(text: str, mines: int | None = None, rules: str = "safe", deadline: float | None = 5.0) -> dict:
    """The advice for a text grid, as `python -m bot solve --json` prints it: `rows`, `cols`,
    `mines`, `safe` and `mine` (0-based [row, col] lists), `probability` (rows of floats, null for
    opened cells), `guess`, `wrong_flags`, `approximate` (True when the exact count did not
    finish within `deadline` seconds: the odds are then estimated, and proven cells may be missing,
    never wrong; None: no limit) and `flags_conflict` (True when the flags cannot all be mines).
    Raises bot.errors.GridError for a grid that cannot be a board and InconsistentBoardError when
    no mine layout fits it (both BotError)."""
    from bot.board import parse_grid
    from bot.report import advice_dict
    from bot.solver.advice import advise

    board = parse_grid(text, mines)
    return advice_dict(board, advise(board, rules, deadline=deadline))
