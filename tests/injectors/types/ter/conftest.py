"""Fixtures shared by several test modules of the TER dimension."""

from __future__ import annotations

import pytest

from injectors.base import Injector
from injectors.context import InjectionContext
from injectors.registry import injectors
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import TER_TYPES


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


@pytest.fixture(scope="module")
def ter_injectors() -> dict[str, Injector]:
    available = injectors()
    return {t: available[t] for t in TER_TYPES}
