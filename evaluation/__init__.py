"""Scoring models on a release: prediction reading, the reference and gbtbench protocols, baselines, runs."""

# what `score` and `evaluate` score, and how `evaluate` reviews (the command line's choices; kept here, where
# reading them imports nothing)
TASKS = ("review", "correction")
METHODS = ("single", "reviewer")
