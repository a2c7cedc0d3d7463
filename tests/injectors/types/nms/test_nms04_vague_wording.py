"""Tests of NMS-04 模糊或含糊表述 (Vague or hedged wording)."""

from __future__ import annotations

import random
from collections import Counter

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nms.nms04_vague_wording import VagueWording
from parsers.model import Document
from tests.injectors.types.nms.nms_documents import found, standard


def test_vague_wording_found_and_guarded() -> None:
    assert found(standard("柜体尽量采用不锈钢。"), "NMS-04") == ["4.1"]
    assert found(standard("一般情况下，柜门应在30 s内关闭。\n柜体一般由主柜和副柜组成。"), "NMS-04") == []
    assert found(standard("注：柜体一般采用不锈钢。"), "NMS-04") == []  # a note is informative


def test_nms04_draws_the_vague_forms_evenly(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    """原则上 was the form of 9 instances in 11; the taxonomy's forms now occur where
    they fit, none in more than a third of the instances."""
    forms: Counter[str] = Counter()
    for doc in corpus_documents:
        for seed in range(4):
            instance = VagueWording().inject(Baseline(doc), random.Random(f"{seed}:v"), context).instance
            if instance is not None:
                forms[instance.edit.replacements[0].new.removesuffix("不")] += 1
    total = sum(forms.values())
    # 适当 fits only before a verb of degree (增加, 缩短 …), which these clauses seldom have
    assert total >= 30 and {"尽量", "最好", "一般", "原则上"} <= set(forms), forms
    assert max(forms.values()) <= total / 3, forms


def test_nms04_never_blurs_a_describing_ke() -> None:
    """As seen on real standards: a passive such as "格口状态可被平台读取" turning into "原则上被…读取",
    and "柜体可分为两部分" into "最好分为": a passive or a classification after 可 permits nothing, so
    blurring it leaves no provision unclear and reads as nobody writes. Only the permission 可 is a site."""
    context = InjectionContext.from_documents([])

    def ke_lines(document: Document) -> list[str]:
        sites = VagueWording().sites(document, context)
        return [m.line for site in sites for m in site.detail if m.modal.word == "可"]

    assert ke_lines(standard("柜体可分为主柜和副柜两部分。\n所有格口的状态可被管理平台读取。")) == []
    assert ke_lines(standard("柜体可分为主柜和副柜两部分。\n格口可采用不锈钢门板。")) == [
        "格口可采用不锈钢门板。"
    ]


def test_nms04_is_not_mostly_yuanzeshang() -> None:
    """原则上 fits almost any clause, 尽量/最好 only before an action: where the document offers both kinds
    of clause, the clauses where only 原则上 fits are not sites, so 原则上 is drawn as often as the rest."""
    body = (
        "柜门应牢固。\n4.1.1 箱体\n箱体应稳固。\n4.1.2 锁具\n管理员应每日检查柜门锁具。\n"
        "4.1.3 底座\n底座应平稳。\n4.1.4 清洁\n运营方应定期清洁柜体表面。"
    )
    document = standard(body)
    context = InjectionContext.from_documents([document])
    lines = {m.line for s in VagueWording().sites(document, context) for m in s.detail}
    assert lines and all("清洁" in line or "服务电话" in line for line in lines)
    forms = Counter()
    for seed in range(30):
        attempt = VagueWording().inject(Baseline(document), random.Random(seed), context, seed=seed)
        assert attempt.instance is not None
        forms[attempt.instance.provenance.form] += 1
    assert forms["原则上"] <= 0.4 * sum(forms.values()), forms


def test_nms04_urges_no_choice_between_alternatives() -> None:
    """ "可自动锁闭或手动锁闭" permits either: "尽量自动锁闭或手动锁闭" would urge both at once, as no drafter
    writes (seen on a real standard). A permission without alternatives takes 尽量/最好 as before."""
    context = InjectionContext.from_documents([])

    def words(body: str) -> set[str]:
        """The words that took the place of 可 in the clause `body` (the fixture has other clauses)."""
        doc = standard(body)
        out = set()
        for seed in range(12):
            instance = VagueWording().inject(Baseline(doc), random.Random(f"{seed}:v"), context).instance
            if (
                instance is not None
                and instance.corrupted_section is not None
                and (
                    "自动锁闭" in instance.corrupted_section.text
                    and "柜门可" not in instance.corrupted_section.text
                )
            ):
                out.add(instance.edit.replacements[0].new)
        return out

    choice = words("柜门可自动锁闭或手动锁闭。")
    assert not choice & {"尽量", "最好"}, choice
    assert words("柜门可自动锁闭。") & {"尽量", "最好"}


def test_nms04_never_blurs_a_ke_that_says_what_a_thing_may_hold() -> None:
    """ "同一用户可同时拥有多个账号", "记录还可包括备注": 可 says what a thing may hold, and "原则上同时拥有",
    "尽量包括" read as nobody writes (seen on real standards). A permission to act stays a site."""
    context = InjectionContext.from_documents([])

    def ke_lines(document: Document) -> list[str]:
        sites = VagueWording().sites(document, context)
        return [m.line for site in sites for m in site.detail if m.modal.word == "可"]

    assert ke_lines(standard("同一用户可同时拥有多个取件账号。\n取件记录还可包括备注。")) == []
    assert ke_lines(standard("同一用户可同时在不同站点中拥有取件账号。")) == []
    assert ke_lines(standard("同一用户可同时拥有多个取件账号。\n格口可采用不锈钢门板。")) == [
        "格口可采用不锈钢门板。"
    ]
