"""Learning a look no skin describes, from a live game or from saved pictures, with no labels."""
