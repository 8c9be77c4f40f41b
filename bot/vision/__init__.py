"""Seeing a board: where the field is, which skin, and what each cell, the face and the counter show."""
