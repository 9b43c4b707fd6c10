"""Benchmarks (``botarena bench NAME``): they print figures and assert nothing."""
