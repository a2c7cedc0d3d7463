"""All injectors, one per taxonomy type, gathered from the dimension modules."""

from __future__ import annotations

import importlib

from injectors.base import REGISTRY, Injector

DIMENSION_MODULES = ("structure", "scope", "modality", "terminology", "references")


def injectors() -> dict[str, Injector]:
    """Type ID → injector instance, in taxonomy order."""
    for name in DIMENSION_MODULES:
        try:
            importlib.import_module(f"injectors.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"injectors.{name}":
                raise
    from injectors.taxonomy import TYPE_IDS

    return {t: REGISTRY[t]() for t in TYPE_IDS if t in REGISTRY}
