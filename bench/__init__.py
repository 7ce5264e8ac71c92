"""Benchmarks of the tracker against a bare Textual app measured in the same run.

Run ``python -m bench`` from the repository root; it prints one table of ratios. The
figures depend on the machine, so nothing here is a test and nothing gates CI.
"""
