"""Tests of SCP-02 范围表述格式不规范 (Scope formula broken)."""

from __future__ import annotations

from collections import Counter

import pytest

from injectors.checking import lint
from injectors.language.words import boundaries
from tests.injectors.types.scp.scp_documents import (
    CABINET_BODY,
    CABINET_SCOPE,
    POST_SCOPE,
    alone_instances,
    charger_standard,
    instances,
    scope_findings,
    scope_standard,
    shows,
    standard,
)


def test_missing_applicability_statement_is_reported() -> None:
    doc = scope_standard("本文件规定了社区共享工具柜的技术要求和试验方法。\n本文件不适用于快递柜。")
    assert scope_findings(doc) == [("1", "SCP-02")]
    assert "本文件适用于" in lint(doc, ["SCP-02"])[0].message


@pytest.mark.parametrize("verb", ["主要介绍了", "阐述了", "讲述了", "介绍了"])
def test_textbook_verb_in_scope_is_reported(verb: str) -> None:
    doc = scope_standard(f"本文件{verb}社区共享工具柜的技术要求。\n本文件适用于社区内设置的共享工具柜。")
    found = lint(doc, ["SCP-02"])
    assert [(v.location, v.error_type) for v in found] == [("1", "SCP-02")]
    assert verb in found[0].message


def test_textbook_verb_after_a_comma_is_reported() -> None:
    doc = scope_standard(
        "本文件规定了工具柜的技术要求，阐述了试验方法。\n本文件适用于社区内设置的共享工具柜。"
    )
    assert scope_findings(doc) == [("1", "SCP-02")]


def test_scp02_draws_official_prose_verbs_and_the_purpose_formula_and_each_is_reported() -> None:
    document = charger_standard(POST_SCOPE)
    found = alone_instances("SCP-02", document, seeds=80)
    forms = Counter(i.provenance.form for i in found)
    assert {"提出了", "明确了", "旨在规范"} <= set(forms), forms
    assert max(forms.values()) <= 0.4 * len(found), forms
    for instance in found:
        assert shows(instance, document), instance.description
    purpose = charger_standard(POST_SCOPE.replace("本文件规定了", "本文件旨在规范"))
    assert any("旨在" in v.message for v in lint(purpose, ["SCP-02"]))


def test_scp02_puts_no_adverb_before_a_verb_of_official_prose() -> None:
    """ "主要介绍了", "简要概述了" are what drafters write; "着重涵盖了", "重点明确了" read as planted (seen
    on a real standard): 提出了, 明确了 and 涵盖了 come alone."""
    document = charger_standard(POST_SCOPE)
    new = [i.edit.replacements[0].new for i in alone_instances("SCP-02", document, seeds=80)]
    official = [w for w in new if w.endswith(("提出了", "明确了", "涵盖了"))]
    assert official and all(w in ("提出了", "明确了", "涵盖了") for w in official), official
    assert any(w != v and w.endswith(v) for w in new for v in ("介绍了", "阐述了", "概述了", "论述了")), new


def test_scp02_uses_more_than_one_nonstandard_verb() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    found = [i for i in instances("SCP-02", document, seeds=20) if i.edit.replacements[0].new]
    verbs = Counter(i.edit.replacements[0].new for i in found)
    assert len(verbs) >= 5
    assert max(verbs.values()) <= 0.35 * len(found)


def test_scp02_passive_formula_is_reported_and_built() -> None:
    clean = standard(CABINET_SCOPE, CABINET_BODY)
    assert not lint(clean, ["SCP-02"])
    passive = standard(
        CABINET_SCOPE.replace(
            "规定了社区共享工具柜的柜体结构、门锁和电气安全要求",
            "对社区共享工具柜的柜体结构、门锁和电气安全要求作了规定",
        ),
        CABINET_BODY,
    )
    (found,) = lint(passive, ["SCP-02"])
    assert "对……作了规定" in found.message
    forms = {
        i.edit.replacements[0].new[:1]
        for i in instances("SCP-02", clean, seeds=30)
        if i.edit.replacements[0].new
    }
    assert "对" in forms  # the passive form is among the variants
    for instance in instances("SCP-02", clean, seeds=30):
        new = instance.edit.replacements[0].new
        if new.startswith("对"):
            assert new.endswith("规定") and new[1:-4] in instance.description


def test_scp02_quotes_the_scope_in_whole_words() -> None:
    scope = "本文件规定了公共图书馆数字资源长期保存的技术要求。\n本文件适用于公共图书馆数字资源的长期保存。"
    document = standard(scope, CABINET_BODY, "公共图书馆 数字资源 长期保存")
    for instance in instances("SCP-02", document, seeds=12):
        if "写成了" in instance.description and "作了规定" not in instance.description:
            quoted = instance.description.split("将“", 1)[1].split("……”", 1)[0]
            line = scope.split("\n")[0]
            assert line.startswith(quoted), quoted
            assert len(quoted) in boundaries(line), quoted  # ends on a word edge ("数字资" does not)
            assert len(quoted) > len("本文件规定了")
