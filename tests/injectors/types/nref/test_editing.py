"""Tests of injectors.types.nref.editing: the words a description quotes around a citation, why a type has
no site in a list, and an entry inserted where the list's order stays as it was."""

from __future__ import annotations

from injectors.base import Site
from injectors.edit import apply_replacements
from injectors.language.citations import parse_number
from injectors.types.nref.analysis import analyse, list_items, order_problem
from injectors.types.nref.editing import Candidate, inserted_entry, list_reason, snippet
from parsers.model import Document
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    GB2423,
    GB4208,
    ISO8601,
    LEAD_2020,
    standard,
)


def test_a_snippet_stays_in_its_sentence_and_keeps_a_standard_number_whole() -> None:
    text = (
        "外壳的防护等级应符合GB/T 4208—2017的规定。"
        "低温试验按照 GB/T 2423.1—2008 中试验Ab的方法进行，试验结束后传感器应能正常工作并保持原有的测量精度。"
    )
    at = text.index("2423.1")
    quoted = snippet(text, at, at + len("2423.1"))
    assert "GB/T 2423.1—2008" in quoted and "。" not in quoted and "4208" not in quoted
    assert quoted.endswith("…")  # cut inside the sentence, and says so


def test_a_snippet_never_holds_half_of_a_quotation_mark_pair() -> None:
    """The description quotes the snippet in “…”: a quotation mark of the text inside it, its pair cut
    off, reads as a broken quote ("…编码结束符“…")."""
    text = "雨量记录的编码按GB/T 39871—2019执行，但报文结束符“ZZ”应省略，其余字段按附录B填写。"
    at = text.index("GB/T 39871")
    quoted = snippet(text, at, at + len("GB/T 39871—2019"))
    assert "GB/T 39871—2019" in quoted and "“" not in quoted and "”" not in quoted, quoted
    inside = "标志应符合“GB/T 191—2008 包装储运图示标志”的规定。"
    at = inside.index("GB/T 191")
    assert snippet(inside, at, at + len("GB/T 191—2008")).strip("…") == "GB/T 191—2008 包装储运图示标志"


def test_the_reason_a_list_type_has_no_site() -> None:
    document = standard(CLEAN_REFERENCES, CLEAN_BODY)
    a = analyse(document)
    assert list_reason(document, a, True, "other") == "already_in_original"
    assert list_reason(document, a, False, "other") == "other"
    no_list = standard("", CLEAN_BODY)
    assert list_reason(no_list, analyse(no_list), False, "other") == "no_reference_list"


def test_an_entry_is_inserted_where_the_list_stays_in_order() -> None:
    document = standard(CLEAN_REFERENCES, CLEAN_BODY)
    a = analyse(document)
    assert a.list_target is not None
    site = Site(a.list_target, Candidate(parse_number("GB/T 191—2008"), "包装储运图示标志"))  # type: ignore[arg-type]
    inserted = inserted_entry(document, site)
    assert inserted is not None
    section, replacement, line = inserted
    assert line == "GB/T 191—2008\u3000包装储运图示标志"  # the list's own gap between number and title
    after = list_items(apply_replacements(section, [replacement]))
    assert [i.cited.ident for i in after] == ["GB 4208", "GB/T 191", "GB/T 2423.1", "ISO 8601-1"]
    assert order_problem([i.cited for i in after]) is None


def test_no_entry_is_inserted_above_the_lead_in_sentence() -> None:
    """A damaged source printed its first entry above the lead-in: a new entry that sorts before it would
    go there too, a second, unstated fault; it is not offered. The same entry is inserted first in the
    list where the lead-in comes first."""
    site_entry = Candidate(parse_number("GB 2894—2008"), "安全标志及其使用导则")  # type: ignore[arg-type]

    def inserted(document: Document) -> tuple | None:
        a = analyse(document)
        assert a.list_target is not None
        return inserted_entry(document, Site(a.list_target, site_entry))

    found = inserted(standard(CLEAN_REFERENCES, CLEAN_BODY))
    assert found is not None and found[1].start == found[0].text.index("GB 4208")  # first, after the lead-in
    stray = standard(f"{GB2423}\n{ISO8601}", CLEAN_BODY, lead_in=f"{GB4208}\n{LEAD_2020}")
    assert inserted(stray) is None
