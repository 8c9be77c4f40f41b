"""Benchmarks: programs that play or read many boards and print figures (run as modules from
the repository root, `python3 -m benchmarks.NAME`; see benchmarks/README.md). Never run by the tests
as timings: speed and strength are figures, not assertions."""
