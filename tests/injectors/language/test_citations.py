"""Tests of injectors.language.citations: a standard number as written, one document under its forms, and
citations wrapped over lines."""

from __future__ import annotations

from injectors.language.citations import find_cited, parse_number, unwrap_citations


def test_numbers_as_written() -> None:
    c = parse_number("GB/T 2423.1—2008")
    assert c is not None and (c.code, c.number, c.year, c.sep) == ("GB/T", "2423.1", "2008", "—")
    hyphen = parse_number("GB 16735-2004")
    assert hyphen is not None and hyphen.year == "2004" and hyphen.wrong_separator
    iso = parse_number("ISO 8601-1:2019")
    assert iso is not None and (iso.number, iso.year, iso.wrong_separator) == ("8601-1", "2019", False)
    assert parse_number("GB/T 32918—2016（所有部分）").all_parts  # type: ignore[union-attr]
    assert [c.ident for c in find_cited("型号ZY100的控制面板，示例：GH01-05，标准HJ 212规定")] == ["HJ 212"]


def test_same_document_ignores_year_part_and_recommendation_mark() -> None:
    a, b = parse_number("GB/T 4208"), parse_number("GB 4208—2017")
    part, series = parse_number("GB/T 19582.2"), parse_number("GB/T 19582（所有部分）")
    assert a and b and part and series
    assert a.same_document(b) and part.same_document(series)
    assert not parse_number("GB/T 2423.1").same_document(parse_number("GB/T 2423.10"))  # type: ignore[union-attr,arg-type]


def test_a_line_break_between_unrelated_numbers_joins_nothing() -> None:
    assert unwrap_citations("采用GB\n2 范围") == "采用GB\n2 范围"
    assert unwrap_citations("见GB/T 1.1\n2 范围") == "见GB/T 1.1\n2 范围"
