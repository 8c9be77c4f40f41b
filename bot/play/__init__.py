"""The live loop and what it shows: a checked read of the game, the clicks, the dry run's overlay."""
