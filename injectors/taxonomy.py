"""The public error taxonomy: 5 review dimensions and the error types registered under `injectors/types/`.

Each type's row lives in its own module (see `injectors/types/__init__.py`); this module is how the rest of
the project reads them, as views of the registry (it stands above it). The rows' shape, the dimensions and
the editions are data of their own (`injectors.error_type`), re-exported here. The type IDs are a public
contract (docs/taxonomy.md): never renumber them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from injectors.error_type import DIMENSIONS, EDITION_2009, EDITION_2020, REFERENCE_DIMENSIONS, ErrorType
from injectors.registry import definitions_in, packages

__all__ = [
    "DIMENSIONS",
    "EDITION_2009",
    "EDITION_2020",
    "REFERENCE_DIMENSIONS",
    "ErrorType",
    "by_id",
    "lookup",
    "reference_to_ours",
    "type_ids",
    "types",
]


def types() -> tuple[ErrorType, ...]:
    """Every registered type, in taxonomy order (dimension, then number)."""
    return _current()[0]


def type_ids() -> tuple[str, ...]:
    return _current()[1]


def by_id() -> Mapping[str, ErrorType]:
    return _current()[2]


def reference_to_ours() -> Mapping[str, str]:
    """Codes of the public reference implementation (E-S-01 …) → our type IDs."""
    return _current()[3]


_Views = tuple[tuple[ErrorType, ...], tuple[str, ...], Mapping[str, ErrorType], Mapping[str, str]]


def _current() -> _Views:
    return _views(packages())


@functools.lru_cache(maxsize=8)
def _views(package_names: tuple[str, ...]) -> _Views:
    """The lookups, computed once per set of type packages (scoring calls them per prediction)."""
    rows = tuple(d.error_type for d in definitions_in(package_names))
    return (
        rows,
        tuple(t.id for t in rows),
        MappingProxyType({t.id: t for t in rows}),
        MappingProxyType({code: t.id for t in rows for code in t.reference_codes}),
    )


def element_located() -> tuple[str, ...]:
    """The types located at the element that lacks something (`ErrorType.located_at_element`)."""
    return tuple(t.id for t in types() if t.located_at_element)


def lookup(code: str) -> ErrorType:
    """A type by our ID or by a code of the public reference implementation (E-S-01 …)."""
    known = by_id()
    if code in known:
        return known[code]
    for t in known.values():
        if code in t.reference_codes:
            return t
    raise KeyError(f"unknown error type {code!r}: expected one of {', '.join(known)}")
