"""The registry of error types: every `<id>_<slug>.py` module under `injectors/types/` is one type.

A type module defines `DEFINITION = TypeDefinition(...)`: its taxonomy row, its injector, its checkers and,
where an LLM may write it, its prompt, budget and output condition. Nothing else lists the types: the
taxonomy, the linter, the planner, the LLM path, the instruction sets, the GX suites and the dataset card
all read them from here. It stands on top of the injectors' core and hands down what the core needs of the
types: each injector class its `ErrorType` (bound when its definition is made), the `Linter` of every
registered checker, and the LLM specifications (prompt, budget, condition). Extra packages of type modules
(plug-ins, tests) come from the environment variable `GBTBENCH_TYPE_PACKAGES` (comma-separated import
names) or from `including()`.
"""

from __future__ import annotations

import functools
import importlib
import os
import pkgutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import regex

from injectors.base import Injector
from injectors.check import Check, DiffCheck, Linter
from injectors.error_type import DIMENSIONS, ErrorType
from injectors.llm.spec import LLMSpec

PACKAGES = ("injectors.types",)
TYPE_MODULE = regex.compile(r"^[a-z]+\d{2}_\w+$")
_extra: list[str] = []


class RegistryError(Exception):
    """A type module that breaks the registry's contract (missing DEFINITION, duplicate ID, …)."""


@dataclass(frozen=True)
class TypeDefinition:
    """Everything about one error type, as its module declares it."""

    error_type: ErrorType
    injector: type[Injector]
    checks: tuple[Check, ...] = ()
    diff_checks: tuple[DiffCheck, ...] = ()
    llm: LLMSpec | None = None
    # why an instance no longer holds on its final document, None when it does (injectors.joint); only
    # for types that are not checker-detectable; default: its location still carries its text
    premise: Callable[..., str | None] | None = None
    # (error, fix) rendered from the assembled document, for a type whose description reads text other
    # errors may change (`injectors.final_descriptions`); None keeps the description written at injection
    redescribe: Callable[..., tuple[str, str] | None] | None = None

    def __post_init__(self) -> None:
        if getattr(self.injector, "error_type", None) != self.error_type.id:
            raise RegistryError(
                f"{self.error_type.id}: its injector says error_type = {self.injector.error_type!r}"
            )
        self.injector.bind(self.error_type)


def packages() -> tuple[str, ...]:
    """The packages searched for type modules: the project's, the environment's, and `including()`'s."""
    env = tuple(p.strip() for p in os.environ.get("GBTBENCH_TYPE_PACKAGES", "").split(",") if p.strip())
    return (*PACKAGES, *env, *_extra)


def _modules(package: str) -> Iterator[str]:
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, prefix=package + "."):
        if TYPE_MODULE.match(info.name.rsplit(".", 1)[-1]):
            yield info.name


@functools.cache
def _discover(packages: tuple[str, ...]) -> tuple[TypeDefinition, ...]:
    found: dict[str, TypeDefinition] = {}
    for package in packages:
        for name in _modules(package):
            definition = getattr(importlib.import_module(name), "DEFINITION", None)
            if not isinstance(definition, TypeDefinition):
                raise RegistryError(f"{name}: a type module defines DEFINITION = TypeDefinition(...)")
            type_id = definition.error_type.id
            if type_id in found:
                raise RegistryError(f"{name}: {type_id} is already defined by another module")
            found[type_id] = definition
    order = list(DIMENSIONS)
    return tuple(sorted(found.values(), key=lambda d: (order.index(d.error_type.dimension), d.error_type.id)))


def definitions() -> tuple[TypeDefinition, ...]:
    """Every registered type, in taxonomy order (dimension, then ID)."""
    return _discover(packages())


def recorded_versions() -> dict[str, dict[str, str]]:
    """Type → its recorded version and digest (what the release manifest lists; `injectors.versions`
    computes and records them, with the project's corpus, which an installed package does not have)."""
    return {
        d.error_type.id: {"version": d.injector.version, "digest": d.injector.digest} for d in definitions()
    }


def definitions_in(package_names: tuple[str, ...]) -> tuple[TypeDefinition, ...]:
    return _discover(package_names)


def definition(type_id: str) -> TypeDefinition:
    found = _by_id(packages()).get(type_id)
    if found is None:
        raise KeyError(f"unknown error type {type_id!r}")
    return found


@functools.cache  # the joint check asks for each instance's definition, pass after pass
def _by_id(packages: tuple[str, ...]) -> dict[str, TypeDefinition]:
    return {d.error_type.id: d for d in _discover(packages)}


def injectors() -> dict[str, Injector]:
    """Type ID → injector instance, in taxonomy order."""
    return {d.error_type.id: d.injector() for d in definitions()}


def linter() -> Linter:
    """The checkers of every registered type, in type ID order: what `lint` runs and injectors verify with."""
    return _linter(packages())


@functools.cache
def _linter(packages: tuple[str, ...]) -> Linter:
    ordered = sorted(_discover(packages), key=lambda d: d.error_type.id)
    return Linter(
        checks=tuple((d.error_type.id, check) for d in ordered for check in d.checks),
        diff_checks=tuple((d.error_type.id, check) for d in ordered for check in d.diff_checks),
    )


def llm_specs() -> dict[str, LLMSpec]:
    """Type ID → LLM specification, for the types an LLM may write (taxonomy order)."""
    return {d.error_type.id: d.llm for d in definitions() if d.llm is not None}


@contextmanager
def including(package: str) -> Iterator[None]:
    """Register the type modules of one more package for the duration of a block (tests, experiments)."""
    _extra.append(package)
    try:
        yield
    finally:
        _extra.remove(package)
