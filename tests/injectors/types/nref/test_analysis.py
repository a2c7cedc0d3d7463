"""Tests of injectors.types.nref.analysis: the reading of the references list and of citations (list order,
a citation wrapped over two lines)."""

from __future__ import annotations

import pytest

from injectors.language.citations import parse_number
from injectors.types.nref.analysis import analyse, order_problem
from tests.injectors.types.nref.nref_documents import RAIN_LIST, found, standard, with_future


def test_order_accepts_both_real_conventions_and_rejects_breaks() -> None:
    def problem(*numbers: str) -> tuple[int, int] | None:
        return order_problem([parse_number(n) for n in numbers])  # type: ignore[misc]

    assert problem("GB 4208", "GB 4943.1", "GB/T 191", "GB/T 2423.1") is None  # GB first, then GB/T
    assert problem("GB/T 2423.1", "GB/T 2423.2", "GB 4208", "GB/T 17626.2") is None  # interleaved by number
    assert problem("GB/T 2423.2", "GB/T 2423.10") is None  # numerically, not as strings
    assert problem("GB/T 191", "GA 36", "JT/T 794", "T/CESA 12", "ISO 8601-1") is None
    assert problem("GB/T 5000", "GB 4208") == (0, 1)
    assert problem("ISO 8601-1", "GB/T 191") == (0, 1)
    assert problem("JT/T 808", "JT/T 1078", "JT/T 883") == (1, 2)


@pytest.mark.parametrize(
    "body",
    [
        "4.1 低温\n传感器应按GB/T\n2423.1—2008的规定进行低温试验。",
        "4.1 低温\n传感器应按 GB/T 2423.1\n—2008 的规定进行低温试验。",
        "4.1 低温\n传感器应符合 GB/T 2423.1—\n2008 的规定。",
    ],
)
def test_a_citation_wrapped_over_two_lines_is_cited(body: str) -> None:
    """The citation "应按GB/T⏎2423.1—2008的规定" cites the listed document (PDF line breaks)."""
    doc = standard(RAIN_LIST, body)
    assert found(doc, "NREF-02") == []
    cited = parse_number("GB/T 2423.1")
    assert cited is not None
    uses = analyse(doc).uses_of(cited)
    assert [u.role for u in uses] == ["normative"]


def test_a_reference_dated_after_the_document_is_impossible() -> None:
    a = analyse(with_future())
    assert [i.cited.ident for i in a.items if a.impossible(i.cited)] == ["GB/T 39871"]
    b = analyse(with_future("2019"))
    assert not any(b.impossible(i.cited) for i in b.items)
