"""Tests of injectors.types.str.editing: the block a section heads, where an element's chapter is, and how
the sites of each form are thinned out evenly."""

from __future__ import annotations

from injectors.base import Site
from injectors.types.str.editing import block_end, chapter_at, numbers_captions_by_chapter, spread_per_form
from tests.injectors.types.str.str_documents import BY_CHAPTER, SAMPLE, parse


def test_a_block_ends_after_the_last_section_under_its_head() -> None:
    document = parse(SAMPLE)
    numbers = [s.number for s in document.sections]
    assert numbers[block_end(document, numbers.index("3")) - 1] == "3.1"  # the term entries go with chapter 3
    assert numbers[block_end(document, numbers.index("4")) - 1] == "4.3"
    assert numbers[block_end(document, numbers.index("附录A")) - 1] == "A.2"  # A.1, A.2 go with 附录A
    assert block_end(document, numbers.index("4.2")) == numbers.index("4.3")  # a leaf is its own block


def test_a_chapter_is_found_only_as_the_element_of_its_kind() -> None:
    document = parse(SAMPLE)
    assert chapter_at(document, "3", "terms") == [s.number for s in document.sections].index("3")
    assert chapter_at(document, "3", "scope") is None
    assert chapter_at(document, "3.1", "terms") is None  # an entry, not the chapter


def test_each_form_keeps_at_most_its_share_of_sites_spread_through_the_document() -> None:
    sites = [Site(k, ("last", k)) for k in range(10)] + [Site(20, ("gap", 20))]
    kept = spread_per_form(sites, 2)
    assert [s.target for s in kept if s.detail[0] == "last"] == [
        2,
        7,
    ]  # one from each half, not the first two
    assert [s.target for s in kept if s.detail[0] == "gap"] == [20]
    assert spread_per_form(sites, 20) == sites


def test_a_chapter_that_numbers_its_tables_by_chapter_is_told_apart() -> None:
    document = parse(BY_CHAPTER)
    assert numbers_captions_by_chapter(document, {"5"})
    assert not numbers_captions_by_chapter(document, {"4"})
    assert not numbers_captions_by_chapter(parse(SAMPLE), {"4", "5"})  # 表A.1 is an annex's own numbering
