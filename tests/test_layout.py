"""The tests of the error types mirror the code: each module under injectors/types/<dim>/ has its test module
tests/injectors/types/<dim>/test_<module>.py, so that the tests of a type are found where its module is and
a new module cannot come without its tests.

Beside those, a dimension's folder holds test_<dim>.py (tests of all its types at once) and non-test helpers
(conftest.py, <dim>_documents.py); any other test file there names no module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TYPES = ROOT / "injectors" / "types"
TESTS = ROOT / "tests" / "injectors" / "types"
DIMENSIONS = sorted(p.name for p in TYPES.iterdir() if (p / "__init__.py").is_file())


def modules(dimension: str) -> list[str]:
    return sorted(p.stem for p in (TYPES / dimension).glob("*.py") if p.stem != "__init__")


def defined_tests(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


def test_every_dimension_has_type_modules() -> None:
    assert DIMENSIONS, TYPES
    assert all(modules(d) for d in DIMENSIONS)


@pytest.mark.parametrize("dimension", DIMENSIONS)
def test_every_type_module_has_its_test_module(dimension: str) -> None:
    missing = [
        f"tests/injectors/types/{dimension}/test_{m}.py (for injectors/types/{dimension}/{m}.py)"
        for m in modules(dimension)
        if not (TESTS / dimension / f"test_{m}.py").is_file()
    ]
    assert not missing, "modules without their test module: " + ", ".join(missing)
    empty = [m for m in modules(dimension) if not defined_tests(TESTS / dimension / f"test_{m}.py")]
    assert not empty, f"test modules of {dimension} with no test function: {empty}"


@pytest.mark.parametrize("dimension", DIMENSIONS)
def test_every_test_module_names_a_module_of_its_dimension(dimension: str) -> None:
    allowed = {dimension, *modules(dimension)}
    strays = [
        p.name
        for p in sorted((TESTS / dimension).glob("test_*.py"))
        if p.stem.removeprefix("test_") not in allowed
    ]
    assert not strays, (
        f"tests/injectors/types/{dimension}/ holds test files named after no module of "
        f"injectors/types/{dimension}/: {strays}; a test goes to test_<module>.py of the module it is about"
    )
