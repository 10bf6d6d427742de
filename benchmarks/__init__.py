"""Benchmarks: each module prints a table of ratios against Gymnasium measured in the same run."""
