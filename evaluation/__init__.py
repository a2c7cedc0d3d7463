"""Scoring models on a release: prediction reading, the reference and gbtbench protocols, baselines, runs."""
