"""minesweeper-bot: reads a Minesweeper board, decides with a SAT solver, and plays."""

__version__ = "0.1.0"
