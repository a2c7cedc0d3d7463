"""Checkers of the GB/T 1.1 linter, one module per review dimension."""
