"""Benchmark scripts: the measurements BENCHMARKS.md reports, one script each.

Each runs from the repository root as ``python tools/benchmarks/NAME.py``.
"""
