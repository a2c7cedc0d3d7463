"""Options that several commands share: where the corpus and the outputs are, the seed, a range."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

# Defaults are relative to the working directory (the project folder when run through make), so that an
# installed `gbtbench` works anywhere.
DEFAULT_CORPUS = Path("corpus")
DEFAULT_OUT = Path("outputs")

# A build seed is a non-negative integer (the generators are seeded with it; -5 is a typo, not a seed).
Seed = Annotated[
    int, typer.Option("--seed", min=0, metavar="N", help="Build seed: same seed, same errors (0 or more).")
]


def parse_range(text: str) -> tuple[int, int]:
    try:
        lo, _, hi = text.partition("-")
        return int(lo), int(hi or lo)
    except ValueError:
        raise typer.BadParameter(f"expected a range such as 10-18, got {text!r}") from None
