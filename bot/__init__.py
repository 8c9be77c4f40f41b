"""minesweeper-bot: reads a Minesweeper board, decides with a SAT solver, and plays."""

__version__ = "0.1.0"

import os as _os

# The matrices here are small (a board against a few sprites): one BLAS thread is faster than a
# pool, and leaves the other cores to the game and the screen grabs. Only effective when this
# package is imported before numpy, as `python -m bot` does.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_name, "1")
