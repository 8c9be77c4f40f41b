"""The solver: board text in, forced cells, exact odds and the guess out. It never sees pixels."""
