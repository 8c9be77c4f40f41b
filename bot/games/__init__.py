"""Games to play and measure on: the simulator, the benchmarks, and real games started on X."""
