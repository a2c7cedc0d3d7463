"""Tests of injectors.types.ter.editing: the TER injectors' shared helpers (near synonyms, initials, a
borrowed term at home in a document)."""

from __future__ import annotations

import regex

from injectors.language.terms import term_variants, words
from injectors.types.ter.editing import at_home, initials, near_synonyms, vocabulary
from injectors.types.ter.lexicon import term_like
from parsers.model import Document


def test_a_term_of_the_same_broad_field_is_not_borrowed(corpus_documents: list[Document]) -> None:
    """ICS 35 holds ledgers and environmental data alike: a document of the same broad field lends no
    term, even one made of this document's own words; only one of the same narrow field does, and then
    only a term-like one of its words ("共识节点" never for a document that never says 共识)."""
    from injectors.context import CorpusTerm, field_of
    from parsers.entries import TermEntry

    doc = corpus_documents[0]
    vocab = vocabulary(doc)
    field = field_of(doc.cover.ics, doc.cover.ccs)
    subgroup = doc.cover.ics.rsplit(".", 1)[0] + ".99"
    assert "共识" not in vocab
    ledger = TermEntry("3.9", "共识节点", "consensus node", "负责账本数据一致性的节点。")
    assert at_home(doc, CorpusTerm("other", ledger, field, doc.cover.ics, doc.cover.ccs), vocab) is None
    own = [w for w in sorted(vocab) if len(w) >= 2 and regex.fullmatch(r"\p{Han}+", w)]
    term = next(
        a + b for a in own for b in own if a != b and term_like(a + b) and tuple(words(a + b)) == (a, b)
    )
    entry = TermEntry("3.9", term, "", f"{term}是{''.join(own[:6])}。")
    broad = CorpusTerm("other", entry, field, subgroup, "")
    assert at_home(doc, broad, vocab) is None
    narrow = CorpusTerm("other", entry, field, doc.cover.ics, doc.cover.ccs)
    assert at_home(doc, narrow, vocab) is not None


def test_term_variants_and_helpers() -> None:
    assert "杂凑函数" in term_variants("散列/杂凑函数") and "散列函数" in term_variants("散列/杂凑函数")
    assert "在线监控设备" in term_variants("在线监控（监测）设备")
    assert initials("greenhouse environment monitoring system") == "GEMS"
    assert initials("obligation") == ""
    assert "帧编号" in near_synonyms("帧序号", set())
    # words that name another concept in standards are no synonyms (TER-03's variant is natural)
    assert near_synonyms("数据帧", set()) == ()
    assert not {"环境监测平台", "数据采样周期"} & set(
        near_synonyms("环境监测系统", set()) + near_synonyms("数据采集周期", set())
    )
    assert "样时间" not in near_synonyms("出样时间", set())
    assert near_synonyms("温度记录仪", {"温度记录仪", "记录仪"}) == ("温度记录器",)


def test_a_term_built_on_another_defined_term_keeps_its_near_synonyms() -> None:
    """ "标定数据" is defined, and "标定数据元素" rests on it: the variant "标定数据要素" brings in no other
    concept, so it stays; a variant that writes another defined term the original lacks does not."""
    assert "标定数据要素" in near_synonyms("标定数据元素", {"标定数据元素", "标定数据"})
    assert near_synonyms("采样装置", {"采样装置", "采样设备"}) == ()


def test_a_moment_is_written_时刻_but_a_duration_never_is() -> None:
    """Drafters write "开始时刻" for "开始时间" (both a moment), never "响应时刻" for a duration."""
    assert "采样开始时刻" in near_synonyms("采样开始时间", set())
    assert not [s for s in near_synonyms("仪器响应时间", set()) if "时刻" in s]
    assert "数据提供方" in near_synonyms("数据提供者", set())
    assert "云存储服务提供商" in near_synonyms("云存储服务商", set())


def test_a_dropped_qualifier_leaves_a_compound() -> None:
    """ "检票口显示屏" → "显示屏" leaves one general word, the kind of thing, not a slip on the term; a
    compound left ("网络区域边界" → "区域边界") is one."""
    assert "显示屏" not in near_synonyms("检票口显示屏", set())
    assert "区域边界" in near_synonyms("网络区域边界", set())
