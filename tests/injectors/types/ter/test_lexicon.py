"""Tests of injectors.types.ter.lexicon: what is a term-like phrase, and which documents share a narrow
field."""

from __future__ import annotations

import pytest

from injectors.types.ter.lexicon import same_lexicon, term_like


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("综合系统", False),  # a generic qualifier on a generic head
        ("数据资源", False),
        ("相关要求", False),
        ("有关信息", False),
        ("标准问", False),  # a generic word and a one-character one
        ("电池单体", True),
        ("记录间隔", True),
        ("采样流量", True),
        ("电池管理系统", True),  # a generic head with a technical qualifier of several characters
    ],
)
def test_term_like(term: str, expected: bool) -> None:
    assert term_like(term) is expected


def test_a_narrow_field_is_an_ics_subgroup_or_a_ccs_class() -> None:
    assert same_lexicon("35.240.40", "", "35.240.40", "L 67")
    assert same_lexicon("13.040", "Z 15", "13.030", "Z15")  # the same CCS class
    assert not same_lexicon("35.240", "L 67", "35.240.01", "")  # ICS 35.240 and no class: too broad
    assert not same_lexicon("35.240.40", "A 11", "35.240.40", "L 67")  # the categories differ
    assert not same_lexicon("", "", "", "")
