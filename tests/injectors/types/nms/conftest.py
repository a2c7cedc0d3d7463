"""Fixtures shared by several test modules of the NMS dimension."""

from __future__ import annotations

import pytest

from injectors.context import InjectionContext
from parsers.model import Document


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)
