"""The GB/T 1.1 linter for standard authors: the deterministic checkers of every registered type.

The checkers themselves live with their types (`injectors/types/`); this is the front-end that `gbtbench
lint`, the pre-existing scan and the release checks call.
"""

from __future__ import annotations

from injectors.checking import Violation, lint, lint_diff

__all__ = ["Violation", "lint", "lint_diff"]
