"""Importing Great Expectations once, lazily and with analytics off: the slow part of a validation, done by
the suites (`validation.suites`) or ahead of them in the validation process (`validation.gx_process`)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any

_GX: Any = None


# Imported by GX for statistical expectations (KL divergence, KS tests) that no suite here uses: about a
# second of every GX import (a third of it). They are loaded on first use instead.
_UNUSED_BY_OUR_SUITES = ("scipy.stats",)


def import_gx() -> Any:
    """Import GX once, with analytics off; the import is the slow part of a validation."""
    global _GX
    if _GX is None:
        os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
        for name in _UNUSED_BY_OUR_SUITES:
            _load_on_first_use(name)
        import great_expectations

        _GX = great_expectations
    return _GX


def _load_on_first_use(name: str) -> None:
    """Bind submodule `name` to a module that runs when one of its attributes is first read (the standard
    library's LazyLoader). GX reads it as `from package import module`, which finds the attribute set on
    the package here and leaves it unloaded. A module already imported, or absent, is left alone."""
    package, _, attribute = name.rpartition(".")
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    setattr(importlib.import_module(package), attribute, module)
